"""The explainer site: page parsing, rendering, routing, the JSON endpoint and the server's safety."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.analyzers.output.site import rule_entries, start_explainer_server
from xlalens.explainers.calculators import Calculator, all_calculators
from xlalens.explainers.links import calculator_url
from xlalens.explainers.pages_catalog import (
    PageError,
    RuleEntry,
    load_pages,
    page_markdown,
    parse_page,
    section_markdown,
)
from xlalens.explainers.web import ExplainerApp, ExplainerServer

DEMO = """\
---
title: Demo
summary: A page for tests.
calculators: blockspec
---

Intro with <script>alert(1)</script> raw HTML.

## Loops

```python raises=TypeError
for i in range(3): pass
```

```text
## not a heading
```

## Sources

- somewhere
"""


@pytest.fixture(scope="module")
def app() -> ExplainerApp:
    return ExplainerApp(rules=rule_entries())


@pytest.fixture(scope="module")
def server() -> Iterator[ExplainerServer]:
    running = start_explainer_server(0)
    yield running
    running.close()


def _get(server: ExplainerServer, target: str, *, method: str = "GET", host: str | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Host": host} if host is not None else {}
    connection.request(method, target, headers=headers)
    response = connection.getresponse()
    body = response.read().decode("utf-8")
    connection.close()
    return response.status, body


def test_parse_page_reads_front_matter_sections_and_skips_fenced_headings() -> None:
    page = parse_page("demo", DEMO)
    assert (page.title, page.summary, page.calculators) == ("Demo", "A page for tests.", ("blockspec",))
    assert [section.anchor for section in page.sections] == ["loops", "sources"]
    assert section_markdown(page.body, "loops").startswith("## Loops\n")
    assert "## Sources" not in section_markdown(page.body, "loops")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no front matter", "must start with"),
        ("---\ntitle: T\n", "not closed"),
        ("---\ntitle: T\n---\n", "needs a 'summary'"),
        ("---\ntitle: T\nsummary: S\nauthor: me\n---\n", "unknown front matter line"),
    ],
)
def test_bad_pages_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(PageError, match=message):
        parse_page("bad", text)


def test_related_rules_come_from_the_catalog_and_sit_before_sources() -> None:
    page = parse_page("demo", DEMO)
    rules = [RuleEntry("JX999", "loop-rule", "Finds loops.", "demo#loops"), RuleEntry("JX1", "x", "y", "other#a")]
    markdown = page_markdown(page, rules)
    assert markdown.index("## Related rules") < markdown.index("## Sources")
    assert "**JX999** `loop-rule`: Finds loops. See [Loops](#loops)." in markdown
    assert "JX1 " not in markdown and "**JX1**" not in markdown


def test_every_rule_link_opens_an_existing_section_of_a_served_page(app: ExplainerApp) -> None:
    pages = load_pages()
    settings = Settings(explainer_base_url="http://127.0.0.1:8711")
    for rule in registry.all_rules():
        url = settings.explainer_url(rule.explainer)
        page, _, anchor = url.removeprefix("http://127.0.0.1:8711/").partition("#")
        assert page in pages, f"{rule.code} links to a missing page {page!r}"
        response = app.handle(f"/{page}")
        assert response.status == 200
        assert f'id="{anchor}"' in response.body.decode(), f"{rule.code} links to a missing section {page}#{anchor}"


def test_served_pages_list_their_rules_from_the_registry(app: ExplainerApp) -> None:
    body = app.handle("/tracing").body.decode()
    for rule in registry.all_rules():
        if rule.explainer.startswith("tracing#"):
            assert f"<strong>{rule.code}</strong>" in body
    assert body.index('id="related-rules"') < body.index('id="sources"')


def test_raw_html_in_pages_is_escaped() -> None:
    app = ExplainerApp(pages={"demo": parse_page("demo", DEMO)})
    body = app.handle("/demo").body.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert '<figcaption class="raises">Raises <code>TypeError</code></figcaption>' in body


def test_calculator_page_is_prefilled_from_the_query_and_escapes_it(app: ExplainerApp) -> None:
    calculator = next(iter(all_calculators()))
    field = calculator.fields[0]
    response = app.handle(calculator_url("", calculator.name, {field.name: '"><script>x</script>'}))
    body = response.body.decode()
    assert response.status == 200
    assert "<script>x</script>" not in body
    assert "&quot;&gt;&lt;script&gt;x&lt;/script&gt;" in body
    assert 'aria-invalid="true"' in body  # the bad value is flagged on its field


@pytest.mark.parametrize("calculator", list(all_calculators()), ids=lambda calculator: calculator.name)
def test_every_calculator_example_computes_on_the_api_and_the_page(app: ExplainerApp, calculator) -> None:
    assert calculator.examples, f"{calculator.name} has no example"
    for example in calculator.examples:
        response = app.handle(calculator_url("", calculator.name, example).replace("/calc/", "/api/calc/", 1))
        payload = json.loads(response.body)
        assert response.status == 200, payload
        assert payload["result"]["headline"] and payload["result"]["rows"]
        page = app.handle(calculator_url("", calculator.name, example)).body.decode()
        assert html_text(payload["result"]["headline"]) in page


def html_text(text: str) -> str:
    """Text as it appears escaped in the page."""
    import html

    return html.escape(text)


@pytest.mark.parametrize("calculator", list(all_calculators()), ids=lambda calculator: calculator.name)
def test_bad_input_is_a_400_that_names_the_field(app: ExplainerApp, calculator) -> None:
    field = calculator.fields[0]
    response = app.handle(f"/api/calc/{calculator.name}?{field.name}=%00nonsense%ff")
    payload = json.loads(response.body)
    assert response.status == 400
    assert payload == {"ok": False, "field": field.name, "message": payload["message"]} and payload["message"]


def test_unknown_fields_and_calculators_are_named(app: ExplainerApp) -> None:
    calculator = next(iter(all_calculators()))
    unknown_field = app.handle(f"/api/calc/{calculator.name}?colour=red")
    assert unknown_field.status == 400
    assert json.loads(unknown_field.body)["field"] == "colour"
    unknown = app.handle("/api/calc/teleport")
    assert unknown.status == 404
    assert "teleport" in json.loads(unknown.body)["message"]
    assert calculator.name in json.loads(unknown.body)["message"]


def test_api_lists_calculator_schemas(app: ExplainerApp) -> None:
    schemas = json.loads(app.handle("/api/calculators").body)
    assert {schema["name"] for schema in schemas} >= {"retrace", "shard-shape", "blockspec", "roofline"}
    assert all(schema["fields"] for schema in schemas)


def test_index_links_every_page_and_calculator(app: ExplainerApp) -> None:
    body = app.handle("/").body.decode()
    for slug in load_pages():
        assert f'href="/{slug}"' in body
    for calculator in all_calculators():
        assert f'href="/calc/{calculator.name}"' in body


def test_server_listens_on_loopback_only(server: ExplainerServer) -> None:
    assert server.url.startswith("http://127.0.0.1:")
    assert server._server.server_address[0] == "127.0.0.1"


@pytest.mark.parametrize(
    "target",
    [
        "/static/../../../etc/passwd",
        "/static/..%2f..%2f..%2fetc%2fpasswd",
        "/..%2f..%2fpyproject.toml",
        "/static/web.py",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/pages/tracing.md",
        "//etc/passwd",
    ],
)
def test_no_path_outside_the_site_is_served(server: ExplainerServer, target: str) -> None:
    status, body = _get(server, target)
    assert status == 404
    assert "root:" not in body and "[project]" not in body and "import " not in body


def test_static_files_are_served(server: ExplainerServer) -> None:
    status, body = _get(server, "/static/calculator.js")
    assert status == 200 and "recompute" in body


def test_other_methods_and_foreign_hosts_are_refused(server: ExplainerServer) -> None:
    assert _get(server, "/", method="POST")[0] == 405
    assert _get(server, "/", method="DELETE")[0] == 405
    status, body = _get(server, "/", host="attacker.example:8711")
    assert status == 400 and "unexpected Host" in body
    assert _get(server, "/", host=f"localhost:{server.port}")[0] == 200


def test_bad_calculator_input_over_http_is_400_never_500(server: ExplainerServer) -> None:
    for calculator in all_calculators():
        for field in calculator.fields:
            for junk in ("", "-1", "1e400", "9" * 40, "abc", "((", "None,None,None,None,None", "%ff"):
                status, body = _get(server, f"/api/calc/{calculator.name}?{field.name}={junk}")
                assert status in (200, 400), (calculator.name, field.name, junk, body)
                payload = json.loads(body)
                if status == 400:
                    assert payload["field"] in {spec.name for spec in calculator.fields}
                    assert re.search(r"\w", payload["message"])


def test_taken_port_is_an_os_error() -> None:
    first = ExplainerServer(0)
    try:
        with pytest.raises(OSError):
            ExplainerServer(first.port)
    finally:
        first.close()


def test_page_files_are_the_only_markdown_served(tmp_path: Path) -> None:
    (tmp_path / "one.md").write_text(DEMO.replace("Demo", "One"), encoding="utf-8")
    app = ExplainerApp(pages=load_pages(tmp_path))
    assert app.handle("/one").status == 200
    assert app.handle("/two").status == 404


def test_an_index_map_nested_too_deeply_is_a_400_not_a_500(app: ExplainerApp) -> None:
    from urllib.parse import quote

    index_map = "lambda i: (" + "-" * 900 + "i,)"
    response = app.handle(f"/api/calc/blockspec?array=1000&block=128&index-map={quote(index_map)}")
    payload = json.loads(response.body)
    assert response.status == 400
    assert payload["field"] == "index-map" and "levels deep" in payload["message"]


def test_every_rule_has_a_page_from_its_docs_linking_to_its_section(app: ExplainerApp) -> None:
    pages = load_pages()
    for rule in registry.all_rules():
        response = app.handle(f"/rules/{rule.code}")
        assert response.status == 200, rule.code
        body = response.body.decode()
        assert f"<h1>{rule.code} · {rule.name()}</h1>" in body
        assert 'id="what-it-does"' in body  # the docs' own sections, rendered
        page, _, anchor = rule.explainer.partition("#")
        assert f'href="/{page}#{anchor}"' in body and pages[page].title in body
        assert 'href="/rules"' in body
    assert app.handle("/rules/jx101").status == 200
    missing = app.handle("/rules/JX999")
    assert missing.status == 404 and "JX999" in missing.body.decode()


def test_the_rule_index_lists_every_rule_under_its_family_and_the_site_index_links_it(app: ExplainerApp) -> None:
    body = app.handle("/rules").body.decode()
    for rule in registry.all_rules():
        assert f'href="/rules/{rule.code}"' in body, rule.code
    assert body.index("JX1xx: traced values used as Python values") < body.index('href="/rules/JX101"')
    assert body.index("TX1xx:") < body.index('href="/rules/TX101"') < body.index("TX2xx:")
    assert 'href="/rules"' in app.handle("/").body.decode()


@pytest.mark.parametrize("calculator", list(all_calculators()), ids=lambda calculator: calculator.name)
def test_every_calculator_sits_in_the_section_it_explains(app: ExplainerApp, calculator) -> None:
    assert calculator.explainer, f"{calculator.name} explains nothing"
    slug, _, anchor = calculator.explainer.partition("#")
    page = load_pages()[slug]
    assert calculator.name in page.calculators, f"{calculator.name} is not on {slug}"
    body = app.handle(f"/{slug}").body.decode()
    panel = body.index(f'data-calculator="{calculator.name}"')
    assert body.rfind("<h2 ", 0, panel) == body.index(f'<h2 id="{anchor}"'), f"{calculator.name} is not in #{anchor}"


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("shard-shape", "sharding"),
        ("pipeline", "pallas-pipeline"),
        ("retrace", "jit-caching"),
        ("carry-check", "control-flow"),
        ("blockspec", "pallas-blockspec"),
        ("graph-hash", "torch-xla-runtime"),
        ("transform-stack", "transforms"),
    ],
)
def test_drawn_calculators_show_an_accessible_picture_that_follows_the_inputs(
    app: ExplainerApp, name: str, slug: str
) -> None:
    calculator = next(calc for calc in all_calculators() if calc.name == name)
    pictures = []
    for example in calculator.examples[:2]:
        payload = json.loads(app.handle(calculator_url("", name, example).replace("/calc/", "/api/calc/", 1)).body)
        picture = payload["result"].get("picture")
        if picture is None:
            continue
        assert picture["svg"].startswith("<svg ") and 'role="img"' in picture["svg"] and "viewBox" in picture["svg"]
        assert f"<desc>{html_text(picture['text'])}</desc>" in picture["svg"]
        pictures.append(picture["svg"])
    assert pictures and len(set(pictures)) == len(pictures)
    query = calculator_url("", name, calculator.examples[0]).partition("?")[2]
    assert '<figure class="exhibit"><svg ' in app.handle(f"/{slug}?{query}").body.decode()


@pytest.mark.parametrize("calculator", list(all_calculators()), ids=lambda calculator: calculator.name)
def test_every_picture_is_well_formed_xml(app: ExplainerApp, calculator: Calculator[Any, Any]) -> None:
    # The page parses pictures as XML: one that is not well formed becomes the browser's error
    # document, whose inline styles the page's security policy then refuses.
    for example in calculator.examples:
        payload = json.loads(
            app.handle(calculator_url("", calculator.name, example).replace("/calc/", "/api/calc/", 1)).body
        )
        picture = payload.get("result", {}).get("picture")
        if picture is not None:
            ElementTree.fromstring(picture["svg"])


def test_picture_text_from_the_input_is_escaped(app: ExplainerApp) -> None:
    calls = "x:f32[8]; x:f32[8]"
    body = app.handle(calculator_url("", "pipeline", {"inputs": "x<b>: lambda i, j, k: (i, k)"})).body.decode()
    assert "<b>" not in body
    assert app.handle(calculator_url("", "retrace", {"calls": calls})).status == 200


@pytest.mark.parametrize("calculator", list(all_calculators()), ids=lambda calculator: calculator.name)
def test_a_calculator_opened_without_numbers_shows_its_first_example(
    app: ExplainerApp, calculator: Calculator[Any, Any]
) -> None:
    body = app.handle(f"/calc/{calculator.name}").body.decode()
    assert re.findall(r'<output class="error" role="alert">([^<]+)<', body) == []
    assert 'class="headline ' in body, f"{calculator.name} opens without a result"
