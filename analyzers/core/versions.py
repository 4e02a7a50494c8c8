"""Release numbers of the libraries xlalens reads: parsing, comparing and writing them.

A release is a tuple of integers (``(0, 4, 30)`` for JAX 0.4.30, ``(2, 9)`` for torch_xla 2.9).
Tuples compare the way releases do, and a shorter tuple sorts before its extensions, so
``(2, 9) <= (2, 9, 0)``. A version the user writes (``jax-version = "0.4.30"``) and a version a
project pins (``jax==0.4.30``) both become such a tuple.
"""

from __future__ import annotations

import re

Version = tuple[int, ...]
"""A release number as integers, most significant first."""

_VERSION = re.compile(
    r"^\s*v?(?P<release>\d+(?:\.\d+){0,3}(?:\.x)?)(?:[.+-]?(?:a|b|rc|dev|post|cpu|cu)[0-9a-z.]*)?\s*$", re.I
)

UNBOUNDED_PATCH = 9999
"""A patch number larger than any real one: ``(0, 4, UNBOUNDED_PATCH)`` is "the last 0.4 release"."""


def parse_version(text: str) -> Version | None:
    """The release tuple of a version string, or ``None`` when it is not one.

    Pre-release, development and local suffixes are dropped: they belong to the release they lead
    up to (``0.5.0rc1`` is treated as 0.5.0). A last part ``x`` is the open-ended patch that
    :func:`format_version` writes.

    Examples:
        >>> parse_version("0.4.30"), parse_version("2.9"), parse_version("v0.10.2")
        ((0, 4, 30), (2, 9), (0, 10, 2))
        >>> parse_version("0.4.x")
        (0, 4, 9999)
        >>> parse_version("2.9.0+cpu"), parse_version("0.5.0rc1"), parse_version("latest")
        ((2, 9, 0), (0, 5, 0), None)
    """
    match = _VERSION.match(text)
    if match is None:
        return None
    return tuple(UNBOUNDED_PATCH if part.lower() == "x" else int(part) for part in match.group("release").split("."))


def format_version(version: Version) -> str:
    """A release tuple as people write it; the open-ended patch reads ``x``.

    Examples:
        >>> format_version((0, 4, 30)), format_version((0, 4, UNBOUNDED_PATCH))
        ('0.4.30', '0.4.x')
    """
    return ".".join("x" if part >= UNBOUNDED_PATCH else str(part) for part in version)


def release_before(version: Version) -> Version:
    """The largest release number below ``version`` (for an exclusive bound such as ``<0.5``).

    Examples:
        >>> release_before((0, 5)), release_before((0, 4, 31)), release_before((1, 0, 0))
        ((0, 4, 9999), (0, 4, 30, 9999), (0, 9999))
    """
    parts = list(version)
    while parts and parts[-1] == 0:
        parts.pop()
    if not parts:
        return (0,)
    parts[-1] -= 1
    return (*parts, UNBOUNDED_PATCH)
