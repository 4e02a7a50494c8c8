"""TX901: torch and torch_xla pinned to releases that do not go together."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Diagnostic, Severity
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.dependency_check import DependencyRule
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.inputs.dependency_files import (
    SETUP_FUNCTIONS,
    Requirement,
    related,
    setup_call_requirements,
)


def _mismatches(requirements: Sequence[Requirement]) -> list[tuple[Requirement, Requirement]]:
    """Each torch_xla pin with a torch pin of another major.minor in the same file."""
    torch = [r for r in requirements if r.name == "torch" and r.minor is not None]
    torch_xla = [r for r in requirements if r.name == "torch-xla" and r.minor is not None]
    found = []
    for xla in torch_xla:
        other = next((t for t in torch if t.minor != xla.minor), None)
        if other is not None:
            found.append((xla, other))
    return found


def _message(xla: Requirement, torch: Requirement) -> tuple[str, str]:
    """The headline and detail of one mismatched pair."""
    assert xla.minor is not None and torch.minor is not None
    xla_minor = "{}.{}".format(*xla.minor)
    torch_minor = "{}.{}".format(*torch.minor)
    return (
        f"torch_xla {xla_minor} is pinned with torch {torch_minor}; they must share major.minor",
        "torch_xla's native extension is built against one torch release, so the pair must share major.minor "
        f"(torch {xla_minor}.x with torch_xla {xla_minor}.x); with another torch, `import torch_xla` fails with an "
        "undefined symbol.",
    )


@register_rule
class TorchXlaVersionMismatch(DependencyRule, Rule):
    """## What it does
    Finds a `torch_xla` requirement pinned to a different major.minor release than the `torch`
    requirement next to it, in `requirements*.txt` files, `pyproject.toml`
    (`[project] dependencies` and `optional-dependencies`), `setup.cfg` (`install_requires`,
    `extras_require`) and `setup.py` (`setuptools.setup(install_requires=..., extras_require=...)`).

    ## Why is this bad?
    torch_xla's native extension (`_XLAC`) is linked against the libtorch of one torch release, and
    torch_xla's own metadata does not declare torch at all, so pip installs whatever torch the
    project pins. With torch and torch_xla from different releases, importing torch_xla fails; for
    example torch 2.13 with torch_xla 2.9 gives `ImportError: ... _XLAC...so: undefined symbol`.
    The releases go in pairs that share major.minor: torch 2.9.x with torch_xla 2.9.x.

    ## Example
    ```python
    from setuptools import setup

    setup(
        name="trainer",
        install_requires=["torch==2.8.0", "torch_xla==2.9.0"],
    )
    ```

    Use instead:
    ```python
    from setuptools import setup

    setup(
        name="trainer",
        install_requires=["torch==2.9.0", "torch_xla==2.9.0"],
    )
    ```

    In a `requirements.txt` the same finding reads `torch==2.8.0` / `torch_xla[tpu]==2.9.0`. Only
    specifiers that allow a single major.minor are compared (`==2.9.0`, `==2.9.*`, `~=2.9.1`,
    `>=2.9,<2.10`, a wheel URL); open ranges such as `torch>=2.8` are left alone.

    ## References
    - torch_xla README: "Installation" (the torch and torch_xla versions to install together)
    """

    code = "TX901"
    message = "torch and torch_xla pinned to different major.minor releases"
    explainer = "torch-xla-lazy-tensor#matching-torch-and-torch-xla-releases"
    severity = Severity.ERROR
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names = SETUP_FUNCTIONS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        requirements = setup_call_requirements(node, ctx.qualname(node.func), ctx.source)
        for xla, torch in _mismatches(requirements):
            message, detail = _message(xla, torch)
            ctx.report(
                xla.range,
                message,
                detail=detail,
                related=(related(torch, ctx.path, f"torch is pinned to {torch.text!r} here"),),
            )

    @classmethod
    def check_requirements(cls, requirements: Sequence[Requirement], path: str, settings: Settings) -> list[Diagnostic]:
        return [
            Diagnostic(
                code=cls.code,
                message=_message(xla, torch)[0],
                detail=_message(xla, torch)[1],
                path=path,
                range=xla.range,
                severity=cls.severity,
                url=settings.explainer_url(cls.explainer),
                related=(related(torch, path, f"torch is pinned to {torch.text!r} here"),),
                noqa_line=xla.range.start.line,
            )
            for xla, torch in _mismatches(requirements)
        ]
