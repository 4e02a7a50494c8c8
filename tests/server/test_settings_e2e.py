"""Settings end to end: every channel, the gate before the first check, project configuration."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .lsp_client import Session, wait_until
from .samples import TRAIN

pytestmark = pytest.mark.asyncio


def _codes(diagnostics: list[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in diagnostics}


async def test_first_diagnostics_already_use_the_configured_settings(session: Session) -> None:
    # The configuration answer races the didOpen: without the settings gate the first result uses defaults.
    await session.initialize({"debounceMs": 10, "severity": {"JX106": "hint"}, "ignore": ["JX601"]})
    uri = session.open("train.py", TRAIN)
    diagnostics = await session.diagnostics(uri)

    assert _codes(diagnostics) == {"JX101", "JX103", "JX106"}
    assert next(d for d in diagnostics if d.code == "JX106").severity == types.DiagnosticSeverity.Hint
    if not session.pulls:
        assert len(session.published_for(uri)) == 1


async def test_initialization_options_are_settings_too(session: Session) -> None:
    await session.initialize(initialization_options={"settings": {"select": ["JX1"], "debounceMs": 10}})
    uri = session.open("train.py", TRAIN)
    assert _codes(await session.diagnostics(uri)) == {"JX101", "JX103", "JX106"}


async def test_configuration_change_rechecks_open_documents(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("train.py", TRAIN)
    assert "JX106" in _codes(await session.diagnostics(uri))

    session.client.set_configuration({"debounceMs": 10, "ignore": ["JX106"]}, section="xlalens")
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"xlalens": {"debounceMs": 10, "ignore": ["JX106"]}})
    )
    if session.pulls:
        # A pulling client asks again (the result id changed); nothing is pushed.
        assert "JX106" not in _codes(await session.diagnostics(uri))
        assert session.published_for(uri) == []
    else:
        await wait_until(lambda: len(session.published_for(uri)) >= 2, what="a re-check after the change")
        assert "JX106" not in _codes(list(session.published_for(uri)[-1].diagnostics))


async def test_project_configuration_applies_and_is_watched(session: Session) -> None:
    pyproject = session.workspace / "pyproject.toml"
    pyproject.write_text("[tool.xlalens]\nignore = ['JX601']\n", encoding="utf-8")
    await session.initialize({"debounceMs": 10, "extendSelect": []})
    uri = session.open("src/train.py", TRAIN)
    assert _codes(await session.diagnostics(uri)) == {"JX101", "JX103", "JX106"}
    if not session.pulls:
        registered = [r.method for r in session.client.registrations]  # type: ignore[attr-defined]
        assert registered == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]

    pyproject.write_text("[tool.xlalens]\nignore = ['JX1']\n", encoding="utf-8")
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=session.uri("pyproject.toml"), type=types.FileChangeType.Changed)]
        )
    )
    if session.pulls:
        assert _codes(await session.diagnostics(uri)) == {"JX601"}
    else:
        await wait_until(lambda: len(session.published_for(uri)) >= 2, what="a re-check after the file change")
        assert _codes(list(session.published_for(uri)[-1].diagnostics)) == {"JX601"}


async def test_bad_settings_and_configuration_are_reported_not_fatal(session: Session) -> None:
    (session.workspace / "pyproject.toml").write_text("[tool.xlalens]\ncolour = 'red'\n", encoding="utf-8")
    await session.initialize({"debounceMs": 10, "select": ["JX1", "ZZ9"], "run": "sometimes", "wat": 1})
    uri = session.open("train.py", TRAIN)

    assert _codes(await session.diagnostics(uri)) == {"JX101", "JX103", "JX106"}
    messages = [m.message for m in session.client.messages]
    assert any("unknown rule selector 'ZZ9'" in m for m in messages), messages
    assert any("`xlalens.run` must be one of onType, onSave" in m for m in messages), messages
    assert any("unknown setting `xlalens.wat`" in m for m in messages), messages
    assert any("unknown configuration key `colour`" in m for m in messages), messages


async def test_run_on_save_checks_only_when_saved(push_session: Session) -> None:
    session = push_session  # with pull diagnostics the editor decides when to ask
    await session.initialize({"debounceMs": 10, "run": "onSave"})
    uri = session.open("train.py", TRAIN)
    await session.diagnostics(uri)
    session.replace(uri, TRAIN.replace('    print("loss:", loss)\n', ""))
    session.save(uri)
    await wait_until(lambda: session.published_for(uri)[-1].version == 2, what="the check on save")
    assert [p.version for p in session.published_for(uri)] == [1, 2]
