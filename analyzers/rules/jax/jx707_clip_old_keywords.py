"""JX707: ``jnp.clip(a=..., a_min=..., a_max=...)``, keywords removed in JAX 0.10.0."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Edit, Fix, Position, Range
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.rules._migrations import compatibility_code, judge_usage, removed_at, upgrade_finding

_CHANGE = USAGE_CHANGES["clip-keywords"]
_RENAMED = {"a_min": "min", "a_max": "max"}


@register_rule
class ClipOldKeywords(Rule):
    """## What it does
    Finds `jax.numpy.clip` called with the keywords it no longer takes: `a=`, `a_min=`, `a_max=`.

    ## Why is this bad?
    JAX 0.4.27 gave `jnp.clip` NumPy 2's signature, `clip(arr, /, min=None, max=None)`, and
    deprecated the old keywords; 0.10.0 removed them. On JAX 0.10.2 `jnp.clip(x, a_min=0.0)`
    raises `TypeError: clip() got an unexpected keyword argument 'a_min'`.

    ## Example
    ```python
    import jax.numpy as jnp

    x = jnp.linspace(-2.0, 2.0, 5)
    y = jnp.clip(x, a_min=-1.0, a_max=1.0)
    ```

    Use instead:
    ```python
    import jax.numpy as jnp

    x = jnp.linspace(-2.0, 2.0, 5)
    y = jnp.clip(x, min=-1.0, max=1.0)
    ```

    ## Fix safety
    The fix is safe: it renames `a_min=` and `a_max=` to `min=` and `max=`, and passes `a=` by
    position when it is the first argument (it has no fix otherwise). The bounds mean the same.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.27 (new signature, old keywords deprecated), 0.10.0 (removed)
    """

    code = "JX707"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jnp.clip keyword"
    explainer = "upgrading#clip-keywords"
    fix_title = "Use `min=` and `max=`"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = frozenset({"jax.numpy.clip"})
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        old = [keyword for keyword in node.keywords if keyword.arg in ("a", "a_min", "a_max")]
        if not old:
            return
        judged = judge_usage(ctx, _CHANGE)
        failure = "TypeError" if removed_at(ctx, _CHANGE.library, _CHANGE.removed) else None
        if judged is None or compatibility_code(node, ctx, failure):
            return
        names = ", ".join(f"`{keyword.arg}=`" for keyword in old)
        message, detail = upgrade_finding(
            f"`jnp.clip` with {names}",
            judged,
            "`clip(arr, /, min=None, max=None)`",
            "The array now goes by position and the bounds as `min=`/`max=`.",
        )
        ctx.report(old[0], message, detail=detail, fix=self.fix(node, old, ctx), severity=judged.severity)

    @staticmethod
    def fix(node: ast.Call, old: list[ast.keyword], ctx: CheckContext) -> Fix | None:
        """Rename the bounds; pass ``a=`` by position when it comes first."""
        edits: list[Edit] = []
        for keyword in old:
            start = ctx.source.node_range(keyword).start
            name_end = Position(start.line, start.column + len(keyword.arg or ""))
            if keyword.arg == "a":
                first = not node.args and node.keywords and node.keywords[0] is keyword
                if not first:
                    return None
                value_start = ctx.source.node_range(keyword.value).start
                edits.append(Edit(Range(start, value_start), ""))
            else:
                edits.append(Edit(Range(start, name_end), _RENAMED[keyword.arg or ""]))
        return ctx.fix("Use `min=`/`max=` and pass the array by position", Applicability.SAFE, edits)
