"""A finding's hover fits: title, headline, detail, fix, the calculator's key rows and the links."""

from __future__ import annotations

from pathlib import Path

import pytest
from xlalens.analyzers.api import check_source
from xlalens.server.hover import HOVER_ROWS, diagnostic_markdown

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "rules").glob("*.py"))
HOVER_LINES = 15


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_every_finding_hover_has_at_most_15_lines(fixture: Path) -> None:
    for diagnostic in check_source(fixture.read_text(encoding="utf-8"), path=str(fixture)):
        markdown = diagnostic_markdown(diagnostic, "http://127.0.0.1:8711")
        lines = [line for line in markdown.splitlines() if line.strip()]
        assert len(lines) <= HOVER_LINES, f"{diagnostic.code} line {diagnostic.line}: {len(lines)} lines\n{markdown}"
        table_rows = [line for line in lines if line.startswith("| ") and not line.startswith("| |")]
        assert len(table_rows) <= HOVER_ROWS


def test_a_calculator_hover_keeps_the_rows_that_explain_the_finding() -> None:
    source = (
        "import jax.numpy as jnp\n"
        "from jax.experimental import pallas as pl\n\n"
        "def kernel(x_ref, o_ref):\n"
        "    o_ref[...] = x_ref[...]\n\n"
        "def copy(x):\n"
        "    spec = pl.BlockSpec((192, 128), lambda i: (i, 0))\n"
        "    return pl.pallas_call(kernel, out_shape=x, grid=(3,), in_specs=[spec], out_specs=spec)(x)\n\n"
        "copy(jnp.ones((500, 128)))\n"
    )
    (finding,) = [d for d in check_source(source, path="kernel.py") if d.code == "JX404"]
    markdown = diagnostic_markdown(finding, "http://127.0.0.1:8711")
    assert "| axis 0 last block | 384-575: 116 real, 76 padded |" in markdown
    assert "| grid | (3,) = 3 steps |" in markdown
    assert "| VMEM capacity |" not in markdown  # in the live calculator, one click away
    last = markdown.splitlines()[-1]
    assert last.startswith("[Open the live calculator with these numbers](http://127.0.0.1:8711/calc/blockspec?")
    assert "[Explainer: how this works]" in last and "[Rule page]" in last
