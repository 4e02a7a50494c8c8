"""JX714: ``jax.numpy`` names JAX removed after NumPy did (``fix``, ``round_``, ``NINF``, ``trapz``...)."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class RemovedNumpyAlias(NameMigrationRule):
    """## What it does
    Finds `jax.numpy` names removed following NumPy: `fix` (0.10.0), `round_` (0.4.38), `NINF`,
    `NZERO`, `PZERO`, `row_stack`, `trapz`, `in1d`, `issubsctype` (0.4.24), `alltrue`,
    `sometrue`, `product`, `cumproduct` (0.4.16), `msort` (0.4.9) and the `DeviceArray` type
    (0.4.14).

    ## Why is this bad?
    Each raises `AttributeError` on JAX 0.10.2 (`jax.numpy.fix was deprecated in JAX v0.9.0, and
    will be removed in JAX v0.10.0. Use jax.numpy.trunc instead.`). Most have a drop-in
    replacement: `trunc`, `round`, `vstack`, `all`, `any`, `prod`, `cumprod`,
    `jax.scipy.integrate.trapezoid`, `jax.Array`; the constants are `-jnp.inf`, `-0.0` and `0.0`.

    ## Example
    ```python
    import jax.numpy as jnp

    x = jnp.array([-1.5, 0.5, 2.5])
    whole = jnp.fix(x)
    ```

    Use instead:
    ```python
    import jax.numpy as jnp

    x = jnp.array([-1.5, 0.5, 2.5])
    whole = jnp.trunc(x)
    ```

    ## Fix safety
    The renames are safe: the replacements compute the same values. `in1d(a, b)` becomes
    `isin(a, b).ravel()` (`in1d` flattened its result), which is safe for a call; a reference to
    `in1d` that is not called is unsafe. `issubsctype` and `msort` get a display-only note.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.12, 0.4.16, 0.4.24, 0.4.32, 0.4.38, 0.9.0, 0.10.0
    - NumPy NEP 52 (the NumPy 2.0 namespace clean-up)
    """

    code = "JX714"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jax.numpy alias"
    explainer = "upgrading#numpy-aliases"
    fix_title = "Use the current `jax.numpy` name"
