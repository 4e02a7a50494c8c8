"""JX702: ``jax.experimental.pjit.pjit`` and ``jax.experimental.pjit.with_sharding_constraint``."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class ExperimentalPjit(NameMigrationRule):
    """## What it does
    Finds `jax.experimental.pjit.pjit` (deprecated in favour of `jax.jit`) and
    `jax.experimental.pjit.with_sharding_constraint` (removed; now
    `jax.lax.with_sharding_constraint`), imported or reached as attributes.

    ## Why is this bad?
    `jit` and `pjit` have been one implementation since JAX 0.4.7; JAX 0.8.0 deprecated the
    experimental name, and on JAX 0.10.2 reaching it emits `DeprecationWarning:
    jax.experimental.pjit.pjit has been deprecated. Please use jax.jit instead.`
    `with_sharding_constraint` moved to `jax.lax` (deprecated in 0.4.16, gone in 0.4.24): `from
    jax.experimental.pjit import with_sharding_constraint` raises `ImportError` on current JAX.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax.experimental.pjit import pjit

    double = pjit(lambda x: 2 * x)
    y = double(jnp.arange(4.0))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    double = jax.jit(lambda x: 2 * x)
    y = double(jnp.arange(4.0))
    ```

    ## Fix safety
    The fix is safe: it writes `jax.jit` (or `jax.lax.with_sharding_constraint`), adds the import
    it needs and removes an import it leaves unused. `pjit` took `in_shardings`, `out_shardings`,
    `static_argnums`... by position where `jax.jit` takes them by keyword only, so positional
    arguments after the function get their names. A `pjit` passed along as a value (not called
    here, not a bare decorator) may be called with such positional arguments elsewhere: that fix is
    unsafe.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.8.0 (`jax.experimental.pjit.pjit` deprecated), 0.4.16 (`with_sharding_constraint`
      deprecated in `jax.experimental.pjit`)
    - `jax/experimental/pjit.py`
    """

    code = "JX702"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "deprecated jax.experimental.pjit spelling"
    explainer = "upgrading#pjit"
    fix_title = "Use `jax.jit`"
