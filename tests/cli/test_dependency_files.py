"""TX901 on dependency files: discovery, exact positions, suppression, and Python files left as they were."""

from __future__ import annotations

import json

import pytest
from xlalens.analyzers.api import check_source
from xlalens.analyzers.inputs.dependency_files import is_dependency_file

REQUIREMENTS = """\
# TPU training
numpy>=1.26
torch==2.8.0
torch_xla[tpu]==2.9.0 ; sys_platform == "linux"
-f https://storage.example.org/libtpu-releases/index.html
"""

PYPROJECT = """\
[project]
name = "trainer"
dependencies = ["torch==2.9.0", "numpy"]

[project.optional-dependencies]
tpu = [
    "torch-xla~=2.8.1",
]

[tool.xlalens]
select = ["TX"]
"""

SETUP_CFG = """\
[metadata]
name = trainer

[options]
install_requires =
    torch>=2.8,<2.9
    numpy

[options.extras_require]
tpu = torch_xla==2.9.0
"""


def _found(text: str, path: str) -> list[tuple[int, int, int, str]]:
    return [(d.line, d.column, d.range.end.column, d.code) for d in check_source(text, path)]


def test_requirements_file_points_at_the_torch_xla_requirement() -> None:
    assert _found(REQUIREMENTS, "requirements-tpu.txt") == [(4, 0, 47, "TX901")]
    diagnostic = check_source(REQUIREMENTS, "requirements-tpu.txt")[0]
    assert "torch_xla 2.9 is pinned with torch 2.8" in diagnostic.message
    assert "torch 2.9.x with torch_xla 2.9.x" in diagnostic.detail
    assert diagnostic.related[0].range.start.line == 3


def test_pyproject_compares_dependencies_with_optional_dependencies() -> None:
    assert _found(PYPROJECT, "pyproject.toml") == [(7, 5, 21, "TX901")]


def test_setup_cfg_reads_continuation_lines_and_extras() -> None:
    assert _found(SETUP_CFG, "setup.cfg") == [(10, 6, 22, "TX901")]


@pytest.mark.parametrize(
    "text",
    [
        "torch==2.9.0\ntorch_xla==2.9.0\n",
        "torch>=2.8\ntorch_xla==2.9.0\n",  # an open range allows 2.9 too
        "torch_xla==2.9.0\n",
        "torch==2.8.0\ntorch-xla==2.9.0  # noqa: TX901\n",
        "torch==2.8.0\n",
    ],
)
def test_matching_open_or_suppressed_pins_are_clean(text: str) -> None:
    assert check_source(text, "requirements.txt") == []


def test_python_files_keep_the_python_pipeline() -> None:
    # The same text in a .py file is not a requirements file: no TX901, no syntax error either.
    assert check_source("import torch_xla\nx = 'torch==2.8.0'\n", "requirements.py") == []
    assert [d.code for d in check_source("torch==2.8.0\ntorch_xla==2.9.0\n", "deps.py")] == ["E999"]


def test_names() -> None:
    assert is_dependency_file("sub/requirements/tpu.txt")
    assert not is_dependency_file("notes/requirements.md")
    assert not is_dependency_file("pyproject.toml.bak")


def test_check_discovers_dependency_files(project) -> None:
    project.write("requirements.txt", REQUIREMENTS)
    project.write("pyproject.toml", PYPROJECT)
    project.write("train.py", "import torch_xla\n")
    project.write("notes.txt", "torch==2.8.0\ntorch_xla==2.9.0\n")
    shown = project.run("check", "--show-files", "--no-cache")
    names = sorted(line.rsplit("/", 1)[-1] for line in shown.stdout.splitlines())
    assert names == ["pyproject.toml", "requirements.txt", "train.py"]
    result = project.run("check", "--no-cache", "--output-format", "json")
    assert result.returncode == 1, result.stderr
    found = sorted(
        (item["filename"].rsplit("/", 1)[-1], item["location"]["row"], item["location"]["column"], item["code"])
        for item in json.loads(result.stdout)
    )
    assert found == [("pyproject.toml", 7, 6, "TX901"), ("requirements.txt", 4, 1, "TX901")]
