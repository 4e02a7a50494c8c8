"""TX103: Python control flow on an XLA tensor's value inside the training step."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.torch_xla.model import Fact
from xlalens.analyzers.rules.torch_xla._steps import (
    fact,
    fitted,
    guard_note,
    is_tensor,
    loop_location,
    severity,
    step_place,
)

_KEYWORDS = {ast.If: "if", ast.While: "while", ast.IfExp: "if", ast.Assert: "assert"}


def _decides_on_tensor(value: Fact | None) -> bool:
    # A comparison with an XLA tensor is a boolean tensor; a bare tensor must be certainly one
    # (a model output may be a dict, whose truth value needs no sync).
    return is_tensor(value) and value is not None and (value.boolean or value.certain)


@register_rule
class PythonControlFlowOnXlaTensor(Rule):
    """## What it does
    Finds `if`, `while`, conditional expressions, `assert`, `and`/`or`, `not` and the builtin
    `min()`/`max()` of several values whose condition (or comparison) is the value of an XLA
    tensor, inside a torch_xla training step (`if loss > 10:`, `while err > eps:`,
    `best = min(best, loss)`).

    ## Why is this bad?
    Python needs a real `bool` to pick a branch, so it calls `bool()` on the tensor, which runs
    the pending graph and copies the result to the host: one extra graph execution and one
    device-to-host transfer every step (measured with torch_xla 2.9 on CPU: 10 `ExecuteTime`
    samples instead of 5 over 5 steps, and 5 `TransferFromDeviceTime` samples instead of 0). The
    branch taken is also baked into the graph recorded after it, so each outcome traces a
    different graph. Keep the decision on the device with `torch.where` or by multiplying with a
    mask, or make it every N steps only.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        if loss > 10:
            loss = loss / 10
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    ```

    Use instead:
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss = torch.where(loss > 10, loss / 10, loss)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    ```

    ## References
    - torch_xla docs: "PyTorch on XLA devices", section "XLA Tensors are Lazy"
    """

    code = "TX103"
    message = "Python control flow on an XLA tensor inside the training step"
    explainer = "torch-xla-lazy-tensor#control-flow-on-tensor-values"
    calculator = "sync-cost"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (
        ast.If,
        ast.While,
        ast.IfExp,
        ast.Assert,
        ast.BoolOp,
        ast.UnaryOp,
        ast.Call,
    )
    call_names = frozenset({"builtins.min", "builtins.max"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for test, how in self.conditions(node):
            place = step_place(ctx, test)
            if place is None or not _decides_on_tensor(fact(ctx, test)):
                continue
            ctx.report(
                test,
                fitted(ctx, test, f"{how} {{}} needs a Python bool from an XLA tensor in the training step"),
                detail=f"{guard_note(place)}The pending graph runs early and the result is copied to the host every "
                "step. Keep the decision on the device (`torch.where`, a mask).",
                related=loop_location(ctx, place),
                severity=severity(place),
                calculator={"host-reads": 1},
            )
            if isinstance(node, ast.Call):
                return  # one comparison of the arguments, however many of them are tensors

    @staticmethod
    def conditions(node: ast.AST) -> list[tuple[ast.expr, str]]:
        """The expressions ``node`` converts to a Python bool, with how to name the conversion."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2:
            # `min(best, loss)` compares its arguments with `<`: a bool of a tensor comparison.
            return [(a, f"`{node.func.id}()` comparing") for a in node.args if not isinstance(a, ast.Starred)]
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            return [(node.test, f"`{_KEYWORDS[type(node)]}`")]
        if isinstance(node, ast.BoolOp):
            # Every operand but the last is tested for truth; the last is only returned.
            word = "`and`" if isinstance(node.op, ast.And) else "`or`"
            return [(value, word) for value in node.values[:-1]]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return [(node.operand, "`not`")]
        return []
