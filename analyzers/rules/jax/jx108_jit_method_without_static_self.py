"""JX108: ``@jax.jit`` on a method whose ``self`` is not static."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.semantics.names import positional_params

_PLAIN_JIT = frozenset({"jax.jit", "jax.pjit", "jax.experimental.pjit.pjit"})
_HARMLESS_CLASS_DECORATORS = frozenset({"dataclasses.dataclass", "functools.total_ordering"})
_HARMLESS_BASES = frozenset({"builtins.object", "abc.ABC"})


@register_rule
class JitMethodWithoutStaticSelf(Rule):
    """## What it does
    Finds `@jax.jit` applied directly to a method of an ordinary class whose first parameter,
    `self`, is not marked static.

    ## Why is this bad?
    `jax.jit` treats every non-static argument as an array or a pytree of arrays. `self` is an
    instance of a plain class, so the first call fails with `TypeError: Error interpreting
    argument to <function ...> as an abstract array ... was passed to the function at path
    self`. Classes registered as pytrees (flax `struct.dataclass`, `equinox.Module`,
    `register_pytree_node_class`, NamedTuples) are fine and are not reported.

    ## Example
    ```python
    import jax

    class Model:
        def __init__(self, scale):
            self.scale = scale

        @jax.jit
        def apply(self, x):
            return x * self.scale
    ```

    Use instead:
    ```python
    import jax

    class Model:
        def __init__(self, scale):
            self.scale = scale

        def apply(self, x):
            return _apply(self.scale, x)

    @jax.jit
    def _apply(scale, x):
        return x * scale
    ```

    Jit a function of arrays and pass the attributes it needs, register the class as a pytree,
    or mark `self` static with `functools.partial(jax.jit, static_argnums=0)` — but then the
    class needs `__hash__`/`__eq__` that change whenever the attributes the method reads
    change, or calls reuse a stale compiled version.

    ## References
    - JAX FAQ: "How to use jit with methods?"
    """

    code = "JX108"
    raises = ("TypeError",)
    message = "`jax.jit` on a method without a static `self`"
    explainer = "tracing#jit-on-methods"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.FunctionDef,)
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.FunctionDef)
        traced = ctx.traced.get(id(node))
        if traced is None or traced.jit_spec is None or traced.jit_spec.name not in _PLAIN_JIT:
            return
        decorator = next((d for d in node.decorator_list if d in traced.sites), None)
        if decorator is None or not isinstance(ctx.scope.node, ast.ClassDef):
            return
        if not self.plain_class(ctx.scope.node, ctx) or self.is_static_or_classmethod(node, ctx):
            return
        params = positional_params(node)
        if not params or params[0] in traced.static_params:
            return
        ctx.report(
            decorator,
            f"`@jax.jit` on method `{ctx.scope.node.name}.{node.name}` traces `{params[0]}`, a plain-class instance",
            detail=f"`{params[0]}` is an instance of a plain class, not an array, so the first call raises "
            f"TypeError; jit a function of arrays instead or mark `{params[0]}` static.",
        )

    @staticmethod
    def is_static_or_classmethod(node: ast.FunctionDef, ctx: CheckContext) -> bool:
        names = {ctx.index.qualname(d, ctx.scope) for d in node.decorator_list}
        return bool(names & {"builtins.staticmethod", "builtins.classmethod"})

    @staticmethod
    def plain_class(node: ast.ClassDef, ctx: CheckContext) -> bool:
        parent = ctx.scope.parent or ctx.index.module_scope
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if ctx.index.qualname(target, parent) not in _HARMLESS_CLASS_DECORATORS:
                return False
        if node.keywords:
            return False
        return all(ctx.index.qualname(base, parent) in _HARMLESS_BASES for base in node.bases)
