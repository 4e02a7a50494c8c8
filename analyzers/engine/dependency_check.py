"""Running the rules that read dependency files (requirements files, ``pyproject.toml``, ``setup.cfg``).

Such a file is not Python, so the engine hands it here instead of to the Python pipeline: its
declared requirements are read once (:mod:`xlalens.analyzers.inputs.dependency_files`) and every
selected :class:`DependencyRule` judges them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.inputs.dependency_files import DependencySourceText, Requirement, declared_requirements

_TRIGGERS = re.compile(r"torch[-_.]?xla", re.I)
"""Dependency files that never mention torch_xla hold nothing the dependency rules look at."""


class DependencyRule:
    """A rule that also checks dependency files; mixed into a :class:`~xlalens.analyzers.engine.rule.Rule`."""

    dependency_check: ClassVar[bool] = True

    @classmethod
    def check_requirements(cls, requirements: Sequence[Requirement], path: str, settings: Settings) -> list[Diagnostic]:
        """The findings for one file's requirements."""
        raise NotImplementedError


def check_dependency_file(
    text: str, path: str, settings: Settings, rules: Sequence[type[Rule]]
) -> tuple[list[Diagnostic], SourceText]:
    """Run the dependency rules among ``rules`` over a dependency file, before suppressions."""
    if not _TRIGGERS.search(text):
        return [], DependencySourceText(text)
    requirements, source = declared_requirements(text, path)
    diagnostics: list[Diagnostic] = []
    for rule in rules:
        if issubclass(rule, DependencyRule):
            diagnostics.extend(rule.check_requirements(requirements, path, settings))
    return diagnostics, source
