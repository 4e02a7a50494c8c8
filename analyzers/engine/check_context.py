"""What a rule sees while it checks one node: values, names, the traced context, and ``report``."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from xlalens.analyzers.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Range,
    RelatedLocation,
    Severity,
)
from xlalens.analyzers.core.edits import import_edit
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.knowledge.jax_modules import loaded_with_jax
from xlalens.analyzers.models.tracing.traced_functions import TracedFunction
from xlalens.analyzers.semantics.calls import CallSite, call_graph
from xlalens.analyzers.semantics.expected_errors import expected_here
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import FunctionNode, ModuleIndex
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

    def module_spelling(self, module: str, alias: str) -> tuple[str, tuple[Edit, ...]] | None:
        """How a fix spells ``module`` here, and the import edit it needs when the file lacks one.

        The file's own name for the module when it has one (``alias`` first); for a ``jax``
        submodule that ``import jax`` loads, the file's name for ``jax`` plus the rest
        (``jax.numpy``); otherwise ``alias``, with an edit adding ``import module as alias`` (or
        ``import module`` when ``alias`` is the dotted module itself) when that name is free.
        ``None`` when it is taken.
        """
        found = self.index.alias_for(module, self.scope, alias)
        if found is not None:
            return found, ()
        if module.startswith("jax.") and loaded_with_jax(module):
            # Importing jax imports these public submodules, so `jax.numpy` works wherever `jax` does.
            top = self.index.alias_for("jax", self.scope, "jax")
            if top is not None:
                return f"{top}{module[3:]}", ()
        if alias == module and "." in module:
            # `import a.b.c` binds `a`: it must be free, or already the package `a`.
            head = module.split(".", 1)[0]
            if not self.index.is_free(head, self.scope) and self.index.resolve_name(head, self.scope) != head:
                return None
        elif not self.index.is_free(alias, self.scope):
            return None
        statement = f"import {module}" if alias == module else f"import {module} as {alias}"
        return alias, (import_edit(self.index.tree, self.source, statement),)

    def edit(self, node: ast.AST, content: str) -> Edit:
        """An edit replacing the text of ``node`` with ``content``."""
        return Edit(self.source.node_range(node), content)

    def fix(self, message: str, applicability: Applicability, edits: Sequence[Edit]) -> Fix:
        """A fix for the current rule."""
        return Fix(message, applicability, tuple(edits))

    def provoked_on_purpose(self, node: ast.AST, raises: tuple[str, ...]) -> bool:
        """Whether ``node`` only runs where the code expects one of ``raises`` (see :mod:`.expected_errors`)."""
        graph = call_graph(self.index)

        def sites_of(function: FunctionNode) -> list[CallSite]:
            if graph.escapes(function):
                return []  # called from elsewhere too, for all we know
            return [*graph.sites_of(function), *self.interpreter.dynamic_sites.get(id(function), ())]

        return expected_here(self.index, node, self.scope, raises, sites_of)

    def report(
        self,
        node: ast.AST | Range,
        message: str,
        *,
        detail: str = "",
        fix: Fix | None = None,
        related: Sequence[RelatedLocation] = (),
        calculator: Mapping[str, Any] | None = None,
        explainer: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        """Record a finding of the current rule at ``node`` (at the rule's severity unless ``severity`` is given)."""
        rule = self.rule
        assert rule is not None, "report() called outside a rule check"
        if rule.raises and not isinstance(node, Range) and self.provoked_on_purpose(node, rule.raises):
            return  # the code provokes this error on purpose (a test's assertRaises, a try that catches it)
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
                detail=detail,
            )
        )
