"""How PRNG keys flow through the module's functions: which parameters a function uses up, and which
it hands back.

A key may be used by one consumer only (a sampler or ``split``). Real code passes keys to helpers:
``dropout(x, key)`` uses up ``key`` as surely as ``jax.random.bernoulli(key, ...)`` does, and
``random_crop(key, images)`` may return the very key it used. A :class:`KeySummary` per function
says so, computed from its body and, through the call graph, from the helpers it calls.

Examples:
    >>> import ast
    >>> from xlalens.analyzers.semantics.names import ModuleIndex
    >>> code = '''
    ... import jax
    ... def noise(key, shape):
    ...     return jax.random.normal(key, shape), key
    ... def twice(key):
    ...     return noise(key, (2,))
    ... '''
    >>> index = ModuleIndex(ast.parse(code), [ast.Call])
    >>> summaries = key_summaries(index)
    >>> [(fn.name, s.consumes, s.returns) for fn, s in summaries.items()]
    [('noise', {0: frozenset({'sample'})}, {1: 0}), ('twice', {0: frozenset({'sample'})}, {})]
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from xlalens.analyzers.knowledge.randomness import consumer_kind
from xlalens.analyzers.semantics.calls import CallSite, call_graph
from xlalens.analyzers.semantics.loops import walk_scope
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex, Scope, positional_params

_ROUNDS = 4
"""How many times one function's summary is recomputed as its callees' summaries change."""


@dataclass(frozen=True)
class KeySummary:
    """What a function does with the keys it is given.

    Attributes:
        consumes: Position of each parameter whose key the function (or a helper it calls) uses up -> how
            it is used up (``sample``, ``split``; two draws from one key are the same bits, a draw and a
            split are not).
        returns: For a function that returns a parameter unchanged: the position in the returned
            tuple (``-1`` for the whole return value) -> the parameter's position.
    """

    consumes: dict[int, frozenset[str]] = field(default_factory=dict)
    returns: dict[int, int] = field(default_factory=dict)


def key_summaries(index: ModuleIndex) -> dict[FunctionNode, KeySummary]:
    """Every ``def`` of the module that uses up or hands back a parameter as a key (built once per check)."""
    return index.derived("key-summaries", _summaries)


def _summaries(index: ModuleIndex) -> dict[FunctionNode, KeySummary]:
    # Only functions that reach a `jax.random` consumer can use up a key: start from the functions
    # around each consumer and go up the call graph from the summaries that change, instead of
    # walking every function of the module.
    calls: dict[int, list[ast.Call]] = {}
    scopes: dict[int, Scope] = {}
    work: list[Scope] = []

    def note(call: ast.Call, scope: Scope | None) -> None:
        while scope is not None:
            if isinstance(scope.node, ast.FunctionDef | ast.AsyncFunctionDef):
                # Nested functions count: a closure over the key (`def loss_fn(p): ... dropout(h, key)`)
                # is almost always called where it is defined.
                mine = calls.setdefault(id(scope.node), [])
                if all(c is not call for c in mine):
                    mine.append(call)
                scopes[id(scope.node)] = scope
                work.append(scope)
            scope = scope.parent

    for call, scope in index.nodes.get(ast.Call, ()):
        if _key_argument(call) is not None and consumer_kind(index.qualname(call.func, scope)) is not None:
            note(call, scope)
    if not work:
        return {}
    graph = call_graph(index)
    found: dict[FunctionNode, KeySummary] = {}
    passes: dict[int, int] = {}
    while work:
        scope = work.pop()
        key = id(scope.node)
        passes[key] = passes.get(key, 0) + 1
        if passes[key] > _ROUNDS:
            continue
        summary = _summarize(index, scope, calls[key], found)
        if summary != found.get(scope.node, KeySummary()):  # type: ignore[arg-type]
            found[scope.node] = summary  # type: ignore[index]
            for site in graph.sites_of(scope.node):  # type: ignore[arg-type]
                note(site.call, site.caller)
    return {node: s for node, s in found.items() if s.consumes or s.returns}


def _summarize(
    index: ModuleIndex, scope: Scope, calls: list[ast.Call], known: dict[FunctionNode, KeySummary]
) -> KeySummary:
    node = scope.node
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    held = index.derived("key-parameters-held", lambda _: {})
    if id(node) not in held:
        held[id(node)] = _parameters_held(node)
    position, returns = held[id(node)]
    consumed: dict[int, frozenset[str]] = {}
    for call in calls:
        for expr, kinds in _consumed_arguments(index, call, known):
            if isinstance(expr, ast.Name) and expr.id in position:
                at = position[expr.id]
                consumed[at] = consumed.get(at, frozenset()) | kinds
    return KeySummary(consumed, returns)


def _parameters_held(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[dict[str, int], dict[int, int]]:
    """The positional parameters the body never reassigns (name -> position), and which of them it
    returns unchanged (position in the result -> parameter position)."""
    rebound = _rebound(node)
    position = {name: i for i, name in enumerate(positional_params(node)) if name not in rebound}
    returns: dict[int, int] = {}
    for statement in walk_scope(list(node.body)):
        if not (isinstance(statement, ast.Return) and statement.value is not None):
            continue
        value = statement.value
        parts = list(value.elts) if isinstance(value, ast.Tuple) else [value]
        for i, part in enumerate(parts):
            if isinstance(part, ast.Name) and part.id in position:
                returns[i if isinstance(value, ast.Tuple) else -1] = position[part.id]
    return position, returns


def _rebound(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function's own body assigns (a parameter reassigned no longer holds the caller's key)."""
    return {
        n.id
        for statement in function.body
        for n in ast.walk(statement)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _consumed_arguments(
    index: ModuleIndex, call: ast.Call, known: dict[FunctionNode, KeySummary]
) -> list[tuple[ast.expr, frozenset[str]]]:
    """The expressions a call uses up as keys, each with how: a ``jax.random`` consumer's key, or the
    arguments a summarised function of the module uses up."""
    found: list[tuple[ast.expr, frozenset[str]]] = []
    key = _key_argument(call)
    kind = consumer_kind(index.qualname(call.func, _call_scope(index, call))) if key is not None else None
    if key is not None and kind is not None:
        found.append((key, frozenset({kind})))
    site = _site(index, call)
    if site is not None:
        summary = known.get(site.callee)
        passed = site.parameters() or {}
        params = positional_params(site.callee)
        for position, kinds in summary.consumes.items() if summary is not None else ():
            name = params[position] if position < len(params) else None
            if name is not None and name in passed:
                found.append((passed[name], kinds))
    return found


def _key_argument(call: ast.Call) -> ast.expr | None:
    """The key a ``jax.random`` call is given: its first argument or ``key=``."""
    if call.args:
        return call.args[0] if not isinstance(call.args[0], ast.Starred) else None
    return next((k.value for k in call.keywords if k.arg == "key"), None)


def _call_scope(index: ModuleIndex, call: ast.Call) -> Scope:
    return index.derived("call-scopes", _call_scopes).get(id(call), index.module_scope)


def _call_scopes(index: ModuleIndex) -> dict[int, Scope]:
    return {id(call): scope for call, scope in index.nodes.get(ast.Call, ())}


def _site(index: ModuleIndex, call: ast.Call) -> CallSite | None:
    sites = index.derived("call-sites-by-call", _sites_by_call)
    return sites.get(id(call))


def _sites_by_call(index: ModuleIndex) -> dict[int, CallSite]:
    graph = call_graph(index)
    return {
        id(site.call): site
        for scope in [index.module_scope, *index.functions]
        for site in graph.calls_in(scope.node if scope is not index.module_scope else index.tree)  # type: ignore[arg-type]
    }


def consumed_by_call(index: ModuleIndex, call: ast.Call) -> list[tuple[ast.expr, frozenset[str]]]:
    """What ``call`` uses up as keys, each with how (its key if it is a ``jax.random`` consumer, the
    arguments a helper of the module uses up)."""
    return _consumed_arguments(index, call, key_summaries(index))


def returned_key(index: ModuleIndex, call: ast.Call, position: int) -> ast.expr | None:
    """The argument expression ``call`` hands back at ``position`` of its result (``-1``: the whole result)."""
    site = _site(index, call)
    if site is None:
        return None
    summary = key_summaries(index).get(site.callee)
    if summary is None or position not in summary.returns:
        return None
    params = positional_params(site.callee)
    parameter = summary.returns[position]
    return (site.parameters() or {}).get(params[parameter]) if parameter < len(params) else None
