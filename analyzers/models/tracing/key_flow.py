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

from xlalens.analyzers.knowledge.lax_control_flow import signature
from xlalens.analyzers.knowledge.randomness import consumer_kind, library_key_argument
from xlalens.analyzers.semantics.calls import CallSite, call_graph
from xlalens.analyzers.semantics.loops import enclosing_loops, node_in, parents, walk_scope
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope, positional_params

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
        assert isinstance(call, ast.Call)
        if _direct_use(index, call, scope) is not None:
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
    direct = _direct_use(index, call, _call_scope(index, call))
    if direct is not None:
        found.append((direct[0], frozenset({direct[1]})))
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


def _direct_use(index: ModuleIndex, call: ast.Call, scope: Scope) -> tuple[ast.expr, str] | None:
    """The key ``call`` uses up itself, and how: a ``jax.random`` consumer's key (``sample`` or
    ``split``), or the ``key=`` of a library layer that draws its parameters from it (``sample``)."""
    key = _key_argument(call)
    if key is None:
        return None
    qualname = index.qualname(call.func, scope)
    kind = consumer_kind(qualname)
    if kind is not None:
        return key, kind
    layer_key = library_key_argument(qualname, call)
    return (layer_key, "sample") if layer_key is not None else None


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


_LOOP_PRIMITIVES = ("jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.map")
"""Primitives that run their body function on every iteration, tracing it once."""

_CALLEE_DEPTH = 2
"""How many calls down from a repeated function its callees count as repeated too."""


@dataclass(frozen=True)
class Repetition:
    """Why a function runs many times.

    Attributes:
        primitive: The ``jax.lax`` loop whose body it is (traced once: the values it closes over are
            fixed for every iteration), or ``None`` for a function called from a Python loop.
        site: The call that repeats it: the ``lax`` call, or the call inside a Python loop.
        caller: For a function repeated because a repeated function calls it, that function.
    """

    primitive: str | None
    site: ast.Call
    caller: FunctionNode | None = None


def repeated_functions(index: ModuleIndex) -> dict[int, Repetition]:
    """``id`` of each function of the module that runs many times -> why: the body of a ``lax`` loop,
    a function called inside a Python loop, or a function such a function calls (two calls down).

    Examples:
        >>> import ast
        >>> code = '''
        ... import jax
        ... def body(c, x):
        ...     return c, x + jax.random.normal(jax.random.key(0))
        ... def step(x):
        ...     return jax.lax.scan(body, 0, x)
        ... for _ in range(3):
        ...     step(1)
        ... '''
        >>> index = ModuleIndex(ast.parse(code), [ast.Call])
        >>> found = repeated_functions(index)
        >>> sorted((f.name, found[id(f)].primitive) for f in index.tree.body if id(f) in found)
        [('body', 'jax.lax.scan'), ('step', None)]
    """
    return index.derived("repeated-functions", _repeated)


def _repeated(index: ModuleIndex) -> dict[int, Repetition]:
    found: dict[int, Repetition] = {}
    calls = index.nodes.get(ast.Call, ())
    if not any(consumer_kind(index.qualname(c.func, s)) for c, s in calls if _key_argument(c) is not None):
        return found
    for call, scope in calls:
        qualname = index.qualname(call.func, scope)
        if qualname not in _LOOP_PRIMITIVES:
            continue
        primitive = signature(qualname)
        body = primitive.argument(call, primitive.body) if primitive is not None else None
        if primitive is None and call.args:
            body = call.args[0]  # `jax.lax.map(f, xs)`
        function = _function_of(index, body, scope)
        if function is not None:
            found.setdefault(id(function), Repetition(qualname, call))
    graph = call_graph(index)
    for scope in index.functions:
        for site in graph.sites_of(scope.node):  # type: ignore[arg-type]
            if enclosing_loops(site.call, index, site.caller):
                found.setdefault(id(site.callee), Repetition(None, site.call))
                break
    for call, scope in calls:
        method = _method_of_instance(index, call, scope)
        if method is not None and id(method) not in found and enclosing_loops(call, index, scope):
            found[id(method)] = Repetition(None, call)
    _repeated_iterations(index, found)
    frontier = [(scope.node, 0) for scope in index.functions if id(scope.node) in found]
    while frontier:
        function, depth = frontier.pop()
        if depth >= _CALLEE_DEPTH:
            continue
        for site in graph.calls_in(function):  # type: ignore[arg-type]
            if id(site.callee) not in found:
                found[id(site.callee)] = Repetition(None, site.call, function)  # type: ignore[arg-type]
                frontier.append((site.callee, depth + 1))
    return found


def _repeated_iterations(index: ModuleIndex, found: dict[int, Repetition]) -> None:
    """``__iter__`` of a class of the module, when a loop that itself repeats iterates over an instance
    held by a name (``for epoch in ...: for batch in loader``)."""
    if not any(
        isinstance(statement, ast.FunctionDef) and statement.name == "__iter__"
        for scope in index.scopes.values()
        if scope.is_class
        for statement in scope.node.body  # type: ignore[attr-defined]
    ):
        return
    for scope in [index.module_scope, *index.functions]:
        body = scope.node.body if isinstance(scope.node, ast.Module | ast.FunctionDef) else []
        for node in walk_scope(list(body)):
            iterables = (
                [node.iter]
                if isinstance(node, ast.For)
                else [g.iter for g in node.generators]
                if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp)
                else []
            )
            for iterable in iterables:
                if not isinstance(iterable, ast.Name):
                    continue
                method = _instance_method(index, iterable, "__iter__", scope)
                if method is not None and id(method) not in found and enclosing_loops(node, index, scope):
                    site = ast.Call(func=iterable, args=[], keywords=[])
                    ast.copy_location(site, iterable)
                    found[id(method)] = Repetition(None, site)


def _method_of_instance(index: ModuleIndex, call: ast.Call, scope: Scope) -> FunctionNode | None:
    """The method ``call`` runs on an instance of one of the module's classes held by a name bound once:
    ``jitter(x)`` (``__call__``) or ``jitter.apply(x)`` after ``jitter = Jitter(...)``."""
    func = call.func
    if isinstance(func, ast.Name):
        return _instance_method(index, func, "__call__", scope)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return _instance_method(index, func.value, func.attr, scope)
    return None


def _instance_method(index: ModuleIndex, holder: ast.Name, method: str, scope: Scope) -> FunctionNode | None:
    """``method`` of the class whose instance ``holder`` is bound to, once, by ``holder = Class(...)``."""
    assigned = index.single_assignment(holder.id, scope)
    if assigned is None:
        return None
    built, owner = assigned[0].value, assigned[1]
    if not (isinstance(built, ast.Call) and isinstance(built.func, ast.Name)):
        return None
    cls = index.lookup(built.func.id, owner)
    if cls is None or len(cls[1]) != 1 or cls[1][0].kind is not BindingKind.CLASS:
        return None
    class_node = cls[1][0].node
    assert isinstance(class_node, ast.ClassDef)
    return call_graph(index).find_method(class_node, method, set())


def _function_of(index: ModuleIndex, expr: ast.expr | None, scope: Scope) -> FunctionNode | None:
    if isinstance(expr, ast.Lambda):
        return expr
    if isinstance(expr, ast.Name):
        return index.local_function(expr.id, scope)
    return None


def fixed_key(index: ModuleIndex, key: ast.expr, scope: Scope, function: Scope, *, traced_once: bool) -> str | None:
    """How ``key``, read in ``function``, is the same on every run of it (for messages), or ``None``.

    Fixed are: a key built from literal seeds (``jax.random.key(0)``, or a local name bound once to
    one); a name bound once at module level; for a body ``lax`` traces once, any name it closes
    over; a ``self`` attribute that no method of the class assigns outside ``__init__``.
    """
    if _literal_key(key):
        return f"a key built from the literal seed `{ast.unparse(key)}`"
    if isinstance(key, ast.Name):
        found = index.lookup(key.id, scope)
        if found is None:
            return None
        owner, bindings = found
        single = len(bindings) == 1 and bindings[0].kind is BindingKind.ASSIGN
        statement = index.assignment_of(bindings[0].node) if single else None
        if owner is function and statement is not None and _literal_key(statement.value):
            return f"key `{key.id}` = `{ast.unparse(statement.value)}` (a literal seed)"
        if owner is function:
            return None
        if traced_once and _encloses(owner, function):
            return f"key `{key.id}` (closed over)"
        if owner is index.module_scope and single:
            return f"the module-level key `{key.id}`"
        return None
    if (
        isinstance(key, ast.Attribute)
        and isinstance(key.value, ast.Name)
        and key.value.id == "self"
        and isinstance(function.node, ast.FunctionDef)
        and function.parent is not None
        and function.parent.is_class
        and function.node.name != "__init__"
        and key.attr in _initialised_only(index, function.parent)
    ):
        return f"`self.{key.attr}` (only `__init__` assigns it)"
    return None


def _literal_key(expr: ast.expr | None) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute | ast.Name)
        and (expr.func.attr if isinstance(expr.func, ast.Attribute) else expr.func.id) in ("key", "PRNGKey")
        and len(expr.args) == 1
        and not expr.keywords
        and isinstance(expr.args[0], ast.Constant)
        and isinstance(expr.args[0].value, int)
    )


def _encloses(outer: Scope, inner: Scope) -> bool:
    scope: Scope | None = inner.parent
    while scope is not None:
        if scope is outer:
            return True
        scope = scope.parent
    return False


def _initialised_only(index: ModuleIndex, cls: Scope) -> frozenset[str]:
    """Attributes of ``self`` the class's ``__init__`` assigns and no other method does."""
    cached = index.derived("self-keys-initialised-only", lambda _: {})
    if id(cls.node) not in cached:
        init: set[str] = set()
        elsewhere: set[str] = set()
        for statement in cls.node.body:  # type: ignore[attr-defined]
            if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            stored = {
                n.attr
                for n in ast.walk(statement)
                if isinstance(n, ast.Attribute)
                and isinstance(n.ctx, ast.Store)
                and isinstance(n.value, ast.Name)
                and n.value.id == "self"
            }
            (init if statement.name == "__init__" else elsewhere).update(stored)
        cached[id(cls.node)] = frozenset(init - elsewhere)
    return cached[id(cls.node)]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class SeedDraw:
    """A ``jax.random`` call in a function of the module whose key comes from a literal seed.

    Attributes:
        call: The draw (or split).
        function: The function it sits in.
        seed: The literal seed.
    """

    call: ast.Call
    function: FunctionNode
    seed: int


@dataclass(frozen=True)
class SameSeedInOneRun:
    """Two functions that draw from the same literal seed, both called by one function.

    Attributes:
        earlier: The other function's draw.
        caller: The function (or module) that calls both.
        first: The call of the earlier draw's function there.
        second: The call of this draw's function there.
    """

    earlier: SeedDraw
    caller: Scope
    first: ast.Call
    second: ast.Call


def _seed(expr: ast.expr | None) -> int | None:
    if not _literal_key(expr):
        return None
    assert isinstance(expr, ast.Call) and isinstance(expr.args[0], ast.Constant)
    return int(expr.args[0].value)


def literal_seed(index: ModuleIndex, key: ast.expr, function: Scope) -> int | None:
    """The seed of ``key`` read in ``function`` when it is a literal: ``jax.random.key(0)`` in place, or a
    name ``function`` binds once to one."""
    if isinstance(key, ast.Call):
        return _seed(key)
    if not isinstance(key, ast.Name):
        return None
    found = index.lookup(key.id, function)
    if found is None or found[0] is not function or len(found[1]) != 1 or found[1][0].kind is not BindingKind.ASSIGN:
        return None
    statement = index.assignment_of(found[1][0].node)
    return _seed(statement.value) if statement is not None else None


def _seed_draws(index: ModuleIndex) -> dict[int, SeedDraw]:
    draws: dict[int, SeedDraw] = {}
    for call, scope in index.nodes.get(ast.Call, ()):
        assert isinstance(call, ast.Call)
        key = _key_argument(call)
        function = scope.enclosing_function()
        if key is None or function is None or not isinstance(function.node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if consumer_kind(index.qualname(call.func, scope)) is None:
            continue
        seed = literal_seed(index, key, function)
        if seed is not None:
            draws[id(call)] = SeedDraw(call, function.node, seed)
    return draws


def same_seed_in_one_run(index: ModuleIndex, call: ast.Call) -> SameSeedInOneRun | None:
    """The draw of another function with ``call``'s literal seed, when one function calls both functions
    (the earlier call first), so that one run uses the same key twice; ``None`` otherwise.

    Two helpers that each build ``jax.random.key(42)`` draw the same numbers: an encoder and a decoder
    initialised by them start with equal weights. Functions nobody in the module calls together (test
    methods, separate entry points) are not reported.
    """
    draws = index.derived("literal-seed-draws", _seed_draws)
    this = draws.get(id(call))
    if this is None:
        return None
    graph = call_graph(index)
    mine = {id(site.caller.node): site for site in graph.sites_of(this.function)}
    for other in draws.values():
        if other.seed != this.seed or other.function is this.function:
            continue
        for site in graph.sites_of(other.function):
            own = mine.get(id(site.caller.node))
            if own is not None and _before(site.call, own.call) and not _exclusive(index, site, own.call):
                return SameSeedInOneRun(other, site.caller, site.call, own.call)
    return None


def _exclusive(index: ModuleIndex, site: CallSite, other: ast.Call) -> bool:
    """Whether ``site``'s call and ``other`` (in the same function) sit on different branches of an ``if``."""
    parent_of = parents(index, site.caller)
    node = parent_of.get(id(site.call))
    while node is not None:
        if isinstance(node, ast.If):
            one, two = node_in(site.call, node.body), node_in(other, node.body)
            if one != two and (node_in(site.call, node.orelse) or node_in(other, node.orelse)):
                return True
        elif isinstance(node, ast.IfExp):
            one, two = node_in(site.call, [node.body]), node_in(other, [node.body])
            if one != two and (node_in(site.call, [node.orelse]) or node_in(other, [node.orelse])):
                return True
        node = parent_of.get(id(node))
    return False


def _before(first: ast.AST, second: ast.AST) -> bool:
    return (first.lineno, first.col_offset) < (second.lineno, second.col_offset)  # type: ignore[attr-defined]
