"""TX704: ``torch_xla.experimental.xla_sharding``, moved to ``torch_xla.distributed.spmd`` (removed in 2.5)."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class ExperimentalXlaSharding(NameMigrationRule):
    """## What it does
    Finds imports of `torch_xla.experimental.xla_sharding`.

    ## Why is this bad?
    The SPMD API moved to `torch_xla.distributed.spmd` in torch_xla 2.2, which kept the old module
    as a shim raising a `DeprecationWarning`; 2.5 deleted the shim, so on torch_xla 2.9 `import
    torch_xla.experimental.xla_sharding as xs` raises `ModuleNotFoundError`.

    ## Example
    ```python
    import torch_xla.experimental.xla_sharding as xs

    mesh = xs.Mesh([0], (1, 1), ("data", "model"))
    ```

    Use instead:
    ```python
    import torch_xla.distributed.spmd as xs

    mesh = xs.Mesh([0], (1, 1), ("data", "model"))
    ```

    ## Fix safety
    The fix is safe: it imports the same names from `torch_xla.distributed.spmd`, which the shim
    re-exported whole. `import torch_xla.experimental.xla_sharding` without `as` (used by its full
    dotted name) gets a display-only note.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - `torch_xla/experimental/xla_sharding.py` in 2.2 (the deprecation shim); absent in 2.5
    """

    code = "TX704"
    raises = ("AttributeError", "ImportError", "ModuleNotFoundError", "TypeError", "DeprecationWarning")
    message = "removed torch_xla.experimental.xla_sharding"
    explainer = "upgrading#xla-sharding-module"
    fix_title = "Import `torch_xla.distributed.spmd`"
