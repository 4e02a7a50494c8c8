"""Helpers the tracing rules share: what counts as traced, and how to describe it."""

from __future__ import annotations

import ast

from xlalens.analyzers.context import CheckContext
from xlalens.analyzers.values import Array, TracedTree, Value

_MAX_SNIPPET = 40


def is_traced_leaf(value: Value) -> bool:
    """A traced array, or a traced argument whose leaves are all tracers.

    Converting either to a Python scalar or a NumPy array fails, whatever its structure.
    """
    if isinstance(value, Array):
        return value.traced
    return isinstance(value, TracedTree) and not value.arrays_only


def snippet(ctx: CheckContext, node: ast.AST) -> str:
    """The source of ``node`` on one line, shortened for a message."""
    text = " ".join(ctx.segment(node).split())
    return text if len(text) <= _MAX_SNIPPET else text[: _MAX_SNIPPET - 1] + "…"


def describe(value: Value) -> str:
    """``traced float32[3]`` when the type is known, ``traced value`` otherwise."""
    if isinstance(value, Array) and value.dtype and value.shape is not None:
        return f"traced {value.describe()}"
    return "traced value"


def transform_name(ctx: CheckContext) -> str:
    """The transform that traces the current function, for messages (``jax.jit``)."""
    traced = ctx.traced_function
    return traced.via if traced is not None and traced.via else "a JAX transform"


def module_alias(ctx: CheckContext, module: str, preferred: str | None = None) -> str | None:
    """A name that refers to ``module`` at the current node: ``preferred`` if it does, else any module-level name.

    Fixes use it to spell ``jax.debug.print`` or ``jnp.sin`` the way the file imports them.
    """
    candidates = ctx.index.module_scope.bindings if preferred is None else (preferred, *ctx.index.module_scope.bindings)
    for name in candidates:
        if ctx.index.resolve_name(name, ctx.scope) == module:
            return name
    return None


def function_name(ctx: CheckContext) -> str:
    """The current function's name, or ``<lambda>``."""
    node = ctx.scope.enclosing_function()
    if node is None:
        return "<module>"
    return getattr(node.node, "name", "<lambda>")
