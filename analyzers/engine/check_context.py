"""What a rule sees while it checks one node: values, names, the traced context, and ``report``."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from xlalens.analyzers.core.diagnostics import Applicability, Diagnostic, Edit, Fix, Range, RelatedLocation, Severity
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.tracing.traced_functions import TracedFunction
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.scope_view import ScopeView


class ReportingRule(Protocol):
    """What :meth:`CheckContext.report` reads of the rule being checked (a :class:`~.rule.Rule` class)."""

    code: str
    severity: Severity
    explainer: str
    calculator: str | None


class CheckContext(ScopeView):
    """Shared by all rules for one file; the engine points it at each node in turn."""

    def __init__(
        self,
        source: SourceText,
        path: str,
        settings: Settings,
        index: ModuleIndex,
        traced: dict[int, TracedFunction],
        interpreter: Interpreter,
    ) -> None:
        super().__init__(index, interpreter, source)
        self.path = path
        self.settings = settings
        self.traced = traced
        self.traced_function: TracedFunction | None = None
        self.rule: ReportingRule | None = None
        self.diagnostics: list[Diagnostic] = []

    def edit(self, node: ast.AST, content: str) -> Edit:
        """An edit replacing the text of ``node`` with ``content``."""
        return Edit(self.source.node_range(node), content)

    def fix(self, message: str, applicability: Applicability, edits: Sequence[Edit]) -> Fix:
        """A fix for the current rule."""
        return Fix(message, applicability, tuple(edits))

    def report(
        self,
        node: ast.AST | Range,
        message: str,
        *,
        fix: Fix | None = None,
        related: Sequence[RelatedLocation] = (),
        calculator: Mapping[str, Any] | None = None,
        explainer: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        """Record a finding of the current rule at ``node`` (at the rule's severity unless ``severity`` is given)."""
        rule = self.rule
        assert rule is not None, "report() called outside a rule check"
        range_ = node if isinstance(node, Range) else self.source.node_range(node)
        self.diagnostics.append(
            Diagnostic(
                code=rule.code,
                message=message,
                path=self.path,
                range=range_,
                severity=severity or rule.severity,
                fix=fix,
                url=self.settings.explainer_url(explainer or rule.explainer),
                related=tuple(related),
                calculator=(rule.calculator, dict(calculator)) if rule.calculator and calculator is not None else None,
                noqa_line=range_.start.line,
            )
        )
