"""What every output format renders: the diagnostics of one run plus how to present them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xlalens.analyzers.core.codes import NON_RULE_CODES
from xlalens.analyzers.core.diagnostics import Applicability, Diagnostic
from xlalens.analyzers.core.fixes import applicable
from xlalens.analyzers.core.settings import DEFAULT_EXPLAINER_BASE_URL
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.inputs.fileio import SourceReadError, read_source


def rule_for(code: str) -> type[Rule] | None:
    """The rule with ``code``, or ``None`` for codes like ``E999`` that are not rules."""
    if code in NON_RULE_CODES:
        return None
    try:
        return registry.get_rule(code)
    except KeyError:
        return None


def code_name(code: str) -> str:
    """The kebab-case name of ``code`` (a rule's name, or the name of a non-rule code)."""
    rule = rule_for(code)
    if rule is not None:
        return rule.name()
    entry = NON_RULE_CODES.get(code)
    return entry.name if entry is not None else ""


def display_path(path: str, cwd: str | os.PathLike[str]) -> str:
    """``path`` relative to ``cwd`` when it is inside it, else unchanged.

    Examples:
        >>> display_path("/work/p/m.py", "/work"), display_path("/etc/m.py", "/work")
        ('p/m.py', '/etc/m.py')
    """
    if not os.path.isabs(path):
        return path
    prefix = os.path.join(cwd, "")
    return path[len(prefix) :] if path.startswith(prefix) else path


@dataclass
class Report:
    """The result of a run, ready to render.

    Attributes:
        diagnostics: What remains to report, in any order (``sorted_diagnostics`` orders them).
        fixed: How many diagnostics ``--fix`` fixed.
        unsafe_fixes: Whether unsafe fixes count as applicable (``--unsafe-fixes``).
        cwd: Paths are shown relative to this directory when they are inside it.
        version: The xlalens version, for formats that record the tool.
        explainer_base_url: Where rule explainers live, for formats that link rules.
        sources: Source text of files that are not on disk (stdin), by path.
        quiet: Leave out everything but the findings (no summary line).
    """

    diagnostics: Sequence[Diagnostic]
    fixed: int = 0
    unsafe_fixes: bool = False
    cwd: Path = field(default_factory=Path.cwd)
    version: str = "0.0.0"
    explainer_base_url: str = DEFAULT_EXPLAINER_BASE_URL
    sources: dict[str, SourceText] = field(default_factory=dict)
    quiet: bool = False

    def sorted_diagnostics(self) -> list[Diagnostic]:
        """The diagnostics ordered by file, position and code."""
        return sorted(self.diagnostics, key=Diagnostic.sort_key)

    def display_path(self, path: str) -> str:
        """``path`` relative to :attr:`cwd` when inside it (see :func:`display_path`)."""
        return display_path(path, self.cwd)

    def is_fixable(self, diagnostic: Diagnostic) -> bool:
        """Whether ``--fix`` (with this run's ``--unsafe-fixes``) would apply its fix."""
        return applicable(diagnostic.fix, self.unsafe_fixes)

    def hidden_unsafe(self) -> int:
        """How many diagnostics have an unsafe fix that ``--unsafe-fixes`` would enable."""
        if self.unsafe_fixes:
            return 0
        return sum(1 for d in self.diagnostics if d.fix is not None and d.fix.applicability is Applicability.UNSAFE)

    def source_line(self, path: str, line: int) -> str | None:
        """The text of 1-based ``line`` in ``path`` without its line ending, if it can be read."""
        source = self.sources.get(path)
        if source is None:
            try:
                source = SourceText(read_source(path).text)
            except SourceReadError:
                return None
            self.sources[path] = source
        return source.line(line) if 0 < line <= len(source.lines) else None

    def summary(self) -> str:
        """The closing lines of the human-readable formats (``Found 3 errors ...``)."""
        remaining = len(self.diagnostics)
        if remaining == 0 and self.fixed == 0:
            return "All checks passed!"
        total = remaining + self.fixed
        noun = "error" if total == 1 else "errors"
        if self.fixed:
            text = f"Found {total} {noun} ({self.fixed} fixed, {remaining} remaining)."
        else:
            fixable = sum(1 for d in self.diagnostics if self.is_fixable(d))
            text = f"Found {total} {noun}"
            text += f" ({fixable} fixable with --fix)." if fixable else "."
        hidden = self.hidden_unsafe()
        if hidden:
            fixes = "fix" if hidden == 1 else "fixes"
            text += f"\n({hidden} hidden {fixes} can be enabled with the --unsafe-fixes option.)"
        return text
