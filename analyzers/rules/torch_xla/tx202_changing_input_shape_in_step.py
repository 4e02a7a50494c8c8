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
from xlalens.analyzers.rules.torch_xla._steps import fact, fitted, is_xla, loop_location, model, snippet, step_place
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.loops import walk_scope

# What the graph-hash calculator opens with: a size that grows with the step number, so every step
# is a new graph; its padding rows show what buckets would leave.
_NEW_SIZE_EVERY_STEP = {"shapes": "8x128", "values": "8, 16, 24, 32", "use": "size"}
# Two epochs of a loader whose last batch is short; padding the batch axis to the full batch joins them.
_SHORT_LAST_BATCH = {"shapes": "8x128*3, 5x128, 8x128*3, 5x128", "pad-axis": "0", "buckets": "8"}


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


def _step_numbers(step: StepLoop, ctx: CheckContext) -> set[str]:
    """The loop variables, and the names the loop body computes from them that are not XLA tensors
    (``cur_len = 4 + step``, ``bs = batch_size_at(step)``): Python values that change with the step."""
    names = _loop_variables(step)
    if not names:
        return names
    found = model(ctx)
    assignments = [
        (statement.targets[0].id, statement.value)
        for statement in ast.walk(ast.Module(body=list(step.node.body), type_ignores=[]))
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ]
    grown = True
    while grown:
        grown = False
        for name, value in assignments:
            if name in names or not (_reads(value) & names) or is_xla(found.fact(value, step.scope)):
                continue
            names.add(name)
            grown = True
    return names


def _size_arguments(factory: str, node: ast.Call) -> list[ast.expr]:
    """The arguments of a tensor factory that set its shape (``torch.tensor``'s data sets values only)."""
    if factory in ("torch.tensor", "torch.as_tensor"):
        return []
    size = [k.value for k in node.keywords if k.arg == "size"]
    if factory == "torch.full":
        return size or node.args[:1]
    if factory == "torch.randint":
        return size or node.args[-1:]
    return [*node.args, *(k.value for k in node.keywords if k.arg in ("size", "start", "end", "step"))]


_SHAPE_CARRYING = frozenset(
    {"unsqueeze", "float", "half", "bfloat16", "long", "int", "contiguous", "clone", "detach", "t", "transpose"}
)
"""Tensor methods whose result still differs in shape when the receivers do."""


def _varying_list(item: ast.Name, loop: StepLoop, ctx: CheckContext, *, sizes_only: bool) -> str | None:
    """The list the step loop ``for item in name:`` iterates, when ``name`` is bound once to a comprehension
    whose items differ: its element reads the comprehension's variable (with ``sizes_only``, in the size
    arguments of a tensor factory)."""
    header = loop.node
    if not (
        isinstance(header, ast.For)
        and isinstance(header.target, ast.Name)
        and header.target.id == item.id
        and isinstance(header.iter, ast.Name)
    ):
        return None
    assigned = ctx.index.single_assignment(header.iter.id, loop.scope)
    if assigned is None:
        return None
    built, owner = assigned[0].value, assigned[1]
    if not isinstance(built, ast.ListComp) or len(built.generators) != 1:
        return None
    variables = {n.id for n in ast.walk(built.generators[0].target) if isinstance(n, ast.Name)}
    element = built.elt
    if not sizes_only:
        return header.iter.id if _changing(variables, element) is not None else None
    if not isinstance(element, ast.Call):
        return None
    factory = ctx.index.qualname(element.func, owner)
    if factory not in tx.TENSOR_FACTORIES_WITHOUT_INPUT:
        return None
    sizes = _size_arguments(factory, element)
    return header.iter.id if any(_changing(variables, size) for size in sizes) else None


def _derived_names(function: ast.FunctionDef, names: set[str]) -> set[str]:
    """``names`` and the names ``function`` assigns (once each) from values that read them."""
    assignments: dict[str, list[ast.expr]] = {}
    for each in walk_scope(list(function.body)):
        if isinstance(each, ast.Assign) and len(each.targets) == 1 and isinstance(each.targets[0], ast.Name):
            assignments.setdefault(each.targets[0].id, []).append(each.value)
    derived = set(names)
    grown = True
    while grown:
        grown = False
        for name, values in assignments.items():
            if name not in derived and len(values) == 1 and _reads(values[0]) & derived:
                derived.add(name)
                grown = True
    return derived


def _changing(names: set[str], node: ast.AST) -> str | None:
    """The first (by name) of ``names`` that ``node`` reads."""
    read = sorted(names & _reads(node))
    return read[0] if read else None


@register_rule
class ChangingInputShapeInStep(Rule):
    """## What it does
    Finds tensors in a torch_xla training step whose shape, or whose position in a bigger tensor,
    changes from step to step:

    - indexing or slicing an XLA tensor with the step loop's variable, or with a Python value the
      loop body computes from it (`x[:, :step]`, `data[i : i + 8]`, `x[i]`, `x[:, :cur_len]`
      after `cur_len = 4 + step`);
    - an XLA tensor made or viewed with a size computed from the step
      (`torch.arange(step + 1, device=device)`, `x.narrow(1, 0, cur_len)`), and a host tensor cut
      to such a length and moved to the device (`data[:batch_size_at(step)].to(device)`; a window
      of fixed length such as `data[i * bs : (i + 1) * bs]` keeps one shape);
    - an item of a host list whose tensors are built with sizes from the comprehension's variable
      (`[torch.randn(6 + 2 * i, 12) for i in range(n)]`), moved to the device in the step, and a
      host tensor a helper of the file cuts to a length computed from its argument
      (`return tokens[:, : max(lengths)]`) when the step passes a value that changes with the step
      or an item of a list whose items differ;
    - a tensor that grows every step (`history = torch.cat([history, new])`);
    - a `DataLoader` with `batch_size` above 1 and no `drop_last=True` feeding the step: its
      last batch is shorter (informational: one extra compile, in the first epoch; later epochs reuse it).

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
    calculator = "graph-hash"
    severity = Severity.WARNING
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Subscript, ast.Call)
    call_names = tx.DATA_LOADERS | tx.GROWING_FUNCTIONS | tx.TENSOR_FACTORIES_WITHOUT_INPUT
    call_attributes = frozenset({*tx.SIZE_ARGUMENT_METHODS, "to"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Call) and ctx.qualname(node.func) in tx.DATA_LOADERS:
            self.check_loader(node, ctx)
            return
        place = step_place(ctx, node)
        if place is None:
            return
        own_scope = ctx.scope.enclosing_function() is place.loop.scope.enclosing_function()
        changing = _step_numbers(place.loop, ctx) if own_scope else _loop_variables(place.loop)
        if isinstance(node, ast.Subscript):
            name = _changing(changing, node.slice)
            if name is None or not is_xla(fact(ctx, node.value)):
                return
            ctx.report(
                node,
                fitted(ctx, node, f"{{}} indexes an XLA tensor with `{name}`, which changes every step"),
                detail="The offset or shape is part of the graph, so every new value is a new graph to compile.",
                related=loop_location(ctx, place),
                calculator=_NEW_SIZE_EVERY_STEP,
            )
            return
        sized = self.sized_from_step(node, changing, ctx)
        if sized is not None:
            what, name = sized
            ctx.report(
                node,
                fitted(ctx, node, f"{{}} {what} from `{name}`, which changes every step"),
                detail="Each new size is a new graph to compile. Pad to a fixed size (or a few buckets).",
                related=loop_location(ctx, place),
                calculator=_NEW_SIZE_EVERY_STEP,
            )
            return
        varying = self.varying_host_item(node, place.loop, ctx) if own_scope else None
        if varying is not None:
            ctx.report(
                node,
                fitted(ctx, node, f"{{}} moves an item of `{varying}`, whose tensors differ in size"),
                detail=f"The tensors of `{varying}` are built with sizes that differ from item to item: each new "
                "shape is a new graph to compile. Pad them to a fixed size (or a few buckets).",
                related=loop_location(ctx, place),
                calculator=_NEW_SIZE_EVERY_STEP,
            )
            return
        helper = self.trimmed_by_helper(node, place.loop, changing, ctx) if own_scope else None
        if helper is not None:
            ctx.report(
                node,
                fitted(ctx, node, f"{{}} moves a host tensor that `{helper}` cuts to a step-dependent length"),
                detail=f"`{helper}` cuts it to a length computed from a value that changes with the step: each new "
                "length is a new graph to compile. Pad to a fixed size (or a few buckets).",
                related=loop_location(ctx, place),
                calculator=_NEW_SIZE_EVERY_STEP,
            )
            return
        grown = self.grown_name(node, ctx)
        if grown is not None:
            ctx.report(
                node,
                fitted(ctx, node, f"`{grown}` grows every step ({{}}), so every step compiles a new graph"),
                detail=f"`{snippet(ctx, node)}` changes the shape of `{grown}` each step, so each step compiles a "
                "new graph. Preallocate it or keep a fixed-size buffer.",
                related=loop_location(ctx, place),
                calculator=_NEW_SIZE_EVERY_STEP,
            )

    @staticmethod
    def sized_from_step(node: ast.AST, changing: set[str], ctx: CheckContext) -> tuple[str, str] | None:
        """What takes its size from a value that changes with the step, and that value's name.

        An XLA tensor made with a size from it (``torch.arange(step + 1, device=device)``), an XLA
        tensor method taking it as a size (``x.narrow(0, 0, n)``), or a host tensor cut to a length
        from it and moved to the device (``data[:bs].to(device)``; a window of fixed length,
        ``data[i * bs : (i + 1) * bs]``, keeps its shape).
        """
        assert isinstance(node, ast.Call)
        func = node.func
        arguments = [*node.args, *(k.value for k in node.keywords if k.arg != "device")]
        factory = ctx.qualname(func)
        if factory in tx.TENSOR_FACTORIES_WITHOUT_INPUT:
            sizes = _size_arguments(factory, node)
            name = next((n for a in sizes if (n := _changing(changing, a)) is not None), None)
            return ("takes its size", name) if name is not None and is_xla(fact(ctx, node)) else None
        if not isinstance(func, ast.Attribute) or ctx.qualname(func) is not None:
            return None
        if func.attr in tx.SIZE_ARGUMENT_METHODS and is_xla(fact(ctx, func.value)):
            name = next((n for a in arguments if (n := _changing(changing, a)) is not None), None)
            return ("takes its size", name) if name is not None else None
        receiver = func.value
        if func.attr != "to" or not isinstance(receiver, ast.Subscript) or not is_xla(fact(ctx, node)):
            return None
        if is_xla(fact(ctx, receiver.value)):
            return None
        parts = receiver.slice.elts if isinstance(receiver.slice, ast.Tuple) else [receiver.slice]
        for part in parts:
            if not isinstance(part, ast.Slice):
                continue
            lower = _changing(changing, part.lower) if part.lower is not None else None
            upper = _changing(changing, part.upper) if part.upper is not None else None
            if (lower is None) != (upper is None):
                return "moves a host tensor cut to a length", lower or upper  # type: ignore[return-value]
        return None

    @staticmethod
    def varying_host_item(node: ast.AST, loop: StepLoop, ctx: CheckContext) -> str | None:
        """The list the step loop iterates, when ``node`` moves its item to the device (``x.to(device)``, also
        after ``unsqueeze``/``float``...) and the list is one comprehension of tensor factories whose size
        reads the comprehension's variable (``[torch.randn(6 + 2 * i, 12) for i in range(n)]``)."""
        assert isinstance(node, ast.Call)
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != "to" or not is_xla(fact(ctx, node)):
            return None
        item = func.value
        while isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute) and item.func.attr in _SHAPE_CARRYING:
            item = item.func.value
        if not isinstance(item, ast.Name):
            return None
        return _varying_list(item, loop, ctx, sizes_only=True)

    @staticmethod
    def trimmed_by_helper(node: ast.AST, loop: StepLoop, changing: set[str], ctx: CheckContext) -> str | None:
        """The helper whose host tensor ``node`` moves to the device, when it returns the tensor cut to a length
        computed from a parameter (``return tokens[:, : max(lengths)]``) and the step passes a value that
        changes with the step for it: the step loop's number, or an item of a list whose items differ."""
        assert isinstance(node, ast.Call)
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != "to" or not is_xla(fact(ctx, node)):
            return None
        made = func.value
        if not isinstance(made, ast.Call):
            return None
        owner = ctx.scope.enclosing_function()
        sites = call_graph(ctx.index).calls_in(owner.node if owner is not None else ctx.index.tree)  # type: ignore[arg-type]
        site = next((s for s in sites if s.call is made), None)
        passed = site.parameters() if site is not None else None
        callee = site.callee if site is not None else None
        if passed is None or not isinstance(callee, ast.FunctionDef):
            return None
        returns = [n for n in walk_scope(list(callee.body)) if isinstance(n, ast.Return)]
        if len(returns) != 1 or not isinstance(returns[0].value, ast.Subscript):
            return None
        cut = returns[0].value
        parts = cut.slice.elts if isinstance(cut.slice, ast.Tuple) else [cut.slice]
        bounds = [
            part.lower or part.upper
            for part in parts
            if isinstance(part, ast.Slice) and (part.lower is None) != (part.upper is None)
        ]
        for name, argument in sorted(passed.items()):
            derived = _derived_names(callee, {name})
            if not any(_reads(bound) & derived for bound in bounds if bound is not None):
                continue
            if _changing(changing, argument) is not None:
                return callee.name
            if isinstance(argument, ast.Name) and _varying_list(argument, loop, ctx, sizes_only=False) is not None:
                return callee.name
        return None

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
            "this DataLoader has no `drop_last=True`: its short last batch compiles one more graph, once",
            detail=f"It feeds the training loop at line {location.start.line}: its last batch is shorter whenever "
            "the dataset size is not a multiple of the batch size. That shape compiles one more graph in the first "
            "epoch; later epochs find it in the compile cache (its graph hash is the same).",
            severity=Severity.INFO,
            calculator=_SHORT_LAST_BATCH,
        )
