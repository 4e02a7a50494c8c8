"""Calculators: pure functions that compute, on the user's own numbers, what a diagnostic is about."""

from __future__ import annotations

from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.registry import (
    Calculator,
    CalculatorResult,
    Row,
    UnknownCalculatorError,
    all_calculators,
    get_calculator,
    register_calculator,
    result_json,
)

__all__ = [
    "Calculator",
    "CalculatorInputError",
    "CalculatorResult",
    "Field",
    "Row",
    "UnknownCalculatorError",
    "all_calculators",
    "get_calculator",
    "register_calculator",
    "result_json",
]
