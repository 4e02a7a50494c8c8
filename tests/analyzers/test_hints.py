"""The span-hint registry: providers register once by name and all of them run for a module."""

from __future__ import annotations

import ast

import pytest
from xlalens.analyzers.annotate import span_hints
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.hints import hint_providers, register_hint_provider
from xlalens.analyzers.semantics.names import ModuleIndex

PALLAS = """
import jax.numpy as jnp
from jax.experimental import pallas as pl
x = jnp.ones((1000, 128))
spec = pl.BlockSpec((200, 128), lambda i: (i, 0))
y = pl.pallas_call(lambda x_ref, o_ref: None, out_shape=x, grid=(5,), in_specs=[spec], out_specs=spec)(x)
"""


def _hints(source: str) -> list:
    index = ModuleIndex(ast.parse(source), {ast.Call})
    return span_hints(index, module_interpreter(index), SourceText(source))


def test_a_second_provider_under_a_taken_name_is_refused_with_the_known_names() -> None:
    with pytest.raises(ValueError, match=r"known providers: .*pallas"):
        register_hint_provider("pallas", lambda index, interpreter, text: [])


def test_span_hints_runs_the_builtin_providers_in_source_order() -> None:
    hints = _hints(PALLAS)
    assert "pallas" in hint_providers()
    assert [(h.target, h.calculator) for h in hints] == [("block", "blockspec"), ("grid", "blockspec")]
    assert [h.position for h in hints] == sorted(h.position for h in hints)
    assert all(h.inputs for h in hints)
