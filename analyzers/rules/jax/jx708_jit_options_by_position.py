"""JX708: ``jax.jit(f, ...)`` with options passed by position (or ``fun=`` by keyword), an error since JAX 0.7.0."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Edit, Fix, Range
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.rules._migrations import compatibility_code, judge_usage, removed_at, upgrade_finding

_CHANGE = USAGE_CHANGES["jit-positional-options"]
# jax.jit's parameters after `fun`, in the order JAX 0.4.7 to 0.6 took them by position.
_POSITIONAL_ORDER = (
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "abstracted_axes",
)


def _int_literals(node: ast.expr) -> bool:
    """Whether ``node`` is an int, or a tuple or list of ints, written out."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    return isinstance(node, ast.Tuple | ast.List) and bool(node.elts) and all(_int_literals(e) for e in node.elts)


@register_rule
class JitOptionsByPosition(Rule):
    """## What it does
    Finds `jax.jit` given anything but the function by position (`jax.jit(f, (1,))`), or the
    function by keyword (`jax.jit(fun=f)`).

    ## Why is this bad?
    Since JAX 0.7.0 `jax.jit` takes `fun` by position only and every option by keyword only (a
    `DeprecationWarning` in 0.6). On JAX 0.10.2 `jax.jit(f, (1,))` raises `TypeError: jit() takes
    from 0 to 1 positional arguments but 2 were given`, and `jax.jit(fun=f)` raises `TypeError:
    jit() got some positional-only arguments passed as keyword arguments: 'fun'`. Which option a
    positional argument was depended on the release: `static_argnums` in JAX 0.2/0.3,
    `in_shardings` from 0.4.7.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def scale(x, factor):
        return x * factor

    fast = jax.jit(scale, (1,))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    def scale(x, factor):
        return x * factor

    fast = jax.jit(scale, static_argnums=(1,))
    ```

    ## Fix safety
    `jax.jit(fun=f)` -> `jax.jit(f)` is safe. Naming positional options is unsafe, since their
    meaning changed between releases: an int or a tuple of ints becomes `static_argnums=` (what it
    meant when `jit` took it by position, and invalid as a sharding); anything else gets the names
    of the 0.4.7 to 0.6 order (`in_shardings`, `out_shardings`, `static_argnums`, ...).

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.6.0 (positional options deprecated), 0.7.0 (an error)
    """

    code = "JX708"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "jax.jit option passed by position"
    explainer = "upgrading#jit-keyword-options"
    fix_title = "Pass the options by keyword"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = frozenset({"jax.jit"})
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        extra = node.args[1:]
        fun_keyword = next((keyword for keyword in node.keywords if keyword.arg == "fun"), None)
        if (not extra and fun_keyword is None) or any(isinstance(arg, ast.Starred) for arg in node.args):
            return
        judged = judge_usage(ctx, _CHANGE)
        failure = "TypeError" if removed_at(ctx, _CHANGE.library, _CHANGE.removed) else None
        if judged is None or compatibility_code(node, ctx, failure):
            return
        at: ast.AST
        if extra:
            what = f"{len(extra)} option{'s' if len(extra) > 1 else ''} by position"
            at = extra[0]
        else:
            assert fun_keyword is not None
            what = "`fun=` by keyword"
            at = fun_keyword
        message, detail = upgrade_finding(
            f"`jax.jit` given {what}",
            judged,
            "`jax.jit(f, option=...)`",
            "`jax.jit` takes the function by position and every option by keyword.",
        )
        ctx.report(
            at, message, detail=detail, fix=self.keyword_fix(node, extra, fun_keyword, ctx), severity=judged.severity
        )

    @staticmethod
    def keyword_fix(
        node: ast.Call, extra: list[ast.expr], fun_keyword: ast.keyword | None, ctx: CheckContext
    ) -> Fix | None:
        """Name the positional options; pass ``fun=`` by position."""
        edits: list[Edit] = []
        safe = not extra
        if extra:
            names = ("static_argnums",) if _int_literals(extra[0]) and len(extra) == 1 else _POSITIONAL_ORDER
            if len(extra) > len(names):
                return None
            for name, arg in zip(names, extra, strict=False):
                start = ctx.source.node_range(arg).start
                edits.append(Edit(Range(start, start), f"{name}="))
        if fun_keyword is not None:
            if node.args or node.keywords[0] is not fun_keyword:
                return None
            edits.append(
                Edit(
                    Range(ctx.source.node_range(fun_keyword).start, ctx.source.node_range(fun_keyword.value).start), ""
                )
            )
        applicability = Applicability.SAFE if safe else Applicability.UNSAFE
        return ctx.fix("Pass the function by position and the options by keyword", applicability, edits)
