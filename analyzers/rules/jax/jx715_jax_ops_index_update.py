"""JX715: ``jax.ops.index_update`` and its siblings, removed in JAX 0.3.2."""

from __future__ import annotations

import ast

from xlalens.analyzers.core.diagnostics import Edit
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.knowledge.migrations import NameMigration
from xlalens.analyzers.rules._migrations import NameMigrationRule, parent_of

_METHODS = {"index_update": "set", "index_add": "add", "index_mul": "multiply", "index_min": "min", "index_max": "max"}
# Expressions that need no parentheses in front of `.at[...]`.
_ATOMS = (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Constant, ast.List, ast.Tuple, ast.Dict)


@register_rule
class JaxOpsIndexUpdate(NameMigrationRule):
    """## What it does
    Finds `jax.ops.index_update`, `index_add`, `index_mul`, `index_min` and `index_max`.

    ## Why is this bad?
    These functional updates were deprecated in JAX 0.2.22 and removed in 0.3.2: on JAX 0.10.2
    `jax.ops.index_update` raises `AttributeError: module 'jax.ops' has no attribute
    'index_update'`, and so does the `jax.ops.index[...]` helper written with them. The `.at`
    property does the same out-of-place update: `x.at[idx].set(y)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    x = jnp.zeros(5)
    y = jax.ops.index_update(x, jax.ops.index[1:3], 7.0)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    x = jnp.zeros(5)
    y = x.at[1:3].set(7.0)
    ```

    ## Fix safety
    `jax.ops.index_update(x, idx, y)` becomes `x.at[idx].set(y)` (`add`, `multiply`, `min`, `max`
    for the others), unwrapping `jax.ops.index[...]`; keyword options (`indices_are_sorted`,
    `unique_indices`) move to the method. The fix is safe: both return a new array with the same
    values. Other uses get a display-only note.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.2.22 (deprecated), 0.3.2 (removed)
    """

    code = "JX715"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jax.ops.index_update"
    explainer = "upgrading#functional-index-updates"
    fix_title = "Use `x.at[idx].set(y)`"

    def fix_title_for(self, entry: NameMigration, ctx: CheckContext) -> str:
        """Name the ``.at`` method the call becomes."""
        return f"Use `x.at[idx].{_METHODS[entry.old.rsplit('.', 1)[1]]}(y)`"

    def rewrite_reference(
        self, node: ast.Attribute, entry: NameMigration, ctx: CheckContext
    ) -> tuple[list[Edit], bool, bool] | None:
        """``jax.ops.index_update(x, idx, y)`` -> ``x.at[idx].set(y)``; the whole call goes, with the module's name."""
        call = parent_of(ctx, node)
        if not (isinstance(call, ast.Call) and call.func is node and len(call.args) == 3):
            return None
        if any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords):
            return None
        array, index, value = call.args
        target = ctx.segment(array) if isinstance(array, _ATOMS) else f"({ctx.segment(array)})"
        if isinstance(index, ast.Subscript) and ctx.qualname(index.value) == "jax.ops.index":
            index_text = ctx.segment(index.slice)
        else:
            index_text = ctx.segment(index)
        options = "".join(f", {ctx.segment(keyword)}" for keyword in call.keywords)
        text = f"{target}.at[{index_text}].{_METHODS[node.attr]}({ctx.segment(value)}{options})"
        return [ctx.edit(call, text)], True, True
