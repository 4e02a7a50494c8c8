"""JX718: ``pltpu.ANY``, ``pltpu.delay``, ``pltpu.semaphore*``, ``DeviceIdType`` and ``HOST``, moved to ``pl``."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class PallasTpuNameMoved(NameMigrationRule):
    """## What it does
    Finds names Pallas moved from `jax.experimental.pallas.tpu` to `jax.experimental.pallas`:
    `ANY` and `MemorySpace.ANY`, `delay` (both removed in 0.10.0), `semaphore`, `DeviceIdType`,
    `semaphore_signal`, `semaphore_wait`, `semaphore_read` (deprecated in 0.10.0), `HOST`
    (deprecated in 0.10.2) and `MemorySpace.HOST`.

    ## Why is this bad?
    The removed ones raise `AttributeError` on JAX 0.10.2 (`pltpu.ANY`, `pltpu.delay`,
    `pltpu.MemorySpace.ANY` and `pltpu.MemorySpace.HOST`); the deprecated ones emit
    `DeprecationWarning: pltpu.semaphore is deprecated, use pl.semaphore instead.` The same objects
    are reachable as `pl.ANY`, `pl.delay`, `pl.semaphore`, `pl.HOST`...

    ## Example
    ```python
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    spec = pl.BlockSpec(memory_space=pltpu.ANY)
    ```

    Use instead:
    ```python
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu

    spec = pl.BlockSpec(memory_space=pl.ANY)
    ```

    ## Fix safety
    The fix is safe: `pl.ANY` is the object `pltpu.ANY` was. It adds `from jax.experimental import
    pallas as pl` style imports when the file has none, and removes the `pltpu` import when
    nothing else reads it.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - Pallas changelog: released with JAX 0.8.1, 0.8.2, 0.10.0 and 0.10.2
    - `jax/experimental/pallas/tpu.py` deprecation table
    """

    code = "JX718"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "Pallas TPU name moved to pl"
    explainer = "upgrading#pallas-tpu-names"
    fix_title = "Use the `pl.` name"
