"""TX707: the ``torchxla_trace_once`` dynamo backend, renamed ``openxla`` and later removed."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.rules._migrations import compatibility_code, judge_usage, removed_at, upgrade_finding

_CHANGE = USAGE_CHANGES["torchxla-trace-once-backend"]
_OLD = "torchxla_trace_once"


@register_rule
class TorchxlaTraceOnceBackend(Rule):
    """## What it does
    Finds `torch.compile(..., backend="torchxla_trace_once")` and
    `torch._dynamo.optimize("torchxla_trace_once")`.

    ## Why is this bad?
    The backend was renamed for torch / torch_xla 2.1: `openxla` (AOTAutograd, for training and
    inference) and `openxla_eval` (inference only, what `torchxla_trace_once` was); the old name
    warned, then pytorch/pytorch#122128 removed it. With torch 2.9 the call raises
    `torch._dynamo.exc.InvalidBackend: Invalid backend: 'torchxla_trace_once'`.

    ## Example
    ```python
    import torch
    import torch_xla

    model = torch.nn.Linear(4, 4).to(torch_xla.device())
    compiled = torch.compile(model, backend="torchxla_trace_once")
    ```

    Use instead:
    ```python
    import torch
    import torch_xla

    model = torch.nn.Linear(4, 4).to(torch_xla.device())
    compiled = torch.compile(model, backend="openxla")
    ```

    ## Fix safety
    The fix writes `"openxla"`, the backend the torch_xla documentation recommends. It is unsafe:
    `openxla` traces the backward pass too (AOTAutograd), where `torchxla_trace_once` compiled
    the forward only; `"openxla_eval"` is the exact inference-only equivalent.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - pytorch/pytorch#106489 (renamed to `openxla` for 2.1), #122128 (old name removed)
    """

    code = "TX707"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning", "InvalidBackend")
    message = "removed torchxla_trace_once backend"
    explainer = "upgrading#dynamo-backend"
    fix_title = 'Use `backend="openxla"`'
    fix_availability = FixAvailability.ALWAYS
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = frozenset({"torch.compile", "torch._dynamo.optimize"})
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        candidates = [keyword.value for keyword in node.keywords if keyword.arg == "backend"]
        if ctx.qualname(node.func) == "torch._dynamo.optimize" and node.args:
            candidates.append(node.args[0])
        for value in candidates:
            if not (isinstance(value, ast.Constant) and value.value == _OLD):
                continue
            judged = judge_usage(ctx, _CHANGE)
            failure = "InvalidBackend" if removed_at(ctx, _CHANGE.library, _CHANGE.removed) else None
            if judged is None or compatibility_code(node, ctx, failure):
                return
            quote = ctx.segment(value)[0]
            message, detail = upgrade_finding(
                f'Dynamo backend "{_OLD}"', judged, '"openxla" ("openxla_eval" for inference only)'
            )
            ctx.report(
                value,
                message,
                detail=detail,
                fix=ctx.fix(
                    'Use `backend="openxla"`', Applicability.UNSAFE, [ctx.edit(value, f"{quote}openxla{quote}")]
                ),
                severity=judged.severity,
            )
