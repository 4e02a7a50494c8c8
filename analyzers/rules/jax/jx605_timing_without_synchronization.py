"""JX605: a jitted call timed with the clock, but not waited for before the second clock read."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Edit, Fix, Range, RelatedLocation, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.tracing.jit_wrappers import jit_index
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.loops import block_of, parents, walk_scope

CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "time.process_time_ns",
        "timeit.default_timer",
    }
)
"""Clock reads a benchmark takes before and after the code it times."""

# Calls that only enqueue work or compute Python values: none of them waits for the device.
_ASYNC_PREFIXES = ("jax.numpy.", "jax.lax.", "jax.random.", "jax.nn.")
_PLAIN_BUILTINS = frozenset(
    {"builtins.range", "builtins.enumerate", "builtins.zip", "builtins.len", "builtins.iter", "builtins.isinstance"}
)
_PLAIN_STATEMENTS = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.For, ast.Pass)


@register_rule
class TimingWithoutSynchronization(Rule):
    """## What it does
    Finds two clock reads (`time.perf_counter()`, `time.time()`, `timeit.default_timer()`, …) in
    the same block with calls of jitted functions between them and nothing that waits for their
    results: no `block_until_ready()`, `jax.block_until_ready(...)`, `jax.device_get(...)`,
    conversion to a Python or NumPy value, or any other call that might wait. A jitted function
    that returns nothing, or only hands its parameters back, computes nothing to wait for: timing it
    measures dispatch overhead on purpose, and is not reported.

    ## Why is this bad?
    JAX dispatches work asynchronously: a jitted call returns as soon as the computation is
    enqueued, before it has run. The clock then measures dispatch (microseconds), not the
    computation (a large matmul takes hundreds of milliseconds on a CPU while the timed call
    returns in 0.1 ms). The first call also includes tracing and compiling, which do run
    synchronously.

    ## Example
    ```python
    import time

    import jax
    import jax.numpy as jnp

    matmul = jax.jit(lambda a: a @ a)
    a = jnp.ones((1000, 1000))
    matmul(a).block_until_ready()

    start = time.perf_counter()
    result = matmul(a)
    elapsed = time.perf_counter() - start
    ```

    Use instead:
    ```python
    import time

    import jax
    import jax.numpy as jnp

    matmul = jax.jit(lambda a: a @ a)
    a = jnp.ones((1000, 1000))
    matmul(a).block_until_ready()

    start = time.perf_counter()
    result = matmul(a)
    jax.block_until_ready(result)
    elapsed = time.perf_counter() - start
    ```

    ## Fix safety
    The fix waits for the last timed result before the second clock read: it inserts
    `jax.block_until_ready(result)` when the result is assigned to a name, or wraps a bare call
    in `jax.block_until_ready(...)`. It is safe: values are unchanged, only the time measured is
    now the computation's. In a loop, waiting for the last result covers the earlier ones when
    they run in order on one device.

    ## References
    - JAX docs: "Asynchronous dispatch"
    - JAX docs: "Benchmarking JAX code"
    """

    code = "JX605"
    message = "asynchronous jitted call timed without waiting for its result"
    explainer = "async-dispatch-and-donation#timing-jax-code"
    severity = Severity.WARNING
    fix_title = "Wait with `jax.block_until_ready` before reading the clock"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = CLOCKS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.traced_function is not None or jit_index(ctx.index).callee(node, ctx.scope) not in CLOCKS:
            return
        statement: ast.AST | None = node
        parent_of = parents(ctx.index, ctx.scope)
        while statement is not None and not isinstance(statement, ast.stmt):
            statement = parent_of.get(id(statement))
        found = block_of(statement, ctx.index, ctx.scope) if statement is not None else None
        if found is None:
            return
        block, position = found
        start = next((i for i in range(position - 1, -1, -1) if self.reads_clock(block[i], ctx)), None)
        if start is None:
            return
        if self.blocks_before(node, statement, ctx):  # type: ignore[arg-type]
            return  # `print(f"{loss} {time.time() - t0}")` formats (waits for) `loss` before reading the clock
        between = block[start + 1 : position]
        jitted, blocked = self.jitted_calls(between, ctx)
        if blocked:
            return
        if not jitted:
            self.check_interval_after_dispatch(node, block, start, ctx)
            return
        last = jitted[-1]
        ctx.report(
            node,
            f"`{snippet(ctx, node.func)}()` is read while `{snippet(ctx, last)}` (line {last.lineno}) may still run",
            detail="JAX returns from a jitted call before the computation finishes, so this times dispatch, not "
            "compute; wait with `jax.block_until_ready(...)` before reading the clock.",
            related=(
                RelatedLocation(ctx.path, ctx.source.node_range(last), "asynchronous call, not waited for"),
                RelatedLocation(ctx.path, ctx.source.node_range(block[start]), "the clock is first read here"),
            ),
            fix=self.wait_first(ctx, last, statement, block[start + 1 : position]),  # type: ignore[arg-type]
        )

    @staticmethod
    def reads_clock(statement: ast.stmt, ctx: CheckContext) -> bool:
        return any(
            isinstance(n, ast.Call) and ctx.index.qualname(n.func, ctx.scope) in CLOCKS for n in walk_scope([statement])
        )

    def check_interval_after_dispatch(
        self, node: ast.Call, block: list[ast.stmt], start: int, ctx: CheckContext
    ) -> None:
        """Two clock reads with nothing between them, the first taken right after a jitted call returned:
        the interval is meant to time the device (``device_time = time.time() - submit_done``) but
        nothing waits, so it measures neither the dispatch nor the computation."""
        if start == 0 or not self.subtracts_clock_of(node, block[start], ctx):
            return
        dispatched, blocked = self.jitted_calls([block[start - 1]], ctx)
        if blocked or not dispatched or self.reads_clock(block[start - 1], ctx):
            return
        last = dispatched[-1]
        ctx.report(
            node,
            f"`{snippet(ctx, node.func)}()` times an interval after `{snippet(ctx, last)}` (line {last.lineno}) "
            "that waits for nothing",
            detail=f"`{ctx.segment(node.func)}()` closes an interval that starts after "
            f"`{snippet(ctx, last)}` (line {last.lineno}) returned and waits for nothing: "
            "the computation is still running, so this measures neither dispatch nor compute; wait with "
            "`jax.block_until_ready(...)` before reading the clock.",
            related=(RelatedLocation(ctx.path, ctx.source.node_range(last), "asynchronous call, not waited for"),),
        )

    @staticmethod
    def subtracts_clock_of(clock: ast.Call, first: ast.stmt, ctx: CheckContext) -> bool:
        """Whether ``clock`` is read as ``clock() - t`` with ``t`` the name the first clock read was stored in."""
        parent = parents(ctx.index, ctx.scope).get(id(clock))
        if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Sub) and parent.left is clock):
            return False
        stored = first.targets if isinstance(first, ast.Assign) else []
        return isinstance(parent.right, ast.Name) and any(
            isinstance(t, ast.Name) and t.id == parent.right.id for t in stored
        )

    @staticmethod
    def blocks_before(clock: ast.Call, statement: ast.stmt, ctx: CheckContext) -> bool:
        """Whether the clock's own statement evaluates something that may wait before the clock is read:
        a formatted value or a call to the left of it (not one the clock read sits in)."""
        position = (clock.lineno, clock.col_offset)
        inside = {id(n) for n in ast.walk(clock)}
        around = {id(n) for n in ast.walk(statement) if any(c is clock for c in ast.walk(n))}
        for each in ast.walk(statement):
            if id(each) in inside or id(each) in around or not isinstance(each, ast.FormattedValue | ast.Call):
                continue
            if (each.lineno, each.col_offset) < position and not (
                isinstance(each, ast.Call) and ctx.index.qualname(each.func, ctx.scope) in CLOCKS
            ):
                return True
        return False

    @staticmethod
    def jitted_calls(statements: list[ast.stmt], ctx: CheckContext) -> tuple[list[ast.Call], bool]:
        """The jitted calls among ``statements`` that compute something, and whether anything there might
        wait for the device."""
        jits = jit_index(ctx.index)
        found: list[ast.Call] = []
        for each in walk_scope(statements):
            if isinstance(each, ast.stmt) and not isinstance(each, _PLAIN_STATEMENTS):
                return found, True  # a condition or a context manager may read a result
            if isinstance(each, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                return found, True
            if not isinstance(each, ast.Call):
                continue
            wrapper = jits.of_call(each, ctx.scope)
            if wrapper is not None:
                if _returns_something(wrapper.function.target):
                    found.append(each)  # a jitted function that returns nothing leaves nothing to wait for
                continue
            qualname = ctx.index.qualname(each.func, ctx.scope) or ""
            if not (qualname.startswith(_ASYNC_PREFIXES) or qualname in _PLAIN_BUILTINS):
                return found, True  # any other call may block (`float(y)`, `print(y)`, `y.block_until_ready()`)
        return found, False

    @staticmethod
    def wait_first(ctx: CheckContext, call: ast.Call, clock: ast.stmt, between: list[ast.stmt]) -> Fix | None:
        spelling = ctx.module_spelling("jax", "jax")
        if spelling is None:
            return None
        jax_alias, imports = spelling
        parent = parents(ctx.index, ctx.scope).get(id(call))
        if isinstance(parent, ast.Expr) and any(parent is s for s in between):
            return ctx.fix(
                "Wait for the call with `jax.block_until_ready`",
                Applicability.SAFE,
                [*imports, ctx.edit(call, f"{jax_alias}.block_until_ready({ctx.segment(call)})")],
            )
        if not (
            isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
        ):
            return None
        indent = ctx.source.line(clock.lineno)[: clock.col_offset]
        if indent.strip():
            return None
        name = parent.targets[0].id
        start = ctx.source.node_range(clock).start
        return ctx.fix(
            f"Wait for `{name}` before reading the clock",
            Applicability.SAFE,
            [*imports, Edit(Range(start, start), f"{jax_alias}.block_until_ready({name})\n{indent}")],
        )


def _returns_something(function: ast.AST | None) -> bool:
    """Whether a jitted function may return a computed value (unknown functions may); a body that returns
    nothing, or only hands its parameters back (``return graphdef, state``), is a benchmark of dispatch
    overhead: it leaves no computation to wait for."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return True
    body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        returned = body[0].value
        params = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
        items = returned.elts if isinstance(returned, ast.Tuple) else [returned]
        if all(isinstance(item, ast.Name) and item.id in params for item in items):
            return False
    return any(isinstance(n, ast.Return) and n.value is not None for n in walk_scope(list(function.body)))
