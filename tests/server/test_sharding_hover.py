"""Hover on sharded code, end to end: the shard-shape calculator on an unflagged and on a flagged placement."""

from __future__ import annotations

import pytest
from lsprotocol import types
from xlalens.explainers.links import DEFAULT_BASE_URL

from .lsp_client import Session

pytestmark = pytest.mark.asyncio

SHARDED = """\
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jax.device_put(jnp.ones((8, 6)), NamedSharding(mesh, P("x", None)))
y = jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x")))
"""


async def test_hover_shows_the_shard_shape_of_a_placement_and_of_a_finding(session: Session) -> None:
    await session.initialize({"debounceMs": 10})
    uri = session.open("sharded.py", SHARDED)
    [finding] = await session.diagnostics(uri)
    assert finding.code == "JX504"

    hover = await session.hover(uri, types.Position(line=5, character=8))  # on `jax.device_put` of `x`
    assert hover is not None
    text = hover.contents.value
    assert text.startswith("**Sharding** · f32[8,6] at `device_put` with P('x', None)")
    assert "per-device shard f32[2,6]" in text
    assert "| replication | 2 copies |" in text
    assert f"[Open the live calculator with these numbers]({DEFAULT_BASE_URL}/calc/shard-shape?" in text

    on_finding = await session.hover(uri, finding.range.start)
    assert on_finding is not None
    assert on_finding.contents.value.startswith("**JX504** · sharded-dimension-not-divisible")
    assert "6 is not divisible by 4" in on_finding.contents.value
    assert "**Shard shape calculator:**" in on_finding.contents.value
