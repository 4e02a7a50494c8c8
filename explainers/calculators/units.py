"""Number formatting shared by the calculators: bytes, counts, durations and rates.

Every calculator shows its numbers through these helpers, so a page, a hover and the command line
print ``10.0 MiB`` or ``989 TFLOP/s`` the same way. Bytes use binary prefixes (1 KiB = 1024 B)
because memory capacities and buffer sizes are powers of two; rates and FLOP counts use decimal SI
prefixes because vendors quote peak FLOP/s and bandwidth in powers of ten.
"""

from __future__ import annotations

import math

_BINARY_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
_SI_PREFIXES = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
_ROUNDS_UP = 0.9995
"""A value this close below a unit boundary rounds to 1000 of the smaller unit; show it in the larger one."""


def format_bytes(count: float) -> str:
    """A byte count with a binary unit and one decimal.

    Args:
        count: A number of bytes, not negative.

    Returns:
        ``"512 B"`` below 1 KiB, otherwise the value in the largest binary unit that keeps it at
        least 1, with one decimal.

    Examples:
        >>> format_bytes(10 * 1024 * 1024)
        '10.0 MiB'
        >>> format_bytes(1536)
        '1.5 KiB'
        >>> format_bytes(1000)
        '1000 B'
        >>> format_bytes(2**20 - 1)
        '1.0 MiB'
        >>> format_bytes(2**70)
        '1024.0 EiB'
    """
    if count < 1024:
        return f"{count:g} B"
    value = count / 1024
    index = 0
    # 1023.96 KiB prints as "1024.0 KiB" with one decimal, so move up a unit from there.
    while value >= 1023.95 and index < len(_BINARY_UNITS) - 1:
        value /= 1024
        index += 1
    return f"{value:.1f} {_BINARY_UNITS[index]}"


def format_bytes_exact(count: int) -> str:
    """A byte count with its binary rounding and the exact number, for result tables.

    Examples:
        >>> format_bytes_exact(10 * 1024 * 1024)
        '10.0 MiB (10,485,760 B)'
        >>> format_bytes_exact(96)
        '96 B'
    """
    if count < 1024:
        return f"{count} B"
    return f"{format_bytes(count)} ({format_count(count)} B)"


def format_count(count: int) -> str:
    """An integer with thousands separators.

    Examples:
        >>> format_count(1048576)
        '1,048,576'
        >>> format_count(-12000)
        '-12,000'
    """
    return f"{count:,}"


def format_seconds(seconds: float) -> str:
    """A duration with three significant digits in ns, µs, ms or s.

    Examples:
        >>> format_seconds(0.000_001_5)
        '1.50 µs'
        >>> format_seconds(0.138_97)
        '139 ms'
        >>> format_seconds(8.5e-10)
        '0.850 ns'
        >>> format_seconds(12.0)
        '12.0 s'
        >>> format_seconds(0.0009999)
        '1.00 ms'
    """
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs")):
        if seconds >= scale * _ROUNDS_UP:
            return f"{_three_digits(seconds / scale)} {unit}"
    return f"{_three_digits(seconds / 1e-9)} ns"


def format_si(value: float, unit: str) -> str:
    """A quantity with a decimal SI prefix and three significant digits.

    Examples:
        >>> format_si(3.35e12, "B/s")
        '3.35 TB/s'
        >>> format_si(512, "FLOP")
        '512 FLOP'
        >>> format_si(999_990, "FLOP")
        '1.00 MFLOP'
    """
    for scale, prefix in _SI_PREFIXES:
        if abs(value) >= scale * _ROUNDS_UP:
            return f"{_three_digits(value / scale)} {prefix}{unit}"
    return f"{_three_digits(value)} {unit}"


def format_flops(count: float) -> str:
    """A number of floating-point operations.

    Examples:
        >>> format_flops(2 * 4096**3)
        '137 GFLOP'
    """
    return format_si(count, "FLOP")


def format_flop_rate(rate: float) -> str:
    """A compute rate in FLOP/s.

    Examples:
        >>> format_flop_rate(989e12)
        '989 TFLOP/s'
        >>> format_flop_rate(1.979e15)
        '1.98 PFLOP/s'
    """
    return format_si(rate, "FLOP/s")


def format_bandwidth(rate: float) -> str:
    """A memory bandwidth in decimal bytes per second, as vendors quote it.

    Examples:
        >>> format_bandwidth(8.19e11)
        '819 GB/s'
    """
    return format_si(rate, "B/s")


def _three_digits(value: float) -> str:
    """``value`` with three significant digits and no exponent (``1.50``, ``12.0``, ``139``)."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    digits = math.floor(math.log10(abs(value)))
    decimals = max(0, 2 - digits)
    text = f"{value:.{decimals}f}"
    # Rounding can carry into a new digit (999.7 -> "1000"); one more pass fixes the precision.
    if decimals and len(text.replace("-", "").replace(".", "").lstrip("0")) > 3:
        text = f"{value:.{decimals - 1}f}"
    return text
