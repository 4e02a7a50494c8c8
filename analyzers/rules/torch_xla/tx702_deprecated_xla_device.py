"""TX702: ``xm.xla_device()``, deprecated in torch_xla 2.8 in favour of ``torch_xla.device()``."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class DeprecatedXlaDevice(NameMigrationRule):
    """## What it does
    Finds `torch_xla.core.xla_model.xla_device`, however it is imported.

    ## Why is this bad?
    torch_xla 2.8 deprecated `xla_device` for `torch_xla.device`, which it now calls (dropping its
    `devkind` argument): on torch_xla 2.9 every call emits `DeprecationWarning: Use
    torch_xla.device instead`.

    ## Example
    ```python
    import torch
    import torch_xla.core.xla_model as xm

    device = xm.xla_device()
    x = torch.ones(3, device=device)
    ```

    Use instead:
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    x = torch.ones(3, device=device)
    ```

    ## Fix safety
    The fix is safe for `xm.xla_device()` and `xm.xla_device(n)` (`n=` becomes `index=`). A call
    that passes `devkind` gets an unsafe fix (the argument is dropped, as 2.9 ignores it), and so
    does a reference that is passed along rather than called. A target release before 2.3 (no
    `torch_xla.device`) gets no fix.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - `torch_xla/core/xla_model.py` 2.8: `@deprecated("Use torch_xla.device instead")`
    """

    code = "TX702"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "deprecated xm.xla_device"
    explainer = "upgrading#xla-device"
    fix_title = "Use `torch_xla.device()`"
