"""TX202: a tensor whose shape (or index) changes from one training step to the next."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.model import Kind, StepLoop, loaders_of
from xlalens.analyzers.rules.torch_xla._steps import fact, is_xla, loop_location, model, snippet, step_place


def _loop_variables(step: StepLoop) -> set[str]:
    """Names the step loop's header binds to a new number every step (a ``range`` or ``enumerate`` index)."""
    loop = step.node
    iterable = step.iterable
    if not isinstance(loop, ast.For | ast.AsyncFor) or iterable is None:
        return set()
    if iterable.kind is Kind.RANGE:
        target: ast.expr | None = loop.target
    elif iterable.kind is Kind.ENUMERATE and isinstance(loop.target, ast.Tuple) and loop.target.elts:
        target = loop.target.elts[0]
    else:
        target = None
    return {target.id} if isinstance(target, ast.Name) else set()


def _reads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


@register_rule
class ChangingInputShapeInStep(Rule):
    """## What it does
    Finds tensors in a torch_xla training step whose shape, or whose position in a bigger tensor,
    changes from step to step:

    - indexing or slicing an XLA tensor with the step loop's variable (`x[:, :step]`,
      `data[i : i + 8]`, `x[i]`);
    - a tensor that grows every step (`history = torch.cat([history, new])`);
    - a `DataLoader` with `batch_size` above 1 and no `drop_last=True` feeding the step: its
      last batch is shorter (informational: one extra compile per epoch).

    ## Why is this bad?
    torch_xla keys its compile cache on the graph, and the graph holds every shape and every slice
    offset. A shape or offset that changes each step makes a new graph each step, and each new graph
    is compiled before it runs. Measured with torch_xla 2.9 on CPU over 5 steps: slicing with
    `x[: i + 1]` compiled 5 graphs, `x[i]` 5, `x[i : i + 4]` 4, a growing `torch.cat` 5, against one
    for a fixed slice. Pad to a fixed size (or a few buckets), pass the offset as a tensor (it is then
    an input of one graph, as in `torch.index_select` below), or preallocate.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.randn(1024, 16, device=device)
    for step in range(100):
        batch = data[step * 8 : step * 8 + 8]
        loss = model(batch).pow(2).mean()
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
    data = torch.randn(1024, 16, device=device)
    for step in range(100):
        offset = torch.tensor(step * 8, device=device)
        batch = torch.index_select(data, 0, torch.arange(8, device=device) + offset)
        loss = model(batch).pow(2).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    ```

    ## References
    - torch_xla docs: "Source of recompilations in torch_xla"
    - torch_xla docs: "Troubleshoot", section "Known Performance Caveats"
    """

    code = "TX202"
    message = "Tensor shape or index that changes every training step"
    explainer = "torch-xla-lazy-tensor#shapes-that-change-every-step"
    calculator = "sync-cost"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Subscript, ast.Call)
    call_names = tx.DATA_LOADERS | tx.GROWING_FUNCTIONS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Call) and ctx.qualname(node.func) in tx.DATA_LOADERS:
            self.check_loader(node, ctx)
            return
        place = step_place(ctx, node)
        if place is None:
            return
        if isinstance(node, ast.Subscript):
            variables = _loop_variables(place.loop) & _reads(node.slice)
            if not variables or not is_xla(fact(ctx, node.value)):
                return
            name = sorted(variables)[0]
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` indexes an XLA tensor with the step loop's variable `{name}`: the offset "
                "or shape is part of the graph, so every new value is a new graph to compile",
                related=loop_location(ctx, place),
                calculator={"graphs": 2},
            )
            return
        grown = self.grown_name(node, ctx)
        if grown is not None:
            ctx.report(
                node,
                f"`{grown}` grows every step (`{snippet(ctx, node)}`): its shape changes each step, so each step "
                "compiles a new graph; preallocate it or keep a fixed-size buffer",
                related=loop_location(ctx, place),
                calculator={"graphs": 2},
            )

    @staticmethod
    def grown_name(node: ast.AST, ctx: CheckContext) -> str | None:
        """The name in ``name = torch.cat([name, ...])`` when ``name`` is an XLA tensor."""
        assert isinstance(node, ast.Call)
        if ctx.qualname(node.func) not in tx.GROWING_FUNCTIONS or not node.args:
            return None
        parts = node.args[0]
        if not isinstance(parts, ast.List | ast.Tuple):
            return None
        names = {p.id for p in parts.elts if isinstance(p, ast.Name) and is_xla(fact(ctx, p))}
        statement = next(
            (s for s, _ in ctx.index.nodes[ast.Assign] if s.value is node),  # type: ignore[attr-defined]
            None,
        )
        if not isinstance(statement, ast.Assign):
            return None
        targets = {t.id for t in statement.targets if isinstance(t, ast.Name)}
        grown = sorted(names & targets)
        return grown[0] if grown else None

    def check_loader(self, node: ast.Call, ctx: CheckContext) -> None:
        found = model(ctx)
        if not found.enabled:
            return
        feeds = [s for s in found.step_loops if node in loaders_of(s.iterable)]
        if not feeds:
            return
        location = ctx.source.node_range(feeds[0].node)
        ctx.report(
            node,
            "this DataLoader has no `drop_last=True` and feeds the training loop at line "
            f"{location.start.line}: its last batch is shorter whenever the dataset size is not a multiple of the "
            "batch size, and that shape compiles one more graph per epoch",
            severity=Severity.INFO,
            calculator={"graphs": 2},
        )
