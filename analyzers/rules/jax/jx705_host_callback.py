"""JX705: ``jax.experimental.host_callback``, removed (functions in 0.4.35, module in 0.8.0)."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class ExperimentalHostCallback(NameMigrationRule):
    """## What it does
    Finds imports of `jax.experimental.host_callback` (`import ... as hcb`, `from
    jax.experimental.host_callback import id_print`) and attribute uses of the module.

    ## Why is this bad?
    The module was deprecated in JAX 0.4.26; its functions raise `NotImplementedError` since
    0.4.35 and the module itself is gone since 0.8.0, so on JAX 0.10.2 importing it raises
    `ModuleNotFoundError`. Its uses map to the external-callback APIs: `id_print` to
    `jax.debug.print`, `id_tap` to `jax.debug.callback`, `call` to `jax.pure_callback` (or
    `jax.experimental.io_callback` for side effects).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import host_callback as hcb

    @jax.jit
    def step(x):
        hcb.id_print(x)
        return x + 1
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def step(x):
        jax.debug.print("{}", x)
        return x + 1
    ```

    ## Fix safety
    The fix is display-only: the new callbacks differ in how results come back (`pure_callback`
    needs the result's shape and dtype) and in ordering, which the author has to decide.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.26 (deprecated), 0.4.35 (removed), 0.8.0 (module deleted)
    - docs.jax.dev, "External callbacks"
    """

    code = "JX705"
    raises = ("AttributeError", "ImportError", "ModuleNotFoundError", "TypeError", "DeprecationWarning")
    message = "removed jax.experimental.host_callback"
    explainer = "upgrading#host-callback"
    fix_title = "Use `jax.debug.callback`, `jax.pure_callback` or `io_callback`"
