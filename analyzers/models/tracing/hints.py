"""Inlay hints for loop carries: the carry type of each ``scan``/``fori_loop``/``while_loop`` call.

A loop is compiled for one carry type. When the initial carry and the body's output are both
known leaf by leaf, the call gets a hint after its initial carry with the type the loop runs
with (``carry (f32[3], ~i32[])``; ``~`` marks a weakly typed leaf), after JAX's weak-type
promotion, and a hover over the call shows the carry-check calculator's verdict for it.

Examples:
    >>> code = '''
    ... import jax.numpy as jnp
    ... from jax import lax
    ... total = lax.fori_loop(0, 3, lambda i, c: (c[0] + 1.5, c[1] * 2), (0, jnp.zeros(3)))
    ... '''
    >>> from xlalens.analyzers.annotate import hints_for_source
    >>> [hint.label for hint in hints_for_source(code, "carry")]
    ['carry (f32[], f32[3])']
"""

from __future__ import annotations

import ast

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.models.tracing.carry_checks import carry_text, check_carry
from xlalens.analyzers.models.tracing.carry_types import promote_weak
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.scope_view import ScopeView

CARRY_CALCULATOR = "carry-check"


def carry_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """A hint for every loop call whose initial carry and body output types are known, in source order."""
    view = ScopeView(index, interpreter, text)
    hints: list[SpanHint] = []
    for node, scope in index.nodes.get(ast.Call, []):
        assert isinstance(node, ast.Call)
        if index.qualname(node.func, scope) not in lax_control_flow.LOOPS:
            continue
        view.scope = scope
        check = check_carry(node, view)
        if check is None or check.init_type is None or check.out_type is None:
            continue
        promoted = promote_weak(check.init_type, check.out_type)
        carry = carry_text(promoted)
        if carry is None:
            continue
        if check.mismatches:
            verdict = "the body returns another type, so JAX rejects it (see the diagnostic)"
        elif promoted != check.init_type:
            verdict = "JAX promotes the weakly typed initial leaves to the body's dtypes"
        else:
            verdict = "the body returns the same type"
        hints.append(
            SpanHint(
                position=text.node_range(check.init).end,
                target="carry",
                label=f"carry {carry}",
                description=f"The {check.loop} runs with the carry type {carry}; {verdict}.",
                span=text.node_range(node),
                calculator=CARRY_CALCULATOR,
                inputs=check.calculator_inputs(),
            )
        )
    return sorted(hints, key=lambda hint: hint.position)


register_hint_provider("carry", carry_hints)
