"""Hover, inlay hints and commands end to end."""

from __future__ import annotations

import importlib
import urllib.request

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from xlalens.analyzers.engine import registry
from xlalens.explainers.links import DEFAULT_BASE_URL

from .lsp_client import Session
from .samples import TRAIN

pytestmark = pytest.mark.asyncio

FAST = {"debounceMs": 10}


async def _open(session: Session, settings: dict[str, object] | None = None) -> str:
    await session.initialize({**FAST, **(settings or {})})
    uri = session.open("train.py", TRAIN)
    await session.diagnostics(uri)
    return uri


async def test_hover_explains_which_argument_is_traced_and_links(session: Session) -> None:
    uri = await _open(session, {"explainerBaseUrl": "https://docs.example.org/xlalens"})
    hover = await session.hover(uri, types.Position(line=9, character=8))  # `loss > 10.0`

    assert hover is not None and hover.range == types.Range(types.Position(9, 7), types.Position(9, 18))
    text = hover.contents.value
    assert text.startswith("**JX101** · traced-value-in-python-control-flow")
    assert "Python `if` on traced value `loss > 10.0` in `loss_fn`" in text
    assert "`loss_fn` is traced here by `jax.jit`; `loss` is computed from `params`, `x`" in text
    assert "not in `static_argnames`, so they are tracers (line 6)" in text
    assert "[Explainer: how this works](https://docs.example.org/xlalens/tracing#python-control-flow)" in text


async def test_hover_shows_the_inferred_array_type_and_the_fix(session: Session) -> None:
    uri = await _open(session)
    text = (await session.hover(uri, types.Position(line=20, character=2))).contents.value
    assert "In-place update of `weights` (`float32[4,4]`)" in text
    assert "**Fix** (safe): Rewrite as `weights = weights.at[...].set(...)`" in text


RETRACE = """\
import jax


def train(xs):
    for x in xs:
        f = jax.jit(lambda y: y * 2)
        f(x)
"""


async def test_hover_shows_the_calculator_result_computed_from_the_code(session: Session) -> None:
    if "JX201" not in {rule.code for rule in registry.all_rules()}:
        pytest.skip("needs JX201, whose findings carry retrace calculator inputs")
    await session.initialize(FAST)
    uri = session.open("train.py", RETRACE)
    [finding] = [d for d in await session.diagnostics(uri) if d.code == "JX201"]
    text = (await session.hover(uri, finding.range.start)).contents.value

    assert "3 calls → 3 traces, 3 compiles, 0 cache hits" in text
    assert "| | value | how |\n|---|---|---|\n| calls | 3 |" in text
    assert f"[Open the live calculator with these numbers]({DEFAULT_BASE_URL}/calc/retrace?calls=" in text


async def test_hover_on_a_noqa_code_shows_the_rule(session: Session) -> None:
    await session.initialize(FAST)
    uri = session.open(
        "train.py", TRAIN.replace("    if loss > 10.0:\n", "    if loss > 10.0:  # noqa: JX106, JX101\n")
    )
    await session.diagnostics(uri)
    hover = await session.hover(uri, types.Position(line=9, character=38))  # on JX101 in the comment
    assert hover is not None
    assert hover.contents.value.startswith("**JX101** · traced-value-in-python-control-flow (stable)")
    assert "## Why is this bad?" in hover.contents.value
    assert await session.hover(uri, types.Position(line=0, character=3)) is None


async def test_inlay_hints_show_inferred_shapes(session: Session) -> None:
    uri = await _open(session)
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(30, 0)),
        )
    )
    assert [(h.position.line, h.position.character, h.label, h.kind) for h in hints] == [
        (19, 7, ": f32[4,4]", types.InlayHintKind.Type)
    ]


async def test_inlay_hints_can_be_turned_off(session: Session) -> None:
    uri = await _open(session, {"inlayHints": False})
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(30, 0)),
        )
    )
    assert list(hints) == []


async def test_calculate_command_runs_a_calculator(session: Session) -> None:
    await session.initialize(FAST)
    result = await session.execute(
        "xlalens.calculate", "shard-shape", {"mesh": "x:4,y:2", "shape": [8, 6], "spec": "x,None"}
    )
    assert result["name"] == "shard-shape"
    assert result["status"] in ("ok", "warning", "error") and result["headline"]
    assert result["url"].startswith(f"{DEFAULT_BASE_URL}/calc/shard-shape?")
    with pytest.raises(JsonRpcInvalidParams, match="unknown calculator 'teleport'"):
        await session.execute("xlalens.calculate", "teleport", {})
    with pytest.raises(JsonRpcInvalidParams, match="colour"):
        await session.execute("xlalens.calculate", "shard-shape", {"colour": "red"})


async def test_explain_command_returns_the_configured_url(session: Session) -> None:
    await session.initialize({**FAST, "explainerBaseUrl": "https://docs.example.org/xlalens"})
    assert await session.execute("xlalens.explain", "JX601") == {
        "url": "https://docs.example.org/xlalens/in-place-updates#item-assignment"
    }
    with pytest.raises(JsonRpcInvalidParams, match="unknown rule code 'JX999'"):
        await session.execute("xlalens.explain", "JX999")
    # Diagnostics link rule pages; Open Explainer sends the link's path back as the topic.
    assert await session.execute("xlalens.explain", "rules/JX101") == {
        "url": "https://docs.example.org/xlalens/rules/JX101"
    }


async def test_explain_command_starts_the_local_explainer_server(session: Session) -> None:
    try:
        importlib.import_module("xlalens.analyzers.output.site").start_explainer_server  # noqa: B018
    except (ImportError, AttributeError) as error:
        pytest.skip(f"xlalens.analyzers.output.site.start_explainer_server is not available yet: {error}")
    await session.initialize(FAST)
    result = await session.execute("xlalens.explain", "tracing#printing")
    url = result["url"]
    assert url.startswith("http://127.0.0.1:") and url.endswith("/tracing#printing")
    with urllib.request.urlopen(url.split("#")[0], timeout=10) as response:
        assert response.status == 200
