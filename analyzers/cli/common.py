"""What every ``xlalens`` subcommand shares: exit codes, the usage error, the version and argument types."""

from __future__ import annotations

import argparse
import functools

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 2
"""xlalens itself failed (ruff's convention: the same status as a usage error, never 1)."""


class UsageError(Exception):
    """A mistake in how xlalens was invoked or configured (exit code 2)."""


@functools.cache
def tool_version() -> str:
    """The xlalens version (``0.0.0+unknown`` when it cannot be found)."""
    import xlalens.analyzers

    version = getattr(xlalens.analyzers, "__version__", None)
    if isinstance(version, str):
        return version
    from importlib import metadata  # ~15 ms to import: only when the package has no __version__

    try:
        return metadata.version("xlalens")
    except metadata.PackageNotFoundError:
        return "0.0.0+unknown"


def comma_list(value: str) -> list[str]:
    """``"JX1, TX201"`` -> ``["JX1", "TX201"]`` (list flags take commas and may also repeat)."""
    return [part.strip() for part in value.split(",") if part.strip()]


def positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {value!r}")
    return number


def flatten(groups: list[list[str]] | None) -> tuple[str, ...] | None:
    return None if groups is None else tuple(s for group in groups for s in group)
