"""Every page opens with a table of contents whose links reach its sections."""

from __future__ import annotations

import re

import pytest
from xlalens.explainers.pages_catalog import load_pages
from xlalens.explainers.web import ExplainerApp

APP = ExplainerApp()
PAGES = [page for page in load_pages().values() if len(page.sections) >= 2]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.slug)
def test_the_contents_list_every_section_and_each_link_reaches_it(page) -> None:
    text = APP.handle(f"/{page.slug}").body.decode("utf-8")
    nav = re.search(r'<nav class="contents"[^>]*>(.*?)</nav>', text, re.S)
    assert nav is not None, f"{page.slug} has no table of contents"
    links = re.findall(r'href="#([^"]+)"', nav.group(1))
    assert links == [section.anchor for section in page.sections]
    body = text[nav.end() :]
    missing = [anchor for anchor in links if f'id="{anchor}"' not in body]
    assert not missing, f"{page.slug}: contents link to missing sections {missing}"
    assert text.index('<nav class="contents"') < text.index("<h2")
