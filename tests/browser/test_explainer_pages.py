"""The explainer pages in a real browser: Debian's Chromium, driven by Playwright, against the real server.

The server is started the way a user starts it (``xlalens explain --serve``), and the pages are
opened through the same links diagnostics and hovers carry.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.explainers.calculators import get_calculator
from xlalens.explainers.links import calculator_url

TIMEOUT_MS = 10_000


@pytest.mark.parametrize("code", ["JX101", "JX106", "JX601"])
def test_a_rule_link_opens_its_section_in_view(page: Page, base_url: str, code: str) -> None:
    rule = registry.get_rule(code)
    url = Settings(explainer_base_url=base_url).explainer_url(rule.explainer)
    anchor = rule.explainer.partition("#")[2]
    page.goto(url)
    heading = page.locator(f"h2#{anchor}")
    expect(heading).to_be_visible(timeout=TIMEOUT_MS)
    expect(heading).to_be_in_viewport(timeout=TIMEOUT_MS)
    box = heading.bounding_box()
    assert box is not None and box["y"] < 200, f"{code}: the section heading is not scrolled to the top ({box})"
    expect(page.locator("#related-rules ~ ul").first).to_contain_text(code)


def _blockspec_url(base_url: str, **values: str) -> str:
    calculator = get_calculator("blockspec")
    return calculator_url(base_url, calculator.name, values)


def test_a_prefilled_calculator_shows_the_numbers_then_follows_edits(page: Page, base_url: str) -> None:
    page.goto(_blockspec_url(base_url, array="1000,512", block="192,128", dtype="float32", tpu="v5e"))
    panel = page.locator("section.calculator")
    expect(panel.locator("input[name=array]")).to_have_value("1000,512")
    expect(panel.locator("input[name=block]")).to_have_value("192,128")
    headline = panel.locator(".result .headline")
    expect(headline).to_contain_text("(6, 4)", timeout=TIMEOUT_MS)
    expect(panel.locator(".result table")).to_contain_text("152")

    panel.locator("input[name=block]").fill("200,128")
    expect(headline).to_contain_text("(5, 4)", timeout=TIMEOUT_MS)
    expect(panel).to_have_attribute("data-state", "ok", timeout=TIMEOUT_MS)
    expect(panel.locator(".permalink a")).to_have_attribute("href", re.compile(r"block=200%2C128|block=200,128"))


def test_a_bad_value_shows_the_message_next_to_its_field(page: Page, base_url: str) -> None:
    page.goto(_blockspec_url(base_url, array="1000,512", block="192,128", dtype="float32"))
    panel = page.locator("section.calculator")
    expect(panel.locator(".result .headline")).to_be_visible(timeout=TIMEOUT_MS)

    panel.locator("input[name=array]").fill("1000,abc")
    field = panel.locator(".field[data-field=array]")
    expect(field.locator(".error")).to_contain_text("abc", timeout=TIMEOUT_MS)
    expect(field.locator("input")).to_have_attribute("aria-invalid", "true")
    expect(panel.locator(".result .headline")).to_have_count(0)
    expect(panel.locator(".field[data-field=block] .error")).to_have_text("")

    panel.locator("input[name=array]").fill("1000,512")
    expect(panel.locator(".result .headline")).to_contain_text("(6, 4)", timeout=TIMEOUT_MS)
    expect(field.locator(".error")).to_have_text("")


def test_a_page_with_a_calculator_panel_recomputes_live(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/jit-caching?calls=x:f32[8]; x:f32[8]; x:f32[16]")
    panel = page.locator("section.calculator[data-calculator=retrace]")
    expect(panel.locator(".result .headline")).to_contain_text("2", timeout=TIMEOUT_MS)
    expect(panel.locator(".result table")).to_contain_text("f32[16]")
    panel.locator("textarea[name=calls]").fill("x:f32[8]; x:f32[8]")
    expect(panel).to_have_attribute("data-state", "ok", timeout=TIMEOUT_MS)
    expect(panel.locator(".result table")).not_to_contain_text("f32[16]")


def test_shard_shape_link_from_code_values(page: Page, base_url: str) -> None:
    calculator = get_calculator("shard-shape")
    page.goto(calculator_url(base_url, calculator.name, {"mesh": "x:4,y:2", "shape": "8,6", "spec": "x,None"}))
    panel = page.locator("section.calculator")
    expect(panel.locator(".result .headline")).to_contain_text("shard f32[2,6]", timeout=TIMEOUT_MS)
    panel.locator("input[name=shape]").fill("6,4")
    expect(panel.locator(".result .headline")).to_have_attribute("data-status", "error", timeout=TIMEOUT_MS)


def test_the_sharding_page_panel_closes_the_divisibility_section_and_computes(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/sharding?mesh=x:4,y:2&shape=8,6&spec=x,None")
    panel = page.locator("section.calculator[data-calculator=shard-shape]")
    headline = panel.locator(".result .headline")
    expect(headline).to_contain_text("shard f32[2,6]", timeout=TIMEOUT_MS)
    expect(headline).to_contain_text("2 copies")
    section = panel.evaluate(
        "el => { let e = el.previousElementSibling;"
        " while (e && e.tagName !== 'H2') e = e.previousElementSibling; return e && e.id; }"
    )
    assert section == "divisibility", f"the shard-shape panel closes section {section!r}"

    panel.locator("input[name=spec]").fill("x,y")
    expect(headline).to_contain_text("shard f32[2,3]", timeout=TIMEOUT_MS)
    expect(headline).to_contain_text("1 copy")
    panel.locator("input[name=shape]").fill("6,4")
    expect(headline).to_have_attribute("data-status", "error", timeout=TIMEOUT_MS)
    expect(headline).to_contain_text("6 is not divisible by 4")
