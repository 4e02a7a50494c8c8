"""Findings that predict an exception stay silent where the code expects that exception."""

from __future__ import annotations

import textwrap

import pytest
from xlalens.analyzers.api import check_source
from xlalens.analyzers.knowledge import exceptions

_JITTED_BRANCH = """
import jax
import jax.numpy as jnp
import pytest
import unittest

{body}
"""


def _codes(body: str) -> list[tuple[int, str]]:
    source = _JITTED_BRANCH.format(body=textwrap.dedent(body))
    return [(d.range.start.line, d.code) for d in check_source(source, "case.py")]


@pytest.mark.parametrize(
    "guard",
    [
        "with pytest.raises(TypeError):",
        "with pytest.raises((ValueError, jax.errors.ConcretizationTypeError)):",
        "with self.assertRaisesRegex(jax.errors.TracerBoolConversionError, 'bool'):",
    ],
)
def test_expecting_contexts_silence_the_predicted_error(guard: str) -> None:
    body = f"""
    class T(unittest.TestCase):
        def test_it(self):
            {guard}
                jax.jit(lambda v: v if v > 0 else -v)(1.0)
    """
    assert _codes(body) == []


@pytest.mark.parametrize("handler", ["except TypeError:", "except (KeyError, jax.errors.JAXTypeError):"])
def test_a_try_that_catches_the_error_or_a_base_silences_it(handler: str) -> None:
    body = f"""
    try:
        jax.jit(lambda v: v if v > 0 else -v)(1.0)
    {handler}
        pass
    """
    assert _codes(body) == []


@pytest.mark.parametrize("handler", ["except Exception:", "except:", "except ValueError:"])
def test_broad_or_unrelated_handlers_do_not(handler: str) -> None:
    body = f"""
    try:
        jax.jit(lambda v: v if v > 0 else -v)(1.0)
    {handler}
        pass
    """
    assert [code for _, code in _codes(body)] == ["JX101"]


def test_a_helper_called_only_inside_the_expecting_block_is_expected() -> None:
    body = """
    @jax.jit
    def clip(v):
        if v > 0:
            return v
        return -v

    def test_clip_rejects_branches():
        with pytest.raises(jax.errors.TracerBoolConversionError):
            clip(1.0)
    """
    assert _codes(body) == []


def test_a_helper_also_called_outside_is_still_reported() -> None:
    body = """
    @jax.jit
    def clip(v):
        if v > 0:
            return v
        return -v

    def test_clip_rejects_branches():
        with pytest.raises(jax.errors.TracerBoolConversionError):
            clip(1.0)

    clip(2.0)
    """
    assert [code for _, code in _codes(body)] == ["JX101"]


def test_findings_that_raise_nothing_are_reported_anyway() -> None:
    body = """
    with pytest.raises(TypeError):
        jax.jit(lambda v: print(v))(1.0)
    """
    assert [code for _, code in _codes(body)] == ["JX106"]


def test_the_bases_table_matches_jax() -> None:
    errors = pytest.importorskip("jax.errors")
    sharding = pytest.importorskip("jax._src.sharding")
    for name in exceptions._JAX_BASES:
        cls = getattr(errors, name, None) or getattr(sharding, name, None)
        if cls is None:
            named_sharding = pytest.importorskip("jax._src.named_sharding")
            cls = getattr(named_sharding, name)
        real = [k.__name__ for k in cls.__mro__ if k.__name__ not in ("object", "_JAXErrorMixin")]
        assert list(exceptions.bases(name)) == real, name
