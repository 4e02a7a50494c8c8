"""A walk over one function body in execution order, for rules about values that get used up.

Some values may be used only once: a PRNG key passed to a sampler, an array donated to a jitted
call. The rules that check them share this walk. It visits statements and expressions in the
order Python runs them and keeps a rule-defined *state* (which names are used up, and by what).
Branches of ``if``/``match``/``try`` and conditional expressions start from the same state and
are joined afterwards; a path that returns or raises ends; a loop body is walked twice, so that
something used up on one iteration and used again on the next is seen, and the loop is taken to
run at least once; ``break`` and ``continue`` carry their state to where Python goes next.
Nested functions, lambdas and classes are not entered: they run at another time.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable

State = dict[Hashable, object]
"""What a rule tracks at one point of the walk; values are never mutated, only replaced."""

_NOT_ENTERED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class FlowWalk:
    """Walk a body, calling the hooks; subclasses define what the state holds and what the hooks do.

    A state of None means "this point is not reached".
    """

    def copy(self, state: State) -> State:
        """An independent copy of ``state``."""
        return dict(state)

    def join(self, a: State, b: State) -> State:
        """The state after two paths meet."""
        raise NotImplementedError

    def on_call(self, call: ast.Call, state: State) -> None:
        """A call has been made (its function and arguments are already evaluated)."""

    def on_load(self, name: ast.Name, state: State) -> None:
        """A name is read."""

    def on_store(self, name: str, value: ast.expr | None, state: State) -> None:
        """A name is bound; ``value`` is the expression it is bound to when that is a plain ``name = value``."""

    # -- driver ---------------------------------------------------------------------------------

    def run(self, body: list[ast.stmt], state: State) -> None:
        """Walk ``body`` from ``state``."""
        self._loops: list[tuple[list[State], list[State]]] = []
        self.block(body, state)

    def _join(self, a: State | None, b: State | None) -> State | None:
        if a is None:
            return b
        if b is None:
            return a
        return self.join(a, b)

    def block(self, statements: list[ast.stmt], state: State | None) -> State | None:
        for statement in statements:
            if state is None:
                return None
            state = self.statement(statement, state)
        return state

    def statement(self, node: ast.stmt, state: State) -> State | None:
        if isinstance(node, ast.Assign):
            self.expr(node.value, state)
            for target in node.targets:
                self.bind(target, node.value if len(node.targets) == 1 else None, state)
            return state
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.expr(node.value, state)
                self.bind(node.target, node.value, state)
            return state
        if isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name):
                self.on_load(node.target, state)
            self.expr(node.value, state)
            self.bind(node.target, None, state)
            return state
        if isinstance(node, ast.Expr):
            self.expr(node.value, state)
            return state
        if isinstance(node, ast.Return | ast.Raise):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child, state)
            return None
        if isinstance(node, ast.Break | ast.Continue):
            if self._loops:
                breaks, continues = self._loops[-1]
                (breaks if isinstance(node, ast.Break) else continues).append(self.copy(state))
            return None
        if isinstance(node, ast.If):
            self.expr(node.test, state)
            other = self.copy(state)
            return self._join(self.block(node.body, state), self.block(node.orelse, other))
        if isinstance(node, ast.For | ast.AsyncFor):
            self.expr(node.iter, state)
            return self.loop(node, state)
        if isinstance(node, ast.While):
            self.expr(node.test, state)
            return self.loop(node, state)
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                self.expr(item.context_expr, state)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, None, state)
            return self.block(node.body, state)
        if isinstance(node, ast.Try | ast.TryStar):
            return self.try_(node, state)
        if isinstance(node, ast.Match):
            self.expr(node.subject, state)
            merged: State | None = None
            for case in node.cases:
                branch = self.copy(state)
                for child in ast.walk(case.pattern):
                    name = getattr(child, "name", None)
                    if isinstance(name, str):
                        self.on_store(name, None, branch)
                if case.guard is not None:
                    self.expr(case.guard, branch)
                merged = self._join(merged, self.block(case.body, branch))
            return self._join(merged, state)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                self.expr(decorator, state)
            self.on_store(node.name, None, state)
            return state
        if isinstance(node, ast.Delete):
            for target in node.targets:
                self.bind(target, None, state)
            return state
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                self.on_store(alias.asname or alias.name.split(".", 1)[0], None, state)
            return state
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child, state)
        return state

    def loop(self, node: ast.For | ast.AsyncFor | ast.While, state: State) -> State | None:
        entry = self.copy(state)
        exits: list[State] = []
        current: State | None = state
        last: State | None = None
        for _ in range(2):
            if current is None:
                break
            self._loops.append(([], []))
            if isinstance(node, ast.For | ast.AsyncFor):
                self.bind(node.target, None, current)
            end = self.block(node.body, current)
            breaks, continues = self._loops.pop()
            exits.extend(breaks)
            for each in continues:
                end = self._join(end, each)
            if isinstance(node, ast.While) and end is not None:
                self.expr(node.test, end)
            last = end
            current = self._join(self.copy(entry), end)
        # Precision over soundness: take the loop to run at least once, so what its body reassigns
        # counts as reassigned after it (a `for` over `range(10)` does not skip its body).
        after = self.block(node.orelse, last if last is not None else None)
        for each in exits:
            after = self._join(after, each)
        return after

    def try_(self, node: ast.Try | ast.TryStar, state: State) -> State | None:
        entry = self.copy(state)
        after_body = self.block(node.body, state)
        # A handler may start from anywhere in the body: join the states before and after it.
        handler_entry = self._join(self.copy(entry), self.copy(after_body) if after_body is not None else None)
        outcomes: list[State | None] = [self.block(node.orelse, after_body) if after_body is not None else None]
        for handler in node.handlers:
            assert handler_entry is not None
            branch = self.copy(handler_entry)
            if handler.type is not None:
                self.expr(handler.type, branch)
            if handler.name:
                self.on_store(handler.name, None, branch)
            outcomes.append(self.block(handler.body, branch))
        merged: State | None = None
        for outcome in outcomes:
            merged = self._join(merged, outcome)
        if node.finalbody:
            return self.block(node.finalbody, merged if merged is not None else self.copy(entry))
        return merged

    def bind(self, target: ast.expr, value: ast.expr | None, state: State) -> None:
        if isinstance(target, ast.Name):
            self.on_store(target.id, value, state)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self.bind(element, None, state)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, None, state)
        elif isinstance(target, ast.Subscript):
            self.expr(target.value, state)
            self.expr(target.slice, state)
        elif isinstance(target, ast.Attribute):
            self.expr(target.value, state)

    # -- expressions ----------------------------------------------------------------------------

    def expr(self, node: ast.expr, state: State) -> None:
        if isinstance(node, _NOT_ENTERED):
            if isinstance(node, ast.Lambda):
                for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
                    self.expr(default, state)
            return
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                self.on_load(node, state)
            return
        if isinstance(node, ast.Call):
            self.expr(node.func, state)
            for argument in node.args:
                self.expr(argument, state)
            for keyword in node.keywords:
                self.expr(keyword.value, state)
            self.on_call(node, state)
            return
        if isinstance(node, ast.IfExp):
            self.expr(node.test, state)
            other = self.copy(state)
            self.expr(node.body, state)
            self.expr(node.orelse, other)
            self._replace(state, self.join(state, other))
            return
        if isinstance(node, ast.BoolOp):
            self.expr(node.values[0], state)
            for value in node.values[1:]:
                maybe = self.copy(state)
                self.expr(value, maybe)
                self._replace(state, self.join(state, maybe))
            return
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            self.comprehension(node, state)
            return
        if isinstance(node, ast.NamedExpr):
            self.expr(node.value, state)
            self.on_store(node.target.id, node.value, state)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child, state)
            elif isinstance(child, ast.keyword):
                self.expr(child.value, state)

    def comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, state: State) -> None:
        self.expr(node.generators[0].iter, state)
        entry = self.copy(state)
        for _ in range(2):  # its body repeats like a loop's
            for position, generator in enumerate(node.generators):
                if position:
                    self.expr(generator.iter, state)
                self.bind(generator.target, None, state)
                for condition in generator.ifs:
                    self.expr(condition, state)
            if isinstance(node, ast.DictComp):
                self.expr(node.key, state)
                self.expr(node.value, state)
            else:
                self.expr(node.elt, state)
        self._replace(state, self.join(state, entry))

    @staticmethod
    def _replace(state: State, new: State) -> None:
        """Make ``state`` equal ``new`` in place."""
        state.clear()
        state.update(new)
