"""Fixtures of the browser tests: the explainer server started as a user starts it, and Chromium.

Debian's Chromium (``/usr/bin/chromium``, or ``XLALENS_CHROMIUM``) is driven by Playwright; a page
fails its test when it logs an error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path(os.environ.get("XLALENS_CHROMIUM", "/usr/bin/chromium"))


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "xlalens.analyzers.cli.main", "explain", "--serve", "--port", "0"],
        cwd=tmp_path_factory.mktemp("serve"),
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    match = re.search(r"at (http://127\.0\.0\.1:\d+) ", line)
    if not match:
        process.kill()
        pytest.fail(f"the explainer server did not start: {line!r}")
    yield match.group(1)
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.exists(), f"Chromium is needed at {CHROMIUM} (apt-get install chromium)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


@pytest.fixture
def expected_console_errors() -> list[str]:
    """Text of console errors a test provokes on purpose (it appends to the list, e.g. an unreachable host)."""
    return []


@pytest.fixture
def page(browser: Browser, expected_console_errors: list[str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # A 400 from the calculator endpoint is how bad input is reported, so the browser's log line for
    # it is expected; anything else logged as an error is a fault of the page.
    opened.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error"
            and "status of 400" not in message.text
            and not any(expected in message.text for expected in expected_console_errors)
            else None
        ),
    )
    yield opened
    context.close()
    assert not errors, f"the page logged errors: {errors}"
