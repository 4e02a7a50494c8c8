"""TX201: an operation whose output shape depends on an XLA tensor's values, inside the training step."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.rules.torch_xla._steps import fact, fitted, is_xla, loop_location, snippet, step_place


@register_rule
class DataDependentShapeInStep(Rule):
    """## What it does
    Finds operations on XLA tensors inside a torch_xla training step whose output shape depends
    on the values: `torch.nonzero`, `torch.argwhere`, `torch.masked_select`, `torch.unique`,
    `torch.bincount`, `torch.repeat_interleave` with a tensor of repeats, `F.one_hot` without
    `num_classes`, one-argument `torch.where(cond)`, and indexing or assigning with a boolean
    mask (`x[x > 0]`, `x[mask] = 0`).

    ## Why is this bad?
    An XLA graph has static shapes. torch_xla runs these operations as a CPU fallback: the
    graph recorded so far runs, the mask is copied to the host, the op runs there, and everything
    after it is traced with the new shape, which is a new graph to compile whenever the count
    changes. Measured with torch_xla 2.9 on CPU over 5 steps: `x[x > 0].sum()` ran 10 executions,
    5 device-to-host transfers, 5 `aten::nonzero` fallbacks and 6 compiles, where
    `torch.where(x > 0, x, 0).sum()` ran 5 executions and compiled once.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        out = model(torch.randn(8, 16, device=device))
        loss = out[out > 0].sum()
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
        out = model(torch.randn(8, 16, device=device))
        loss = torch.where(out > 0, out, torch.zeros_like(out)).sum()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    ```

    ## References
    - torch_xla docs: "Source of recompilations in torch_xla", section "dynamic shapes"
    """

    code = "TX201"
    message = "Data-dependent output shape on an XLA tensor inside the training step"
    explainer = "torch-xla-lazy-tensor#data-dependent-shapes"
    calculator = "sync-cost"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.Subscript)
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_prefixes = ("torch.",)
    call_attributes = frozenset({*tx.DATA_DEPENDENT_SHAPE, tx.REPEAT_INTERLEAVE})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        place = step_place(ctx, node)
        if place is None:
            return
        what = self.mask_indexing(node, ctx) if isinstance(node, ast.Subscript) else self.dynamic_call(node, ctx)
        if what is None:
            return
        ctx.report(
            node,
            # The headline keeps the clause; what the op is (`nonzero`, a bin count) goes to the detail.
            fitted(ctx, node, f"{{}} {what.split(' (')[0]} in the training step"),
            detail=f"`{snippet(ctx, node)}` {what}: it runs as a CPU fallback (an extra execution and a copy to "
            "the host) and every new count of selected elements compiles a new graph. Keep shapes fixed with "
            "`torch.where` or a multiplied mask.",
            related=loop_location(ctx, place),
            calculator={"host-reads": 1},
        )

    @staticmethod
    def mask_indexing(node: ast.AST, ctx: CheckContext) -> str | None:
        assert isinstance(node, ast.Subscript)
        if not is_xla(fact(ctx, node.value)):
            return None
        index = node.slice
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        if not any((value := fact(ctx, part)) is not None and value.boolean for part in parts):
            return None
        return "indexes with a boolean mask" if isinstance(node.ctx, ast.Load) else "assigns through a boolean mask"

    @staticmethod
    def dynamic_call(node: ast.AST, ctx: CheckContext) -> str | None:
        assert isinstance(node, ast.Call)
        func = node.func
        qualname = ctx.qualname(func)
        if qualname is not None and qualname.startswith("torch."):
            name = qualname.removeprefix("torch.")
            arguments = [a for a in node.args if not isinstance(a, ast.Starred)]
            if not arguments or not is_xla(fact(ctx, arguments[0])):
                return None
            if qualname == tx.ONE_HOT:
                classes = arguments[1] if len(arguments) > 1 else _keyword(node, "num_classes")
                unsized = classes is None or (isinstance(classes, ast.UnaryOp) and ast.unparse(classes) == "-1")
                return "sizes its output from the largest label (no `num_classes`)" if unsized else None
            if name == tx.REPEAT_INTERLEAVE:
                return _tensor_repeats(node, arguments[1:], ctx)
            if name in tx.DATA_DEPENDENT_SHAPE:
                return f"has a data-dependent output shape ({tx.DATA_DEPENDENT_SHAPE[name]})"
            if name == "where" and len(node.args) == 1 and not node.keywords:
                return "has a data-dependent output shape (one-argument `torch.where` is `nonzero`)"
            return None
        if qualname is not None or not isinstance(func, ast.Attribute):
            return None
        if func.attr == tx.REPEAT_INTERLEAVE and is_xla(fact(ctx, func.value)):
            return _tensor_repeats(node, list(node.args), ctx)
        if func.attr not in tx.DATA_DEPENDENT_SHAPE:
            return None
        if is_xla(fact(ctx, func.value)):
            return f"has a data-dependent output shape ({tx.DATA_DEPENDENT_SHAPE[func.attr]})"
        return None


def _keyword(node: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in node.keywords if k.arg == name), None)


def _tensor_repeats(node: ast.Call, rest: list[ast.expr], ctx: CheckContext) -> str | None:
    """``repeat_interleave`` whose ``repeats`` is an XLA tensor: its output length is their sum."""
    repeats = rest[0] if rest else _keyword(node, "repeats")
    if repeats is None or not is_xla(fact(ctx, repeats)):
        return None
    return "has a data-dependent output shape (`repeat_interleave` with a tensor of repeats: their sum)"
