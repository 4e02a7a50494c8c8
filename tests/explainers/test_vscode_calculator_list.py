"""The VS Code client's "Open Calculator" list names exactly the calculators the explainer serves."""

from __future__ import annotations

import re
from pathlib import Path

from xlalens.explainers.calculators import registry

CLIENT_LIST = Path(__file__).resolve().parents[2] / "vscode-client" / "src" / "explainer" / "calculators.ts"


def test_the_client_offers_every_registered_calculator_and_no_other() -> None:
    offered = re.findall(r"\{\s*name:\s*'([a-z0-9-]+)'", CLIENT_LIST.read_text(encoding="utf-8"))
    assert offered == sorted(offered), "keep the client's list sorted by name"
    assert set(offered) == {calculator.name for calculator in registry.all_calculators()}
