"""TX101: reading an XLA tensor's value on the host inside the training step."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.model import Kind, StepPlace
from xlalens.analyzers.rules.torch_xla._steps import (
    fact,
    fitted,
    guard_note,
    is_tensor,
    is_xla,
    loop_location,
    severity,
    step_place,
)

_PRINTS = frozenset({"builtins.print", tx.MASTER_PRINT})
_NORM_TEST = "tests the gradient norm on the host"
_PLATEAU_FLOAT = "converts the metric with `float()`"
_WHY = {
    _NORM_TEST: "With `error_if_nonfinite=True` it tests the norm with `if` on the host before it returns. ",
    _PLATEAU_FLOAT: "`ReduceLROnPlateau.step` converts its metric with `float()`. ",
}
"""What the headline's shorter wording leaves out, for the detail."""


@register_rule
class HostReadInStep(Rule):
    """## What it does
    Finds code in a torch_xla training step that reads a tensor's value on the host:
    `.item()`, `.tolist()`, `.cpu()`, `.numpy()`, `float()`/`int()`/`bool()` of a tensor,
    printing, formatting or logging a tensor (`print(loss)`, `f"{loss}"`, `str(loss)`), and
    library calls that do one of these inside: `clip_grad_norm_(..., error_if_nonfinite=True)`
    (it tests the norm with `if`) and `ReduceLROnPlateau.step(loss)` (it calls `float()`). The
    step is followed through helper functions and the methods of a trainer class
    (`self.train_step(x)`, with `self.model` and `self.optimizer` set in `__init__`). Measured
    with torch_xla 2.9 on CPU, `clip_grad_norm_(..., error_if_nonfinite=True)` ran 3 executions and
    2 transfers per step instead of 1 and 0.

    ## Why is this bad?
    An XLA tensor has no value until the pending graph runs. Reading it on the host forces the
    graph recorded so far to compile and run right there, then copies the result to the host and
    waits for it. In a step loop this happens every step: one extra graph execution and one
    device-to-host transfer per step (measured with torch_xla 2.9 on CPU: `ExecuteTime` doubles
    from 5 to 10 samples over 5 steps and `TransferFromDeviceTime` goes from 0 to 5), and the host
    can no longer trace the next step while the device runs this one. Under an `if step % N == 0:`
    guard the cost is paid every N steps only, so the finding is informational there.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device=device)
        loss = model(x).pow(2).mean()
        loss.backward()
        print("loss", loss.item())
        optimizer.step()
        torch_xla.sync()
    ```

    Use instead:
    ```python
    import torch
    import torch_xla
    import torch_xla.core.xla_model as xm

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        x = torch.randn(8, 16, device=device)
        loss = model(x).pow(2).mean()
        loss.backward()
        xm.add_step_closure(lambda value: print("loss", value.item()), args=(loss,))
        optimizer.step()
        torch_xla.sync()
    ```

    `xm.add_step_closure` runs the callback after the step's graph has run, so the value is
    already there and no extra execution happens.

    ## References
    - torch_xla docs: "Troubleshoot", section "Known Performance Caveats"
    - `torch_xla.core.xla_model.add_step_closure`
    """

    code = "TX101"
    message = "Host read of an XLA tensor inside the training step"
    explainer = "torch-xla-lazy-tensor#host-reads-in-the-step"
    calculator = "sync-cost"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.JoinedStr, ast.BinOp)
    call_names = (
        _PRINTS
        | tx.HOST_READ_BUILTINS
        | frozenset(tx.HOST_READ_FUNCTIONS)
        | tx.LOGGING_MODULE_FUNCTIONS
        | tx.GRADIENT_NORM_FUNCTIONS
    )
    call_attributes = frozenset({*tx.HOST_READ_METHODS, "to", "format", "step", *tx.LOGGER_LEVEL_METHODS})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        place = step_place(ctx, node)
        if place is None:
            return
        if isinstance(node, ast.Call):
            what = self.call_reads(node, ctx)
        elif isinstance(node, ast.JoinedStr):
            reads = any(isinstance(v, ast.FormattedValue) and is_tensor(fact(ctx, v.value)) for v in node.values)
            what = "formats a tensor into a string" if reads else None
        else:
            what = self.percent_format(node, ctx)
        if what is None or self.already_synced(node, place, ctx):
            return
        ctx.report(
            node,
            fitted(ctx, node, f"{{}} {what} in the training step"),
            detail=f"{_WHY.get(what, '')}{guard_note(place)}The pending graph runs early (an extra execution) and "
            "the value is copied to the host every step. Read it in `xm.add_step_closure` instead.",
            related=loop_location(ctx, place),
            severity=severity(place),
            calculator={"host-reads": 1},
        )

    @staticmethod
    def already_synced(node: ast.AST, place: StepPlace, ctx: CheckContext) -> bool:
        """Whether every tensor read here is a name that holds its value already: assigned before this
        iteration's explicit sync and not since. Reading it copies, but runs no extra graph."""
        if place.assigned_since_sync is None:
            return False
        read = [n for n in ast.walk(node) if isinstance(n, ast.Name) and is_xla(fact(ctx, n))]
        return bool(read) and all(n.id not in place.assigned_since_sync for n in read)

    @staticmethod
    def percent_format(node: ast.AST, ctx: CheckContext) -> str | None:
        assert isinstance(node, ast.BinOp)
        if not (isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)):
            return None
        if not isinstance(node.left.value, str):
            return None
        right = node.right
        parts = right.elts if isinstance(right, ast.Tuple) else [right]
        return "formats a tensor into a string" if any(is_tensor(fact(ctx, p)) for p in parts) else None

    def call_reads(self, node: ast.Call, ctx: CheckContext) -> str | None:
        func = node.func
        qualname = ctx.qualname(func)
        arguments = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
        if qualname in _PRINTS:
            return "prints a tensor" if any(is_tensor(fact(ctx, a)) for a in arguments) else None
        if qualname in tx.HOST_READ_BUILTINS:
            if not arguments:
                return None
            value = fact(ctx, arguments[0])
            # A module moved to the device can be str()-ed without a sync; only float()/int()/... prove a tensor.
            converts = is_tensor(value) if qualname in ("builtins.str", "builtins.repr") else is_xla(value)
            return f"converts a tensor with `{qualname.split('.')[-1]}()`" if converts else None
        if qualname in tx.HOST_READ_FUNCTIONS:
            return tx.HOST_READ_FUNCTIONS[qualname] if any(is_xla(fact(ctx, a)) for a in arguments) else None
        if qualname in tx.LOGGING_MODULE_FUNCTIONS:
            return self.logs(arguments, ctx)
        if qualname in tx.GRADIENT_NORM_FUNCTIONS:
            checked = next((k.value for k in node.keywords if k.arg == "error_if_nonfinite"), None)
            on = isinstance(checked, ast.Constant) and checked.value is True
            # It tests the norm with `if` on the host before it returns.
            return _NORM_TEST if on and is_xla(fact(ctx, node)) else None
        if not isinstance(func, ast.Attribute):
            return None
        receiver = fact(ctx, func.value)
        if func.attr == "step":
            plateau = receiver is not None and receiver.kind is Kind.PLATEAU_SCHEDULER
            metric = arguments[0] if arguments else next((k.value for k in node.keywords if k.arg == "metrics"), None)
            reads = plateau and metric is not None and is_xla(fact(ctx, metric))
            return _PLATEAU_FLOAT if reads else None
        if func.attr in tx.HOST_READ_METHODS:
            # `.cpu()` exists on modules too; the other methods prove the receiver is a tensor.
            reads = is_tensor(receiver) if func.attr == "cpu" else is_xla(receiver)
            return tx.HOST_READ_METHODS[func.attr] if reads and not node.args else None
        if func.attr == "to" and is_tensor(receiver) and self.to_cpu(node, ctx):
            return "copies the tensor to the host"
        if func.attr == "format" and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str):
            values = [*arguments, *(k.value for k in node.keywords)]
            return "formats a tensor into a string" if any(is_tensor(fact(ctx, v)) for v in values) else None
        if func.attr in tx.LOGGER_LEVEL_METHODS and qualname is None and self.is_logger(func.value, ctx):
            return self.logs(arguments, ctx)
        return None

    @staticmethod
    def logs(arguments: list[ast.expr], ctx: CheckContext) -> str | None:
        # Arguments after the message are formatted when the record is emitted (on by default at these levels).
        return "logs a tensor" if any(is_tensor(fact(ctx, a)) for a in arguments[1:]) else None

    @staticmethod
    def is_logger(receiver: ast.expr, ctx: CheckContext) -> bool:
        """``logger`` bound to ``logging.getLogger(...)`` at module level or in the function."""
        if not isinstance(receiver, ast.Name):
            return False
        found = ctx.index.lookup(receiver.id, ctx.scope)
        if found is None:
            return False
        owner, bindings = found
        for binding in bindings:
            statement = binding.node
            parent = next(
                (n for n, _ in ctx.index.nodes[ast.Assign] if any(t is statement for t in n.targets)),  # type: ignore[attr-defined]
                None,
            )
            if not isinstance(parent, ast.Assign) or not isinstance(parent.value, ast.Call):
                return False
            if ctx.index.qualname(parent.value.func, owner) != "logging.getLogger":
                return False
        return bool(bindings)

    @staticmethod
    def to_cpu(node: ast.Call, ctx: CheckContext) -> bool:
        target = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "device"), None)
        if isinstance(target, ast.Constant):
            return target.value == "cpu"
        if isinstance(target, ast.Call) and ctx.qualname(target.func) == "torch.device" and target.args:
            first = target.args[0]
            return isinstance(first, ast.Constant) and first.value == "cpu"
        return False
