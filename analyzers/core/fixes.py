"""Applying fixes to source text without corrupting it.

Edits from several fixes are applied together when they do not overlap; a fix whose edits
overlap an earlier one waits for the next round. An edit identical to one already chosen (the
same import added by two fixes) is shared, not repeated. A round whose result does not parse is
discarded whole, so ``--fix`` can only ever leave valid code behind.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Sequence

from xlalens.analyzers.core import type_params
from xlalens.analyzers.core.diagnostics import Applicability, Diagnostic, Fix
from xlalens.analyzers.core.source import SourceText


def applicable(fix: Fix | None, unsafe: bool) -> bool:
    """Whether ``fix`` may be applied automatically under the chosen policy."""
    if fix is None or not fix.edits:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return unsafe and fix.applicability is Applicability.UNSAFE


def apply_fixes(text: str, diagnostics: Sequence[Diagnostic], unsafe: bool) -> tuple[str, list[Diagnostic]]:
    """Apply every non-overlapping applicable fix once.

    Returns:
        The new text and the diagnostics whose fixes were applied. When the result would not
        parse, the original text and an empty list.
    """
    source = SourceText(text)
    chosen: list[tuple[int, int, str]] = []
    applied: list[Diagnostic] = []
    taken: list[tuple[int, int]] = []
    for diagnostic in sorted(diagnostics, key=lambda d: d.sort_key()):
        fix = diagnostic.fix
        if not applicable(fix, unsafe):
            continue
        assert fix is not None
        spans = [(source.offset(e.range.start), source.offset(e.range.end), e.content) for e in fix.edits]
        new = [span for span in spans if span not in chosen]
        if any(
            (start < end_taken and start_taken < end) or start == start_taken == end == end_taken
            for start, end, _ in new
            for start_taken, end_taken in taken
        ):
            continue
        taken.extend((start, end) for start, end, _ in new)
        chosen.extend(new)
        applied.append(diagnostic)
    if not chosen:
        return text, []
    pieces = []
    cursor = 0
    for start, end, content in sorted(chosen, key=lambda s: (s[0], s[1])):
        pieces.append(text[cursor:start])
        pieces.append(content)
        cursor = end
    pieces.append(text[cursor:])
    new_text = "".join(pieces)
    if not parses(new_text):
        return text, []
    return new_text, applied


def parses(text: str) -> bool:
    """Whether ``text`` is valid Python for the running interpreter (PEP 695 syntax included: :mod:`.type_params`)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            ast.parse(text)
    except (SyntaxError, ValueError):
        try:
            return type_params.parse(text) is not None
        except (SyntaxError, ValueError):
            return False
    except RecursionError:
        return False
    return True
