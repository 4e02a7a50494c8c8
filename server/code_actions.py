"""Code actions: each diagnostic's fix, "Disable JXnnn for this line", and fix-all.

Quick fixes are built from the edits the diagnostic carries (``data``) or, better, from the
stored result for the document's current version, so they never check the file again and never
apply edits computed for an older text. Fix-all (``source.fixAll.xlalens``) applies every safe fix
of the document; its edit is computed only when the client resolves the action.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lsprotocol import types
from xlalens.analyzers.api import fix_source
from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.server.diagnostics import SOURCE
from xlalens.server.documents import DocumentSnapshot, LintResult
from xlalens.server.edits import lsp_text_edit, replacement_edit, text_edit_from_json, workspace_edit
from xlalens.server.positions import PositionConverter

FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.{SOURCE}"
"""The kind of the fix-all action, for ``editor.codeActionsOnSave`` and friends."""

FIX_ALL_TITLE = "xlalens: Fix all auto-fixable problems"


def kind_requested(kind: str, only: Sequence[str] | None) -> bool:
    """Whether the client asked for ``kind`` (kinds nest: ``source`` covers ``source.fixAll``)."""
    return only is None or any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)


def _stored_data(result: LintResult | None, diagnostic: types.Diagnostic) -> Mapping[str, Any] | None:
    if result is None:
        return None
    for candidate in result.lsp_diagnostics:
        if candidate.code == diagnostic.code and candidate.range == diagnostic.range:
            return candidate.data  # type: ignore[no-any-return]
    return None


def _data(
    diagnostic: types.Diagnostic, result: LintResult | None, document: DocumentSnapshot
) -> Mapping[str, Any] | None:
    """The fix data that is valid for the document as it is now."""
    stored = _stored_data(result, diagnostic)
    if stored is not None:
        return stored
    data = diagnostic.data
    if isinstance(data, dict) and data.get("uri") == document.uri and data.get("version") == document.version:
        return data
    return None


def quick_fixes(
    diagnostics: Iterable[types.Diagnostic],
    result: LintResult | None,
    document: DocumentSnapshot,
    *,
    unsafe_fixes: bool,
    document_changes: bool,
    fixes: bool = True,
    noqa_comments: bool = True,
) -> list[types.CodeAction]:
    """The fix and the noqa action of each of our diagnostics, without duplicates.

    ``fixes`` and ``noqa_comments`` turn either kind off (``codeAction.fixViolation.enable`` and
    ``codeAction.disableRuleComment.enable``).
    """
    actions: list[types.CodeAction] = []
    seen: set[tuple[str, str]] = set()
    for diagnostic in diagnostics:
        if diagnostic.source != SOURCE:
            continue
        data = _data(diagnostic, result, document)
        if data is None:
            continue
        fix = data.get("fix") if fixes else None
        if fix is not None:
            applicability = Applicability(fix["applicability"])
            offered = applicability is Applicability.SAFE or (applicability is Applicability.UNSAFE and unsafe_fixes)
            if offered:
                title = f"{fix['title']}" + (" (unsafe)" if applicability is Applicability.UNSAFE else "")
                edits = [text_edit_from_json(edit) for edit in fix["edits"]]
                _add(actions, seen, title, diagnostic, edits, document, document_changes, applicability)
        noqa = data.get("noqa") if noqa_comments else None
        if noqa is not None:
            title = f"Disable {diagnostic.code} for this line"
            _add(actions, seen, title, diagnostic, [text_edit_from_json(noqa)], document, document_changes, None)
    return actions


def _add(
    actions: list[types.CodeAction],
    seen: set[tuple[str, str]],
    title: str,
    diagnostic: types.Diagnostic,
    edits: list[types.TextEdit],
    document: DocumentSnapshot,
    document_changes: bool,
    applicability: Applicability | None,
) -> None:
    key = (title, repr(edits))
    if key in seen:
        return
    seen.add(key)
    actions.append(
        types.CodeAction(
            title=title,
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            is_preferred=True if applicability is Applicability.SAFE else None,
            edit=workspace_edit(document.uri, document.version, edits, document_changes),
        )
    )


def fix_all_wanted(result: LintResult | None, only: Sequence[str] | None) -> bool:
    """Whether to offer fix-all: when asked for by kind, or when something has a safe fix."""
    if not kind_requested(FIX_ALL_KIND, only):
        return False
    if only is not None:
        return True
    if result is None:
        return True
    return any(d.fix is not None and d.fix.applicability is Applicability.SAFE for d in result.diagnostics)


def fix_all_action(document: DocumentSnapshot) -> types.CodeAction:
    """The fix-all action, to be resolved (its edit computed) later."""
    return types.CodeAction(
        title=FIX_ALL_TITLE,
        kind=FIX_ALL_KIND,
        data={"uri": document.uri, "version": document.version},
    )


def fix_document(
    document: DocumentSnapshot, settings: Settings, *, unsafe: bool, encoding: str
) -> tuple[list[types.TextEdit], int]:
    """The edits applying every applicable fix to the document, and how many fixes they apply."""
    result = fix_source(document.text, document.path or document.uri, settings, unsafe=unsafe)
    edit = replacement_edit(document.text, result.source)
    if edit is None:
        return [], 0
    positions = PositionConverter(SourceText(document.text), encoding)
    return [lsp_text_edit(edit, positions)], len(result.fixed)
