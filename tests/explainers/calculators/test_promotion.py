"""The promotion table agrees with JAX for every pair of supported dtypes and weak types."""

from __future__ import annotations

import itertools

import pytest
from xlalens.explainers.calculators.dtypes import PROMOTABLE_DTYPES, result_type

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

_WEAK_DTYPES = ("int32", "float32", "complex64")
"""The dtypes a weakly typed value can have: those of Python int, float and complex scalars."""

_NARROW_DTYPES = ("int4", "float8_e4m3fn", "float8_e5m2")
"""Dtypes JAX promotes only to few others (or none): the table must refuse the rest, as JAX does."""

_OPERANDS = [(d, False) for d in (*PROMOTABLE_DTYPES, *_NARROW_DTYPES)] + [(d, True) for d in _WEAK_DTYPES]


def _operand(dtype: str, weak: bool) -> object:
    """A zero of ``dtype``, weakly typed when ``weak`` (``jnp.asarray`` of a Python scalar is weak)."""
    if weak:
        value = jnp.asarray({"int32": 0, "float32": 0.0, "complex64": 0j}[dtype])
        assert value.weak_type
        return value
    return jnp.zeros((), dtype)


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations_with_replacement(_OPERANDS, 2)))
def test_matches_jax(a: tuple[str, bool], b: tuple[str, bool]) -> None:
    left, right = _operand(*a), _operand(*b)
    try:
        out = jnp.result_type(left, right)
    except jax.dtypes.TypePromotionError:
        with pytest.raises(ValueError, match="no implicit promotion path"):
            result_type(a, b)
        return
    added = jnp.add(left, right)
    assert str(out) == added.dtype
    assert result_type(a, b) == (str(added.dtype), bool(added.weak_type))
