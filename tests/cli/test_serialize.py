"""Diagnostics survive a round trip through plain dicts and JSON unchanged."""

from __future__ import annotations

import json

import pytest
from xlalens.analyzers.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Position,
    Range,
    RelatedLocation,
    Severity,
)
from xlalens.analyzers.project.serialize import (
    SerializationError,
    diagnostic_from_dict,
    diagnostic_to_dict,
)


def _range(a: int, b: int, c: int, d: int) -> Range:
    return Range(Position(a, b), Position(c, d))


FULL = Diagnostic(
    code="JX401",
    message="Block `(7, 128)` pads 1 row — 12.5%",
    path="/p/kernel.py",
    range=_range(3, 4, 5, 6),
    severity=Severity.WARNING,
    fix=Fix(
        "Use a multiple of 8",
        Applicability.UNSAFE,
        (Edit(_range(3, 4, 3, 12), "(8, 128)"), Edit(_range(1, 0, 1, 0), "import jax\n")),
    ),
    url="https://xlalens.dev/explain/pallas#tiling",
    related=(RelatedLocation("/p/mesh.py", _range(9, 0, 9, 10), "mesh defined here"),),
    calculator=(
        "block-padding",
        {"block_shape": (7, 128), "dims": [1, 2], "meta": {"dtype": "f32"}},
    ),
    noqa_line=3,
)


@pytest.mark.parametrize(
    "diagnostic",
    [FULL, Diagnostic("E999", "SyntaxError: x", "m.py", _range(1, 0, 1, 0))],
    ids=["every-field", "minimal"],
)
def test_round_trip_through_json_is_lossless(diagnostic):
    data = json.loads(json.dumps(diagnostic_to_dict(diagnostic)))
    restored = diagnostic_from_dict(data)
    assert restored == diagnostic
    assert isinstance(restored.calculator[1]["block_shape"] if restored.calculator else (), tuple)


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("code"),
        lambda d: d.update(range=[1, 2, 3]),
        lambda d: d.update(severity="loud"),
        lambda d: d.update(fix={"message": "x"}),
        lambda d: d.update(related=[{"path": "x"}]),
    ],
)
def test_damaged_data_raises_serialization_error(damage):
    data = diagnostic_to_dict(FULL)
    damage(data)
    with pytest.raises(SerializationError):
        diagnostic_from_dict(data)
