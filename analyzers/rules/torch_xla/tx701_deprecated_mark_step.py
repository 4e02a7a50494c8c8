"""TX701: ``xm.mark_step()``, deprecated in torch_xla 2.8 in favour of ``torch_xla.sync()``."""

from __future__ import annotations

from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.rules._migrations import NameMigrationRule


@register_rule
class DeprecatedMarkStep(NameMigrationRule):
    """## What it does
    Finds `torch_xla.core.xla_model.mark_step`, however it is imported (`xm.mark_step()`, `from
    torch_xla.core.xla_model import mark_step`).

    ## Why is this bad?
    torch_xla 2.8 deprecated `mark_step` for `torch_xla.sync`, which it now just calls: on
    torch_xla 2.9 every call emits `DeprecationWarning: Use torch_xla.sync instead`. Both cut the
    lazy graph, compile it if needed and run it.

    ## Example
    ```python
    import torch
    import torch_xla.core.xla_model as xm

    x = torch.ones(3, device="xla") * 2
    xm.mark_step()
    ```

    Use instead:
    ```python
    import torch
    import torch_xla

    x = torch.ones(3, device="xla") * 2
    torch_xla.sync()
    ```

    ## Fix safety
    The fix is safe: `torch_xla.sync(wait, reset_scope)` takes `mark_step`'s arguments and is what
    `mark_step` runs. It adds `import torch_xla` when the file lacks it and removes the
    `xla_model` import when nothing else reads it. A target release before 2.4 (no
    `torch_xla.sync`) gets no fix.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - `torch_xla/core/xla_model.py` 2.8: `@deprecated("Use torch_xla.sync instead")`
    """

    code = "TX701"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "deprecated xm.mark_step"
    explainer = "upgrading#mark-step"
    fix_title = "Use `torch_xla.sync()`"
