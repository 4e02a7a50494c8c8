"""Hover on an ``xs.mark_sharding`` call, end to end: the shard-shape calculator in its torch_xla mode."""

from __future__ import annotations

import pytest
from lsprotocol import types
from xlalens.explainers.links import DEFAULT_BASE_URL

from .lsp_client import Session

pytestmark = pytest.mark.asyncio

MARKED = """\
import numpy as np
import torch
import torch_xla.distributed.spmd as xs

mesh = xs.Mesh(np.arange(8), (4, 2), ("x", "y"))
t = torch.randn(6, 4)
xs.mark_sharding(t, mesh, ("x", None))
"""


async def test_hover_on_mark_sharding_shows_the_padded_shard(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("marked.py", MARKED)
    assert await session.diagnostics(uri) == []

    hover = await session.hover(uri, types.Position(line=6, character=5))  # on `xs.mark_sharding`
    assert hover is not None
    text = hover.contents.value
    assert text.startswith("**Sharding** · tensor (6, 4) with spec ('x', None) on mesh ('x': 4, 'y': 2)")
    assert "per-device shard f32[2,4]" in text
    assert "the devices at x position 3 hold 0 real rows + 2 padding rows" in text
    assert f"[Open the live calculator with these numbers]({DEFAULT_BASE_URL}/calc/shard-shape?" in text
    assert "framework=torch_xla" in text


async def test_inlay_hint_after_mark_sharding(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("marked.py", MARKED)
    await session.diagnostics(uri)
    hints = await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(10, 0)),
        )
    )
    assert [(h.position.line, str(h.label)) for h in hints or []] == [
        (6, "→ per device [2,4], 2 replicas, last 2 padded")
    ]
