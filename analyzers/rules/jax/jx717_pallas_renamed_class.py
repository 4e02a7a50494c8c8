"""JX717: ``pltpu.TPUCompilerParams``, ``pltpu.TPUMemorySpace`` and ``TritonCompilerParams``, renamed in JAX 0.7.0."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class PallasRenamedClass(NameMigrationRule):
    """## What it does
    Finds `jax.experimental.pallas.tpu.TPUCompilerParams`, `TPUMemorySpace` and
    `jax.experimental.pallas.triton.TritonCompilerParams`, however they are imported.

    ## Why is this bad?
    Pallas 0.7.0 renamed them to `CompilerParams` and `MemorySpace` (in the same modules) and
    deprecated the old names, which are gone since 0.7.2: on JAX 0.10.2
    `pltpu.TPUCompilerParams(...)` raises `AttributeError: module 'jax.experimental.pallas.tpu'
    has no attribute 'TPUCompilerParams'`.

    ## Example
    ```python
    from jax.experimental.pallas import tpu as pltpu

    params = pltpu.TPUCompilerParams(dimension_semantics=("parallel",))
    ```

    Use instead:
    ```python
    from jax.experimental.pallas import tpu as pltpu

    params = pltpu.CompilerParams(dimension_semantics=("parallel",))
    ```

    ## Fix safety
    The fix is safe: the new names are the classes the old ones aliased.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - Pallas changelog: released with JAX 0.7.0 (renamed), 0.8.1 (listed as removed)
    - `jax/experimental/pallas/tpu.py` at jax-v0.7.1 and jax-v0.7.2
    """

    code = "JX717"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "renamed Pallas class"
    explainer = "upgrading#pallas-renames"
    fix_title = "Use `CompilerParams` / `MemorySpace`"
