"""The static copy's calculators compute in Chromium with Pyodide, as a reader of a hosted copy meets them.

The site is exported the way a user exports it (``xlalens explain --export DIR --pyodide-url URL``)
and served by a plain static file server; Pyodide comes from the ``pyodide`` npm package that
``scripts/test.sh`` installs into a cache folder (``XLALENS_PYODIDE_DIR``), served from another
origin with CORS as the CDN serves it. Nothing is fetched from the internet.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Locator, Page, Route, expect
from xlalens.explainers.calculators import CalculatorInputError, all_calculators, get_calculator, result_json
from xlalens.explainers.export import PYODIDE_VERSION, PYTHON_ARCHIVE, export_site
from xlalens.explainers.web import ExplainerApp

_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
PYODIDE_DIR = Path(
    os.environ.get(
        "XLALENS_PYODIDE_DIR", _CACHE / "xlalens" / f"pyodide-{PYODIDE_VERSION}" / "node_modules" / "pyodide"
    )
)
"""The npm package's folder (``pyodide.mjs``, ``pyodide.asm.wasm``, ``python_stdlib.zip``…)."""

ENGINE_MS = 120_000
"""Pyodide's start (a 10 MB WebAssembly module, then CPython's) takes seconds; on a loaded CI machine, tens."""
TIMEOUT_MS = 10_000


class _StaticFiles(SimpleHTTPRequestHandler):
    """A plain static host, quiet; ``/favicon.ico`` is answered empty, as the local server answers it."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def do_GET(self) -> None:
        if self.path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _CrossOriginFiles(_StaticFiles):
    """Pyodide's files served to pages of another origin, with the CORS header the jsDelivr CDN sends."""

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


def _serve(directory: Path, handler: type[SimpleHTTPRequestHandler]) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def pyodide_url() -> Iterator[str]:
    assert (PYODIDE_DIR / "pyodide.mjs").is_file() and (PYODIDE_DIR / "pyodide.asm.wasm").is_file(), (
        f"the pyodide npm package is needed at {PYODIDE_DIR} (scripts/test.sh installs it: "
        f"npm install --prefix DIR pyodide@{PYODIDE_VERSION}, then XLALENS_PYODIDE_DIR=DIR/node_modules/pyodide)"
    )
    version = json.loads((PYODIDE_DIR / "package.json").read_text(encoding="utf-8"))["version"]
    assert version == PYODIDE_VERSION, f"{PYODIDE_DIR} holds Pyodide {version}; the export pins {PYODIDE_VERSION}"
    yield from _serve(PYODIDE_DIR, _CrossOriginFiles)


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory: pytest.TempPathFactory, pyodide_url: str) -> Path:
    """The copy written by the CLI, pointed at the local Pyodide."""
    directory = tmp_path_factory.mktemp("site")
    command = ["xlalens", "explain", "--export", str(directory), "--pyodide-url", f"{pyodide_url}/"]
    proc = subprocess.run(
        [sys.executable, "-m", "xlalens.analyzers.cli.main", *command[1:]],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return directory


@pytest.fixture(scope="module")
def site_url(site_dir: Path) -> Iterator[str]:
    """The copy on a static host of its own origin."""
    yield from _serve(site_dir, _StaticFiles)


@pytest.fixture(scope="module")
def offline_site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A copy whose Pyodide URL is a port nobody listens on: the reader is offline or the CDN is blocked."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    directory = tmp_path_factory.mktemp("offline-site")
    export_site(directory, (), pyodide_url=f"http://127.0.0.1:{closed_port}/pyodide/")
    yield from _serve(directory, _StaticFiles)


def _expected(name: str, values: Mapping[str, str]) -> dict[str, Any]:
    """What the registry computes for ``values``: the result's JSON, as the panel must show it."""
    calculator = get_calculator(name)
    result = calculator.run(values)
    return result_json(result, calculator.draw(result))


def _values(panel: Locator) -> dict[str, str]:
    """The panel's fields as the script sends them: every control with a value (an empty one means its default)."""
    return panel.evaluate(
        """panel => Object.fromEntries([...panel.querySelectorAll("input, select, textarea")]
          .filter(control => control.value !== "").map(control => [control.name, control.value]))"""
    )


def _shown(panel: Locator) -> dict[str, Any]:
    """The headline, its status and the table rows as the panel shows them."""
    return panel.evaluate(
        """panel => ({
          headline: panel.querySelector(".result .headline").textContent,
          status: panel.querySelector(".result .headline").dataset.status,
          rows: [...panel.querySelectorAll(".result table tr")].map(tr => ({
            label: tr.cells[0].textContent, value: tr.cells[1].textContent, formula: tr.cells[2].textContent})),
          picture: panel.querySelector(".result figure svg") !== null,
        })"""
    )


def _assert_shows(panel: Locator, expected: Mapping[str, Any]) -> None:
    expect(panel).to_have_attribute("data-state", "ok", timeout=ENGINE_MS)
    expect(panel.locator(".result .headline")).to_have_text(expected["headline"], timeout=TIMEOUT_MS)
    shown = _shown(panel)
    assert shown["status"] == expected["status"]
    assert shown["rows"] == [{key: row[key] for key in ("label", "value", "formula")} for row in expected["rows"]]
    assert shown["picture"] == ("picture" in expected)


def test_blockspec_computes_in_the_browser_what_the_calculator_computes(page: Page, site_url: str) -> None:
    # Pyodide's loader is held back until the page has been seen while it loads.
    held: list[Route] = []
    page.route("**/pyodide.mjs", lambda route: held.append(route))
    page.goto(f"{site_url}/calc/blockspec/", wait_until="domcontentloaded")
    panel = page.locator("section.calculator")
    example = dict(get_calculator("blockspec").examples[0])
    expect(panel.locator(".engine-note")).to_contain_text("Loading the calculator", timeout=TIMEOUT_MS)
    expect(panel.locator(".result .headline")).to_have_text(_expected("blockspec", example)["headline"])
    expect(panel).to_have_attribute("data-engine", "loading")
    for _ in range(100):  # the route hears of the request through Playwright's event loop, which waiting runs
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1, "the page asked for Pyodide's loader once"
    held[0].continue_()

    expect(panel).to_have_attribute("data-engine", "ready", timeout=ENGINE_MS)
    expect(panel.locator(".engine-note")).to_have_count(0)
    panel.locator("input[name=block]").fill("200,128")
    panel.locator("select[name=dtype]").select_option("bf16")
    values = _values(panel)
    assert values["block"] == "200,128" and values["dtype"] == "bf16"
    _assert_shows(panel, _expected("blockspec", values))
    expect(panel.locator(".permalink")).to_be_hidden()

    panel.locator("input[name=array]").fill("1000,abc")
    with pytest.raises(CalculatorInputError) as failure:
        get_calculator("blockspec").run({**values, "array": "1000,abc"})
    field = panel.locator(".field[data-field=array]")
    expect(field.locator(".error")).to_have_text(failure.value.message, timeout=TIMEOUT_MS)
    expect(field.locator("input")).to_have_attribute("aria-invalid", "true")
    expect(panel).to_have_attribute("data-state", "invalid")
    expect(panel.locator(".result .headline")).to_have_count(0)

    panel.locator("input[name=array]").fill("4096,512")
    _assert_shows(panel, _expected("blockspec", {**values, "array": "4096,512"}))
    expect(field.locator(".error")).to_have_text("")


def test_a_link_with_numbers_computes_them_on_the_static_copy(page: Page, site_url: str) -> None:
    # Diagnostics link to a calculator with the user's numbers in the query string; a static host
    # serves the example's page for it, so the page itself must put them in the form and compute.
    example = dict(get_calculator("blockspec").examples[0])
    numbers = {**example, "block": "200,128", "array": "1000,512"}
    page.goto(f"{site_url}/calc/blockspec/?{urlencode(numbers)}", wait_until="domcontentloaded")
    panel = page.locator("section.calculator")
    expect(panel).to_have_attribute("data-engine", "ready", timeout=ENGINE_MS)
    assert _values(panel)["block"] == "200,128"
    _assert_shows(panel, _expected("blockspec", _values(panel)))


def test_a_page_panel_computes_from_the_first_edit_made_while_pyodide_loads(page: Page, site_url: str) -> None:
    started = time.perf_counter()
    page.goto(f"{site_url}/sharding/", wait_until="domcontentloaded")
    panel = page.locator("section.calculator[data-calculator=shard-shape]")
    panel.locator("input[name=spec]").fill("x,y")
    panel.locator("input[name=shape]").fill("8,6")
    values = _values(panel)
    expected = _expected("shard-shape", values)
    _assert_shows(panel, expected)
    # Reported by `pytest -s`: from navigation to the first result computed by Python in the page.
    print(f"\nload to first computed result: {time.perf_counter() - started:.1f} s (Pyodide {PYODIDE_VERSION})")

    panel.locator("input[name=shape]").fill("6,4")
    expected = _expected("shard-shape", {**values, "shape": "6,4"})
    assert expected["status"] == "error"
    expect(panel.locator(".result .headline")).to_have_text(expected["headline"], timeout=TIMEOUT_MS)
    expect(panel.locator(".result .headline")).to_have_attribute("data-status", "error")


def test_without_pyodide_the_panel_keeps_the_example_and_says_where_to_compute(
    page: Page, offline_site_url: str, expected_console_errors: list[str]
) -> None:
    expected_console_errors.append("ERR_CONNECTION_REFUSED")
    page.goto(f"{offline_site_url}/calc/shard-shape/")
    panel = page.locator("section.calculator")
    example = _expected("shard-shape", get_calculator("shard-shape").examples[0])
    expect(panel).to_have_attribute("data-engine", "offline", timeout=ENGINE_MS)
    note = panel.locator(".engine-note")
    expect(note).to_contain_text("could not load Python")
    expect(note).to_contain_text("xlalens explain --serve")
    expect(panel.locator(".result .headline")).to_have_text(example["headline"])

    panel.locator("input[name=shape]").fill("6,4")
    page.wait_for_timeout(500)  # longer than the script's debounce: an edit would have been computed by now
    expect(panel.locator(".result .headline")).to_have_text(example["headline"])
    expect(panel.locator(".field .error")).to_have_text([""] * panel.locator(".field").count())


# Node runs the npm package as the page does (unpack the archive, put it on sys.path, import the
# module, call answer_json), without a page per calculator: every calculator on CPython as Pyodide builds it.
_NODE_PROBE = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [pyodideDir, archive] = process.argv.slice(1);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: () => {}, stderr: () => {} });
pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: "/xlalens-calculators" });
pyodide.pyimport("sys").path.insert(0, "/xlalens-calculators");
const answerJson = pyodide.pyimport("xlalens.explainers.calc_api").answer_json;
const requests = JSON.parse(readFileSync(0, "utf8"));
const answers = requests.map(([name, query]) => JSON.parse(answerJson(name, JSON.stringify(query))));
process.stdout.write(`\\n${JSON.stringify({ version: pyodide.version, answers })}\\n`);
"""


def test_every_calculator_answers_under_pyodide_what_the_server_answers(site_dir: Path, pyodide_url: str) -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is needed to run Pyodide outside the page (scripts/test.sh needs npm too)"
    requests = [
        *((calculator.name, dict(example)) for calculator in all_calculators() for example in calculator.examples),
        ("blockspec", {"array": "1000,abc", "block": "192,128"}),
        ("shard-shape", {"mesh": "x:4,y:2", "shape": "6,4", "spec": "x,y"}),
        ("no-such-calculator", {}),
    ]
    proc = subprocess.run(
        [node, "--input-type=module", "-e", _NODE_PROBE, str(PYODIDE_DIR), str(site_dir / PYTHON_ARCHIVE)],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]  # Node quotes the minified line before the error
    probe = json.loads(proc.stdout.strip().splitlines()[-1])
    assert probe["version"] == PYODIDE_VERSION
    app = ExplainerApp(rules=())
    for (name, query), answer in zip(requests, probe["answers"], strict=True):
        response = app.handle(f"/api/calc/{name}?{urlencode(query)}")
        assert answer == {"status": response.status, "body": json.loads(response.body)}, (name, query)
