"""Hover and inlay hints on Pallas code, end to end: the BlockSpec calculator on unflagged and flagged specs."""

from __future__ import annotations

import pytest
from lsprotocol import types
from xlalens.explainers.links import DEFAULT_BASE_URL

from .lsp_client import Session

pytestmark = pytest.mark.asyncio

KERNELS = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def double(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


x = jnp.ones((1000, 128))
spec = pl.BlockSpec((200, 128), lambda i: (i, 0))
y = pl.pallas_call(double, out_shape=x, grid=(pl.cdiv(1000, 200),), in_specs=[spec], out_specs=spec)(x)
tail = pl.BlockSpec((192, 128), lambda i: (i, 0))
bad = pl.pallas_call(double, out_shape=x, grid=(1000 // 192,), in_specs=[tail], out_specs=tail)(x)
"""


async def test_hover_on_an_unflagged_blockspec_shows_the_calculator(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("kernels.py", KERNELS)
    assert {d.code for d in await session.diagnostics(uri)} == {"JX405"}
    hover = await session.hover(uri, types.Position(line=10, character=12))  # on `pl.BlockSpec(` of `spec`

    assert hover is not None
    text = hover.contents.value
    assert text.startswith("**Pallas** · the block of args[0] (`x`) at each grid step starts at element (200·i, 0)")
    assert "grid (5,) = 5 steps" in text
    assert "| axis 0 block indices | 0-4 (5 distinct) | of 5 blocks (0-4) |" in text
    assert f"[Open the live calculator with these numbers]({DEFAULT_BASE_URL}/calc/blockspec?array=1000,128" in text


async def test_hover_on_the_pallas_call_name_and_on_a_finding(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("kernels.py", KERNELS)
    [finding] = await session.diagnostics(uri)
    on_call = await session.hover(uri, types.Position(line=11, character=8))  # `pl.pallas_call` of `y`
    assert on_call is not None and "grid (5,): the kernel body runs 5 times" in on_call.contents.value
    on_finding = await session.hover(uri, finding.range.start)
    assert on_finding is not None and on_finding.contents.value.startswith("**JX405** · grid-does-not-cover-array")
    assert "**Pallas BlockSpec calculator:**" in on_finding.contents.value


async def test_inlay_hints_show_steps_and_block_origins(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("kernels.py", KERNELS)
    await session.diagnostics(uri)
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(20, 0)),
        )
    )
    labels = [(h.position.line, h.label) for h in hints]
    assert (9, ": f32[1000,128]") in labels
    assert (10, "→ origin (200·i, 0)") in labels
    assert (11, "→ (5,) = 5 steps") in labels
    assert (12, "→ origin (192·i, 0)") in labels
    assert (13, "→ (5,) = 5 steps") in labels


async def test_span_hints_point_at_their_construct_instead_of_reading_as_annotations(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("kernels.py", KERNELS)
    await session.diagnostics(uri)
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(20, 0)),
        )
    )
    annotations = [h for h in hints if h.kind == types.InlayHintKind.Type]
    pointers = [h for h in hints if h.kind is None]
    assert annotations and all(str(h.label).startswith(": ") for h in annotations)
    assert "→ (5,) = 5 steps" in {h.label for h in pointers}
    assert all(str(h.label).startswith("→ ") and h.padding_left for h in pointers)
