"""The Python the static copy runs in the browser: written by the export, closed under import, same JSON as the server.

The copy's calculator script (``static/calculator.js``) loads the archive into Pyodide and calls
``calc_api.answer_json``; here the archive runs in a fresh interpreter that sees nothing but the
standard library and the archive's files, as Pyodide does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from xlalens.explainers.calc_api import answer_json
from xlalens.explainers.calculators import all_calculators
from xlalens.explainers.export import (
    BROWSER_MODULE,
    PYODIDE_VERSION,
    PYTHON_ARCHIVE,
    browser_sources,
    export_site,
    python_archive,
)
from xlalens.explainers.web import STATIC_FILES, ExplainerApp

ROOT = Path(__file__).resolve().parents[2]

REQUESTS: list[tuple[str, dict[str, str]]] = [
    *((calculator.name, dict(example)) for calculator in all_calculators() for example in calculator.examples),
    ("blockspec", {"array": "1000,abc", "block": "192,128"}),
    ("blockspec", {"array": "1000,512", "block": "200,128", "dtype": "bfloat16", "tpu": "v5e"}),
    ("shard-shape", {"mesh": "x:4,y:2", "shape": "6,4", "spec": "x,y"}),
    ("shard-shape", {"mesh": "x:4", "shape": "8", "spec": "x", "nonsense": "1"}),
    ("no-such-calculator", {}),
]
"""Every calculator's examples, bad input, and a calculator that does not exist."""

# Run with -I -S: no site-packages, no editable install, no current directory on sys.path; the
# archive's folder is the only place xlalens can come from, as in Pyodide.
_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from xlalens.explainers.calc_api import answer_json
answers = [json.loads(answer_json(name, json.dumps(query))) for name, query in json.loads(sys.stdin.read())]
modules = {name: getattr(module, "__file__", None) for name, module in sys.modules.items()}
print(json.dumps({"answers": answers, "modules": modules}))
"""


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The archive an export writes, unpacked as the page script unpacks it into Pyodide's file system."""
    site = tmp_path_factory.mktemp("site")
    written = export_site(site, ())
    assert site / PYTHON_ARCHIVE in written
    folder = tmp_path_factory.mktemp("py")
    with zipfile.ZipFile(site / PYTHON_ARCHIVE) as archive:
        archive.extractall(folder)
    return folder


@pytest.fixture(scope="module")
def probe(unpacked: Path) -> dict[str, Any]:
    """What the archive answers to :data:`REQUESTS` in a bare interpreter, and the modules it imported."""
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _PROBE, str(unpacked)],
        input=json.dumps(REQUESTS),
        capture_output=True,
        text=True,
        check=False,
        cwd=unpacked.parent,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_archive_holds_the_calculator_package_and_the_entry_module(unpacked: Path) -> None:
    names = {path.relative_to(unpacked).as_posix() for path in unpacked.rglob("*") if path.is_file()}
    assert names == set(browser_sources())
    package = ROOT / "explainers" / "calculators"
    expected = {
        f"xlalens/explainers/calculators/{path.relative_to(package).as_posix()}" for path in package.rglob("*.py")
    }
    assert expected <= names, "every file of the calculator package is copied, new calculators included"
    assert {"xlalens/explainers/__init__.py", BROWSER_MODULE.replace(".", "/") + ".py"} <= names
    for name in names:
        source = ROOT / Path(name).relative_to("xlalens")
        assert (unpacked / name).read_bytes() == source.read_bytes(), f"{name} differs from the checkout"


def test_the_archive_is_the_same_bytes_for_the_same_sources() -> None:
    assert python_archive() == python_archive()


def test_the_archive_imports_only_itself_and_the_standard_library(probe: dict[str, Any], unpacked: Path) -> None:
    outside = []
    for name, file in probe["modules"].items():
        if name.partition(".")[0] == "xlalens":
            if file is not None and not Path(file).is_relative_to(unpacked):
                outside.append(f"{name} from {file}")
        elif name.partition(".")[0] not in sys.stdlib_module_names and name != "__main__":
            outside.append(name)
    assert not outside, f"the browser copy needs modules it does not hold: {outside}"
    loaded = {name for name in probe["modules"] if name.startswith("xlalens.explainers.calculators.")}
    assert len(loaded) >= len(list(all_calculators())), "every calculator module was imported"


def test_the_browser_entry_point_answers_what_the_server_answers(probe: dict[str, Any]) -> None:
    app = ExplainerApp(rules=())
    for (name, query), browser in zip(REQUESTS, probe["answers"], strict=True):
        response = app.handle(f"/api/calc/{name}?{urlencode(query)}")
        assert browser["status"] == response.status, (name, query)
        assert browser["body"] == json.loads(response.body), (name, query)
        assert json.loads(answer_json(name, json.dumps(query))) == browser, "the checkout and the archive agree"
    statuses = {answer["status"] for answer in probe["answers"]}
    assert statuses == {200, 400, 404}


@pytest.mark.parametrize("query_json", ["not json", "[1, 2]", '{"array": 1000}', "null"])
def test_the_entry_point_refuses_a_query_that_is_not_an_object_of_strings(query_json: str) -> None:
    answer = json.loads(answer_json("blockspec", query_json))
    assert answer["status"] == 400 and answer["body"]["field"] == "blockspec"


def test_the_page_script_loads_this_archive_and_calls_this_module() -> None:
    script = (ROOT / "explainers" / "static" / "calculator.js").read_text(encoding="utf-8")
    assert "calculator.js" in STATIC_FILES and PYTHON_ARCHIVE.startswith("static/")
    assert f'"{PYTHON_ARCHIVE.removeprefix("static/")}"' in script, "the script finds the archive next to itself"
    assert f'pyimport("{BROWSER_MODULE}").answer_json' in script
    # What the reader typed reaches Python as an argument, never as source text to run.
    assert "runPython" not in script and "eval(" not in script


def test_the_readme_names_the_pyodide_release_the_export_pins() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count(f"pyodide@{PYODIDE_VERSION}") == readme.count("pyodide@") >= 1
