"""A static copy of the explainer site, for hosting where CI links can reach it.

``xlalens explain --export DIR`` writes every page the local server answers (the index, each
page, the rule index and one page per rule, each calculator, the stylesheet and script) as plain
files: ``/tracing`` becomes ``DIR/tracing/index.html``, so any static host (GitHub Pages, a bucket,
``python -m http.server``) serves the same paths, and ``explainer-base-url`` can point CI output
at it. ``base_path`` prefixes the site's own links when it is hosted below the root of a domain
(``/xlalens`` for ``https://example.github.io/xlalens``).

A static host has no calculator API: each calculator shows its result for the numbers it was
opened with (the link's query string is applied by the server, so the copy shows the page's
first example), and editing a field says where the live calculator runs instead of computing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from http import HTTPStatus
from pathlib import Path

from xlalens.explainers.calculators import all_calculators
from xlalens.explainers.links import RULES_PREFIX
from xlalens.explainers.pages_catalog import RuleEntry
from xlalens.explainers.web import STATIC_FILES, ExplainerApp

STATIC_MARKER = 'data-xlalens-static="true"'
"""Set on a copy's ``<html>`` element; the calculator script reads it and does not call the API."""

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


def relocate(html_text: str, base_path: str) -> str:
    """Mark ``html_text`` as a static copy and root its links to other pages at ``base_path``.

    A page that the server answers at ``/in-place-updates`` lives at ``/in-place-updates/`` in the
    copy, so a page-relative ``tracing#x`` must become ``{base_path}/tracing#x`` too.

    Examples:
        >>> relocate('<html lang="en"><a href="/rules/JX101"><a href="tracing#x">', "/xlalens")
        '<html data-xlalens-static="true" lang="en"><a href="/xlalens/rules/JX101"><a href="/xlalens/tracing#x">'
        >>> relocate('<html><a href="https://docs.jax.dev/"><a href="/">', "")
        '<html data-xlalens-static="true"><a href="https://docs.jax.dev/"><a href="/">'
    """
    text = html_text.replace("<html", f"<html {STATIC_MARKER}", 1)
    return _SITE_LINK.sub(lambda match: f"{match.group(1)}{base_path}/", text)


def export_site(directory: Path, rules: Iterable[RuleEntry], base_path: str = "") -> list[Path]:
    """Write the static site into ``directory`` and return the files written.

    Raises:
        ExportError: when a page does not render or a file cannot be written.
    """
    base = "/" + base_path.strip("/") if base_path.strip("/") else ""
    app = ExplainerApp(rules=tuple(rules))
    written = []
    for path in site_paths(app):
        response = app.handle(path)
        if response.status != HTTPStatus.OK:
            raise ExportError(f"{path} answered {response.status}")
        if path.startswith("/static/"):
            target, body = directory / path.lstrip("/"), response.body
        else:
            target = directory / path.strip("/") / "index.html"
            body = relocate(response.body.decode("utf-8"), base).encode("utf-8")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(body)
        except OSError as error:
            raise ExportError(f"cannot write {target}: {error.strerror or error}") from None
        written.append(target)
    return written
