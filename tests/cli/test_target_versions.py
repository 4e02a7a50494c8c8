"""The release the upgrade rules judge against: ``jax-version``/``torch-xla-version``, else the project's pins.

An old spelling is an error once the target release removed it, a warning while it is only
deprecated, and nothing before; the target comes from the configuration, else from the newest
release the checked project's dependency files allow, else from the newest release the rules know.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from xlalens.analyzers.api import check_source
from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.inputs.dependency_files import highest_allowed
from xlalens.analyzers.project.config import ConfigError, SettingsResolver, load_config
from xlalens.analyzers.project.pins import pins_in_directory

TREE_MAP = "import jax\n\nscaled = jax.tree_map(lambda p: p * 2, {'w': 1.0})\n"
"""``jax.tree_map``: deprecated in JAX 0.4.26, removed in 0.6.0 (JX701)."""

MARK_STEP = "import torch_xla.core.xla_model as xm\n\nxm.mark_step()\n"
"""``xm.mark_step``: deprecated in torch_xla 2.8, not removed (TX701)."""


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _severity(code: str, text: str, settings: Settings) -> Severity | None:
    found = [d.severity for d in check_source(text, "m.py", settings) if d.code == code]
    assert len(found) <= 1
    return found[0] if found else None


@pytest.mark.parametrize(
    ("version", "expected"),
    [("0.4.25", None), ("0.4.26", Severity.WARNING), ("0.5.3", Severity.WARNING), ("0.6.0", Severity.ERROR)],
)
def test_the_target_release_decides_error_warning_or_nothing(version: str, expected: Severity | None) -> None:
    assert _severity("JX701", TREE_MAP, Settings(jax_version=version)) is expected


def test_without_a_target_the_newest_known_release_decides() -> None:
    assert _severity("JX701", TREE_MAP, Settings()) is Severity.ERROR
    assert _severity("TX701", MARK_STEP, Settings()) is Severity.WARNING
    assert _severity("TX701", MARK_STEP, Settings(torch_xla_version="2.7")) is None


def test_the_message_names_the_releases() -> None:
    [finding] = [d for d in check_source(TREE_MAP, "m.py", Settings(jax_version="0.5.0")) if d.code == "JX701"]
    assert finding.message == "`jax.tree_map` deprecated since JAX 0.4.26; use `jax.tree.map`"
    assert finding.detail == "Deprecated since JAX 0.4.26: a warning on JAX 0.5.0; removed in 0.6.0."


def test_the_fix_uses_the_compatible_spelling_before_the_new_one_exists() -> None:
    # jax.tree arrived in 0.4.25; tree_flatten warned since 0.3.15, so a 0.4.20 project needs tree_util.
    text = "import jax\n\nleaves, treedef = jax.tree_flatten([1, 2])\n"
    [finding] = [d for d in check_source(text, "m.py", Settings(jax_version="0.4.20")) if d.code == "JX701"]
    assert finding.fix is not None and [e.content for e in finding.fix.edits] == ["jax.tree_util.tree_flatten"]


def test_config_keys_are_read_and_normalized(tmp_path: Path) -> None:
    file = _write(tmp_path / "xlalens.toml", 'jax-version = "v0.4.30"\ntorch-xla-version = "2.5"\n')
    settings = load_config(file)
    assert (settings.jax_version, settings.torch_xla_version) == ("0.4.30", "2.5")


@pytest.mark.parametrize("value", ["0.4", "true", '"latest"', '"4"', "[]"])
def test_a_release_must_be_a_quoted_version(tmp_path: Path, value: str) -> None:
    file = _write(tmp_path / "xlalens.toml", f"jax-version = {value}\n")
    with pytest.raises(
        ConfigError, match=re.escape('`jax-version` must be a release number in quotes, such as "0.4.30"')
    ):
        load_config(file)


def test_an_unknown_key_lists_the_version_keys(tmp_path: Path) -> None:
    file = _write(tmp_path / "xlalens.toml", 'jax_version = "0.4.30"\n')
    with pytest.raises(ConfigError, match=r"valid keys are: .*jax-version.*torch-xla-version"):
        load_config(file)


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        ("==0.4.30", (0, 4, 30)),
        (">=0.4.20,<0.5", (0, 4, 9999)),
        ("<0.4.31", (0, 4, 30, 9999)),
        ("~=2.5.0", (2, 5, 9999)),
        ("==2.9.*", (2, 9, 9999)),
        (">=0.4.30", None),
        ("", None),
    ],
)
def test_the_newest_release_a_specifier_allows(specifier: str, expected: tuple[int, ...] | None) -> None:
    assert highest_allowed(specifier) == expected


def test_pins_come_from_pyproject_requirements_and_setup_cfg(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", '[project]\nname = "m"\ndependencies = ["jax[tpu]==0.4.30", "numpy"]\n')
    _write(tmp_path / "requirements-tpu.txt", "torch_xla[tpu]~=2.5.0  # the TPU image\n")
    assert pins_in_directory(str(tmp_path)) == {"jax": (0, 4, 30), "torch-xla": (2, 5, 9999)}
    other = tmp_path / "other"
    _write(other / "setup.cfg", "[options]\ninstall_requires =\n    jax>=0.4.20,<0.5\n")
    assert pins_in_directory(str(other)) == {"jax": (0, 4, 9999)}


def test_an_unbounded_requirement_pins_nothing(tmp_path: Path) -> None:
    _write(tmp_path / "requirements.txt", "jax>=0.4.30\n")
    _write(tmp_path / "requirements-dev.txt", "jax==0.4.30\n")
    assert pins_in_directory(str(tmp_path)) == {"jax": None}


def test_the_resolver_fills_unset_releases_from_the_nearest_pins(tmp_path: Path) -> None:
    _write(tmp_path / ".git" / "HEAD", "ref: refs/heads/main\n")
    _write(tmp_path / "requirements.txt", "jax==0.5.0\ntorch-xla==2.9.0\n")
    _write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "s"\ndependencies = ["jax==0.4.20"]\n')
    (tmp_path / "sub" / "pkg").mkdir(parents=True)
    resolver = SettingsResolver(tmp_path)
    top = resolver.for_directory(tmp_path)
    assert (top.jax_version, top.torch_xla_version) == ("0.5.0", "2.9.0")
    nested = resolver.for_path(tmp_path / "sub" / "pkg" / "m.py")
    assert (nested.jax_version, nested.torch_xla_version) == ("0.4.20", "2.9.0")
    assert resolver.for_directory(tmp_path / "sub" / "pkg") is nested


def test_the_configuration_wins_over_the_pins(tmp_path: Path) -> None:
    _write(tmp_path / ".git" / "HEAD", "ref: refs/heads/main\n")
    _write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "m"\ndependencies = ["jax==0.4.20"]\n\n[tool.xlalens]\njax-version = "0.6.0"\n',
    )
    assert SettingsResolver(tmp_path).for_directory(tmp_path).jax_version == "0.6.0"


def test_pins_stop_at_the_repository_root(tmp_path: Path) -> None:
    _write(tmp_path / "requirements.txt", "jax==0.4.20\n")
    repo = tmp_path / "repo"
    _write(repo / ".git" / "HEAD", "ref: refs/heads/main\n")
    assert SettingsResolver(repo).for_directory(repo).jax_version is None


def test_xlalens_check_reads_the_projects_pin(project) -> None:  # type: ignore[no-untyped-def]
    project.write("requirements.txt", "jax==0.5.0\n")
    project.write("pkg/m.py", TREE_MAP)
    result = project.run("check", "--select", "JX7", "--output-format", "json", "pkg")
    [finding] = json.loads(result.stdout)
    assert finding["code"] == "JX701" and "a warning on JAX 0.5.0" in finding["detail"]
