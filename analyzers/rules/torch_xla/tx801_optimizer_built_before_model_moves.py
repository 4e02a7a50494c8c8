"""TX801: an optimizer built from a model's parameters before the model moves to the XLA device."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.torch_xla.model import Kind
from xlalens.analyzers.rules.torch_xla._steps import fact, fitted, model, snippet

_SWAP_FLAG = "torch.__future__.set_swap_module_params_on_conversion"
"""With this set, ``Module.to`` swaps each parameter's contents in place and the optimizer follows."""
_OPTIMIZER_PREFIXES = ("torch.optim.", "torch_xla.amp.syncfree.")
_NOT_OPTIMIZERS = ("torch.optim.lr_scheduler", "torch.optim.swa_utils")
_PARAMETER_METHODS = frozenset({"parameters", "named_parameters"})
_Scopes = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda


def _position(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _walk_scope(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a scope, nested ones included, not those of the functions and classes defined in it."""
    stack: list[ast.AST] = list(reversed(statements))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt):
            yield node
        if isinstance(node, _Scopes | ast.expr):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _same(a: ast.AST, b: ast.AST) -> bool:
    """The same expression, whether it is read or assigned (``self.model`` in both)."""
    return ast.unparse(a) == ast.unparse(b)


def _reads_parameters_of(params: ast.AST, module: ast.expr, ctx: CheckContext, depth: int = 2) -> bool:
    """Whether an optimizer's ``params`` argument takes ``module.parameters()``.

    In groups, filtered or listed, also through names assigned once (``decay = [p for n, p in
    model.named_parameters() if ...]``), up to ``depth`` names deep.
    """
    for node in ast.walk(params):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _PARAMETER_METHODS
            and _same(node.func.value, module)
        ):
            return True
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and depth > 0:
            value = _assigned_once(node.id, ctx)
            if value is not None and _reads_parameters_of(value, module, ctx, depth - 1):
                return True
    return False


def _assigned_once(name: str, ctx: CheckContext) -> ast.expr | None:
    """The value of the one plain assignment that binds ``name``, seen from the current scope."""
    assigned = ctx.index.single_assignment(name, ctx.scope)
    return assigned[0].value if assigned is not None else None


def _binds(node: ast.AST, target: ast.expr) -> bool:
    """Whether ``node`` is an assignment that rebinds ``target`` (a name or ``self.attr``)."""
    if isinstance(node, ast.Assign):
        return any(_same(t, target) or any(_same(e, target) for e in ast.walk(t)) for t in node.targets)
    if isinstance(node, ast.AnnAssign | ast.AugAssign):
        return _same(node.target, target)
    return False


@register_rule
class OptimizerBuiltBeforeModelMoves(Rule):
    """## What it does
    Finds `model.to(device)` (or `model = model.to(device)`) onto an XLA device after an optimizer
    was built from `model.parameters()` in the same function, module body or method, when the
    optimizer is not built again after the move. A model already on the device counts when
    `model.to("cpu")` or `model.cpu()` took it off between the optimizer and the move back.

    ## Why is this bad?
    `Module.to` keeps a parameter object only when the new tensor can share its type with the old
    one (`torch._has_compatible_shallow_copy_type`). A CPU tensor and an XLA tensor cannot, so
    moving a module onto an XLA device replaces every `nn.Parameter` with a new one. The optimizer
    still holds the old CPU parameters: `loss.backward()` writes gradients to the new XLA
    parameters, the old ones never get a gradient, and `optimizer.step()` skips every parameter
    whose `.grad` is None. Nothing raises or warns; the model never trains. Measured with torch 2.9
    and torch_xla 2.9 on CPU for `SGD`, `Adam` and `AdamW` (and `model = model.to(device)`, an
    optimizer that has already stepped on the CPU, or an `LSTM`): every weight is unchanged after
    three steps and the loss repeats its first value to the last digit, while the same code
    with the optimizer built after the move trains. This is torch_xla's case: on the CPU, a
    `model.to(torch.float64)` keeps the parameter objects, and so does a `.to(device)` onto the
    device the model is already on. Moving the model back and forth (`model.to("cpu")` for
    evaluation, then `model.to(device)` again) replaces the parameters again.

    ## Example
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(device)
    ```

    Use instead:
    ```python
    import torch
    import torch_xla

    device = torch_xla.device()
    model = torch.nn.Linear(16, 4)
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    ```

    The rule is silent when the file sets `torch.__future__.set_swap_module_params_on_conversion(True)`:
    `Module.to` then swaps each parameter's contents in place (`torch.utils.swap_tensors`) and the
    optimizer keeps training the model (measured). It is also silent when the device is not known
    to be an XLA device: on a CUDA device the parameter objects survive the move.

    ## References
    - `torch.nn.Module._apply` and `torch.__future__.set_swap_module_params_on_conversion`
    - pytorch/xla issues 1623 and 1764
    - Hugging Face `transformers.Trainer` checks for it on XLA devices and raises `ValueError: The model
      and the optimizer parameters are not on the same device`
    """

    code = "TX801"
    message = "Optimizer built before the model moves to the XLA device: it updates the old parameters"
    explainer = "silent-failures#optimizer-built-before-the-model-moves"
    severity = Severity.ERROR
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "to") or not model(ctx).enabled:
            return
        module = func.value
        if not all(isinstance(n, ast.Name | ast.Attribute) for n in ast.walk(module) if isinstance(n, ast.expr)):
            return  # `copy.deepcopy(model).to(device)`: a new module, not the one the optimizer reads
        if not self.xla_device(node, ctx) or self.swaps_in_place(ctx):
            return
        before = fact(ctx, module)
        if before is not None and before.kind in (Kind.TENSOR, Kind.HOST_BATCH):
            return
        owner = ctx.scope.enclosing_function()
        body = owner.node.body if owner is not None else ctx.index.tree.body  # type: ignore[union-attr]
        statements = list(_walk_scope(body))
        stale = self.stale_optimizer(statements, module, node, ctx)
        if stale is None:
            return
        target, built = stale
        name, moved = snippet(ctx, target), snippet(ctx, module)
        if before is not None and before.kind in (Kind.MODULE, Kind.ON_DEVICE):
            back = self.host_move(statements, module, built, node)
            if back is None:
                return  # already on the device: the move keeps its parameters
            problem = (
                f"`{snippet(ctx, back)}` on line {back.lineno} took the model off the device, and "
                f"`{snippet(ctx, node)}` brings it back with new parameters"
            )
        else:
            problem = (
                f"`{snippet(ctx, node)}` then moves the model to the XLA device, which replaces every parameter with "
                "a new tensor"
            )
        related = (RelatedLocation(ctx.path, ctx.source.node_range(built), f"`{name}` takes the parameters here"),)
        ctx.report(
            node,
            fitted(
                ctx,
                node,
                f"{{}} replaces the parameters `{snippet(ctx, target, 30)}` was built from (line {built.lineno})",
            ),
            detail=f"`{name}` was built from the parameters of `{moved}` on line {built.lineno}; {problem}: "
            f"`{name}.step()` finds no gradient on the old ones and no weight changes any more. Build the optimizer "
            "after the move.",
            related=related,
        )

    @staticmethod
    def host_move(statements: list[ast.stmt], module: ast.expr, built: ast.Call, move: ast.Call) -> ast.Call | None:
        """A ``module.cpu()`` or ``module.to("cpu")`` between the optimizer's construction and ``move``."""
        start, end = _position(built), _position(move)
        for statement in statements:
            value = getattr(statement, "value", None)
            if not isinstance(statement, ast.Expr | ast.Assign) or not isinstance(value, ast.Call):
                continue
            func = value.func
            if not (start < _position(value) < end and isinstance(func, ast.Attribute) and _same(func.value, module)):
                continue
            first = value.args[0] if value.args else None
            if func.attr == "cpu" or (func.attr == "to" and isinstance(first, ast.Constant) and first.value == "cpu"):
                return value
        return None

    @staticmethod
    def xla_device(node: ast.Call, ctx: CheckContext) -> bool:
        """Whether ``.to(...)`` names an XLA device (a device value the model knows, or ``"xla"``)."""
        candidates = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "device")]
        for candidate in candidates:
            if isinstance(candidate, ast.Constant) and isinstance(candidate.value, str):
                if candidate.value.startswith("xla"):
                    return True
                continue
            found = fact(ctx, candidate)
            if found is not None and found.kind is Kind.DEVICE:
                return True
        return False

    @staticmethod
    def swaps_in_place(ctx: CheckContext) -> bool:
        """Whether the file turns on swapping parameters in place on conversion (anything but a literal False)."""
        for call in ast.walk(ctx.index.tree):
            if not isinstance(call, ast.Call):
                continue
            scope = ctx.index.scope_of(call) or ctx.index.module_scope
            if ctx.index.qualname(call.func, scope) == _SWAP_FLAG:
                first = call.args[0] if call.args else None
                if not (isinstance(first, ast.Constant) and first.value is False):
                    return True
        return False

    @staticmethod
    def is_optimizer(call: ast.Call, ctx: CheckContext) -> bool:
        scope = ctx.index.scope_of(call) or ctx.index.module_scope
        qualname = ctx.index.qualname(call.func, scope) or ""
        return qualname.startswith(_OPTIMIZER_PREFIXES) and not qualname.startswith(_NOT_OPTIMIZERS)

    def stale_optimizer(
        self, nodes: list[ast.stmt], module: ast.expr, move: ast.Call, ctx: CheckContext
    ) -> tuple[ast.expr, ast.Call] | None:
        """The optimizer assigned from ``module.parameters()`` before ``move`` and not rebuilt after it."""
        moved_at = _position(move)
        found: tuple[ast.expr, ast.Call] | None = None
        for statement in nodes:
            if not isinstance(statement, ast.Assign | ast.AnnAssign) or statement.value is None:
                continue
            value = statement.value
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if _position(statement) >= moved_at or any(n is move for n in ast.walk(statement)):
                continue
            if isinstance(value, ast.Call) and self.is_optimizer(value, ctx) and len(targets) == 1:
                params = (
                    value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "params"), None)
                )
                if params is not None and _reads_parameters_of(params, module, ctx):
                    found = (targets[0], value)
                    continue
            if found is not None and _binds(statement, module) and _position(statement) > _position(found[1]):
                found = None  # the module was replaced between the optimizer and the move
        if found is None:
            return None
        target = found[0]
        for statement in nodes:
            if _position(statement) <= moved_at:
                continue
            if _binds(statement, target):
                return None  # the optimizer is built again after the move
            value = getattr(statement, "value", None)
            if (
                isinstance(statement, ast.Assign | ast.AnnAssign | ast.Expr)
                and isinstance(value, ast.Call)
                and self.is_optimizer(value, ctx)
                and value.args
                and _reads_parameters_of(value.args[0], module, ctx)
            ):
                return None  # a new optimizer over the moved parameters
        return found
