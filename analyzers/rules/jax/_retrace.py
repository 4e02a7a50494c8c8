"""Helpers the retracing rules (JX2xx) share.

Each finding predicts how many compiles a loop causes, quotes JAX's own explanation of the cache
miss between two consecutive calls (the text ``jax_explain_cache_misses`` logs), and hands the
``retrace`` calculator three consecutive calls in its text notation, so the hover and the live
calculator replay them. The explanation is computed by that same calculator, so the message, the
hover and the live page always agree.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.models.tracing.jit_wrappers import BoundArgument, JitWrapper
from xlalens.analyzers.semantics.loops import Counter, Loop
from xlalens.analyzers.semantics.names import FunctionNode, Scope
from xlalens.analyzers.semantics.values import Array, Const, Dict, Seq, Value
from xlalens.explainers.calculators import dtypes

CALLS_SHOWN = 3
"""Consecutive calls handed to the calculator: enough to show that every call misses."""


def _dtype(name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return dtypes.canonical(name)
    except ValueError:
        return None


def aval_text(value: Value) -> str | None:
    """A value in the retrace calculator's notation (``f32[8,128]``, ``~f32[]``, ``(a, b)``); None if unknown.

    Examples:
        >>> aval_text(Array((2, 3), "float32")), aval_text(Const(1.0)), aval_text(Const(True))
        ('f32[2,3]', '~f32[]', 'bool[]')
        >>> aval_text(Seq((Const(1), Array((), "int32")), is_list=True))
        '[~i32[], i32[]]'
    """
    if isinstance(value, Array):
        dtype = _dtype(value.dtype)
        if dtype is None or value.shape is None or None in value.shape:
            return None
        return dtypes.aval(dtype, value.shape, value.weak_type and dtype != "bool")
    if isinstance(value, Const):
        if value.value is None:
            return "None"
        if type(value.value) is bool:
            return "bool[]"
        if type(value.value) is int:
            return "~i32[]"
        if type(value.value) is float:
            return "~f32[]"
        return None
    if isinstance(value, Seq):
        items = [aval_text(item) for item in value.items]
        if None in items:
            return None
        inner = ", ".join(items)  # type: ignore[arg-type]
        if value.is_list:
            return f"[{inner}]"
        return f"({inner},)" if len(items) == 1 else f"({inner})"
    if isinstance(value, Dict):
        if not all(isinstance(k, str) and k.isidentifier() for k in value.keys):
            return None
        entries = [aval_text(item) for item in value.values]
        if None in entries:
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in zip(value.keys, entries, strict=True)) + "}"
    return None


def static_text(value: object) -> str | None:
    """A static argument's value in the calculator's notation (``static(3)``); None if not a plain literal."""
    if value is None or type(value) in (bool, int, float, str):
        return f"static({value!r})"
    return None


@dataclass(frozen=True, slots=True)
class Varying:
    """One argument that differs between calls: its text in each of :data:`CALLS_SHOWN` calls."""

    argument: BoundArgument
    texts: tuple[str, ...]


def calls_text(
    ctx: CheckContext,
    arguments: Sequence[BoundArgument],
    varying: Sequence[Varying] = (),
    fresh_function: bool = False,
    require_known: bool = False,
) -> str | None:
    """Three consecutive calls in the calculator's notation.

    Arguments that are the same in every call keep their type when it is known; otherwise they
    are written ``None`` (for a traced argument) or ``static(None)``: a placeholder that is equal
    in every call, so it never shows up as a difference but keeps the positions JAX reports. With
    ``require_known``, an unknown argument gives None instead.
    """
    by_expr = {id(v.argument.expr): v for v in varying}
    calls: list[str] = []
    for number in range(CALLS_SHOWN):
        parts = ["fn:new"] if fresh_function and number else []
        for argument in arguments:
            name = argument.label if argument.label.isidentifier() else f"arg{(argument.position or 0) + 1}"
            separator = "=" if argument.keyword else ":"
            change = by_expr.get(id(argument.expr))
            if change is not None:
                parts.append(f"{name}{separator}{change.texts[number]}")
                continue
            value = ctx.value(argument.expr)
            if argument.static:
                known = static_text(value.value) if isinstance(value, Const) else None
                placeholder = "static(None)"
            else:
                known = aval_text(value)
                placeholder = "None"
            if known is None and require_known:
                return None
            parts.append(f"{name}{separator}{known or placeholder}")
        calls.append(" ".join(parts) if parts else "fn:new")
    return "; ".join(calls)


def explanation(calls: str) -> str | None:
    """JAX's explanation of the miss at the second call, on one line, as ``jax_explain_cache_misses`` logs it."""
    from xlalens.explainers.calculators.retrace import RetraceInputs, compute_retrace, parse_calls

    try:
        result = compute_retrace(RetraceInputs(parse_calls(calls)))
    except ValueError:
        return None
    outcome = result.outcomes[1]
    if outcome.hit:
        return None
    return " ".join(outcome.explanation)


def loop_text(loop: Loop, ctx: CheckContext) -> str:
    """``range(1000)`` for a ``for`` loop over it, ``while i < n`` otherwise, for counts."""
    iterable = loop.iterable
    if iterable is not None:
        text = " ".join(ctx.segment(iterable).split())
        return text if len(text) <= 40 else loop.header(ctx)
    return loop.header(ctx)


def compile_count(loop: Loop, counter: Counter | None, ctx: CheckContext, total: int | None = None) -> str:
    """``1 compile per iteration: 1,000 compiles for range(1000)``, with the total when the trip count is known.

    ``total`` is the number of distinct keys when it is known to differ from the trip count (a
    slice that stops growing at the end of its array): ``1 compile per new shape: 100 compiles``.
    """
    trip = counter.trip_count if counter is not None and counter.loop is loop else None
    text = "1 compile per iteration"
    if total is not None and total != trip:
        text = "1 compile per new shape"
    total = trip if total is None else total
    if total is None:
        return f"{text} of `{loop.header(ctx)}`"
    return f"{text}: {total:,} compile{'' if total == 1 else 's'} for {loop_text(loop, ctx)}"


def compile_total(loop: Loop, counter: Counter | None, total: int | None = None, *, bounded: bool = False) -> str:
    """``20 compiles`` when the trip count (or ``total``, see :func:`compile_count`) is known, for headlines;
    ``1 compile per iteration`` otherwise. ``bounded``: the count is the trip count, but an argument
    that stops changing before the loop ends may need fewer (``up to 20 compiles``)."""
    if total is not None:
        return f"{total:,} compile{'' if total == 1 else 's'}"
    trip = counter.trip_count if counter is not None and counter.loop is loop else None
    if trip is None:
        return "1 compile per iteration"
    return f"{'up to ' if bounded else ''}{trip:,} compile{'' if trip == 1 else 's'}"


def call_label(call: ast.Call, ctx: CheckContext) -> str:
    """The called expression, shortened for messages (``step``, ``jax.jit(...)``)."""
    text = " ".join(ctx.segment(call.func).split())
    return text if len(text) <= 30 else text[:29] + "…"


def captures_per_run_values(
    wrapper: JitWrapper,
    varying: Collection[str],
    ctx: CheckContext,
    function: FunctionNode | None = None,
    *,
    bound_by_partial: bool = True,
) -> bool:
    """Whether the jitted program itself depends on names that change from run to run (``varying``).

    A jitted closure that reads a loop variable or an enclosing function's parameter bakes its
    value into the program, and so does a ``jax.jit`` option built from one (``out_shardings=
    shardings[layer]``). When that value is an array, jitting once and passing it as an argument
    removes the recompiles; when it is anything else (a block size, a spec, a config) every run
    needs its own program anyway, so there is nothing to hoist. Unknown values count as the latter.
    So do values a ``functools.partial`` binds (``bound_by_partial``), unless the caller judges
    them itself (a function's parameters change only when its callers pass different ones).
    """
    option_names = {n.id for expr in wrapper.keywords.values() for n in ast.walk(expr) if isinstance(n, ast.Name)}
    if option_names & set(varying):
        return True
    if bound_by_partial and _binds_per_run_values(wrapper.wrapped, varying, ctx):
        return True
    # A decorated `def` is the function even when other transforms sit between it and the jit.
    function = function or wrapper.function.target
    if function is None:
        return False
    scope = ctx.index.scope_of(function)
    own = set(scope.bindings) if scope is not None else set()
    body = [function.body] if isinstance(function, ast.Lambda) else function.body
    return _reads_per_run_value(body, varying, ctx, scope or ctx.scope, own)


def _reads_per_run_value(
    exprs: Sequence[ast.AST], varying: Collection[str], ctx: CheckContext, scope: Scope, own: Collection[str] = ()
) -> bool:
    """Whether ``exprs`` (in ``scope``) read a name of ``varying`` (other than ``own``) whose value is not
    an array: a value that makes a program of its own each run."""
    for expr in exprs:
        for node in ast.walk(expr):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in varying:
                if node.id in own:
                    continue
                value = ctx.interpreter.value_of(node, scope)
                if not (isinstance(value, Array) and value.library in ("jax", "numpy")):
                    return True
    return False


def _binds_per_run_values(wrapped: ast.expr | None, varying: Collection[str], ctx: CheckContext) -> bool:
    """Whether the expression given to the transform binds values that change from run to run:
    ``jax.jit(partial(attention, block_q=bq))`` in a loop over block sizes makes a program per size
    (bound values are constants of the program), as a closure over ``bq`` would."""
    if not (isinstance(wrapped, ast.Call) and ctx.qualname(wrapped.func) == "functools.partial" and wrapped.args):
        return False
    bound = [*wrapped.args[1:], *(keyword.value for keyword in wrapped.keywords)]
    if _reads_per_run_value(bound, varying, ctx, ctx.scope):
        return True
    return _binds_per_run_values(wrapped.args[0], varying, ctx)
