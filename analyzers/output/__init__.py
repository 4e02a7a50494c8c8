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
    ...     print(error.args[0].split(";")[0])
    unknown output format 'xml'
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import TextIO

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


def _builtin(module: str) -> Formatter:
    # Each built-in format's module (some pull in rich or xml) is imported when first used, so a
    # run pays only for the format it prints.
    def render(report: Report, out: TextIO) -> None:
        importlib.import_module(f"{__name__}.{module}").render(report, out)

    render.__qualname__ = render.__name__ = f"render_{module}"
    return render


for _name in ("concise", "full", "json", "json-lines", "sarif", "github", "junit"):
    register_format(_name, _builtin(_name.replace("-", "_")))
