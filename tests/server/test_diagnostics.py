"""Diagnostics end to end: codes, links, related locations, push or pull, versions, syntax errors."""

from __future__ import annotations

import asyncio
import urllib.request

import pytest
from lsprotocol import types

from .lsp_client import Session, wait_until
from .samples import CLEAN, TRAIN, TRAIN_CODES

pytestmark = pytest.mark.asyncio

FAST = {"debounceMs": 10}


def _codes(diagnostics: list[types.Diagnostic]) -> list[tuple[int, str]]:
    return [(d.range.start.line + 1, str(d.code)) for d in diagnostics]


async def test_diagnostics_carry_codes_links_related_locations_and_fix_data(session: Session) -> None:
    await session.initialize(FAST)
    uri = session.open("train.py", TRAIN)
    diagnostics = await session.diagnostics(uri)

    assert _codes(diagnostics) == TRAIN_CODES
    by_code = {d.code: d for d in diagnostics}
    assert all(d.source == "xlalens" for d in diagnostics)
    # The code links to the rule's page, which links on to the explainer section.
    assert by_code["JX101"].code_description.href == "http://127.0.0.1:8711/rules/JX101"
    assert by_code["JX601"].code_description.href == "http://127.0.0.1:8711/rules/JX601"
    assert by_code["JX106"].severity == types.DiagnosticSeverity.Warning
    assert by_code["JX101"].severity == types.DiagnosticSeverity.Error

    related = by_code["JX101"].related_information
    assert related is not None and len(related) == 1
    assert related[0].location.uri == uri
    assert related[0].location.range.start.line == 5  # the `@jax.jit` decorator of loss_fn
    assert "`loss_fn` is traced here by `jax.jit`" in related[0].message
    assert "`loss` is computed from `params`, `x`" in related[0].message

    jx106 = by_code["JX106"].data
    assert jx106["fix"]["applicability"] == "safe"
    assert jx106["fix"]["edits"][0]["newText"] == 'jax.debug.print("loss: {}", loss)'
    assert jx106["noqa"]["newText"] == "  # noqa: JX106"
    assert jx106["version"] == 1
    assert "fix" not in by_code["JX101"].data


async def test_push_or_pull_never_both(session: Session) -> None:
    await session.initialize(FAST)
    uri = session.open("train.py", TRAIN)
    first = await session.diagnostics(uri)
    session.replace(uri, TRAIN.replace('    print("loss:", loss)\n', ""))
    second = await session.diagnostics(uri)
    session.save(uri)

    assert len(second) == len(first) - 1
    if session.pulls:
        # Give a wrongly pushed notification the time a debounced check takes, then check there was none.
        await session.hover(uri, types.Position(0, 0))
        assert session.published_for(uri) == []
    else:
        await wait_until(lambda: len(session.published_for(uri)) >= 2, what="two publications")
        versions = [p.version for p in session.published_for(uri)]
        assert versions == [1, 2], "each version is published once, the save adds nothing new"
        assert len(session.published_for(uri)[-1].diagnostics) == len(second)


async def test_pull_answers_unchanged_for_the_same_result(pull_session: Session) -> None:
    session = pull_session
    await session.initialize(FAST)
    uri = session.open("train.py", TRAIN)
    await session.diagnostics(uri)
    again = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=session.result_ids[uri]
        )
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    session.replace(uri, CLEAN)
    changed = await session.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=session.result_ids[uri]
        )
    )
    assert isinstance(changed, types.RelatedFullDocumentDiagnosticReport)
    assert list(changed.items) == []


async def test_rapid_edits_publish_only_the_latest_version(session: Session) -> None:
    await session.initialize({"debounceMs": 400})
    uri = session.open("train.py", TRAIN)
    await session.diagnostics(uri)
    for extra in range(1, 6):
        session.replace(uri, TRAIN + "\n" * extra)
    diagnostics = await session.diagnostics(uri)

    assert _codes(diagnostics) == TRAIN_CODES
    if not session.pulls:
        versions = [p.version for p in session.published_for(uri)]
        assert versions == [1, 6], f"stale versions were published: {versions}"


async def test_syntax_error_mid_edit_keeps_the_diagnostics_above_it(session: Session) -> None:
    await session.initialize(FAST)
    uri = session.open("train.py", TRAIN)
    await session.diagnostics(uri)
    broken = TRAIN.replace("weights = jnp.zeros((4, 4))", "weights = jnp.zeros((4, 4)")
    session.replace(uri, broken)
    diagnostics = await session.diagnostics(uri)

    codes = _codes(diagnostics)
    assert [code for _, code in codes].count("E999") == 1
    assert (9, "JX106") in codes and (10, "JX101") in codes and (17, "JX103") in codes
    assert all(line < 20 for line, code in codes if code != "E999"), "nothing is shown at stale positions"
    session.replace(uri, TRAIN)
    assert _codes(await session.diagnostics(uri)) == TRAIN_CODES
    assert "Traceback" not in session.server_log()


async def test_closing_a_document_clears_pushed_diagnostics(push_session: Session) -> None:
    session = push_session  # a pulling client drops a closed document's diagnostics itself
    await session.initialize(FAST)
    uri = session.open("train.py", TRAIN)
    await session.diagnostics(uri)
    session.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await wait_until(lambda: not session.published_for(uri)[-1].diagnostics, what="empty diagnostics")


async def test_documents_without_jax_and_untitled_documents(session: Session) -> None:
    await session.initialize(FAST)
    plain = session.open("plain.py", "print('hello')\n")
    assert await session.diagnostics(plain) == []
    untitled = "untitled:Untitled-1"
    session.texts[untitled], session.versions[untitled] = TRAIN, 1
    session.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=untitled, language_id="python", version=1, text=TRAIN)
        )
    )
    assert _codes(await session.diagnostics(untitled)) == TRAIN_CODES


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return int(response.status)
    except OSError:
        return 0


async def test_the_links_of_findings_open_without_starting_anything(session: Session) -> None:
    """The first finding that links to the local explainer server starts it (loopback only)."""
    await session.initialize(FAST)
    uri = session.open("train.py", TRAIN)
    diagnostics = await session.diagnostics(uri)
    href = next(d.code_description.href for d in diagnostics if d.code_description is not None)
    assert href.startswith("http://127.0.0.1:8711/rules/")

    loop = asyncio.get_running_loop()
    status = 0
    # The server starts in the background of a busy language server: on a loaded 2-core machine
    # that took more than the 10 s this loop first allowed.
    for _ in range(300):
        status = await loop.run_in_executor(None, _status, href)
        if status == 200:
            break
        await asyncio.sleep(0.1)
    assert status == 200, f"{href} did not open"
