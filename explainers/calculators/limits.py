"""Bounds every calculator puts on sizes, so absurd input gets a clear message, not a slow or huge answer."""

from __future__ import annotations

import math

from xlalens.explainers.calculators.fields import CalculatorInputError

MAX_DIM = 2**62
MAX_RANK = 64


def check_shape(field: str, shape: tuple[int, ...], *, minimum: int) -> None:
    """Reject a shape that is empty, too deep, has a size below ``minimum`` or too many elements.

    Examples:
        >>> check_shape("array", (1000, 512), minimum=1)
        >>> check_shape("block", (8, 0), minimum=1)
        Traceback (most recent call last):
        ...
        xlalens.explainers.calculators.fields.CalculatorInputError: block: size 0 is below 1
    """
    if not shape:
        raise CalculatorInputError(field, "needs at least one dimension")
    if len(shape) > MAX_RANK:
        raise CalculatorInputError(field, f"rank {len(shape)} is above the supported {MAX_RANK}")
    for size in shape:
        if not isinstance(size, int) or size < minimum:
            raise CalculatorInputError(field, f"size {size} is below {minimum}")
        if size >= MAX_DIM:
            raise CalculatorInputError(field, f"size {size} is not below 2**62")
    if math.prod(shape) >= MAX_DIM:
        raise CalculatorInputError(field, f"{math.prod(shape)} elements is not below 2**62")
