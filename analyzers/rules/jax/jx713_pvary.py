"""JX713: ``jax.lax.pvary``, removed in JAX 0.10.0 in favour of ``pcast(..., to='varying')``."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class LaxPvary(NameMigrationRule):
    """## What it does
    Finds `jax.lax.pvary`, imported or reached as an attribute.

    ## Why is this bad?
    Inside `shard_map`, `pvary` marked a value as varying over mesh axes. JAX 0.8.2 folded it into
    `jax.lax.pcast(x, axis_name, to='varying')` and 0.10.0 removed it: on JAX 0.10.2 it raises
    `AttributeError: jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0`.

    ## Example
    ```python
    import jax
    from jax import lax
    from jax.sharding import PartitionSpec as P

    def body(x):
        return lax.pvary(x, "i")
    ```

    Use instead:
    ```python
    import jax
    from jax import lax
    from jax.sharding import PartitionSpec as P

    def body(x):
        return lax.pcast(x, "i", to="varying")
    ```

    ## Fix safety
    The fix is safe for calls: `pcast` with `to='varying'` is what `pvary` became. A `pvary`
    that is passed along instead of called cannot get the keyword, so it has no fix.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog 0.8.2; `jax/lax/__init__.py` deprecation table (removed in 0.10.0)
    """

    code = "JX713"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jax.lax.pvary"
    explainer = "upgrading#pvary"
    fix_title = "Use `jax.lax.pcast(..., to='varying')`"
