"""Hints for matmuls whose operand shapes are known: arithmetic intensity, and the roofline on hover.

``a @ b``, ``jnp.matmul(a, b)`` and ``jnp.dot(a, b)`` of two JAX arrays with known shapes and one
dtype, where ``b`` is a matrix ``(k, n)`` and ``a`` is ``(..., k)``, do ``2·m·k·n`` FLOPs (``m`` the
product of ``a``'s leading dimensions) and move at least ``(m·k + k·n + m·n)·itemsize`` bytes. The
hint's label is that intensity in FLOP per byte, which does not depend on the chip; a hover shows
the roofline calculator's table for it (on the calculator's default chip, which the reader can
change). ``@`` is looked for in assignments, where most matmuls whose operands are known sit.

Examples:
    >>> code = '''
    ... import jax.numpy as jnp
    ... x = jnp.ones((4096, 8192), jnp.bfloat16)
    ... w = jnp.ones((8192, 8192), jnp.bfloat16)
    ... y = x @ w
    ... '''
    >>> from xlalens.analyzers.annotate import hints_for_source
    >>> [(hint.label, dict(hint.inputs)) for hint in hints_for_source(code, "matmul")]
    [('2,048 FLOP/B', {'m': 4096, 'k': 8192, 'n': 8192, 'dtype': 'bf16'})]
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex, Scope
from xlalens.analyzers.semantics.values import Array
from xlalens.explainers.calculators import dtypes

ROOFLINE_CALCULATOR = "roofline"
_MATMUL_CALLS = frozenset({"jax.numpy.matmul", "jax.numpy.dot"})


def matmul_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """A hint for every matmul whose operands' shapes and dtype are known, in source order."""
    hints = []
    for node, left, right, scope in _matmuls(index):
        hint = _hint(node, interpreter.value_of(left, scope), interpreter.value_of(right, scope), text)
        if hint is not None:
            hints.append(hint)
    return sorted(hints, key=lambda hint: hint.position)


register_hint_provider("matmul", matmul_hints)


def _matmuls(index: ModuleIndex) -> Iterator[tuple[ast.expr, ast.expr, ast.expr, Scope]]:
    for node, scope in index.nodes.get(ast.Call, []):
        assert isinstance(node, ast.Call)
        if len(node.args) == 2 and not node.keywords and index.qualname(node.func, scope) in _MATMUL_CALLS:
            yield node, node.args[0], node.args[1], scope
    for node, scope in index.nodes.get(ast.Assign, []):
        assert isinstance(node, ast.Assign)
        for found in _binops(node.value):
            yield found, found.left, found.right, scope


def _binops(expr: ast.expr) -> Iterator[ast.BinOp]:
    """``@`` operations in an expression, not inside lambdas or comprehensions (other scopes)."""
    stack: list[ast.AST] = [expr]
    while stack:
        current = stack.pop()
        if isinstance(current, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.MatMult):
            yield current
        stack.extend(ast.iter_child_nodes(current))


def _known(value: object) -> tuple[int, ...] | None:
    if not isinstance(value, Array) or value.library != "jax" or value.shape is None:
        return None
    if any(not isinstance(dim, int) for dim in value.shape):
        return None
    return tuple(int(dim) for dim in value.shape)


def _hint(node: ast.expr, left: object, right: object, text: SourceText) -> SpanHint | None:
    left_shape, right_shape = _known(left), _known(right)
    if left_shape is None or right_shape is None or len(left_shape) < 1 or len(right_shape) != 2:
        return None
    assert isinstance(left, Array) and isinstance(right, Array)
    if left.dtype is None or left.dtype != right.dtype or left_shape[-1] != right_shape[0]:
        return None
    try:
        dtype = dtypes.lookup(left.dtype)
    except ValueError:
        return None
    if dtype.kind in ("bool", "complex"):
        return None
    m, k, n = math.prod(left_shape[:-1]), right_shape[0], right_shape[1]
    if min(m, k, n) < 1:
        return None
    flops = 2 * m * k * n
    intensity = flops / dtype.nbytes(m * k + k * n + m * n)
    return SpanHint(
        position=text.node_range(node).end,
        target="matmul",
        label=f"{intensity:,.0f} FLOP/B",
        description=(
            f"({m}, {k}) @ ({k}, {n}) {dtype.short}: {flops:,} FLOPs over at least "
            f"{dtype.nbytes(m * k + k * n + m * n):,} bytes, {intensity:,.1f} FLOP per byte"
        ),
        span=text.node_range(node),
        calculator=ROOFLINE_CALCULATOR,
        inputs={"m": m, "k": k, "n": n, "dtype": dtype.short},
    )
