"""The entry points every front end uses: :func:`check_source` and :func:`fix_source`.

Both are pure functions of the text, the path (used for messages and per-file ignores) and the
settings; neither touches the file system nor runs the analyzed code.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from xlalens.analyzers.core import stages
from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.core.fixes import apply_fixes
from xlalens.analyzers.core.orphaned_imports import remove_orphaned_imports
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.pipeline import run_rules, suppress

_MAX_FIX_ROUNDS = 10


@dataclass
class FixResult:
    """The outcome of :func:`fix_source`.

    Attributes:
        source: The text after applying fixes (unchanged when nothing applied).
        fixed: The diagnostics whose fixes were applied, in the text they were found in.
        remaining: The diagnostics in the fixed text.
    """

    source: str
    fixed: list[Diagnostic] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)


def check_source(source: str, path: str = "<string>", settings: Settings | None = None) -> list[Diagnostic]:
    """Check one file's text and return its diagnostics, sorted by position.

    Args:
        source: The file's text (any newline style).
        path: The file's path, used in diagnostics and for per-file ignores.
        settings: Rule selection and presentation; defaults apply when None.

    Returns:
        The findings after ``# noqa`` suppression. A file that does not parse gives one ``E999``.

    Examples:
        >>> code = "import jax\\n@jax.jit\\ndef f(x):\\n    if x > 0:\\n        return x\\n    return -x\\n"
        >>> [(d.code, d.line) for d in check_source(code)]
        [('JX101', 4)]
    """
    settings = settings or Settings()
    diagnostics, text = run_rules(source, path, settings)
    return sorted(_without_unfixable_fixes(suppress(diagnostics, text), settings), key=Diagnostic.sort_key)


def _without_unfixable_fixes(diagnostics: list[Diagnostic], settings: Settings) -> list[Diagnostic]:
    """Findings of rules that ``fixable``/``unfixable`` leave out carry no fix: ``--fix``, fix-all and
    the quick fixes pass them by, and the report marks none of them fixable."""
    if settings.fixable is None and not settings.unfixable:
        return diagnostics
    fixable = registry.fixable_codes(settings.fixable, settings.unfixable)
    return [d if d.fix is None or d.code in fixable else replace(d, fix=None) for d in diagnostics]


def fix_source(
    source: str, path: str = "<string>", settings: Settings | None = None, *, unsafe: bool = False
) -> FixResult:
    """Apply fixes until none applies (at most a few rounds) and re-check the result.

    Safe fixes always apply; unsafe ones only with ``unsafe=True``; display-only never, nor those of
    rules that ``fixable``/``unfixable`` leave out (:func:`check_source` gives their findings no fix). A round
    whose result would not parse is dropped, so the returned text always parses if the input did.
    An import the fixes leave unused goes too (:mod:`~xlalens.analyzers.core.orphaned_imports`).
    """
    settings = settings or Settings()
    fixed: list[Diagnostic] = []
    text = source
    for _ in range(_MAX_FIX_ROUNDS):
        diagnostics = check_source(text, path, settings)
        stages.enter(stages.FIXING)
        new_text, applied = apply_fixes(text, diagnostics, unsafe)
        if not applied or new_text == text:
            break
        fixed.extend(applied)
        text = new_text
    if fixed:
        text = remove_orphaned_imports(source, text)
    return FixResult(text, fixed, check_source(text, path, settings))
