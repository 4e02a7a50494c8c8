"""TX102: a torch_xla training loop that never syncs, so one graph grows across every step."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Edit, Fix, Position, Range, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import Library
from xlalens.analyzers.models.torch_xla.model import StepLoop, known_not_to_sync, moves_items_to_device
from xlalens.analyzers.rules._migrations import target_release
from xlalens.analyzers.rules.torch_xla._steps import model, snippet

_XLA_MODEL = "torch_xla.core.xla_model"
_SYNC_SINCE = (2, 4)
"""The first torch_xla release with ``torch_xla.sync``."""


@register_rule
class StepLoopWithoutSync(Rule):
    """## What it does
    Finds torch_xla training loops (a loop whose body runs `loss.backward()` and an optimizer
    step on XLA tensors) with no sync point: no `torch_xla.sync()` or `xm.mark_step()`, no
    `with torch_xla.step():`, no `MpDeviceLoader` (or `ParallelLoader.per_device_loader`) being
    iterated, no `xm.optimizer_step(..., barrier=True)` and no `torch_xla.compile` function
    called, in the loop or in the local functions it calls.

    ## Why is this bad?
    Without a sync point the operations of every step are appended to one lazy graph that is
    never cut. Nothing runs until something finally reads a value, and then the whole history
    compiles as one huge graph, which is slow to compile and may not fit in memory. Measured with
    torch_xla 2.9 on CPU for a `Linear(16, 4)` step: the pending graph grows by 32 IR nodes per
    step (31, 63, 95, ...), the final graph had 152 nodes after 5 steps and 632 after 20, and
    `MarkStep` stayed at zero; with `torch_xla.sync()` at the end of each step, every step runs the
    same 36-node graph, compiled once.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        optimizer.step()
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
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    ```

    The rule stays silent when the loop iterates something it cannot see into (a loader passed in
    as a parameter may be an `MpDeviceLoader`, which syncs), unless the loop moves the batches it
    gets to the device itself (`x.to(device)`), as code over a host loader does; the message then
    says so. It is also silent when the loop calls a function from another module that is handed
    the model, optimizer or tensors (it may sync).

    ## Fix safety
    The fix appends `torch_xla.sync()` at the end of the loop body (adding `import torch_xla` when
    the file lacks it), even in a file that still calls `xm.mark_step()`, which torch_xla 2.8
    deprecated (TX701); only for a `torch-xla-version` before 2.4, which has no `torch_xla.sync`,
    it appends `xm.mark_step()`. It is safe: the step computes the same values, now one graph per
    step. It is offered when the loop body starts on its own line. A `continue` in the body skips
    the appended sync on that iteration, so review loops that use it.

    ## References
    - torch_xla docs: "PyTorch on XLA devices", section "XLA Tensors are Lazy"
    - `torch_xla.sync`, `torch_xla.distributed.parallel_loader.MpDeviceLoader`
    """

    code = "TX102"
    message = "Training loop without a sync point: the lazy graph grows every step"
    explainer = "torch-xla-lazy-tensor#step-markers-and-loaders"
    calculator = "sync-cost"
    severity = Severity.ERROR
    fix_title = "Add `torch_xla.sync()` at the end of the loop body"
    fix_availability = FixAvailability.SOMETIMES
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.For, ast.AsyncFor, ast.While)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        found = model(ctx)
        if not found.enabled:
            return
        step = next((s for s in found.step_loops if s.node is node), None)
        if step is None or step.syncs or step.opaque:
            return
        caveat = ""
        if isinstance(node, ast.For | ast.AsyncFor) and not known_not_to_sync(step.iterable):
            moved = moves_items_to_device(node, found, ctx.scope)
            if moved is None:
                return
            caveat = (
                f" `{snippet(ctx, node.iter)}` is not visibly a device loader, and the loop moves its batches "
                f"with `{moved}`, as one does with a host loader; an `MpDeviceLoader` would sync each step."
            )
        assert isinstance(node, ast.For | ast.AsyncFor | ast.While)
        header = node.iter if isinstance(node, ast.For | ast.AsyncFor) else node.test
        start = ctx.source.node_range(node).start
        ctx.report(
            Range(start, ctx.source.node_range(header).end),
            "this training loop has no sync point: its lazy graph grows every step",
            detail="It has no `torch_xla.sync()`, `xm.mark_step()` or `MpDeviceLoader`."
            f"{caveat} Every step is appended to one lazy graph that is never cut, so it grows until a value "
            "is read and then compiles as one huge graph.",
            fix=self.fix(step, ctx),
            calculator={"synced": False},
        )

    @staticmethod
    def sync_call(ctx: CheckContext) -> tuple[str, tuple[Edit, ...]] | None:
        """``torch_xla.sync()`` spelled with the file's own imports, and the import it needs when the file
        has none; ``xm.mark_step()`` only for a target release without ``torch_xla.sync`` (before 2.4)."""
        xla_model = ctx.index.alias_for(_XLA_MODEL, ctx.scope)
        if xla_model is not None and target_release(ctx, Library.TORCH_XLA) < _SYNC_SINCE:
            return f"{xla_model}.mark_step()", ()
        spelling = ctx.module_spelling("torch_xla", "torch_xla")
        if spelling is None:
            return None
        top, imports = spelling
        return f"{top}.sync()", imports

    def fix(self, step: StepLoop, ctx: CheckContext) -> Fix | None:
        loop = step.node
        sync = self.sync_call(ctx)
        first, last = loop.body[0], loop.body[-1]
        if sync is None or first.lineno == loop.lineno:
            return None
        call, imports = sync
        line = ctx.source.line(first.lineno)
        indent = line[: len(line) - len(line.lstrip())]
        end_line = last.end_lineno or last.lineno
        # After the whole last line, so a trailing comment stays with its statement.
        end = Position(end_line, len(ctx.source.line(end_line)))
        title = f"Add `{call}` at the end of the loop body"
        return ctx.fix(
            title, Applicability.SAFE, [*imports, Edit(Range(end, end), f"{ctx.source.newline}{indent}{call}")]
        )
