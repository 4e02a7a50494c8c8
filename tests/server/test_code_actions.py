"""Code actions end to end: each action's edit produces the expected text."""

from __future__ import annotations

import pytest
from lsprotocol import types
from xlalens.server.code_actions import FIX_ALL_KIND, FIX_ALL_TITLE

from .lsp_client import Session
from .samples import TRAIN, TRAIN_FIXED_SAFE

pytestmark = pytest.mark.asyncio

FAST = {"debounceMs": 10}


async def _open(session: Session, settings: dict[str, object] | None = None) -> tuple[str, list[types.Diagnostic]]:
    await session.initialize({**FAST, **(settings or {})})
    uri = session.open("train.py", TRAIN)
    return uri, await session.diagnostics(uri)


async def _quick_fixes(session: Session, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    actions = await session.code_actions(uri, diagnostic.range, [diagnostic])
    return [a for a in actions if a.kind == types.CodeActionKind.QuickFix]


def _on_line(diagnostics: list[types.Diagnostic], line: int) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.range.start.line == line - 1]


async def test_safe_fix_is_preferred_and_produces_the_fixed_line(session: Session) -> None:
    uri, diagnostics = await _open(session)
    [jx106] = _on_line(diagnostics, 9)
    actions = await session.code_actions(uri, jx106.range, [jx106])

    titles = [(a.title, a.is_preferred, a.kind) for a in actions]
    assert titles == [
        ("Replace with `jax.debug.print`", True, types.CodeActionKind.QuickFix),
        ("Disable JX106 for this line", None, types.CodeActionKind.QuickFix),
        (FIX_ALL_TITLE, None, FIX_ALL_KIND),
    ]
    fixed = session.apply(uri, actions[0].edit)
    assert fixed.splitlines()[8] == '    jax.debug.print("loss: {}", loss)'
    assert fixed.replace('    jax.debug.print("loss: {}", loss)\n', '    print("loss:", loss)\n') == TRAIN


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"fixAll": False}, ["Replace with `jax.debug.print`", "Disable JX106 for this line"]),
        ({"codeAction": {"disableRuleComment": {"enable": False}}}, ["Replace with `jax.debug.print`", FIX_ALL_TITLE]),
        ({"codeAction": {"fixViolation": {"enable": False}}}, ["Disable JX106 for this line", FIX_ALL_TITLE]),
    ],
    ids=["no fix-all", "no noqa action", "no fix action"],
)
async def test_settings_turn_each_kind_of_action_off(
    session: Session, settings: dict[str, object], expected: list[str]
) -> None:
    uri, diagnostics = await _open(session, settings)
    [jx106] = _on_line(diagnostics, 9)
    assert [a.title for a in await session.code_actions(uri, jx106.range, [jx106])] == expected


async def test_noqa_action_adds_a_comment_and_silences_the_rule(session: Session) -> None:
    uri, diagnostics = await _open(session)
    [jx101] = _on_line(diagnostics, 10)
    [disable] = [a for a in await session.code_actions(uri, jx101.range, [jx101]) if a.title.startswith("Disable")]

    assert disable.title == "Disable JX101 for this line"
    session.edit(uri, [e for e in _text_edits(disable, uri)])
    assert session.texts[uri].splitlines()[9] == "    if loss > 10.0:  # noqa: JX101"
    assert "JX101" not in [d.code for d in await session.diagnostics(uri)]


async def test_noqa_action_extends_an_existing_comment(session: Session) -> None:
    await session.initialize(FAST)
    text = TRAIN.replace('    print("loss:", loss)\n', '    print("loss:", loss)  # noqa: JX999\n')
    uri = session.open("train.py", text)
    [jx106] = _on_line(await session.diagnostics(uri), 9)
    [disable] = [a for a in await session.code_actions(uri, jx106.range, [jx106]) if a.title.startswith("Disable")]
    assert session.apply(uri, disable.edit).splitlines()[8] == '    print("loss:", loss)  # noqa: JX999, JX106'


async def test_unsafe_fix_is_offered_only_when_allowed(session: Session) -> None:
    uri, diagnostics = await _open(session)
    [jx103] = _on_line(diagnostics, 17)
    assert [a.title for a in await _quick_fixes(session, uri, jx103)] == ["Disable JX103 for this line"]


async def test_unsafe_fix_with_the_setting(session: Session) -> None:
    uri, diagnostics = await _open(session, {"unsafeFixes": True})
    [jx103] = _on_line(diagnostics, 17)
    fix, _ = await _quick_fixes(session, uri, jx103)

    assert fix.title == "Replace `np.asarray` with `jnp.asarray` (unsafe)"
    assert fix.is_preferred is None
    assert session.apply(uri, fix.edit).splitlines()[16] == "    return jnp.asarray(x)"


async def test_fix_all_applies_every_safe_fix(session: Session) -> None:
    uri, _ = await _open(session)
    actions = await session.code_actions(
        uri, types.Range(types.Position(0, 0), types.Position(0, 0)), [], [FIX_ALL_KIND]
    )

    assert [(a.title, a.kind) for a in actions] == [(FIX_ALL_TITLE, FIX_ALL_KIND)]
    assert actions[0].edit is None, "both profiles resolve the edit lazily"
    resolved = await session.resolve(actions[0])
    assert session.apply(uri, resolved.edit) == TRAIN_FIXED_SAFE


async def test_quick_fixes_for_an_edited_document_use_the_current_version(session: Session) -> None:
    uri, diagnostics = await _open(session)
    [jx601] = _on_line(diagnostics, 21)
    session.replace(uri, "# a new first line\n" + TRAIN)
    # The client still shows the old diagnostic (line 21); its stored edit is for version 1.
    assert await _quick_fixes(session, uri, jx601) == [], "edits for version 1 must not be applied to version 2"
    [moved] = _on_line(await session.diagnostics(uri), 22)
    [fix, _] = await _quick_fixes(session, uri, moved)
    assert session.apply(uri, fix.edit).splitlines()[21] == "weights = weights.at[0, 0].set(1.0)"


async def test_apply_fixes_command_sends_a_workspace_edit(session: Session) -> None:
    uri, _ = await _open(session)
    result = await session.execute("xlalens.applyFixes", uri)

    assert result == {"applied": True, "fixed": 2}
    [edit] = session.client.applied_edits  # type: ignore[attr-defined]
    assert session.apply(uri, edit) == TRAIN_FIXED_SAFE


def _text_edits(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    from .lsp_client import edits_for

    assert action.edit is not None
    return edits_for(action.edit, uri)
