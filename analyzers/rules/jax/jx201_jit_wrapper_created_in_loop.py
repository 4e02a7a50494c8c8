"""JX201: a jit wrapper of a new function object created, and called, on every loop iteration."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Edit, Fix, Position, Range, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.tracing.jit_wrappers import JitWrapper, bind_arguments, jit_index, may_build_jit_wrapper
from xlalens.analyzers.rules.jax._retrace import calls_text, captures_per_run_values, compile_count, compile_total
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.loops import (
    Loop,
    counter_of,
    enclosing_loops,
    loop_stores,
    node_in,
    parents,
    stored_names,
    walk_scope,
)

_CACHED_PER_WRAPPER = frozenset({"flax.nnx.jit"})
"""Jits whose compile cache belongs to the wrapper they return: ``jax.jit(f)`` and ``eqx.filter_jit(f)``
rebuilt from the same ``f`` find their earlier compile, ``nnx.jit(f)`` traces again (checked on
flax 0.12 with JAX 0.10.2)."""


def _logged(fresh: str, wrapper: JitWrapper, function: str) -> str:
    """What JAX's cache-miss explanation says about each call."""
    if fresh == "wrapper":
        return f"each `{wrapper.spec.name}` call makes a new function for JAX's cache, whatever `{function}` is"
    return (
        f'JAX logs each call as "never seen function: {function} … maybe the function is being re-defined '
        'repeatedly, preventing caching?"'
    )


@register_rule
class JitWrapperCreatedInLoop(Rule):
    """## What it does
    Finds `jax.jit(...)` applied inside a `for`/`while` loop or a comprehension to a function
    object that is new on every iteration — a `lambda`, a `functools.partial(...)`, a transform
    such as `jax.grad(f)`, or a function defined in the loop — when the wrapper is then called
    in the same loop. Re-wrapping the same function defined outside the loop
    (`jax.jit(module_function)`, `eqx.filter_jit(module_function)`) is not reported: it hits the
    cache. `nnx.jit(module_function)` is: each `nnx.jit` call brings a new function to JAX's cache.

    ## Why is this bad?
    `jax.jit` caches compiled code per function object (by identity, not by code). A function
    object created on every iteration has never been seen before, so each call traces and
    compiles again: one compile per iteration, which for a training loop is typically 10 to 1000
    times slower than the step itself. With `jax_explain_cache_misses` on, JAX reports each call
    as "never seen function … maybe the function is being re-defined repeatedly, preventing
    caching?".

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    x = jnp.ones(8)
    for step in range(100):
        x = jax.jit(lambda v: v * 0.5 + 1.0)(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    update = jax.jit(lambda v: v * 0.5 + 1.0)
    x = jnp.ones(8)
    for step in range(100):
        x = update(x)
    ```

    ## Fix safety
    When the wrapped function reads nothing that the loop assigns, the fix moves the
    `jax.jit(...)` before the loop (as `name = jax.jit(...)`, reusing the name it is assigned
    to in the loop, if any). It is unsafe: the `partial` arguments and `lambda` defaults are then
    evaluated once, before the loop, even when the loop runs zero times.

    ## References
    - JAX docs: "Just-in-time compilation", section "JIT and caching"
    """

    code = "JX201"
    message = "jit wrapper of a new function object created on every loop iteration"
    explainer = "jit-caching#jit-in-a-loop"
    calculator = "retrace"
    severity = Severity.WARNING
    fix_title = "Create the jitted function once, before the loop"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.FunctionDef, ast.AsyncFunctionDef)
    needs_traced = False
    call_filter = staticmethod(may_build_jit_wrapper)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        # Inside a traced function a Python loop only re-traces the inner jit; JX206 covers that cost.
        if ctx.traced_function is not None:
            return
        jits = jit_index(ctx.index)
        if isinstance(node, ast.Call):
            wrapper = jits.of_expression(node, ctx.scope)
            if wrapper is None:
                return
            self.check_expression(node, wrapper, ctx)
            return
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        wrapper = jits.of_definition(node, ctx.scope)
        loops = enclosing_loops(node, ctx.index, ctx.scope) if wrapper is not None else []
        if wrapper is None or not loops:
            return
        calls = self.calls_in_loop(node.name, loops[0], node)
        if calls and not captures_per_run_values(wrapper, loop_stores(loops[0], ctx.index), ctx, node):
            self.report(ctx, wrapper.site, wrapper, loops[0], calls[0], "def", node.name, None)

    def check_expression(self, node: ast.Call, wrapper: JitWrapper, ctx: CheckContext) -> None:
        loops = enclosing_loops(node, ctx.index, ctx.scope)
        if not loops:
            return
        loop = loops[0]
        fresh = wrapper.function.fresh
        if fresh not in ("lambda", "partial", "transform") and wrapper.spec.name in _CACHED_PER_WRAPPER:
            fresh = "wrapper"
        elif fresh not in ("lambda", "partial", "transform"):
            target = wrapper.function.target
            if fresh is not None or target is None or not node_in(target, loop.body):
                return
            fresh = "def"
        parent = parents(ctx.index, ctx.scope).get(id(node))
        assigned: str | None = None
        if isinstance(parent, ast.Call) and parent.func is node:
            call = parent
        elif (
            isinstance(parent, ast.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)
            and parent.value is node
        ):
            assigned = parent.targets[0].id
            calls = self.calls_in_loop(assigned, loop, parent)
            if not calls:
                return
            call = calls[0]
        else:
            return
        if captures_per_run_values(wrapper, loop_stores(loop, ctx.index), ctx):
            return  # each iteration needs its own program (a block size, a layer's shardings): nothing to hoist
        self.report(ctx, node, wrapper, loop, call, fresh, wrapper.function.name, assigned)

    @staticmethod
    def calls_in_loop(name: str, loop: Loop, after: ast.AST) -> list[ast.Call]:
        """Calls of ``name`` in the loop body, other than inside ``after`` itself."""
        inside = {id(n) for n in ast.walk(after)}
        return [
            n
            for n in walk_scope(loop.body)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name and id(n) not in inside
        ]

    def report(
        self,
        ctx: CheckContext,
        at: ast.AST,
        wrapper: JitWrapper,
        loop: Loop,
        call: ast.Call,
        fresh: str,
        function: str,
        assigned: str | None,
    ) -> None:
        counter = counter_of(loop, ctx)
        count = compile_count(loop, counter, ctx)
        arguments = bind_arguments(wrapper, call)
        # Only the function object changes: show the arguments when all are known, else none.
        calls = calls_text(ctx, arguments, fresh_function=True, require_known=True) or calls_text(
            ctx, [], fresh_function=True
        )
        what = {
            "lambda": "a new `lambda`",
            "partial": f"a new `functools.partial` of `{function}`",
            "transform": f"a new `{snippet(ctx, wrapper.wrapped)}`" if wrapper.wrapped else "a new function",
            "def": f"`{function}`, a function defined in the loop,",
            "wrapper": f"`{function}` in a new wrapper",
        }[fresh]
        headline_what = f"`{function}`, redefined" if fresh == "def" else what
        ctx.report(
            at,
            f"`{wrapper.spec.name}` wraps {headline_what} every iteration: {compile_total(loop, counter)}",
            detail=f"`{wrapper.spec.name}` wraps {what} on every iteration of `{loop.header(ctx)}`, so every call "
            f"traces and compiles again ({count}); {_logged(fresh, wrapper, function)}; create the jitted function "
            "once, before the loop.",
            fix=self.hoist(ctx, at, wrapper, loop, fresh, assigned),
            calculator={"calls": calls} if calls else None,
        )

    def hoist(
        self,
        ctx: CheckContext,
        at: ast.AST,
        wrapper: JitWrapper,
        loop: Loop,
        fresh: str,
        assigned: str | None,
    ) -> Fix | None:
        """Move ``name = jax.jit(...)`` before the loop, when nothing it reads changes in the loop."""
        if fresh == "def" or loop.generator is not None or not isinstance(at, ast.Call):
            return None
        stores = stored_names(loop)
        reads = {n.id for n in ast.walk(at) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        own = {
            arg.arg
            for lam in ast.walk(at)
            if isinstance(lam, ast.Lambda)
            for arg in [*lam.args.posonlyargs, *lam.args.args, *lam.args.kwonlyargs]
        }
        if (reads - own) & stores.keys():
            return None
        indent = ctx.source.line(loop.node.lineno)[: loop.node.col_offset]
        if indent.strip():
            return None
        expression = ctx.segment(at)
        if "\n" in expression:
            return None
        start = Position(loop.node.lineno, loop.node.col_offset)
        if assigned is not None:
            statement = parents(ctx.index, ctx.scope).get(id(at))
            assert isinstance(statement, ast.Assign)
            if len(stores.get(assigned, ())) != 1 or not self.alone_on_line(ctx, statement):
                return None
            block = getattr(parents(ctx.index, ctx.scope).get(id(statement)), "body", [])
            if len(block) == 1:
                return None
            line = statement.lineno
            delete = Edit(Range(Position(line, 0), Position(line + 1, 0)), "")
            moved = ctx.source.line(line)[statement.col_offset :].rstrip()  # the statement and its comment
            insert = Edit(Range(start, start), f"{moved}\n{indent}")
            return ctx.fix(f"Move `{assigned} = …` before the loop", Applicability.UNSAFE, [insert, delete])
        name = self.fresh_name(ctx, wrapper)
        insert = Edit(Range(start, start), f"{name} = {expression}\n{indent}")
        return ctx.fix(
            f"Create `{name} = {snippet(ctx, at)}` before the loop",
            Applicability.UNSAFE,
            [insert, ctx.edit(at, name)],
        )

    @staticmethod
    def alone_on_line(ctx: CheckContext, statement: ast.stmt) -> bool:
        if statement.end_lineno != statement.lineno:
            return False
        line = ctx.source.line(statement.lineno)
        before = line[: statement.col_offset]
        after = line[statement.end_col_offset :] if statement.end_col_offset is not None else ""
        return not before.strip() and (not after.strip() or after.strip().startswith("#"))

    @staticmethod
    def fresh_name(ctx: CheckContext, wrapper: JitWrapper) -> str:
        taken = jit_index(ctx.index).names()
        base = f"{wrapper.function.name}_jit" if wrapper.function.name.isidentifier() else "jitted"
        name = base
        number = 2
        while name in taken:
            name = f"{base}{number}"
            number += 1
        return name
