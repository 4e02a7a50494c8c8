"""TX706: ``XLA_USE_BF16`` / ``XLA_DOWNCAST_BF16`` set from Python, deprecated since torch_xla 2.4."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.rules._migrations import Verdict, compatibility_code, judge_usage, upgrade_finding

_CHANGE = USAGE_CHANGES["bf16-environment-variables"]
_VARIABLES = frozenset({"XLA_USE_BF16", "XLA_DOWNCAST_BF16"})
_OFF = frozenset({"", "0", "false", "False", "FALSE"})
_SETTERS = frozenset({"os.environ.setdefault", "os.putenv", "os.environ.update"})


def _constant_string(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _turns_on(value: ast.expr) -> bool:
    """Whether a value may enable the flag (a literal ``"0"``/``"false"`` does not)."""
    text = _constant_string(value)
    return text is None or text.strip() not in _OFF


@register_rule
class Bf16EnvironmentVariable(Rule):
    """## What it does
    Finds `XLA_USE_BF16` or `XLA_DOWNCAST_BF16` switched on from Python: `os.environ["XLA_USE_BF16"]
    = "1"`, `os.environ.setdefault(...)`, `os.environ.update(...)`, `os.putenv(...)`.

    ## Why is this bad?
    These variables make torch_xla store every `float32` tensor as `bfloat16` behind the
    program's back, so the dtypes the code sees are not the ones the device computes with.
    torch_xla deprecated them in 2.4 (pytorch/xla#7150); 2.9 still honours them but prints
    `XLA_USE_BF16 will be deprecated after the 2.6 release, please convert your model to bf16
    directly` when the first tensor is made. Casting the model and its inputs with
    `.to(torch.bfloat16)` says the same thing in the code.

    ## Example
    ```python
    import os

    os.environ["XLA_USE_BF16"] = "1"
    import torch_xla
    ```

    Use instead:
    ```python
    import torch
    import torch_xla

    model = torch.nn.Linear(4, 4).to(torch_xla.device()).to(torch.bfloat16)
    ```

    ## Fix safety
    The fix is display-only: which tensors to cast, and whether to keep `float32` master weights,
    is the author's decision.

    ## Options
    - `torch-xla-version`: the torch_xla release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - pytorch/xla#7150 (deprecated for 2.4); `torch_xla/csrc/dtype.cpp` in 2.9
    """

    code = "TX706"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "deprecated bf16 environment variable"
    explainer = "upgrading#bf16-environment-variables"
    fix_title = "Cast the model with `.to(torch.bfloat16)`"
    fix_availability = FixAvailability.ALWAYS
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Assign, ast.Call)
    call_names: ClassVar[frozenset[str] | None] = _SETTERS
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and ctx.qualname(target.value) == "os.environ":
                    name = _constant_string(target.slice)
                    if name in _VARIABLES and _turns_on(node.value):
                        self.found(target, name, ctx)
        elif isinstance(node, ast.Call):
            callee = ctx.qualname(node.func)
            if callee in ("os.environ.setdefault", "os.putenv") and len(node.args) >= 2:
                name = _constant_string(node.args[0])
                if name in _VARIABLES and _turns_on(node.args[1]):
                    self.found(node, name, ctx)
            elif callee == "os.environ.update":
                for keyword in node.keywords:
                    if keyword.arg in _VARIABLES and _turns_on(keyword.value):
                        self.found(keyword, keyword.arg, ctx)
                for arg in node.args:
                    if isinstance(arg, ast.Dict):
                        for key, value in zip(arg.keys, arg.values, strict=True):
                            name = _constant_string(key)
                            if name in _VARIABLES and _turns_on(value):
                                self.found(key or arg, name, ctx)

    def found(self, node: ast.AST, name: str | None, ctx: CheckContext) -> None:
        judged = judge_usage(ctx, _CHANGE)
        if judged is None or compatibility_code(node, ctx):
            return
        # torch_xla prints a notice for this variable rather than raising a Python warning.
        judged = Verdict(judged.severity, judged.state, judged.detail.replace("a warning", "a printed notice"))
        message, detail = upgrade_finding(f"`{name}`", judged, "`.to(torch.bfloat16)` on the model and inputs")
        ctx.report(
            node,
            message,
            detail=detail,
            fix=ctx.fix("Cast the model with `.to(torch.bfloat16)`", Applicability.DISPLAY_ONLY, ()),
            severity=judged.severity,
        )
