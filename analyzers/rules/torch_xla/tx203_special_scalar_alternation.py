"""TX203: a Python scalar that is 0, 1 or -1 on some steps and another value on others."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.model import Kind
from xlalens.analyzers.rules.torch_xla._steps import fact, fitted, is_xla, loop_location, snippet, step_place

_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)


_SCALAR_TENSORS = frozenset({"torch.tensor", "torch.as_tensor", "torch.scalar_tensor"})


def _is_constant(node: ast.expr, value: str) -> bool:
    return isinstance(node, ast.Constant) and node.value == value


def _param_group(node: ast.expr, ctx: CheckContext) -> bool:
    """``optimizer.param_groups[i]``, or a name a ``for`` loop over ``....param_groups`` binds."""
    if isinstance(node, ast.Subscript):
        node = node.value
        return isinstance(node, ast.Attribute) and node.attr == "param_groups"
    if not isinstance(node, ast.Name):
        return False
    return any(
        isinstance(loop, ast.For)
        and isinstance(loop.target, ast.Name)
        and loop.target.id == node.id
        and isinstance(loop.iter, ast.Attribute)
        and loop.iter.attr == "param_groups"
        for loop, scope in ctx.index.nodes.get(ast.For, [])
        if scope is ctx.scope
    )


def _format(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:.6g}"


@register_rule
class SpecialScalarAlternation(Rule):
    """## What it does
    Finds arithmetic between an XLA tensor and a Python number that the analysis sees taking both
    a special value (0, 1 or -1) and another value in a training step, such as
    `scale = 1.0 if step < warmup else 0.5` followed by `loss * scale`; also such a number
    written as a learning rate into `optimizer.param_groups` (`group["lr"] = base_lr * step / warmup`)
    or made into a 0-dim XLA tensor (`torch.tensor(scale, device=device)`). Schedules computed
    from the step counter (`min(1.0, step / anneal_steps)`) are evaluated at the first steps and at
    later ones (10, 100, 1000, 100000), and the message counts the graphs the values produce.

    ## Why is this bad?
    torch_xla passes most Python scalars to the graph as inputs, so `x * 0.5` and `x * 0.25` share
    one compiled graph. The values 0, 1 and -1 are different: they are baked into the graph as
    constants, so XLA can simplify the graph with them. A scalar that is sometimes special and
    sometimes not therefore produces two graphs, and two compiles. Measured with torch_xla 2.9 on
    CPU: 5 steps of `x * s` with `s` alternating 1.0 and 0.5 compiled 2 graphs, with `s` constant
    at 0.5 one.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(100):
        scale = 1.0 if step < 10 else 0.5
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean() * scale
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
        scale = torch.tensor([1.0 if step < 10 else 0.5], device=device)
        loss = model(torch.randn(8, 16, device=device)).pow(2).mean() * scale
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    ```

    A one-element tensor is always a graph input, whatever its value. A 0-dim tensor made from the
    scalar (`torch.tensor(scale, device=device)`) is not enough: it still compiled 2 graphs in the
    same measurement. `XLA_NO_SPECIAL_SCALARS=1` turns the special case off for the whole process.

    ## References
    - PyTorch source: `torch/csrc/lazy/core/tensor_util.cpp`, `IsSpecialScalar`
    - torch_xla docs: "Source of recompilations in torch_xla"
    """

    code = "TX203"
    message = "Scalar that alternates between 0/1/-1 and other values in the training step"
    explainer = "torch-xla-lazy-tensor#special-scalars"
    calculator = "graph-hash"
    severity = Severity.INFO
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.BinOp, ast.Call, ast.Assign)
    call_names = frozenset({*tx.SCALAR_FUNCTIONS, *_SCALAR_TENSORS})
    call_attributes = frozenset(tx.SCALAR_METHODS)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        place = step_place(ctx, node)
        if place is None:
            return
        if isinstance(node, ast.Assign):
            pair = self.learning_rate(node, ctx)
            what = "the optimizer's update (it multiplies by `lr`)"
        elif isinstance(node, ast.Call) and ctx.qualname(node.func) in _SCALAR_TENSORS:
            pair = self.scalar_tensor(node, ctx)
            what = "the 0-dim tensor made from it"
        else:
            pair = self.tensor_and_scalar(node, ctx)
            what = f"`{snippet(ctx, node)}`"
        if pair is None:
            return
        scalar, values = pair
        special = sorted(v for v in values if v in tx.SPECIAL_SCALARS)
        other = sorted(v for v in values if v not in tx.SPECIAL_SCALARS)
        if not special or not other:
            return
        shown = " or ".join(_format(v) for v in special)
        shown += f" on some steps and {' or '.join(_format(v) for v in other[:2])}{' or …' if len(other) > 2 else ''}"
        shown += " on others"
        ctx.report(
            node,
            fitted(ctx, scalar, f"{{}} is {shown}: {len(special) + 1} graphs to compile"),
            detail="0, 1 and -1 are baked into the graph as constants while other values are graph inputs, so "
            f"{what} traces {len(special) + 1} different graphs (one compile each). Pass it as a one-element tensor.",
            related=loop_location(ctx, place),
            # Two steps per value, specials first: the calculator shows each value's graph compile once.
            calculator={
                "shapes": "8x128",
                "values": ", ".join(f"{float(v)!r}*2" for v in (*special, *other[:2])),
                "use": "scalar",
            },
        )

    @staticmethod
    def learning_rate(node: ast.AST, ctx: CheckContext) -> tuple[ast.expr, frozenset[float]] | None:
        """``group["lr"] = value`` for a group of ``optimizer.param_groups``, and the numbers ``value`` may be."""
        assert isinstance(node, ast.Assign)
        target = node.targets[0] if len(node.targets) == 1 else None
        if not isinstance(target, ast.Subscript) or not _is_constant(target.slice, "lr"):
            return None
        if not _param_group(target.value, ctx):
            return None
        value = fact(ctx, node.value)
        return (node.value, value.numbers) if value is not None and value.kind is Kind.NUMBER else None

    @staticmethod
    def scalar_tensor(node: ast.AST, ctx: CheckContext) -> tuple[ast.expr, frozenset[float]] | None:
        """``torch.tensor(number, device=xla)``: a 0-dim tensor is still a constant of the graph."""
        assert isinstance(node, ast.Call)
        if not node.args or not is_xla(fact(ctx, node)):
            return None
        value = fact(ctx, node.args[0])
        if value is None or value.kind is not Kind.NUMBER or all(v.is_integer() for v in value.numbers):
            return None  # measured with float schedules; integer offsets (`step * 8 % 56`) are not
        return node.args[0], value.numbers

    @staticmethod
    def tensor_and_scalar(node: ast.AST, ctx: CheckContext) -> tuple[ast.expr, frozenset[float]] | None:
        """The scalar operand of tensor-with-scalar arithmetic, and the numbers it may hold."""
        if isinstance(node, ast.BinOp):
            if not isinstance(node.op, _ARITHMETIC):
                return None
            operands = [(node.left, node.right), (node.right, node.left)]
        else:
            assert isinstance(node, ast.Call)
            func = node.func
            qualname = ctx.qualname(func)
            if qualname in tx.SCALAR_FUNCTIONS and len(node.args) >= 2:
                operands = [(node.args[0], node.args[1])]
            elif qualname is None and isinstance(func, ast.Attribute) and func.attr in tx.SCALAR_METHODS:
                operands = [(func.value, node.args[0])] if node.args else []
            else:
                return None
        for tensor_side, scalar in operands:
            value = fact(ctx, scalar)
            if is_xla(fact(ctx, tensor_side)) and value is not None and value.kind is Kind.NUMBER:
                return scalar, value.numbers
        return None
