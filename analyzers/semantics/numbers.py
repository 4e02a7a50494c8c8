"""Arithmetic on the numbers a program spells, without the exceptions Python raises for absurd ones.

A loop over ``range(2**64)`` or a slice of a dimension that large is valid Python, but ``len()`` of
such a range raises ``OverflowError``. The analysis treats a length it cannot hold in a machine
integer as unknown.

Examples:
    >>> range_length(10), range_length(0, 10, 3), range_length(2**64), range_length(0, 5, 0)
    (10, 4, None, None)
    >>> slice_length(10, (2, None, 2)), slice_length(2**64, (None, None, None))
    (4, None)
"""

from __future__ import annotations


def range_length(*bounds: int) -> int | None:
    """``len(range(*bounds))``, or None when it does not fit a machine integer or the step is zero."""
    try:
        return len(range(*bounds))
    except (OverflowError, ValueError):
        return None


def slice_length(size: int, bounds: tuple[int | None, int | None, int | None]) -> int | None:
    """How many of ``size`` elements ``[start:stop:step]`` selects, or None when it cannot be said."""
    try:
        return len(range(size)[slice(*bounds)])
    except (OverflowError, ValueError):
        return None
