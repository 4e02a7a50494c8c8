"""Output formats: each turns a :class:`Report` into text on a stream.

Formats live in a registry keyed by the name ``--output-format`` takes. :func:`register_format`
adds one (and rejects a bad or taken name, listing the known ones); :func:`get_format` looks one
up. The built-in formats are ``concise``, ``full``, ``json``, ``json-lines``, ``sarif``, ``github``
and ``junit``.

Examples:
    >>> "sarif" in format_names()
    True
    >>> try:
    ...     get_format("xml")
    ... except KeyError as error:
    ...     print(error.args[0].replace("; ", ";\n"))
    unknown output format 'xml';
    known formats are: concise, full, github, json, json-lines, junit, sarif
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TextIO

from xlalens.analyzers.output import concise, full, github, json, json_lines, junit, sarif
from xlalens.analyzers.output.report import Report as Report

Formatter = Callable[[Report, TextIO], None]
"""Renders a report onto a text stream."""

_FORMATS: dict[str, Formatter] = {}
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def format_names() -> list[str]:
    """The registered format names, sorted."""
    return sorted(_FORMATS)


def register_format(name: str, formatter: Formatter) -> None:
    """Make ``formatter`` available as ``--output-format name``.

    Raises:
        ValueError: if ``name`` is not lowercase kebab-case or is already registered; the message
            lists the known names.
    """
    if not _NAME.match(name):
        raise ValueError(f"output format name {name!r} must be lowercase kebab-case")
    if name in _FORMATS:
        raise ValueError(
            f"output format {name!r} is already registered; known formats are: {', '.join(format_names())}"
        )
    _FORMATS[name] = formatter


def get_format(name: str) -> Formatter:
    """The formatter registered as ``name``.

    Raises:
        KeyError: naming the known formats when ``name`` is unknown.
    """
    try:
        return _FORMATS[name]
    except KeyError:
        raise KeyError(f"unknown output format {name!r}; known formats are: {', '.join(format_names())}") from None


for _name, _module in (
    ("concise", concise),
    ("full", full),
    ("json", json),
    ("json-lines", json_lines),
    ("sarif", sarif),
    ("github", github),
    ("junit", junit),
):
    register_format(_name, _module.render)
