"""JX711: ``jax.ad_checkpoint.checkpoint`` and ``remat``, removed in JAX 0.10.0."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class AdCheckpointAlias(NameMigrationRule):
    """## What it does
    Finds `jax.ad_checkpoint.checkpoint` and `jax.ad_checkpoint.remat`, imported or reached as
    attributes.

    ## Why is this bad?
    They are the same functions as `jax.checkpoint` and `jax.remat`. JAX deprecated the
    `jax.ad_checkpoint` spellings in 0.8.2 and removed them in 0.10.0: on JAX 0.10.2 they raise
    `AttributeError: jax.ad_checkpoint.checkpoint was deprecated in JAX v0.8.2 and removed in JAX
    v0.10.0; use jax.checkpoint instead.` (`jax.ad_checkpoint.checkpoint_name` and
    `print_saved_residuals` stay.)

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.ad_checkpoint import checkpoint

    block = checkpoint(lambda x: jnp.sin(jnp.sin(x)))
    g = jax.grad(lambda x: block(x).sum())(jnp.ones(3))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    block = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
    g = jax.grad(lambda x: block(x).sum())(jnp.ones(3))
    ```

    ## Fix safety
    The fix is safe: the new names are the functions the old ones pointed to.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX's deprecation table in `jax/ad_checkpoint.py` (deprecated in 0.8.2, removed in 0.10.0)
    """

    code = "JX711"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jax.ad_checkpoint alias"
    explainer = "upgrading#checkpoint-aliases"
    fix_title = "Use `jax.checkpoint`"
