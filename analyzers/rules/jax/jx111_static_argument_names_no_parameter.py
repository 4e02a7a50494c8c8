"""JX111: ``static_argnums``/``static_argnames`` of a ``jax.jit`` that name no parameter of the function."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Position, Range, RelatedLocation
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.jit_wrappers import JitWrapper, jit_index
from xlalens.analyzers.rules.jax._pallas import plural
from xlalens.analyzers.semantics.names import FunctionNode, positional_params


def _literal(expr: ast.expr) -> list[object] | None:
    """The literal entries of ``static_argnums=2`` / ``static_argnames=("a", "b")``, or None if not literal."""
    try:
        value = ast.literal_eval(expr)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return list(value) if isinstance(value, tuple | list) else [value]


def _literal_ints(expr: ast.expr) -> list[int] | None:
    items = _literal(expr) or []
    ints = [item for item in items if type(item) is int]
    return ints if ints and len(ints) == len(items) else None


def _literal_strs(expr: ast.expr) -> list[str] | None:
    items = _literal(expr) or []
    strs = [item for item in items if isinstance(item, str)]
    return strs if strs and len(strs) == len(items) else None


def _python_tuple(items: list[int]) -> str:
    return f"({items[0]!r},)" if len(items) == 1 else f"({', '.join(repr(item) for item in items)})"


def _set_text(names: list[str]) -> str:
    return "{" + ", ".join(repr(name) for name in names) + "}"


@register_rule
class StaticArgumentNamesNoParameter(Rule):
    """## What it does
    Finds a `jax.jit` whose `static_argnums` are past the positional parameters of the function it
    compiles, or whose `static_argnames` name a parameter the function does not have (or one that
    is positional-only), when the function is a `def` or lambda of the same file.

    ## Why is this bad?
    `jax.jit` checks its static arguments against the function's signature when the wrapper is
    made, not when it is called: `ValueError: Jitted function has static_argnums=(2,), but only
    accepts 2 positional arguments.` or `ValueError: Jitted function has invalid argnames {'nme'}
    in static_argnames. Function does not take these args.` For a decorated function that is
    module import time. It usually follows a renamed or removed parameter, or a count from 1.
    A function with `*args` takes any position and one with `**kwargs` any name; neither is
    reported.

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp


    @partial(jax.jit, static_argnames=("num_layers",))
    def forward(x, layers):
        for _ in range(layers):
            x = jnp.tanh(x)
        return x
    ```

    Use instead:
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp


    @partial(jax.jit, static_argnames=("layers",))
    def forward(x, layers):
        for _ in range(layers):
            x = jnp.tanh(x)
        return x
    ```

    Name the parameter as the `def` spells it; `static_argnums` counts from 0, and a
    `functools.partial` that binds leading arguments shifts the count.

    ## References
    - JAX docs: `jax.jit` (`static_argnums`, `static_argnames`)
    - `jax/_src/api_util.py`, `fun_signature` / `_validate_argnums` / `_validate_argnames`
    """

    code = "JX111"
    raises = ("ValueError",)
    message = "`static_argnums`/`static_argnames` name no parameter of the jitted function"
    explainer = "jit-caching#static-arguments-that-name-no-parameter"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.FunctionDef, ast.AsyncFunctionDef)
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        jits = jit_index(ctx.index)
        if isinstance(node, ast.Call):
            if not node.args or not (
                isinstance(node.func, ast.Call) or ctx.qualname(node.func) in ("jax.jit", "functools.partial")
            ):
                return
            wrapper = jits.of_expression(node, ctx.scope)
        else:
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            wrapper = jits.of_definition(node, ctx.scope)
        if wrapper is None or wrapper.spec.name != "jax.jit":
            return
        target = wrapper.function.target
        if target is None or wrapper.function.bound_names:
            return  # a keyword bound by functools.partial makes later parameters keyword-only
        self.check_numbers(wrapper, target, ctx)
        self.check_names(wrapper, target, ctx)

    def check_numbers(self, wrapper: JitWrapper, target: FunctionNode, ctx: CheckContext) -> None:
        expr = wrapper.keywords.get("static_argnums")
        if expr is None or target.args.vararg is not None:
            return
        numbers = _literal_ints(expr)
        count = len(positional_params(target)) - wrapper.function.bound_positional
        if numbers is None or count < 0:
            return
        outside = [n for n in numbers if not -count <= n < count]
        if not outside:
            return
        valid = f"0-{count - 1}" if count > 1 else "0" if count == 1 else "none"
        ctx.report(
            expr,
            f"`static_argnums={_python_tuple(numbers)}` but `{wrapper.function.name}` takes "
            f"{plural(count, 'positional parameter')}",
            detail=f"Valid positions: {valid}. `jax.jit` raises ValueError "
            f'"Jitted function has static_argnums={_python_tuple(numbers)}, but only accepts {count} positional '
            'arguments." when the wrapper is made.',
            related=[_defined_here(ctx, target, wrapper.function.name)],
        )

    def check_names(self, wrapper: JitWrapper, target: FunctionNode, ctx: CheckContext) -> None:
        expr = wrapper.keywords.get("static_argnames")
        if expr is None or target.args.kwarg is not None:
            return
        names = _literal_strs(expr)
        if names is None:
            return
        args = target.args
        remaining = positional_params(target)[wrapper.function.bound_positional :]
        posonly = {a.arg for a in args.posonlyargs}
        by_position = [name for name in remaining if name in posonly]
        by_position += [args.vararg.arg] if args.vararg is not None else []
        by_name = [name for name in remaining if name not in posonly] + [a.arg for a in args.kwonlyargs]
        unknown = [str(name) for name in names if name not in by_name and name not in by_position]
        only_positional = [str(name) for name in names if name in by_position]
        function = wrapper.function.name
        if unknown:
            close = f"; its parameters are {', '.join(f'`{p}`' for p in by_name)}" if by_name else ""
            ctx.report(
                expr,
                f"`static_argnames` names {', '.join(f'`{n}`' for n in unknown)} but `{function}` has no such "
                "parameter",
                detail=f"`{function}` has no parameter {', '.join(f'`{n}`' for n in unknown)}{close}. `jax.jit` "
                f'raises ValueError "Jitted function has invalid argnames {_set_text(unknown)} in static_argnames. '
                'Function does not take these args." when the wrapper is made.',
                related=[_defined_here(ctx, target, function)],
            )
        elif only_positional:
            ctx.report(
                expr,
                f"`static_argnames` names {', '.join(f'`{n}`' for n in only_positional)}, which `{function}` takes "
                "only by position",
                detail=f'`jax.jit` raises ValueError "Jitted function has invalid argnames '
                f'{_set_text(only_positional)} in static_argnames. These are positional-only" when the wrapper '
                "is made; use `static_argnums`.",
                related=[_defined_here(ctx, target, function)],
            )


def _defined_here(ctx: CheckContext, target: FunctionNode, name: str) -> RelatedLocation:
    """The function's first line, as a related location."""
    anchor = ctx.source.node_range(target)
    if isinstance(target, ast.FunctionDef | ast.AsyncFunctionDef):
        anchor = Range(anchor.start, Position(target.lineno, len(ctx.source.line(target.lineno))))
    return RelatedLocation(ctx.path, anchor, f"`{name}` is defined here")
