"""A static copy of the explainer site, for hosting where CI links can reach it.

``xlalens explain --export DIR`` writes every page the local server answers (the index, each
page, the rule index and one page per rule, each calculator, the stylesheet and script) as plain
files: ``/tracing`` becomes ``DIR/tracing/index.html``, so any static host (GitHub Pages, a bucket,
``python -m http.server``) serves the same paths, and ``explainer-base-url`` can point CI output
at it. ``base_path`` prefixes the site's own links when it is hosted below the root of a domain
(``/xlalens`` for ``https://example.github.io/xlalens``).

A static host has no calculator API, so the copy's calculators compute in the reader's browser:
the export writes the calculators' Python sources (``DIR/static/py/xlalens-calculators.zip``: the
calculator package and the module that answers ``/api/calc/<name>``, standard library only), and
the page script loads Pyodide (CPython compiled to WebAssembly) from ``pyodide_url`` (by default a
pinned release on the jsDelivr CDN; a self-hosted copy of the ``pyodide`` npm package works too,
served with CORS when it is on another origin) and runs those same modules, so the numbers are the
server's. Each panel shows the result of the page's first example while Pyodide loads (the link's
query string is applied by the server only), and keeps it, saying so, when Pyodide cannot load.
"""

from __future__ import annotations

import html
import importlib
import io
import re
import zipfile
from collections.abc import Iterable
from http import HTTPStatus
from pathlib import Path

from xlalens.explainers.calculators import all_calculators
from xlalens.explainers.links import RULES_PREFIX
from xlalens.explainers.pages_catalog import RuleEntry
from xlalens.explainers.web import STATIC_FILES, ExplainerApp

STATIC_MARKER = 'data-xlalens-static="true"'
"""Set on a copy's ``<html>`` element; the calculator script reads it and computes with Pyodide."""

PYODIDE_VERSION = "314.0.8"
"""The Pyodide release the copy loads by default (``scripts/test.sh`` installs the same one for tests)."""

DEFAULT_PYODIDE_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
"""Where Pyodide's files (``pyodide.mjs``, ``pyodide.asm.wasm``, ``python_stdlib.zip``…) are fetched from."""

PYTHON_ARCHIVE = "static/py/xlalens-calculators.zip"
"""The calculators' Python sources in the copy, relative to its root; the script finds it next to itself."""

BROWSER_MODULE = "xlalens.explainers.calc_api"
"""The module the page script calls (``answer_json``); it and the calculator package make up the archive."""

_BROWSER_PACKAGES = ("xlalens.explainers.calculators",)
"""Copied whole, so that calculators added to the package are in the archive without a list to update."""

_SITE_LINK = re.compile(r'(\b(?:href|src|action)=")(?:/(?=")|/?(?![a-z][a-z0-9+.-]*:|/|#|"))')
"""A link to a page of the site: root-relative (``/rules/JX101``) or page-relative (``tracing#x``)."""


class ExportError(Exception):
    """The site could not be written (a route failed to render, or the directory is not usable)."""


def site_paths(app: ExplainerApp) -> list[str]:
    """Every path of the site a static copy holds, the index first.

    Examples:
        >>> paths = site_paths(ExplainerApp(rules=()))
        >>> paths[0], "/calc/blockspec" in paths, "/static/site.css" in paths
        ('/', True, True)
    """
    paths = ["/", *(f"/{slug}" for slug in app.pages)]
    if app.rules:
        paths += [f"/{RULES_PREFIX}", *(f"/{RULES_PREFIX}/{rule.code}" for rule in app.rules)]
    paths += [f"/calc/{calculator.name}" for calculator in all_calculators()]
    paths += [f"/static/{name}" for name in STATIC_FILES]
    return paths


def relocate(html_text: str, base_path: str, pyodide_url: str = DEFAULT_PYODIDE_URL) -> str:
    """Mark ``html_text`` as a static copy and root its links to other pages at ``base_path``.

    A page that the server answers at ``/in-place-updates`` lives at ``/in-place-updates/`` in the
    copy, so a page-relative ``tracing#x`` must become ``{base_path}/tracing#x`` too. The
    ``<html>`` element also names where the calculator script loads Pyodide from.

    Examples:
        >>> page = relocate('<html lang="en"><a href="/rules/JX101"><a href="tracing#x">', "/xlalens", "/p/")
        >>> print(page.replace("><", ">\\n<"))
        <html data-xlalens-static="true" data-xlalens-pyodide="/p/" lang="en">
        <a href="/xlalens/rules/JX101">
        <a href="/xlalens/tracing#x">
        >>> print(relocate('<html><a href="https://docs.jax.dev/"><a href="/">', "", "/p?a&b/").replace("><", ">\\n<"))
        <html data-xlalens-static="true" data-xlalens-pyodide="/p?a&amp;b/">
        <a href="https://docs.jax.dev/">
        <a href="/">
    """
    marks = f'{STATIC_MARKER} data-xlalens-pyodide="{html.escape(pyodide_url, quote=True)}"'
    text = html_text.replace("<html", f"<html {marks}", 1)
    return _SITE_LINK.sub(lambda match: f"{match.group(1)}{base_path}/", text)


def browser_sources() -> dict[str, bytes]:
    """The Python files the copy's calculators run from, by their path below a ``sys.path`` entry.

    :data:`BROWSER_MODULE`, every file of the calculator package and the ``__init__.py`` of the
    packages above them; a test imports them in a fresh interpreter to check nothing else is needed.

    Examples:
        >>> sources = browser_sources()
        >>> "xlalens/explainers/calc_api.py" in sources, "xlalens/explainers/calculators/registry.py" in sources
        (True, True)
    """
    files: dict[str, Path] = {}
    for name in (BROWSER_MODULE, *_BROWSER_PACKAGES):
        module = importlib.import_module(name)
        assert module.__file__ is not None, f"{name} is not a module with a source file"
        source = Path(module.__file__)
        if hasattr(module, "__path__"):
            for path in source.parent.rglob("*.py"):
                files[_archive_path(name, path.relative_to(source.parent))] = path
        else:
            files[_archive_path(name.rpartition(".")[0], Path(source.name))] = source
        parts = name.split(".")
        for depth in range(1, len(parts)):
            parent = importlib.import_module(".".join(parts[:depth]))
            if parent.__file__ is not None:  # a namespace package (``xlalens``) has no file to copy
                files[_archive_path(parent.__name__, Path("__init__.py"))] = Path(parent.__file__)
    return {path: files[path].read_bytes() for path in sorted(files)}


def _archive_path(package: str, relative: Path) -> str:
    return "/".join([*package.split("."), *relative.parts])


def python_archive() -> bytes:
    """:func:`browser_sources` as one zip, the same bytes for the same sources (fixed dates, sorted)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, body in browser_sources().items():
            archive.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), body, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def export_site(
    directory: Path, rules: Iterable[RuleEntry], base_path: str = "", pyodide_url: str = DEFAULT_PYODIDE_URL
) -> list[Path]:
    """Write the static site into ``directory`` and return the files written.

    Args:
        directory: Where the copy goes (created if missing; files already there are overwritten).
        rules: The rule catalog, for the rule pages.
        base_path: The path the site is hosted under (``/xlalens``), or ``""`` for a domain's root.
        pyodide_url: The folder Pyodide's files are fetched from (a trailing ``/`` is added).

    Raises:
        ExportError: when a page does not render or a file cannot be written.
    """
    base = "/" + base_path.strip("/") if base_path.strip("/") else ""
    pyodide = pyodide_url.rstrip("/") + "/"
    app = ExplainerApp(rules=tuple(rules))
    bodies: list[tuple[Path, bytes]] = []
    for path in site_paths(app):
        response = app.handle(path)
        if response.status != HTTPStatus.OK:
            raise ExportError(f"{path} answered {response.status}")
        if path.startswith("/static/"):
            bodies.append((directory / path.lstrip("/"), response.body))
        else:
            page = relocate(response.body.decode("utf-8"), base, pyodide).encode("utf-8")
            bodies.append((directory / path.strip("/") / "index.html", page))
    bodies.append((directory / PYTHON_ARCHIVE, python_archive()))
    written = []
    for target, body in bodies:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body)
        except OSError as error:
            raise ExportError(f"cannot write {target}: {error.strerror or error}") from None
        written.append(target)
    return written
