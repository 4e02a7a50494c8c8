"""JX712: internals read from ``jax.core`` that moved to ``jax.extend.core`` (or were removed)."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class JaxCoreInternal(NameMigrationRule):
    """## What it does
    Finds names read from `jax.core` that JAX deprecated or removed since 0.4.38: `Primitive`,
    `Jaxpr`, `ClosedJaxpr`, `Var`, `Literal`, `jaxpr_as_fun`, `get_aval`, `new_jaxpr_eqn`,
    `DropVar` and the rest of the internal API.

    ## Why is this bad?
    `jax.core` is being reduced to a few public names (`ShapedArray`, `Tracer`, `Trace`,
    `eval_jaxpr`, `ensure_compile_time_eval`...). Primitive and jaxpr types moved to
    `jax.extend.core` (removed from `jax.core` in 0.6.0), `call_p` to
    `jax.extend.core.primitives`, `get_aval` became `jax.typeof` (removed in 0.10.0), and
    a further set deprecated in 0.10.0 (`new_jaxpr_eqn`, `DropVar`, `Effect`...) warns on 0.10.2
    and is gone in 0.11.0. A removed name raises `AttributeError` (`jax.core.get_aval was
    deprecated in JAX v0.8.2 and removed in JAX v0.10.0; use jax.typeof instead.`).

    ## Example
    ```python
    import jax.core

    double_p = jax.core.Primitive("double")
    ```

    Use instead:
    ```python
    import jax.extend.core

    double_p = jax.extend.core.Primitive("double")
    ```

    ## Fix safety
    Moves to `jax.extend.core`, `jax.extend.core.primitives` and `jax.errors` are safe: the same
    objects under their new home. `jax.core.get_aval(x)` -> `jax.typeof(x)` is unsafe: `get_aval`
    also accepted values `typeof` treats differently in old releases. Names with no public
    replacement (`raise_to_shaped`, `is_concrete`...) get a display-only note.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.38, 0.6.0, 0.7.0, 0.8.2, 0.10.0 and 0.11.0 (jax.core deprecations and removals)
    - `jax/core.py` deprecation table
    """

    code = "JX712"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "jax.core internal moved or removed"
    explainer = "upgrading#jax-core-internals"
    fix_title = "Use `jax.extend.core`"
