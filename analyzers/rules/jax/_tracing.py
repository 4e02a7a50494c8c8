"""Helpers the tracing rules share: what counts as traced, and how to describe it."""

from __future__ import annotations

import ast
from collections.abc import Collection

from xlalens.analyzers.core.diagnostics import RelatedLocation, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.knowledge.transforms import ParamTracing, transform_spec
from xlalens.analyzers.models.tracing.traced_functions import TracedFunction
from xlalens.analyzers.semantics.names import Scope
from xlalens.analyzers.semantics.values import Array, Dict, Instance, Seq, TracedTree, Value

_MAX_SNIPPET = 30


def is_traced_leaf(value: Value) -> bool:
    """A traced array, or a traced argument whose leaves are all tracers.

    Converting either to a Python scalar or a NumPy array fails, whatever its structure.
    """
    if isinstance(value, Array):
        return value.traced
    return isinstance(value, TracedTree) and not value.arrays_only


def holds_traced_leaf(value: Value) -> bool:
    """A traced leaf, or a list, tuple or dict with one somewhere inside (its text shows a tracer)."""
    if isinstance(value, Seq):
        return any(holds_traced_leaf(item) for item in value.items)
    if isinstance(value, Dict):
        return any(holds_traced_leaf(item) for item in value.values)
    if isinstance(value, Instance) and value.fields is not None:
        # A NamedTuple or dataclass prints its fields; passed into a transform, its arrays are tracers.
        return any(holds_traced_leaf(item) or (value.traced and isinstance(item, Array)) for _, item in value.fields)
    return is_traced_leaf(value)


def snippet(ctx: CheckContext, node: ast.AST) -> str:
    """The source of ``node`` on one line, shortened for a message."""
    return shorten(ctx.segment(node), _MAX_SNIPPET)


def traced_sentence(ctx: CheckContext) -> str:
    """The detail's first sentence, how the current function comes to be traced: ```step` is called
    from `train`, traced by `jax.jit`.``"""
    return f"`{function_name(ctx)}` is {traced_by(ctx)}."


def describe(value: Value) -> str:
    """``traced float32[3]`` when the type is known, ``traced value`` otherwise."""
    if isinstance(value, Array) and value.dtype and value.shape is not None:
        return f"traced {value.describe()}"
    return "traced value"


def transform_name(ctx: CheckContext) -> str:
    """The transform that traces the current function, for messages (``jax.jit``)."""
    traced = ctx.traced_function
    return traced.via if traced is not None and traced.via else "a JAX transform"


def traced_by(ctx: CheckContext) -> str:
    """How the current function comes to be traced, for messages: ``traced by `jax.jit```, or for a
    helper, ``called from `step`, traced by `jax.jit``` (``step ← train`` when the chain is longer)."""
    callers = _callers(ctx)
    if not callers:
        return f"traced by `{transform_name(ctx)}`"
    return f"called from `{' ← '.join(callers)}`, traced by `{transform_name(ctx)}`"


def _callers(ctx: CheckContext) -> list[str]:
    """The traced functions whose calls reach the current one, nearest first (a few at most)."""
    names: list[str] = []
    info = ctx.traced_function
    while info is not None and info.called_from is not None and len(names) < 4:
        names.append(getattr(info.called_from, "name", "<lambda>"))
        info = ctx.traced.get(id(info.called_from))
    return names


def function_name(ctx: CheckContext) -> str:
    """The current function's name, or ``<lambda>``."""
    node = ctx.scope.enclosing_function()
    if node is None:
        return "<module>"
    return getattr(node.node, "name", "<lambda>")


def traced_here(ctx: CheckContext, expr: ast.AST) -> tuple[RelatedLocation, ...]:
    """Where the current function is traced, and which of its arguments make ``expr`` a tracer.

    The location is the decorator or the call (``jax.jit(f)``) that traces the function, or the
    one that traces the function it is nested in. The message names the transform and the
    arguments ``expr`` depends on (directly or through local assignments) and why they are
    traced, e.g. "`loss_fn` is traced here by `jax.jit`; `x` is not in `static_argnames`, so it
    is a tracer". Empty when the tracing site is unknown.
    """
    function = ctx.scope.enclosing_function()
    traced = ctx.traced_function
    if function is None or traced is None:
        return ()
    if traced.called_from is not None:
        caller = getattr(traced.called_from, "name", "<lambda>")
        message = f"`{function_name(ctx)}` is called here from `{caller}` ({_caller_traced_by(ctx, traced)})"
        passed = ctx.interpreter.call_site_params(function.node) or {}  # type: ignore[arg-type]
        params = _traced_arguments(expr, function, {name for name, value in passed.items() if is_traced_leaf(value)})[0]
        if params:
            which = "argument" if len(params) == 1 else "arguments"
            message += f"; its {which} {_quoted(params)} {'is' if len(params) == 1 else 'are'} traced there"
        return (RelatedLocation(ctx.path, ctx.source.node_range(traced.sites[0]), message),)
    origin = _tracing_origin(ctx, function, traced)
    if origin is None:
        return ()
    owner_scope, owner = origin
    owner_name = getattr(owner_scope.node, "name", "<lambda>")
    message = f"`{owner_name}` is traced here by `{owner.via}`"
    if owner is not traced:
        message += f" and `{function_name(ctx)}` runs inside it"
    reason = _reason(expr, function, traced)
    if reason:
        message += f"; {reason}"
    return (RelatedLocation(ctx.path, ctx.source.node_range(owner.sites[0]), message),)


def _tracing_origin(ctx: CheckContext, function: Scope, traced: TracedFunction) -> tuple[Scope, TracedFunction] | None:
    """The function (this one or an enclosing one) whose decorator or call traces it."""
    scope: Scope | None = function
    info: TracedFunction | None = traced
    while scope is not None and info is not None:
        if info.sites and not info.inherited:
            return scope, info
        scope = scope.parent.enclosing_function() if scope.parent is not None else None
        info = ctx.traced.get(id(scope.node)) if scope is not None else None
    return None


def _names(expr: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _assigned_from(function: ast.AST) -> dict[str, set[str]]:
    """Local name -> the names read by the expressions assigned to it."""
    sources: dict[str, set[str]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, ast.For | ast.AsyncFor):
            targets, value = [node.target], node.iter
        else:
            continue
        read = _names(value)
        if isinstance(node, ast.AugAssign):
            read |= _names(node.target)
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and not isinstance(name.ctx, ast.Load):
                    sources.setdefault(name.id, set()).update(read)
    return sources


def _caller_traced_by(ctx: CheckContext, traced: TracedFunction) -> str:
    """How the caller of a helper is traced, for the related location's message."""
    caller = ctx.traced.get(id(traced.called_from)) if traced.called_from is not None else None
    if caller is not None and caller.called_from is not None:
        return f"which `{getattr(caller.called_from, 'name', '<lambda>')}` calls, traced by `{traced.via}`"
    return f"traced by `{traced.via}`"


def _traced_arguments(expr: ast.AST, function: Scope, params: Collection[str]) -> tuple[list[str], list[str]]:
    """The parameters among ``params`` that ``expr`` reads, and the local names it reads them through."""
    direct = _names(expr)
    found = sorted(direct.intersection(params))
    if found:
        return found, []
    sources = _assigned_from(function.node)
    through = sorted(name for name in direct if name in sources and name not in params)
    seen = set(through)
    pending = list(through)
    reached: set[str] = set()
    while pending:
        for name in sources.get(pending.pop(), ()):
            if name in params:
                reached.add(name)
            elif name in sources and name not in seen:
                seen.add(name)
                pending.append(name)
    return sorted(reached), through if reached else []


def _quoted(names: list[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _reason(expr: ast.AST, function: Scope, traced: TracedFunction) -> str:
    """Why ``expr`` is traced: the arguments behind it and what makes them tracers."""
    arguments, through = _traced_arguments(expr, function, traced.traced_params.keys())
    if not arguments:
        return "values computed inside a traced function are traced too" if traced.stages else ""
    one = len(arguments) == 1
    verb, consequence = ("is", "so it is a tracer") if one else ("are", "so they are tracers")
    spec = transform_spec(traced.via)
    if {traced.traced_params[a] for a in arguments} == {ParamTracing.ARRAYS_ONLY}:
        why = f"{verb} {'an array argument' if one else 'array arguments'}, {consequence}"
    elif spec is not None and spec.params is ParamTracing.IN_AXES:
        why = f"{verb} mapped over (`in_axes` is not None), {consequence}"
    elif spec is not None and spec.static_keywords:
        keyword = "static_argnames" if "static_argnames" in spec.static_keywords else spec.static_keywords[0]
        why = f"{verb} not in `{keyword}`, {consequence}"
    else:
        kind = "an argument" if one else "arguments"
        why = f"{verb} {kind} of a function traced by `{traced.via}`, {consequence}"
    if through:
        computed = "is computed" if len(through) == 1 else "are computed"
        return f"{_quoted(through)} {computed} from {_quoted(arguments)}, which {why}"
    return f"{_quoted(arguments)} {why}"
