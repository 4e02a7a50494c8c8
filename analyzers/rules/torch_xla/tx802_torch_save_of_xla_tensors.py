"""TX802: ``torch.save`` of tensors still on the XLA device (a model's state dict, a tensor)."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.torch_xla.model import Kind
from xlalens.analyzers.rules.torch_xla._steps import fact, fitted, is_tensor, model, snippet

_SAVE = "torch.save"
_DEPTH = 4
"""How many names and nested containers to follow back from the saved value."""


@register_rule
class TorchSaveOfXlaTensors(Rule):
    """## What it does
    Finds `torch.save(obj, path)` where `obj` holds tensors on an XLA device: the `state_dict()` of a
    model moved there, a tensor computed there, or a dict, list or tuple holding one (also through a
    name assigned once, `state = {"model": model.state_dict(), ...}`).

    ## Why is this bad?
    `torch.save` pickles an XLA tensor as its CPU copy plus the device it came from
    (`torch._utils._rebuild_device_tensor_from_cpu_tensor(..., "xla:0")`). Measured with torch 2.9
    and torch_xla 2.9: a process that does not import torch_xla (an evaluation job, a CPU-only
    machine, a conversion script) fails on `torch.load(path)` with `NotImplementedError: Could not
    run 'aten::empty.memory_format' with arguments from the 'XLA' backend`, with the default
    `weights_only=True` and with `weights_only=False`; only `map_location="cpu"` loads it. A process
    that imports torch_xla gets every tensor back on `xla:0`, whatever device it meant to use. Each
    tensor also crosses to the host on its own: saving the state dict of five `Linear` layers took
    10 device-to-host transfers (`TransferFromDeviceTime` samples), an Adam state dict 20, where
    `xm.save` took one transfer for both and wrote plain CPU tensors that load anywhere.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    torch.save(model.state_dict(), "model.pt")
    ```

    Use instead:
    ```python
    import torch
    import torch_xla
    import torch_xla.core.xla_model as xm

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    xm.save(model.state_dict(), "model.pt")
    ```

    `xm.save` moves every XLA tensor to the CPU in one transfer and, in a multi-process run, writes
    only from the master ordinal (`master_only=True`). Building a CPU copy yourself
    (`{k: v.cpu() for k, v in state.items()}`) also gives a file that loads anywhere, one transfer
    per tensor. The rule is silent on an optimizer's state dict alone: plain `SGD` keeps no tensors
    on the device, and which optimizer a name holds is not always known.

    ## References
    - `torch_xla.core.xla_model.save` and `torch.load(..., map_location=...)`
    - torch_xla docs: "Saving and Loading XLA Tensors"
    """

    code = "TX802"
    message = "torch.save of XLA tensors: the file loads only where torch_xla is imported"
    explainer = "silent-failures#checkpoints-saved-from-the-device"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if not node.args or ctx.index.qualname(node.func, ctx.scope) != _SAVE or not model(ctx).enabled:
            return
        held = self.xla_value(node.args[0], ctx, _DEPTH)
        if held is None:
            return
        saved = snippet(ctx, node.args[0])
        holds = "" if held == saved else f"`{saved}` holds `{held}`. "
        ctx.report(
            node,
            fitted(ctx, node.args[0], "`torch.save` writes {} with its tensors tagged `xla:0`"),
            detail=f"{holds}`torch.load` in a process without torch_xla raises NotImplementedError ('XLA' backend) "
            'unless given `map_location="cpu"`, and each tensor is copied to the host on its own. `xm.save` '
            "writes CPU tensors in one transfer.",
        )

    def xla_value(self, expr: ast.expr, ctx: CheckContext, depth: int) -> str | None:
        """The source of the part of ``expr`` that is on the XLA device, if any is."""
        if depth <= 0:
            return None
        if isinstance(expr, ast.Dict):
            return next((found for v in expr.values if (found := self.xla_value(v, ctx, depth - 1))), None)
        if isinstance(expr, ast.List | ast.Tuple):
            return next((found for v in expr.elts if (found := self.xla_value(v, ctx, depth - 1))), None)
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and expr.func.attr == "state_dict"
            and not expr.args
        ):
            owner = fact(ctx, expr.func.value)
            if owner is not None and owner.kind in (Kind.MODULE, Kind.ON_DEVICE):
                return snippet(ctx, expr)
            return None
        if is_tensor(fact(ctx, expr)):
            return snippet(ctx, expr)
        if isinstance(expr, ast.Name):
            value = self.assigned_once(expr.id, ctx)
            return self.xla_value(value, ctx, depth - 1) if value is not None else None
        return None

    @staticmethod
    def assigned_once(name: str, ctx: CheckContext) -> ast.expr | None:
        """The value of the one plain assignment that binds ``name``, seen from the current scope."""
        assigned = ctx.index.single_assignment(name, ctx.scope)
        if assigned is None or not isinstance(assigned[0].targets[0], ast.Name):
            return None
        return assigned[0].value
