"""TX705: ``torch_xla.experimental.pjrt``, moved to ``torch_xla.runtime`` (removed in 2.5)."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class ExperimentalPjrt(NameMigrationRule):
    """## What it does
    Finds imports of `torch_xla.experimental.pjrt`.

    ## Why is this bad?
    torch_xla 2.1 moved the PJRT runtime API to `torch_xla.runtime` and left
    `torch_xla.experimental.pjrt` as deprecated aliases (each logs "... is deprecated. Use
    torch_xla.runtime... instead."); 2.5 removed the module, so on torch_xla 2.9 importing it
    raises `ModuleNotFoundError`.

    ## Example
    ```python
    from torch_xla.experimental import pjrt

    world = pjrt.world_size()
    ```

    Use instead:
    ```python
    import torch_xla.runtime as xr

    world = xr.world_size()
    ```

    ## Fix safety
    The fix is safe when every name read from the module is one `torch_xla.runtime` still has
    under the same name (`world_size`, `global_ordinal`, `local_ordinal`, `device_type`,
    `process_index`...): it imports `torch_xla.runtime` under the same alias. Names that moved
    elsewhere (`rendezvous`, `spawn`) or were dropped (`using_pjrt`) get a display-only note.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - `torch_xla/experimental/pjrt.py` in 2.1 (deprecated aliases); absent in 2.5
    """

    code = "TX705"
    raises = ("AttributeError", "ImportError", "ModuleNotFoundError", "TypeError", "DeprecationWarning")
    message = "removed torch_xla.experimental.pjrt"
    explainer = "upgrading#pjrt-module"
    fix_title = "Import `torch_xla.runtime`"
