"""The promotion table agrees with JAX for every pair of supported dtypes and weak types."""

from __future__ import annotations

import itertools

import pytest
from xlalens.analyzers.knowledge.promotion import SUPPORTED_DTYPES, result_type

jnp = pytest.importorskip("jax.numpy")

_WEAK_DTYPES = ("int32", "float32", "complex64")
"""The dtypes a weakly typed value can have: those of Python int, float and complex scalars."""

_OPERANDS = [(d, False) for d in SUPPORTED_DTYPES] + [(d, True) for d in _WEAK_DTYPES]


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
    out = jnp.add(left, right)
    assert result_type(a, b) == (str(out.dtype), bool(out.weak_type))
    assert str(jnp.result_type(left, right)) == out.dtype
