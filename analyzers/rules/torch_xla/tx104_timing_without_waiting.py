"""TX104: the clock read right after a sync, while the dispatched graph is still running."""

from __future__ import annotations

import ast
import enum
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.model import Kind
from xlalens.analyzers.rules.jax.jx605_timing_without_synchronization import CLOCKS
from xlalens.analyzers.rules.torch_xla._steps import is_tensor, is_xla, model, snippet
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.loops import block_of, parents, walk_scope
from xlalens.analyzers.semantics.names import Scope

_PLAIN_BUILTINS = frozenset(
    {"builtins.range", "builtins.enumerate", "builtins.zip", "builtins.len", "builtins.iter", "builtins.isinstance"}
)
"""Builtins that compute Python values only."""
_WRITES_TENSORS = frozenset({"torch.save"})
"""``torch.*`` functions that read the values of the tensors they get (the others only record graph ops)."""
_HELPER_DEPTH = 3
"""How deep the rule follows the module's own functions between the sync and the clock."""


class _Kind(enum.Enum):
    SYNC = "sync"
    WAIT = "wait"
    """Waits for the device, or may (a call the rule cannot see into)."""


_Event = tuple[_Kind, ast.AST, ast.Call | None]
"""What the last call that matters does, where (the sync itself, inside helpers too), and the call of
the module's own function it was found through, if any."""


@register_rule
class TimingWithoutWaiting(Rule):
    """## What it does
    Finds a clock read (`time.perf_counter()`, `time.time()`, `time.monotonic()`,
    `timeit.default_timer()`, …) that ends an interval (`time.time() - start`, or a reading later
    subtracted from) and whose last preceding device call is a sync: `torch_xla.sync()`,
    `xm.mark_step()` or `with torch_xla.step():`, with or without `wait=True`, and nothing between
    them that waits for the device (`xm.wait_device_ops()`, `.item()`, `.cpu()`, printing a
    tensor, a step closure the sync runs, or a call the rule cannot see into). The sync is followed
    through the module's own functions (`self._flush()` that calls `torch_xla.sync()`) and into the
    loop the clock reading closes.

    ## Why is this bad?
    A sync cuts the pending graph, compiles it if it is new, and hands it to the device; it
    returns before the device has run it. The clock then measures tracing and dispatch, not the
    computation. Measured with torch_xla 2.9 on CPU, three chained 1024x1024 matmuls: the interval
    read right after `torch_xla.sync()` was 0.4 to 2.5 ms while the graph ran for 100 to 170 ms,
    and `torch_xla.sync(wait=True)` (`xm.mark_step(wait=True)`) returned just as early: it waits
    for the dispatch, not for the execution. In the oracle cases (a benchmark helper, a latency
    probe, a prefill, a decode loop, an evaluation loop) the intervals covered 1 to 9% of the time
    the graphs ran. `xm.wait_device_ops()` before the clock, or a read of the result (`.item()`,
    `.cpu()`), makes the interval cover the computation (65 to 89% there, the rest being warm-up).

    The rule stays silent when the timed loop updates a device tensor in place (an optimizer
    step, `x.add_(...)`, `buffer[:, i] = token`, `position += 1`): the next sync donates that
    tensor's buffer and waits for the graph still writing it, so each step's interval covers the
    step before it (72 to 87% of the run's execution time in a trainer and a decode loop that
    writes into a token buffer). It is also silent when a call it cannot see into runs between
    the sync and the clock (it may wait), and for clock readings that only log a timestamp.

    ## Example
    ```python
    import time

    import torch
    import torch_xla

    device = torch_xla.device()
    weights = torch.randn(1024, 1024, device=device)
    batch = torch.randn(1024, 1024, device=device)
    start = time.perf_counter()
    out = torch.tanh(batch @ weights)
    torch_xla.sync()
    elapsed = time.perf_counter() - start
    ```

    Use instead:
    ```python
    import time

    import torch
    import torch_xla
    import torch_xla.core.xla_model as xm

    device = torch_xla.device()
    weights = torch.randn(1024, 1024, device=device)
    batch = torch.randn(1024, 1024, device=device)
    start = time.perf_counter()
    out = torch.tanh(batch @ weights)
    torch_xla.sync()
    xm.wait_device_ops()
    elapsed = time.perf_counter() - start
    ```

    ## References
    - torch_xla docs: "PyTorch on XLA Devices", section "XLA Tensors are Lazy"
    - `torch_xla.core.xla_model.wait_device_ops`
    """

    code = "TX104"
    message = "Clock read right after a sync, before the device has run the graph"
    explainer = "torch-xla-lazy-tensor#timing-a-step"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names = CLOCKS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if not model(ctx).enabled or ctx.qualname(node.func) not in CLOCKS:
            return
        parent_of = parents(ctx.index, ctx.scope)
        statement: ast.AST | None = node
        while statement is not None and not isinstance(statement, ast.stmt):
            statement = parent_of.get(id(statement))
        if not isinstance(statement, ast.stmt) or not self.ends_interval(node, statement, ctx):
            return
        before = self.before_in_statement(node, statement, ctx)
        found = (before, statement) if before is not None else self.event_before(statement, ctx)
        if found is None or found[0][0] is not _Kind.SYNC or self.repeated_in_place(statement, found[1], ctx):
            return
        _, sync, via = found[0]
        if self.closes_with_callback(statement, via, ctx):
            return
        waits = isinstance(sync, ast.Call) and any(
            k.arg == "wait" and isinstance(k.value, ast.Constant) and k.value.value is True for k in sync.keywords
        )
        spelled = f"`{snippet(ctx, sync)}` (line {sync.lineno})"
        if isinstance(sync, ast.Call) and ctx.index.qualname(sync.func, ctx.scope) == tx.STEP_CONTEXT:
            spelled = f"the end of `with {snippet(ctx, sync)}:` (line {sync.lineno})"
        lead = spelled
        if via is not None:
            lead = f"`{snippet(ctx, via, 30)}` (line {via.lineno})"
            spelled = f"`{snippet(ctx, via)}` (line {via.lineno}), which ends with {spelled}"
        elif len(spelled) > 60:
            lead = f"a sync (line {sync.lineno})"
        note = " `wait=True` waits for the dispatch only." if waits else ""
        ctx.report(
            node,
            f"`{snippet(ctx, node.func, 24)}()` after {lead} times dispatch only",
            detail=f"The clock is read right after {spelled}.{note} A sync returns once the graph is dispatched "
            "and nothing waits for the device, so the interval measures tracing and dispatch, not the "
            "computation. Call `xm.wait_device_ops()` before reading the clock.",
            related=(RelatedLocation(ctx.path, ctx.source.node_range(sync), "the graph is dispatched here"),),
        )

    def closes_with_callback(self, statement: ast.stmt, via: ast.Call | None, ctx: CheckContext) -> bool:
        """Whether a step closure is registered for the sync: in the statements before the clock back to the
        sync before that one, in the loop the clock is in, or in the function the sync was found in. The sync
        runs it, and a closure that reads a value waits for the graph (measured: the interval then covers the
        computation)."""
        roots: list[ast.AST] = []
        found = block_of(statement, ctx.index, ctx.scope)
        if found is not None:
            block, position = found
            reached_sync = False
            for earlier in reversed(block[:position]):
                syncs = any(
                    isinstance(n, ast.Call) and ctx.qualname(n.func) in tx.SYNC_FUNCTIONS for n in walk_scope([earlier])
                )
                if syncs and reached_sync:
                    break
                reached_sync = reached_sync or syncs
                roots.append(earlier)
        current = parents(ctx.index, ctx.scope).get(id(statement))
        while current is not None and not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
            if isinstance(current, ast.For | ast.AsyncFor | ast.While):
                roots.extend(current.body)
                break
            current = parents(ctx.index, ctx.scope).get(id(current))
        if via is not None:
            owner = ctx.scope.enclosing_function()
            sites = call_graph(ctx.index).calls_in(owner.node if owner is not None else ctx.index.tree)  # type: ignore[arg-type]
            callee = next((s.callee for s in sites if s.call is via), None)
            if isinstance(callee, ast.FunctionDef | ast.AsyncFunctionDef):
                roots.extend(callee.body)
        closure = tx.STEP_CLOSURE.rsplit(".", 1)[-1]
        return any(
            isinstance(n, ast.Call)
            and (
                ctx.qualname(n.func) == tx.STEP_CLOSURE
                or (isinstance(n.func, ast.Attribute) and n.func.attr == closure)
            )
            for n in walk_scope(roots)
        )

    @staticmethod
    def ends_interval(clock: ast.Call, statement: ast.stmt, ctx: CheckContext) -> bool:
        """Whether the reading is subtracted from: ``clock() - start``, or ``end = clock()`` with ``end - ...``
        later in the same code."""
        parent = parents(ctx.index, ctx.scope).get(id(clock))
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Sub) and parent.left is clock:
            return True
        if not (
            isinstance(statement, ast.Assign)
            and statement.value is clock
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            return False
        name = statement.targets[0].id
        owner = (ctx.scope.enclosing_function() or ctx.index.module_scope).node
        return any(
            isinstance(each, ast.BinOp)
            and isinstance(each.op, ast.Sub)
            and isinstance(each.left, ast.Name)
            and each.left.id == name
            and (each.lineno, each.col_offset) > (statement.lineno, statement.col_offset)
            for each in walk_scope(list(owner.body))  # type: ignore[attr-defined]
        )

    def before_in_statement(self, clock: ast.Call, statement: ast.stmt, ctx: CheckContext) -> _Event | None:
        """What the clock's own statement evaluates before the clock: a call, or a formatted value (which
        may format a tensor, and waits for it)."""
        position = (clock.lineno, clock.col_offset)
        around = {id(n) for n in ast.walk(statement) if any(c is clock for c in ast.walk(n))}
        inside = {id(n) for n in ast.walk(clock)}
        earlier = [
            n
            for n in ast.walk(statement)
            if isinstance(n, ast.Call | ast.FormattedValue)
            and id(n) not in around
            and id(n) not in inside
            and (n.lineno, n.col_offset) < position
        ]
        for each in sorted(earlier, key=_end, reverse=True):
            if isinstance(each, ast.FormattedValue):
                return _Kind.WAIT, each, None
            found = self.call_event(each, ctx.scope, ctx, 0)  # type: ignore[arg-type]
            if found is not None:
                return found
        return None

    def event_before(self, statement: ast.stmt, ctx: CheckContext) -> tuple[_Event, ast.stmt] | None:
        """The last device event before ``statement`` and the statement it is in: earlier statements of its
        block, then of the blocks around it, up to the loop, function or module it is in."""
        parent_of = parents(ctx.index, ctx.scope)
        current: ast.AST = statement
        while True:
            found = block_of(current, ctx.index, ctx.scope)
            if found is None:
                return None
            block, position = found
            for earlier in reversed(block[:position]):
                event = self.statement_event(earlier, ctx.scope, ctx, 0)
                if event is not None:
                    return event, earlier
            parent = parent_of.get(id(current))
            if not isinstance(parent, ast.If | ast.With | ast.AsyncWith | ast.Try):
                return None  # a loop body's first statement follows the previous iteration too, or nothing
            heads: list[ast.AST] = [parent.test] if isinstance(parent, ast.If) else []
            if isinstance(parent, ast.With | ast.AsyncWith):
                heads = [item.context_expr for item in parent.items]
            event = self.last_call_event(heads, ctx.scope, ctx, 0)
            if event is not None:
                return event, parent
            current = parent

    def repeated_in_place(self, statement: ast.stmt, found_in: ast.stmt, ctx: CheckContext) -> bool:
        """Whether the timed code repeats a graph that updates a device tensor in place: the loop the clock
        reading is in, or the loop before it that holds the sync."""
        parent_of = parents(ctx.index, ctx.scope)
        loops = [found_in] if isinstance(found_in, ast.For | ast.AsyncFor | ast.While) else []
        current = parent_of.get(id(statement))
        while current is not None and not isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
            if isinstance(current, ast.For | ast.AsyncFor | ast.While):
                loops.append(current)
                break
            current = parent_of.get(id(current))
        return any(self.updates_in_place(loop.body, ctx.scope, ctx, 0) for loop in loops)

    def updates_in_place(self, statements: list[ast.stmt], scope: Scope, ctx: CheckContext, depth: int) -> bool:
        """Whether ``statements`` (or the module's functions they call) write into a device tensor: an
        optimizer step, an in-place method (``add_``, ``copy_``), an indexed or augmented assignment."""
        owner = scope.enclosing_function()
        sites = call_graph(ctx.index).calls_in(owner.node if owner is not None else ctx.index.tree)  # type: ignore[arg-type]
        callees = {id(s.call): s.callee for s in sites}
        for each in walk_scope(statements):
            if isinstance(each, ast.Assign | ast.AugAssign):
                targets = each.targets if isinstance(each, ast.Assign) else [each.target]
                for target in targets:
                    if isinstance(target, ast.Subscript) and not self.is_host_value(target.value, scope, ctx):
                        return True
                    if isinstance(each, ast.AugAssign) and self.is_tensor_at(target, scope, ctx):
                        return True
            if not isinstance(each, ast.Call):
                continue
            func = each.func
            if ctx.index.qualname(func, scope) == tx.OPTIMIZER_STEP:
                return True
            if isinstance(func, ast.Attribute):
                if func.attr.endswith("_") and not func.attr.startswith("_"):
                    return True
                if func.attr == "step" and self.steps_optimizer(func.value, scope, ctx):
                    return True
            callee = callees.get(id(each))
            if isinstance(callee, ast.FunctionDef | ast.AsyncFunctionDef) and depth < _HELPER_DEPTH:
                inner = ctx.index.scope_of(callee)
                if inner is not None and self.updates_in_place(callee.body, inner, ctx, depth + 1):
                    return True
        return False

    @staticmethod
    def steps_optimizer(receiver: ast.expr, scope: Scope, ctx: CheckContext) -> bool:
        """``receiver.step()`` may update parameters: an optimizer, or anything not known to be a scheduler."""
        found = model(ctx).fact(receiver, scope)
        return found is None or found.kind is Kind.OPTIMIZER

    @staticmethod
    def is_host_value(expr: ast.expr, scope: Scope, ctx: CheckContext) -> bool:
        found = model(ctx).fact(expr, scope)
        return found is not None and found.kind in (Kind.SEQ, Kind.NUMBER, Kind.HOST_BATCH)

    def last_event(self, statements: list[ast.stmt], scope: Scope, ctx: CheckContext, depth: int) -> _Event | None:
        """The event of the last statement of ``statements`` that has one."""
        for statement in reversed(statements):
            found = self.statement_event(statement, scope, ctx, depth)
            if found is not None:
                return found
        return None

    def statement_event(self, statement: ast.stmt, scope: Scope, ctx: CheckContext, depth: int) -> _Event | None:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return None
        if isinstance(statement, ast.If):
            branches = [self.last_event(b, scope, ctx, depth) for b in (statement.body, statement.orelse)]
            taken = [b for b in branches if b is not None]
            # Waiting on either path keeps the rule silent; a sync on one is a sync when that path runs.
            waited = next((b for b in taken if b[0] is _Kind.WAIT), None)
            return waited or (taken[0] if taken else self.last_call_event([statement.test], scope, ctx, depth))
        if isinstance(statement, ast.For | ast.AsyncFor | ast.While):
            head = statement.iter if isinstance(statement, ast.For | ast.AsyncFor) else statement.test
            return self.last_event(statement.body, scope, ctx, depth) or self.last_call_event([head], scope, ctx, depth)
        if isinstance(statement, ast.With | ast.AsyncWith):
            for item in statement.items:
                context = item.context_expr
                if isinstance(context, ast.Call) and ctx.index.qualname(context.func, scope) == tx.STEP_CONTEXT:
                    return _Kind.SYNC, context, None  # it syncs when the block exits
            heads = [item.context_expr for item in statement.items]
            return self.last_event(statement.body, scope, ctx, depth) or self.last_call_event(heads, scope, ctx, depth)
        if isinstance(statement, ast.Try):
            if any(self.last_event(h.body, scope, ctx, depth) for h in statement.handlers):
                return _Kind.WAIT, statement, None  # a handler may have run instead of the end of the body
            return (
                self.last_event(statement.finalbody, scope, ctx, depth)
                or self.last_event(statement.orelse, scope, ctx, depth)
                or self.last_event(statement.body, scope, ctx, depth)
            )
        if not isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Expr | ast.Pass | ast.Return):
            return _Kind.WAIT, statement, None  # `match`, `assert`, `raise`, ...: the rule does not follow them
        return self.last_call_event([statement], scope, ctx, depth)

    def last_call_event(self, roots: list[ast.AST], scope: Scope, ctx: CheckContext, depth: int) -> _Event | None:
        """The event of the last call under ``roots`` (in evaluation order) that has one."""
        nodes = [n for n in walk_scope(roots) if isinstance(n, ast.Call | ast.FormattedValue)]
        for each in sorted(nodes, key=_end, reverse=True):
            if isinstance(each, ast.FormattedValue):
                if self.may_be_tensor(each.value, scope, ctx):
                    return _Kind.WAIT, each, None
                continue
            found = self.call_event(each, scope, ctx, depth)  # type: ignore[arg-type]
            if found is not None:
                return found
        return None

    def call_event(self, call: ast.Call, scope: Scope, ctx: CheckContext, depth: int) -> _Event | None:
        """``SYNC`` or ``WAIT`` for a call that syncs or may wait; None for one that only records graph
        operations or computes Python values."""
        qualname = ctx.index.qualname(call.func, scope)
        if qualname in tx.SYNC_FUNCTIONS:
            return _Kind.SYNC, call, None
        if qualname == tx.OPTIMIZER_STEP:
            barrier = any(
                k.arg == "barrier" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in call.keywords
            )
            return (_Kind.SYNC, call, None) if barrier else None
        if qualname in CLOCKS or qualname in _PLAIN_BUILTINS or qualname == tx.STEP_CLOSURE:
            return None
        if qualname in ("builtins.print", tx.MASTER_PRINT):
            arguments = [*call.args, *(k.value for k in call.keywords)]
            return (_Kind.WAIT, call, None) if any(self.may_be_tensor(a, scope, ctx) for a in arguments) else None
        if qualname is not None and qualname.startswith("torch.") and qualname not in _WRITES_TENSORS:
            return (_Kind.WAIT, call, None) if qualname in tx.HOST_READ_FUNCTIONS else None
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr not in tx.HOST_READ_METHODS
            and func.attr != "to"
            and self.is_tensor_at(func.value, scope, ctx)
        ):
            return None  # a tensor method: one more graph operation
        owner = scope.enclosing_function()
        sites = call_graph(ctx.index).calls_in(owner.node if owner is not None else ctx.index.tree)  # type: ignore[arg-type]
        callee = next((s.callee for s in sites if s.call is call), None)
        if callee is not None and depth < _HELPER_DEPTH and isinstance(callee, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = ctx.index.scope_of(callee)
            found = self.last_event(callee.body, inner, ctx, depth + 1) if inner is not None else None
            return None if found is None else (found[0], found[1], call)
        return _Kind.WAIT, call, None

    @staticmethod
    def is_tensor_at(expr: ast.expr, scope: Scope, ctx: CheckContext) -> bool:
        found = model(ctx).fact(expr, scope)
        return is_tensor(found) or is_xla(found)

    @staticmethod
    def may_be_tensor(expr: ast.expr, scope: Scope, ctx: CheckContext) -> bool:
        """Whether formatting ``expr`` may format a tensor (and wait for it): anything but literals and
        names of Python numbers or strings the model knows."""
        if isinstance(expr, ast.Constant):
            return False
        if isinstance(expr, ast.JoinedStr):
            return any(
                isinstance(v, ast.FormattedValue) and TimingWithoutWaiting.may_be_tensor(v.value, scope, ctx)
                for v in expr.values
            )
        found = model(ctx).fact(expr, scope)
        return found is None or is_tensor(found) or is_xla(found)


def _end(node: ast.AST) -> tuple[int, int]:
    """Where ``node`` ends: a call is evaluated after the calls inside it, which end before it does."""
    return (node.end_lineno or 0, node.end_col_offset or 0)
