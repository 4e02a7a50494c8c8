"""TX703: ``xm.xrt_world_size()`` and ``xm.get_ordinal()``, removed in torch_xla 2.7."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class RemovedXrtWorldSizeOrOrdinal(NameMigrationRule):
    """## What it does
    Finds `torch_xla.core.xla_model.xrt_world_size` and `get_ordinal`, however they are imported.

    ## Why is this bad?
    torch_xla 2.5 turned them into deprecated aliases of `torch_xla.runtime.world_size` and
    `torch_xla.runtime.global_ordinal` ("will be removed in release 2.7"), and 2.7 removed them:
    on torch_xla 2.9 `xm.xrt_world_size()` raises `AttributeError: module
    'torch_xla.core.xla_model' has no attribute 'xrt_world_size'`.

    ## Example
    ```python
    import torch_xla.core.xla_model as xm

    shard = 1024 // xm.xrt_world_size()
    rank = xm.get_ordinal()
    ```

    Use instead:
    ```python
    import torch_xla.runtime as xr

    shard = 1024 // xr.world_size()
    rank = xr.global_ordinal()
    ```

    ## Fix safety
    The fix is safe for calls without arguments. The old functions took a `defval` for runs outside
    a distributed launch, which the new ones do not: a call passing it, or a reference passed
    along, gets an unsafe fix.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - `torch_xla/core/xla_model.py` 2.5 (deprecated, "will be removed in release 2.7"); absent in 2.7
    """

    code = "TX703"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed xm.xrt_world_size/get_ordinal"
    explainer = "upgrading#world-size-and-ordinal"
    fix_title = "Use `torch_xla.runtime`"
