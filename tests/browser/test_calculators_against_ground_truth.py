"""The calculators whose ground truth is checked outside the browser, driven in real Chromium.

Each test opens the calculator's page, types the inputs of a case that an oracle test checks against
real JAX or torch_xla, and compares what the page shows with the calculator's own result for those
inputs (and, where the oracle's measurement is recorded, with that number):

- carry-check: `tests/explainers/calculators/test_carry_check.py` runs each case's loop under JAX;
- sync-cost: `tests/explainers/calculators/test_sync_cost.py` records the torch_xla counts;
- graph-hash: `tests/oracle_torch_xla/test_graph_hash_torch_xla.py` runs each loop under torch_xla.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from playwright.sync_api import Locator, Page, expect
from xlalens.explainers.calculators import get_calculator

pytestmark = pytest.mark.browser

TIMEOUT_MS = 10_000


def _type(panel: Locator, values: Mapping[str, str]) -> None:
    for name, value in values.items():
        control = panel.locator(f"[name='{name}']")
        if control.evaluate("element => element.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def _open(page: Page, base_url: str, name: str, values: Mapping[str, str]) -> Locator:
    page.goto(f"{base_url}/calc/{name}")
    panel = page.locator("section.calculator")
    _type(panel, values)
    return panel


def _form(panel: Locator) -> dict[str, str]:
    """Every field's value as the page holds it (the typed ones and those the page opened with)."""
    return panel.locator("form").evaluate(
        "form => Object.fromEntries([...form.querySelectorAll('input, select, textarea')]"
        ".filter(control => control.value !== '').map(control => [control.name, control.value]))"
    )


def _shows(panel: Locator, name: str, values: Mapping[str, str]) -> None:
    shown = _form(panel)
    assert {key: shown.get(key) for key in values} == dict(values)
    result = get_calculator(name).run(shown)
    expect(panel.locator(".result .headline")).to_have_text(result.headline, timeout=TIMEOUT_MS)
    expect(panel.locator(".result .headline")).to_have_attribute("data-status", result.status)
    table = panel.locator(".result table")
    for row in result.rows():
        expect(table).to_contain_text(row.value)


@pytest.mark.parametrize(
    "values",
    [
        # Cases of ORACLE_CASES in test_carry_check.py: a dtype change, a weak int carry meeting a
        # float, and a while_loop whose complex output meets a float carry.
        {"primitive": "scan", "bounds": "static", "name": "c", "init": "f32[3]", "out": "f16[3]"},
        {"primitive": "scan", "bounds": "static", "name": "c", "init": "~i32[]", "out": "~f32[]"},
        {
            "primitive": "while_loop",
            "bounds": "static",
            "name": "c",
            "init": "(~f32[], i32[])",
            "out": "(c64[], i32[])",
        },
    ],
)
def test_carry_check_page_shows_what_jax_checks(page: Page, base_url: str, values: dict[str, str]) -> None:
    panel = _open(page, base_url, "carry-check", values)
    _shows(panel, "carry-check", values)


@pytest.mark.parametrize(
    ("values", "executions", "transfers", "compiles"),
    [
        ({"steps": "5", "host-reads": "1"}, 10, 5, 2),
        ({"steps": "5", "closure-reads": "1"}, 5, 5, 1),
        ({"steps": "5", "graphs": "2"}, 5, 0, 2),
    ],
)
def test_sync_cost_page_shows_the_torch_xla_counts(
    page: Page, base_url: str, values: dict[str, str], executions: int, transfers: int, compiles: int
) -> None:
    full = {"steps": "5", "host-reads": "0", "closure-reads": "0", "graphs": "1", **values}
    panel = _open(page, base_url, "sync-cost", full)
    _shows(panel, "sync-cost", full)
    result = get_calculator("sync-cost").run(_form(panel))
    assert (result.executions, result.transfers, result.compiles) == (executions, transfers, compiles)


@pytest.mark.parametrize(
    "values",
    [
        # LOOPS of test_graph_hash_torch_xla.py: shapes alone, buckets, and a shared number.
        {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97"},
        {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97", "pad": "buckets", "buckets": "64,128"},
        {"shapes": "8x128*4", "values": "0.5, 0.3, 0.3, 2.5", "other-numbers": "0.3"},
    ],
)
def test_graph_hash_page_shows_the_compiles_torch_xla_counts(page: Page, base_url: str, values: dict[str, str]) -> None:
    panel = _open(page, base_url, "graph-hash", values)
    _shows(panel, "graph-hash", values)
