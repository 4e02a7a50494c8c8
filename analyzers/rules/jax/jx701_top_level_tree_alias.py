"""JX701: ``jax.tree_map`` and the other top-level pytree aliases, removed in JAX 0.6.0."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class TopLevelTreeAlias(NameMigrationRule):
    """## What it does
    Finds the top-level pytree aliases `jax.tree_map`, `jax.tree_flatten`, `jax.tree_unflatten`,
    `jax.tree_leaves`, `jax.tree_structure`, `jax.tree_transpose` and `jax.treedef_is_leaf`,
    however they are reached: `jax.tree_map(...)`, `from jax import tree_map`, `import jax as j;
    j.tree_map`. A use in compatibility code (an `except` handler, a `try` that catches the
    `ImportError`/`AttributeError`, an `if` on `hasattr` or a version) is not reported.

    ## Why is this bad?
    JAX deprecated these aliases (`tree_map` in 0.4.26, the others in 0.3.15) and removed them in
    0.6.0: on JAX 0.10.2 `jax.tree_map` raises `AttributeError: module 'jax' has no attribute
    'tree_map'` and `from jax import tree_map` raises `ImportError`. The functions live on in
    `jax.tree` (`jax.tree.map`, since 0.4.25) and `jax.tree_util` (`jax.tree_util.tree_map`, every
    release). The finding is an error when the target release (`jax-version`, the project's pin,
    else the newest release xlalens knows) has removed the alias, a warning when it has only
    deprecated it.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    params = {"w": jnp.ones(3), "b": jnp.zeros(3)}
    scaled = jax.tree_map(lambda p: 0.5 * p, params)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    params = {"w": jnp.ones(3), "b": jnp.zeros(3)}
    scaled = jax.tree.map(lambda p: 0.5 * p, params)
    ```

    ## Fix safety
    The fix is safe: `jax.tree.map` takes the same arguments and gives the same result as the
    alias it replaces. An attribute use becomes `jax.tree.map` (or `jax.tree_util.tree_map` when the
    target release predates `jax.tree`); a `from jax import tree_map` becomes `from jax.tree_util
    import tree_map`, so the names the file uses stay as they are.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.26 (`jax.tree_map` deprecated), 0.6.0 (the aliases removed)
    - `jax/__init__.py` deprecation table
    """

    code = "JX701"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed top-level pytree alias"
    explainer = "upgrading#pytree-aliases"
    # What the renamed functions compute (leaves, key paths, treedef): the calculator's example tree.
    calculator = "pytree"
    fix_title = "Use `jax.tree.*`"
