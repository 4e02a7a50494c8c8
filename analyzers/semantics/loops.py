"""Loops around a node: which loops repeat it, how often, and which values change every iteration.

The retracing rules ask one question of a loop: does this argument get a *new* value on every
iteration? That holds for a loop counter (``for i in range(n)``, ``for i, x in enumerate(xs)``,
a ``while`` loop's ``i += 1``) and for any expression that is injective in it (``i + 1``,
``2 * i``, ``-i``), but not for ``i % 2`` or ``i // 4``. A name assigned once at the top of the
loop body stands for its expression, so ``n = i + 1; f(jnp.ones(n))`` is followed. Loops are looked
for only inside the function (or module body) the node is in.
"""

from __future__ import annotations

import ast
import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

from xlalens.analyzers.semantics.classes import class_model
from xlalens.analyzers.semantics.names import LOOP_TYPES, ModuleIndex, Scope
from xlalens.analyzers.semantics.numbers import range_length
from xlalens.analyzers.semantics.scope_view import ScopeView
from xlalens.analyzers.semantics.values import ClassRef, Const, FunctionRef, Instance, Seq, Static, Value

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_MAX_DEFINITION_DEPTH = 4

LoopNode = ast.For | ast.AsyncFor | ast.While | ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``list(ast.iter_child_nodes(node))``, without a generator per node: the loop analyses walk whole functions.

    Examples:
        >>> [type(n).__name__ for n in child_nodes(ast.parse("f(x, k=1)").body[0].value)]
        ['Name', 'Name', 'keyword']
    """
    children: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            children.append(value)
        elif isinstance(value, list):
            children.extend(item for item in value if isinstance(item, ast.AST))
    return children


def parents(index: ModuleIndex, scope: Scope) -> dict[int, ast.AST]:
    """``id(node)`` -> its parent node, for the code of the function (or module body) ``scope`` is in.

    Built once per function, on first use. Nested functions and lambdas are not entered (their
    decorators and defaults are: those run here), so the map costs in proportion to one body, not
    to the module.
    """
    owner = (scope.enclosing_function() or index.module_scope).node
    per_module: dict[int, dict[int, ast.AST]] = index.derived("loop_parents", lambda _: {})
    found = per_module.get(id(owner))
    if found is None:
        found = {}
        roots: list[ast.AST] = [owner.body] if isinstance(owner, ast.Lambda) else list(owner.body)  # type: ignore[attr-defined]
        for root in roots:
            found[id(root)] = owner
        stack = list(roots)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                children: list[ast.AST] = [*node.decorator_list, node.args]
            elif isinstance(node, ast.Lambda):
                children = [node.args]
            else:
                children = child_nodes(node)
            for child in children:
                found[id(child)] = node
            stack.extend(children)
        per_module[id(owner)] = found
    return found


_Span = tuple[int, int, int, int]


def _loop_spans(index: ModuleIndex) -> dict[int, list[_Span]]:
    """``id`` of each function (or module) -> where the loops of its own code (as :func:`parents`
    maps it) are in the source: a node no span contains is repeated by no loop."""

    def build(owner: ModuleIndex) -> dict[int, list[_Span]]:
        spans: dict[int, list[_Span]] = {}
        for loop_type in LOOP_TYPES:
            for loop, scope in owner.nodes[loop_type]:
                key = id((scope.enclosing_function() or owner.module_scope).node)
                spans.setdefault(key, []).append(_span(loop))
        return spans

    return index.derived("loop_spans", build)


def _span(node: ast.AST) -> _Span:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset  # type: ignore[attr-defined, return-value]


def _maybe_in_loop(node: ast.AST, index: ModuleIndex, scope: Scope) -> bool:
    spans = _loop_spans(index).get(id((scope.enclosing_function() or index.module_scope).node))
    if not spans:
        return False
    if getattr(node, "end_lineno", None) is None:
        return True
    start_line, start_column, end_line, end_column = _span(node)
    return any(
        (line, column) <= (start_line, start_column) and (end_line, end_column) <= (last_line, last_column)
        for line, column, last_line, last_column in spans
    )


@dataclass(frozen=True, eq=False, slots=True)
class Loop:
    """A loop that repeats some node.

    Attributes:
        node: The ``for``/``while`` statement, or the comprehension.
        generator: For a comprehension, the ``for`` clause whose iterations repeat the node.
    """

    node: LoopNode
    generator: ast.comprehension | None = None

    @property
    def body(self) -> list[ast.AST]:
        """What runs once per iteration."""
        if self.generator is None:
            assert isinstance(self.node, ast.For | ast.AsyncFor | ast.While)
            return list(self.node.body)
        assert isinstance(self.node, _COMPREHENSIONS)
        generators = self.node.generators
        later = generators[generators.index(self.generator) + 1 :]
        parts: list[ast.AST] = [*self.generator.ifs, *later]
        if isinstance(self.node, ast.DictComp):
            return [*parts, self.node.key, self.node.value]
        return [*parts, self.node.elt]

    @property
    def target(self) -> ast.expr | None:
        """The loop's target (``i`` in ``for i in ...``); None for ``while``."""
        if self.generator is not None:
            return self.generator.target
        return self.node.target if isinstance(self.node, ast.For | ast.AsyncFor) else None

    @property
    def iterable(self) -> ast.expr | None:
        """What the loop iterates over; None for ``while``."""
        if self.generator is not None:
            return self.generator.iter
        return self.node.iter if isinstance(self.node, ast.For | ast.AsyncFor) else None

    @property
    def line(self) -> int:
        """The line the loop starts on."""
        return self.node.lineno

    def header(self, ctx: ScopeView) -> str:
        """``for i in range(1000)`` or ``while i < n``, shortened, for messages."""
        if isinstance(self.node, ast.While):
            return _short(f"while {ctx.segment(self.node.test)}")
        assert self.target is not None and self.iterable is not None
        return _short(f"for {ctx.segment(self.target)} in {ctx.segment(self.iterable)}")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def enclosing_loops(node: ast.AST, index: ModuleIndex, scope: Scope) -> list[Loop]:
    """The loops that repeat ``node``, innermost first, up to the enclosing function or module.

    A loop whose body always leaves on its first pass (it ends in ``break``, ``return`` or
    ``raise``) does not repeat anything and is left out.
    """
    if not _maybe_in_loop(node, index, scope):
        return []
    parent_of = parents(index, scope)
    loops: list[Loop] = []
    child = node
    parent = parent_of.get(id(node))
    while parent is not None and not isinstance(parent, _SCOPES):
        if isinstance(parent, ast.For | ast.AsyncFor | ast.While) and any(s is child for s in parent.body):
            # A body that always leaves on its first pass (ends in break/return/raise) does not repeat.
            if not isinstance(parent.body[-1], ast.Break | ast.Return | ast.Raise):
                loops.append(Loop(parent))
        elif isinstance(parent, _COMPREHENSIONS):
            generators = parent.generators
            if isinstance(child, ast.comprehension):
                position = generators.index(child)
                # A clause's own iterable is evaluated by the clauses before it; its conditions by itself.
                inside = position if node_in(node, child.ifs) else position - 1
            else:
                inside = len(generators) - 1
            loops.extend(Loop(parent, generators[i]) for i in range(inside, -1, -1))
        child = parent
        parent = parent_of.get(id(parent))
    return loops


def node_in(node: ast.AST, roots: list[ast.expr] | list[ast.stmt] | list[ast.AST]) -> bool:
    """Whether ``node`` is one of ``roots`` or inside one of them."""
    return any(node is each for root in roots for each in ast.walk(root))


def walk_scope(roots: list[ast.AST] | list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node under ``roots`` that runs in their scope: nested functions, lambdas and classes are not entered."""
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        stack.extend(reversed(child_nodes(node)))


def stored_names(loop: Loop) -> dict[str, list[ast.AST]]:
    """Names (re)bound on each iteration -> the nodes that bind them (the loop target included)."""
    stored: dict[str, list[ast.AST]] = {}
    roots: list[ast.AST] = list(loop.body)
    if loop.target is not None:
        roots.append(loop.target)
    comprehension_targets = {
        id(n)
        for root in roots
        for comp in walk_scope([root])
        if isinstance(comp, _COMPREHENSIONS)
        for generator in comp.generators
        for n in ast.walk(generator.target)
    }
    for each in walk_scope(roots):
        if isinstance(each, ast.Name) and not isinstance(each.ctx, ast.Load) and id(each) not in comprehension_targets:
            stored.setdefault(each.id, []).append(each)
        elif isinstance(each, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stored.setdefault(each.name, []).append(each)
        elif isinstance(each, ast.Import | ast.ImportFrom):
            for alias in each.names:
                stored.setdefault(alias.asname or alias.name.split(".", 1)[0], []).append(each)
    return stored


def loop_stores(loop: Loop, index: ModuleIndex) -> dict[str, list[ast.AST]]:
    """:func:`stored_names` of ``loop``, computed once per check: every jitted call in a loop asks for it."""
    per_loop: dict[tuple[int, int], dict[str, list[ast.AST]]] = index.derived("loop_stores", lambda _: {})
    key = (id(loop.node), id(loop.generator))
    found = per_loop.get(key)
    if found is None:
        found = per_loop[key] = stored_names(loop)
    return found


@dataclass(frozen=True, slots=True)
class Counter:
    """A name that takes a new number on every iteration of its loop.

    Attributes:
        name: The variable.
        loop: The loop it counts.
        first: Its value on the first iteration, when known.
        step: How much it changes per iteration, when known (never 0).
        trip_count: How many iterations the loop runs, when known.
    """

    name: str
    loop: Loop
    first: int | None
    step: int | None
    trip_count: int | None

    def at(self, iteration: int) -> int | None:
        """Its value on iteration ``iteration`` (0-based), when known."""
        if self.first is None or self.step is None:
            return None
        return self.first + iteration * self.step


def _int_constant(ctx: ScopeView, expr: ast.expr) -> int | None:
    value = ctx.value(expr)
    return value.value if isinstance(value, Const) and type(value.value) is int else None


def counter_of(loop: Loop, ctx: ScopeView) -> Counter | None:
    """The loop's counter, if it has one: a ``range`` or ``enumerate`` index, or a ``while`` loop's ``i += c``."""
    if isinstance(loop.node, ast.While):
        return _while_counter(loop, ctx)
    target, iterable = loop.target, loop.iterable
    if target is None or not isinstance(iterable, ast.Call):
        return None
    stores = loop_stores(loop, ctx.index)
    callee = ctx.qualname(iterable.func)
    if callee == "builtins.range" and isinstance(target, ast.Name) and 1 <= len(iterable.args) <= 3:
        # range() only yields distinct ints, whatever its (unknown) bounds are.
        if iterable.keywords or len(stores.get(target.id, ())) != 1:
            return None
        bounds = [_int_constant(ctx, a) for a in iterable.args]
        if len(bounds) == 1:
            first, step = 0, 1
        else:
            first, step = bounds[0], (bounds[2] if len(bounds) == 3 else 1)
        trip = range_length(*bounds) if None not in bounds else None  # type: ignore[arg-type]
        return Counter(target.id, loop, first, step, trip)
    if callee == "builtins.enumerate" and isinstance(target, ast.Tuple) and target.elts and iterable.args:
        index = target.elts[0]
        if not isinstance(index, ast.Name) or len(stores.get(index.id, ())) != 1:
            return None
        start = next((k.value for k in iterable.keywords if k.arg == "start"), None)
        first = 0 if start is None else _int_constant(ctx, start)
        items = ctx.value(iterable.args[0])
        trip = len(items.items) if isinstance(items, Seq) else None
        return Counter(index.id, loop, first, 1, trip)
    return None


def _while_counter(loop: Loop, ctx: ScopeView) -> Counter | None:
    assert isinstance(loop.node, ast.While)
    stores = loop_stores(loop, ctx.index)
    for statement in loop.node.body:
        step: int | None = None
        name: str | None = None
        if (
            isinstance(statement, ast.AugAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(statement.op, ast.Add | ast.Sub)
        ):
            name, step = statement.target.id, _int_constant(ctx, statement.value)
            if step is not None and isinstance(statement.op, ast.Sub):
                step = -step
        if name is None or not step or len(stores.get(name, ())) != 1:
            continue
        first = _initial_value(loop, name, ctx)
        return Counter(name, loop, first, step, _while_trip(loop.node.test, name, first, step, ctx))
    return None


def _initial_value(loop: Loop, name: str, ctx: ScopeView) -> int | None:
    """The constant a name is given by the last assignment before the loop, in the same block."""
    found = block_of(loop.node, ctx.index, ctx.scope)
    if found is None:
        return None
    block, position = found
    for statement in reversed(block[:position]):
        binds = [n for n in walk_scope([statement]) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
        if not any(n.id == name for n in binds):
            continue
        simple = isinstance(statement, ast.Assign) and len(statement.targets) == 1
        if simple and isinstance(statement.targets[0], ast.Name):
            return _int_constant(ctx, statement.value)
        return None
    return None


def _while_trip(test: ast.expr, name: str, first: int | None, step: int, ctx: ScopeView) -> int | None:
    if first is None or not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if not (isinstance(left, ast.Name) and left.id == name):
        return None
    bound = _int_constant(ctx, right)
    if bound is None:
        return None
    if isinstance(op, ast.Lt) and step > 0:
        return max(0, math.ceil((bound - first) / step))
    if isinstance(op, ast.LtE) and step > 0:
        return max(0, (bound - first) // step + 1)
    if isinstance(op, ast.Gt) and step < 0:
        return max(0, math.ceil((first - bound) / -step))
    if isinstance(op, ast.GtE) and step < 0:
        return max(0, (first - bound) // -step + 1)
    return None


def block_of(statement: ast.AST, index: ModuleIndex, scope: Scope) -> tuple[list[ast.stmt], int] | None:
    """The statement list ``statement`` (in the code of ``scope``) sits in, and its position there."""
    parent = parents(index, scope).get(id(statement))
    if parent is None:
        return None
    for field in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(parent, field, None)
        if isinstance(block, list):
            for position, each in enumerate(block):
                if each is statement:
                    return block, position
    return None


def top_statement(node: ast.AST, loop: Loop, index: ModuleIndex, scope: Scope) -> ast.stmt | None:
    """The statement of the loop body that contains ``node`` (None for a comprehension)."""
    if loop.generator is not None:
        return None
    parent_of = parents(index, scope)
    current: ast.AST | None = node
    while current is not None:
        parent = parent_of.get(id(current))
        if parent is loop.node and isinstance(current, ast.stmt):
            return current if any(current is s for s in loop.body) else None
        current = parent
    return None


@dataclass(frozen=True, slots=True)
class Linear:
    """``scale * counter + offset``: a number that is new on every iteration of the counter's loop.

    ``offset`` is None when it is a loop-invariant number whose value is unknown.
    """

    counter: Counter
    scale: int | float
    offset: int | float | None

    def at(self, iteration: int) -> int | float | None:
        """Its value on iteration ``iteration`` (0-based), when known."""
        value = self.counter.at(iteration)
        if value is None or self.offset is None:
            return None
        return self.scale * value + self.offset


def _counter_seen_from(loop: Loop, ctx: ScopeView) -> Counter | None:
    """:func:`counter_of` ``loop`` from the current scope, computed once per check for all the calls in the loop."""
    per_loop: dict[tuple[int, int, int], Counter | None] = ctx.index.derived("loop_counters", lambda _: {})
    key = (id(loop.node), id(loop.generator), id(ctx.scope))
    if key in per_loop:
        counter = per_loop[key]
    else:
        counter = per_loop[key] = counter_of(loop, ctx)
    # Each call builds its own Loop objects, and IterationValues finds a counter's loop by identity.
    return counter if counter is None or counter.loop is loop else replace(counter, loop=loop)


class IterationValues:
    """What changes from one iteration to the next, seen from one node inside loops.

    Args:
        node: The node (a call) whose surrounding loops are analysed.
        ctx: The check context positioned at ``node``.
    """

    def __init__(self, node: ast.AST, ctx: ScopeView) -> None:
        self.node = node
        self.ctx = ctx
        self.loops = enclosing_loops(node, ctx.index, ctx.scope)
        self._stores = [loop_stores(loop, ctx.index) for loop in self.loops]

    @functools.cached_property
    def counters(self) -> dict[str, Counter]:
        """The loops' counters by name, an inner one shadowing an outer one of the same name.

        Found on first use: finding them evaluates the loops' bounds, and most arguments read no
        name the loops bind.
        """
        counters: dict[str, Counter] = {}
        for loop in reversed(self.loops):
            counter = _counter_seen_from(loop, self.ctx)
            if counter is not None:
                counters[counter.name] = counter
        return counters

    def counter(self, name: str) -> Counter | None:
        """The counter ``name`` is at the node, if it is one and no inner loop rebinds it."""
        if not any(name in stores for stores in self._stores):
            return None  # a counter is always bound by its loop
        counter = self.counters.get(name)
        if counter is None:
            return None
        for loop, stores in zip(self.loops, self._stores, strict=True):
            if loop is counter.loop:
                return counter
            if name in stores:
                return None
        return None

    def assigned_in(self, name: str) -> Loop | None:
        """The innermost loop whose iterations rebind ``name``."""
        for loop, stores in zip(self.loops, self._stores, strict=True):
            if name in stores:
                return loop
        return None

    def invariant(self, expr: ast.expr) -> bool:
        """Whether ``expr`` reads no name that the loops rebind (so it is the same every iteration)."""
        return not any(
            isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and self.assigned_in(n.id) is not None
            for n in walk_scope([expr])
        )

    def definition(self, use: ast.Name) -> ast.expr | None:
        """The expression a loop-assigned name stands for: its single ``name = expr`` at the top of the loop body.

        The assignment must come before the statement that reads the name, so every iteration reads
        the value it assigned on that iteration.
        """
        loop = self.assigned_in(use.id)
        if loop is None or loop.generator is not None:
            return None
        stores = self._stores[self.loops.index(loop)][use.id]
        if len(stores) != 1:
            return None
        reading = top_statement(use, loop, self.ctx.index, self.ctx.scope)
        for statement in loop.body:
            if statement is reading:
                return None
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and statement.targets[0] is stores[0]:
                return statement.value
        return None

    def linear(self, expr: ast.expr, depth: int = 0) -> Linear | None:
        """``expr`` as ``scale * counter + offset`` when it is injective in one counter."""
        if depth > _MAX_DEFINITION_DEPTH:
            return None
        if isinstance(expr, ast.Name):
            counter = self.counter(expr.id)
            if counter is not None:
                return Linear(counter, 1, 0)
            definition = self.definition(expr)
            return self.linear(definition, depth + 1) if definition is not None else None
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub | ast.UAdd):
            inner = self.linear(expr.operand, depth)
            if inner is None or isinstance(expr.op, ast.UAdd):
                return inner
            return Linear(inner.counter, -inner.scale, None if inner.offset is None else -inner.offset)
        if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
            callee = self.ctx.qualname(expr.func)
            inner = self.linear(expr.args[0], depth) if callee in ("builtins.int", "builtins.float") else None
            if inner is None:
                return None
            if callee == "builtins.int" and not isinstance(inner.scale, int):
                return None
            return inner
        if isinstance(expr, ast.BinOp):
            return self._linear_binop(expr, depth)
        return None

    def _number(self, expr: ast.expr) -> tuple[bool, int | float | None]:
        """(is a loop-invariant number, its value when known)."""
        if not self.invariant(expr):
            return False, None
        value = self.ctx.value(expr)
        if isinstance(value, Const) and type(value.value) in (int, float):
            return True, value.value  # type: ignore[return-value]
        return isinstance(value, Static) and value.kind in ("int", "float"), None

    def _linear_binop(self, expr: ast.BinOp, depth: int) -> Linear | None:
        left = self.linear(expr.left, depth)
        right = self.linear(expr.right, depth)
        if (left is None) == (right is None):
            return None
        inner, other = (left, expr.right) if left is not None else (right, expr.left)
        assert inner is not None
        is_number, number = self._number(other)
        if not is_number:
            return None
        if isinstance(expr.op, ast.Add | ast.Sub):
            negate = isinstance(expr.op, ast.Sub) and right is not None  # `k - i`
            scale = -inner.scale if negate else inner.scale
            if number is None or inner.offset is None:
                return Linear(inner.counter, scale, None)
            offset = -inner.offset if negate else inner.offset
            offset += -number if isinstance(expr.op, ast.Sub) and left is not None else number
            return Linear(inner.counter, scale, offset)
        if number is None or number == 0:
            return None
        if isinstance(expr.op, ast.Mult):
            offset = None if inner.offset is None else inner.offset * number
            return Linear(inner.counter, inner.scale * number, offset)
        if isinstance(expr.op, ast.Div) and left is not None:
            offset = None if inner.offset is None else inner.offset / number
            return Linear(inner.counter, inner.scale / number, offset)
        return None

    def values_by_iteration(self, expr: ast.expr, iterations: int) -> tuple[Counter, list[Value]] | None:
        """The values ``expr`` takes on the first ``iterations`` iterations of the one counter it depends on.

        Names the loop body defines are replaced by their definitions, and the interpreter follows
        the module's helpers on the counter's values (``lr = cosine_lr(step)``); ``None`` when the
        expression reads anything else the loops change, or no counter.
        """
        used: set[str] = set()
        per_iteration: list[Value] = []
        for k in range(iterations):
            names = self._names_at(expr, k, used, 0)
            if names is None:
                return None
            per_iteration.append(self.ctx.interpreter.value_with(expr, self.ctx.scope, names))
        if len(used) > 1:
            return None
        if used:
            return self.counters[used.pop()], per_iteration
        # Only names the loop carries change (`schedule = advance(schedule)`): count the innermost loop.
        innermost = next((c for c in self.counters.values() if c.loop is self.loops[0]), None)
        if innermost is None or all(v == per_iteration[0] for v in per_iteration):
            return None
        return innermost, per_iteration

    def _names_at(self, expr: ast.expr, k: int, used: set[str], depth: int) -> dict[str, Value] | None:
        """The loop-changed names ``expr`` reads, bound to their values on iteration ``k``."""
        if depth > _MAX_DEFINITION_DEPTH:
            return None
        names: dict[str, Value] = {}
        for node in walk_scope([expr]):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in names:
                continue
            counter = self.counter(node.id)
            if counter is not None:
                value = counter.at(k)
                if value is None:
                    return None
                names[node.id] = Const(value)
                used.add(node.id)
                continue
            if self.assigned_in(node.id) is None:
                continue
            definition = self.definition(node)
            if definition is not None:
                inner = self._names_at(definition, k, used, depth + 1)
                if inner is None:
                    return None
                names[node.id] = self.ctx.interpreter.value_with(definition, self.ctx.scope, inner)
                continue
            carried = self._carried(node, k, used, depth)
            if carried is None:
                return None
            names[node.id] = carried
        return names

    def fresh_object(self, expr: ast.expr) -> ast.Call | None:
        """The call that builds ``expr`` anew on every iteration, when ``expr`` is (a name the loop body
        defines as) a call of a class whose objects hash by identity, or of a module function that
        returns one it builds."""
        if isinstance(expr, ast.Name):
            definition = self.definition(expr)
            if definition is None:
                return None
            expr = definition
        if not isinstance(expr, ast.Call):
            return None
        value = self.ctx.value(expr)
        if not (isinstance(value, Instance) and class_model(self.ctx.index, value.node).hashes_by_identity):
            return None
        if self.ctx.qualname(expr.func) == "dataclasses.replace":
            return expr  # a copy: a new object, so a new key
        callee = self.ctx.value(expr.func)
        if isinstance(callee, ClassRef):
            return expr
        if isinstance(callee, FunctionRef) and isinstance(callee.node, ast.FunctionDef):
            returned = [n.value for n in walk_scope(list(callee.node.body)) if isinstance(n, ast.Return)]
            builds = all(
                isinstance(r, ast.Call) and isinstance(r.func, ast.Name) and r.func.id == value.node.name
                for r in returned
            )
            return expr if returned and builds else None
        return None

    def _carried(self, use: ast.Name, k: int, used: set[str], depth: int) -> Value | None:
        """The value of a name the loop carries (read, then reassigned later in the body: ``schedule =
        advance(schedule)``) on iteration ``k``: its value before the loop, updated ``k`` times."""
        loop = self.assigned_in(use.id)
        if loop is None or loop.generator is not None or loop is not self.loops[0]:
            return None
        stores = self._stores[0][use.id]
        update = next(
            (
                statement.value
                for statement in loop.body
                if isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and statement.targets[0] is stores[0]
            ),
            None,
        )
        initial = self.value_before(loop, use.id)
        if len(stores) != 1 or update is None or initial is None:
            return None
        value = initial
        for iteration in range(k):
            names = self._names_at(update, iteration, used, depth + 1) if depth < _MAX_DEFINITION_DEPTH else None
            if names is None:
                return None
            names[use.id] = value
            value = self.ctx.interpreter.value_with(update, self.ctx.scope, names)
        return value

    def value_before(self, loop: Loop, name: str) -> Value | None:
        """The value ``name`` has when ``loop`` starts: its last plain assignment before the loop, in its block."""
        found = block_of(loop.node, self.ctx.index, self.ctx.scope)
        if found is None:
            return None
        block, position = found
        for statement in reversed(block[:position]):
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                if isinstance(target, ast.Name) and target.id == name:
                    return self.ctx.interpreter.value_of(statement.value, self.ctx.scope)
            if any(
                isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                for n in ast.walk(statement)
            ):
                return None  # bound some other way (a loop, an unpacking): not followed
        return None

    def growing_array(self, name: ast.Name) -> tuple[Loop, ast.Call] | None:
        """The innermost loop, when it rebinds ``name`` once per iteration to itself joined with more
        (``x = jnp.concatenate([x, y])``, ``jnp.append(x, y)``, ``jnp.vstack([x, y])``): it grows every time.

        Examples:
            >>> from xlalens.analyzers.core.source import SourceText
            >>> from xlalens.analyzers.semantics.interpreter import Interpreter
            >>> code = "import jax.numpy as jnp\\nt = p\\nfor _ in range(3):\\n    f(t)\\n    t = jnp.append(t, 1)\\n"
            >>> index = ModuleIndex(ast.parse(code), [ast.Call, ast.Assign])
            >>> view = ScopeView(index, Interpreter(index, {}), SourceText(code))
            >>> call = index.tree.body[2].body[0].value
            >>> loop, join = IterationValues(call, view).growing_array(call.args[0])
            >>> loop.line, ast.unparse(join)
            (3, 'jnp.append(t, 1)')
        """
        if not self.loops or self.loops[0].generator is not None:
            return None
        stores = self._stores[0].get(name.id)
        if stores is None or len(stores) != 1:
            return None
        for statement in self.loops[0].body:
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and statement.targets[0] is stores[0]
                and isinstance(statement.value, ast.Call)
                and _joins_onto(statement.value, name.id, self.ctx)
            ):
                return self.loops[0], statement.value
        return None

    def growing_list(self, name: ast.Name) -> tuple[Loop, ast.Call] | None:
        """The loop that appends to list ``name`` once per iteration without rebinding it, and the append."""
        for loop, stores in zip(self.loops, self._stores, strict=True):
            if loop.generator is not None:
                return None
            if name.id in stores:
                return None
            for statement in loop.body:
                call = statement.value if isinstance(statement, ast.Expr) else None
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "append"
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == name.id
                    and len(call.args) == 1
                ):
                    return loop, call
        return None


_JOINING = frozenset(
    f"{module}.{name}"
    for module in ("jax.numpy", "numpy")
    for name in ("concatenate", "append", "hstack", "vstack", "dstack", "column_stack", "row_stack")
)


def _joins_onto(call: ast.Call, name: str, ctx: ScopeView) -> bool:
    """Whether ``call`` joins more onto the array ``name`` itself: ``append(name, y)`` or ``concatenate([name, y])``."""
    qualname = ctx.qualname(call.func) if isinstance(call.func, ast.Name | ast.Attribute) else None
    if qualname not in _JOINING or not call.args:
        return False
    first = call.args[0]
    if qualname.endswith(".append"):
        return isinstance(first, ast.Name) and first.id == name and len(call.args) >= 2
    if not isinstance(first, ast.List | ast.Tuple) or len(first.elts) < 2:
        return False
    return any(isinstance(e, ast.Name) and e.id == name for e in first.elts)
