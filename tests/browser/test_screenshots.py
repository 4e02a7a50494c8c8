"""Every explainer page and every calculator page at a desktop and a phone width, as screenshots.

The screenshots go to ``$XLALENS_SCREENSHOTS`` (or the test's temporary directory) for a person to
look at; the test itself checks what can be checked without eyes: at 390 px nothing is wider than
the screen, and every drawn picture carries its text equivalent (the ``<title>`` and ``<desc>``
that screen readers read).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from xlalens.explainers.calculators import all_calculators
from xlalens.explainers.pages_catalog import load_pages

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
TIMEOUT_MS = 10_000
PATHS = (
    *(f"/{slug}" for slug in sorted(load_pages())),
    *(f"/calc/{calculator.name}" for calculator in all_calculators()),
)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("XLALENS_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module", params=WIDTHS, ids=lambda width: f"{width}px")
def sized(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


@pytest.mark.parametrize("path", PATHS)
def test_page_fits_the_screen_and_every_picture_has_its_text(
    sized: Page, base_url: str, shots: Path, path: str
) -> None:
    width = sized.viewport_size["width"] if sized.viewport_size else 0
    errors: list[str] = []

    def record(error: object) -> None:
        errors.append(str(error))

    # The page object is shared by the module's tests, so each test listens only while it runs.
    sized.on("pageerror", record)
    try:
        _check(sized, base_url, shots, path, width)
    finally:
        sized.remove_listener("pageerror", record)
    assert not errors, errors


def _check(sized: Page, base_url: str, shots: Path, path: str, width: int) -> None:
    sized.goto(base_url + path)
    expect(sized.locator("main")).to_be_visible(timeout=TIMEOUT_MS)
    sized.screenshot(path=shots / f"{path.strip('/').replace('/', '-')}-{width}.png", full_page=True)
    pictures = sized.locator("figure.exhibit svg")
    for index in range(pictures.count()):
        picture = pictures.nth(index)
        assert picture.get_attribute("role") == "img", f"{path}: picture {index} has no role"
        for part in ("title", "desc"):
            text = picture.locator(part).text_content() or ""
            assert text.strip(), f"{path}: picture {index} has no <{part}>"
        box = picture.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, f"{path}: picture {index}"
    if width == 390:
        overflow = sized.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width, f"{path} is {overflow} px wide at {width} px"
