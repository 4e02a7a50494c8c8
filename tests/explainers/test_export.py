"""The static copy of the site: every page and rule written, every link of the copy leads to a file of it."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from xlalens.analyzers.output.site import rule_entries
from xlalens.explainers.export import DEFAULT_PYODIDE_URL, PYODIDE_VERSION, STATIC_MARKER, export_site

_LINK = re.compile(r'\b(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site exported as hosted below /xlalens."""
    directory = tmp_path_factory.mktemp("site")
    export_site(directory, rule_entries(), "/xlalens")
    return directory


def _target(directory: Path, link: str) -> Path | None:
    """The file a site-internal link of the copy opens, or ``None`` for an external or in-page link."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    assert parts.path.startswith("/xlalens/"), f"a link outside the hosted prefix: {link}"
    path = parts.path.removeprefix("/xlalens/")
    if path.startswith("static/"):
        return directory / path
    return directory / path.strip("/") / "index.html"


def test_every_link_of_the_copy_opens_a_file_of_it(hosted: Path) -> None:
    pages = sorted(hosted.rglob("index.html"))
    assert len(pages) > 100
    broken = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert STATIC_MARKER in text, f"{page} is not marked as a static copy"
        for link in _LINK.findall(text):
            target = _target(hosted, link)
            if target is not None and not target.is_file():
                broken.append(f"{page.relative_to(hosted)}: {link}")
    assert not broken, "\n".join(broken[:20])


def test_the_copy_holds_every_rule_page_and_calculators_with_their_first_example(hosted: Path) -> None:
    codes = {rule.code for rule in rule_entries()}
    assert {p.parent.name for p in (hosted / "rules").glob("*/index.html")} == codes
    blockspec = (hosted / "calc" / "blockspec" / "index.html").read_text(encoding="utf-8")
    assert "steps" in blockspec and "VMEM" in blockspec  # the example's result, rendered by the server
    assert (hosted / "static" / "calculator.js").read_text(encoding="utf-8").count("xlalensStatic") == 1


def test_each_page_names_the_pinned_pyodide_release_its_calculators_load(hosted: Path) -> None:
    assert f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/" == DEFAULT_PYODIDE_URL
    for page in (hosted / "calc" / "blockspec" / "index.html", hosted / "sharding" / "index.html"):
        assert f'data-xlalens-pyodide="{DEFAULT_PYODIDE_URL}"' in page.read_text(encoding="utf-8")
    assert (hosted / "static" / "py" / "xlalens-calculators.zip").is_file()


@pytest.fixture
def static_host(tmp_path: Path) -> Iterator[str]:
    """The site exported for a domain's root and served by a plain static file server."""
    export_site(tmp_path, rule_entries())
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_static_host_answers_the_links_diagnostics_give(static_host: str) -> None:
    from xlalens.analyzers.core.settings import Settings

    settings = Settings(explainer_base_url=static_host)
    for url in (settings.explainer_url("tracing#python-control-flow"), f"{static_host}/rules/JX101"):
        with urllib.request.urlopen(url, timeout=5) as response:
            assert response.status == 200
            assert b"<html" in response.read()


def test_the_cli_writes_the_copy(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "xlalens.analyzers.cli.main", "explain", "--export", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"Wrote \d+ files of the xlalens explainers to ", proc.stderr)
    assert (tmp_path / "site" / "index.html").is_file()
    (tmp_path / "file").write_text("", encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "xlalens.analyzers.cli.main", "explain", "--export", str(tmp_path / "file")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2 and "is not a directory" in refused.stderr
