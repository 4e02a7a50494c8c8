"""JX205: a function that jits a function it defines itself, and is called in a loop."""

from __future__ import annotations

import ast
import weakref
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.jit_wrappers import (
    JitWrapper,
    bind_arguments,
    calls_jit_wrapper,
    jit_index,
    may_build_jit_wrapper,
)
from xlalens.analyzers.rules.jax._retrace import calls_text, captures_per_run_values
from xlalens.analyzers.semantics.calls import GatedCallFilter
from xlalens.analyzers.semantics.loops import enclosing_loops, loop_stores, node_in, parents, walk_scope
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope, positional_params

_LOOP_CALLS: weakref.WeakKeyDictionary[ModuleIndex, dict[int, ast.Call | None]] = weakref.WeakKeyDictionary()
"""Per module: ``id(function node)`` -> a call of that function inside a loop, or None."""


def _calls_or_builds_jit_wrapper(call: ast.Call, scope: Scope, index: ModuleIndex) -> bool:
    """A call of a jit wrapper, or one that may build a wrapper (which a factory may return)."""
    return calls_jit_wrapper.accepts(call, scope, index) or may_build_jit_wrapper.accepts(call, scope, index)


# Both filters pass only in a module that spells a jit-like transform.
_calls_or_returns_jit_wrapper = GatedCallFilter(_calls_or_builds_jit_wrapper, calls_jit_wrapper.module_may_pass)


@register_rule
class JitRecreatedOnEveryCall(Rule):
    """## What it does
    Finds a function that applies `jax.jit` to a function object it creates itself (a nested
    `def`, a `lambda`, a `functools.partial`) and calls the result (also in its own loop or
    comprehension), when that enclosing function is itself called in a loop somewhere in the same
    file. Also a factory that returns such a wrapper (`def make_step(cfg): return
    jax.jit(partial(step, cfg=cfg))`) called with the same arguments on every iteration of a loop
    that calls what it returns. A factory that jits a module-level function (the cache holds),
    one behind a decorator such as `functools.lru_cache`, or one given what the loop changes is
    not reported.

    ## Why is this bad?
    Every call of the enclosing function creates a new function object, and `jax.jit` caches
    compiled code per function object. So each call of the enclosing function traces and compiles
    the inner function again, even though its code and input shapes never change. JAX's cache-miss
    log reports "never seen function … maybe the function is being re-defined repeatedly,
    preventing caching?" on every call.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def evaluate(params, batch):
        def loss(p, x):
            return jnp.mean((x @ p) ** 2)

        return jax.jit(loss)(params, batch)

    params = jnp.ones((4, 2))
    for batch in [jnp.ones((8, 4))] * 10:
        evaluate(params, batch)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def loss(p, x):
        return jnp.mean((x @ p) ** 2)

    def evaluate(params, batch):
        return loss(params, batch)

    params = jnp.ones((4, 2))
    for batch in [jnp.ones((8, 4))] * 10:
        evaluate(params, batch)
    ```

    Define and jit the inner function once, at module level (or in `__init__`), and pass what it
    read from the enclosing function as arguments.

    ## References
    - JAX docs: "Just-in-time compilation", section "JIT and caching"
    """

    code = "JX205"
    message = "jit re-created on every call of the enclosing function"
    explainer = "jit-caching#jit-inside-a-function"
    calculator = "retrace"
    severity = Severity.WARNING
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(_calls_or_returns_jit_wrapper)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        outer = ctx.scope.enclosing_function()
        # Inside a traced function a nested jit is traced with it, once per outer compile.
        if outer is None or ctx.traced_function is not None or isinstance(outer.node, ast.Lambda):
            return
        wrapper = jit_index(ctx.index).of_call(node, ctx.scope)
        if wrapper is None:
            self.check_factory(node, outer, ctx)
            return
        if wrapper.scope.enclosing_function() is not outer or not self.fresh(wrapper, outer):
            return
        if enclosing_loops(wrapper.site, ctx.index, wrapper.scope):
            return  # a jit built in a loop is JX201's; one built once per run and reused in its loop is not
        loop_call = self.called_in_loop(outer, ctx)
        if loop_call is None or captures_per_run_values(wrapper, outer.bindings, ctx, bound_by_partial=False):
            return
        name = outer.node.name  # type: ignore[union-attr]
        calls = calls_text(ctx, bind_arguments(wrapper, node), fresh_function=True, require_known=True)
        where = ctx.source.node_range(loop_call)
        ctx.report(
            wrapper.site,
            f"`{wrapper.spec.name}` wraps `{wrapper.function.name}`, made anew by every call of `{name}`: "
            "1 compile per call",
            detail=f"`{wrapper.spec.name}` wraps `{wrapper.function.name}`, a new function object on every call of "
            f"`{name}`, so each call of `{name}` traces and compiles it again (1 compile per call of `{name}`, "
            f'which is called in a loop at line {where.start.line}); JAX logs each call as "never seen function: '
            f'{wrapper.function.name} … maybe the function is being re-defined repeatedly, preventing caching?"; '
            f"jit the function once, outside `{name}`, and pass what it reads as arguments.",
            related=(RelatedLocation(ctx.path, where, f"`{name}` is called here, in a loop"),),
            calculator={"calls": calls or "fn:new; fn:new; fn:new"},
        )

    def check_factory(self, node: ast.Call, outer: Scope, ctx: CheckContext) -> None:
        """``def make_step(cfg): return jax.jit(partial(step, cfg=cfg))`` called, and its result called, in a loop."""
        wrapper = jit_index(ctx.index).of_expression(node, ctx.scope)
        if wrapper is None or not self.fresh(wrapper, outer) or not self.returned(node, outer, ctx):
            return
        if enclosing_loops(node, ctx.index, ctx.scope):
            return
        loop_call = self.factory_called_in_loop(outer, ctx)
        if loop_call is None:
            return
        name = outer.node.name  # type: ignore[union-attr]
        where = ctx.source.node_range(loop_call)
        ctx.report(
            node,
            f"`{name}` returns a new `{wrapper.spec.name}` of `{wrapper.function.name}` on every call: "
            "1 compile per call",
            detail=f"`{name}` builds `{wrapper.spec.name}` around `{wrapper.function.name}`, a new function object on "
            f"every call, and the jitted function it returns is called in a loop at line {where.start.line}: each "
            f"call of `{name}` brings a wrapper with an empty cache, so every call traces and compiles again; JAX "
            f'logs each as "never seen function: {wrapper.function.name} … maybe the function is being re-defined '
            f'repeatedly, preventing caching?"; call `{name}` once, before the loop, and reuse what it returns.',
            related=(RelatedLocation(ctx.path, where, f"`{name}` is called here, in a loop, and its result called"),),
            calculator={"calls": "fn:new; fn:new; fn:new"},
        )

    @staticmethod
    def returned(node: ast.Call, outer: Scope, ctx: CheckContext) -> bool:
        """Whether ``outer`` returns ``node`` itself, or the one name it assigns ``node`` to."""
        parent = parents(ctx.index, ctx.scope).get(id(node))
        names: set[str] = set()
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            names.add(parent.targets[0].id)
        elif not isinstance(parent, ast.Return):
            return False
        returns = [n for n in walk_scope(list(outer.node.body)) if isinstance(n, ast.Return)]  # type: ignore[attr-defined]
        return bool(returns) and all(
            r.value is node or (isinstance(r.value, ast.Name) and r.value.id in names) for r in returns
        )

    def factory_called_in_loop(self, outer: Scope, ctx: CheckContext) -> ast.Call | None:
        """A call of the factory ``outer`` inside a loop whose result is called in that loop."""
        node = outer.node
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if (outer.parent is not None and outer.parent.is_class) or node.decorator_list:
            return None  # a method's or a decorated factory's calls (`functools.lru_cache`) are not followed
        for call, scope in jit_index(ctx.index).calls_named(node.name):
            if not (isinstance(call.func, ast.Name) and self.is_def(node.name, scope, node, ctx)):
                continue
            loops = enclosing_loops(call, ctx.index, scope)
            if not loops:
                continue
            stored = loop_stores(loops[0], ctx.index)
            read = {n.id for n in ast.walk(call) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            if read & stored.keys():
                continue  # given what the loop changes, each iteration may need its own program
            parent = parents(ctx.index, scope).get(id(call))
            if isinstance(parent, ast.Call) and parent.func is call:
                return call
            if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                made = parent.targets[0].id
                body = walk_scope(list(loops[0].body))
                if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == made for n in body):
                    return call
        return None

    @staticmethod
    def fresh(wrapper: JitWrapper, outer: Scope) -> bool:
        """Whether the jitted function object is created anew by each run of ``outer``."""
        if wrapper.function.fresh in ("lambda", "partial", "transform"):
            return True
        target = wrapper.function.target
        return wrapper.function.fresh is None and target is not None and node_in(target, outer.node.body)  # type: ignore[attr-defined]

    def called_in_loop(self, outer: Scope, ctx: CheckContext) -> ast.Call | None:
        """A call of ``outer`` inside a loop of this file: by name, or as ``self.method`` from its class."""
        cache = _LOOP_CALLS.setdefault(ctx.index, {})
        if id(outer.node) not in cache:
            cache[id(outer.node)] = self.find_loop_call(outer, ctx)
        return cache[id(outer.node)]

    def find_loop_call(self, outer: Scope, ctx: CheckContext) -> ast.Call | None:
        node = outer.node
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        parent = outer.parent
        method = parent is not None and parent.is_class
        for call, scope in jit_index(ctx.index).calls_named(node.name):
            func = call.func
            if method:
                calls_outer = isinstance(func, ast.Attribute) and func.attr == node.name
                calls_outer = calls_outer and self.is_self(func, scope, parent)  # type: ignore[arg-type]
            else:
                calls_outer = isinstance(func, ast.Name) and func.id == node.name
                calls_outer = calls_outer and self.is_def(node.name, scope, node, ctx)
            if calls_outer and enclosing_loops(call, ctx.index, scope):
                return call
        return None

    @staticmethod
    def is_def(name: str, scope: Scope, node: FunctionNode, ctx: CheckContext) -> bool:
        found = ctx.index.lookup(name, scope)
        if found is None or len(found[1]) != 1:
            return False
        binding = found[1][0]
        return binding.kind is BindingKind.DEF and binding.node is node

    @staticmethod
    def is_self(func: ast.Attribute, scope: Scope, owner: Scope | None) -> bool:
        """``self.name`` inside a method of the class ``owner``."""
        method = scope.enclosing_function()
        if method is None or method.parent is not owner or not isinstance(func.value, ast.Name):
            return False
        params = positional_params(method.node)  # type: ignore[arg-type]
        return bool(params) and params[0] == func.value.id
