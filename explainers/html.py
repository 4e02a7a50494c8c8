"""HTML for the explainer site: pages, live calculator panels and the index.

Markdown is rendered by markdown-it-py (CommonMark plus tables, raw HTML off) with ``##`` anchors
from :func:`~xlalens.explainers.pages_catalog.slugify`, and code highlighted by Pygments. Every value
that comes from a request (prefilled calculator fields) is escaped here; the page's script only ever
sets ``textContent``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from xlalens.explainers.calculators import Calculator, CalculatorInputError, CalculatorResult, Field
from xlalens.explainers.calculators.svg import Picture
from xlalens.explainers.links import calculator_url, rule_url, section_url
from xlalens.explainers.pages_catalog import Page, RuleEntry, page_markdown, slugify

STYLESHEET = "/static/site.css"
SCRIPT = "/static/calculator.js"


def _highlight(code: str, language: str, _attrs: str) -> str:
    try:
        lexer = get_lexer_by_name(language or "text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    return highlight(code, lexer, HtmlFormatter(nowrap=True))


@cache
def _markdown() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": False, "highlight": _highlight}).enable("table")
    renderer.use(anchors_plugin, min_level=2, max_level=2, slug_func=slugify, permalink=True, permalinkSymbol="#")
    default_fence = renderer.renderer.rules["fence"]

    def fence(_renderer: Any, tokens: Any, index: int, options: Any, env: Any) -> str:
        # The info string's extra words mark examples for the test runner (`python raises=X`);
        # readers see them as a caption, the highlighter sees only the language.
        token = tokens[index]
        language, _, marks = token.info.strip().partition(" ")
        token.info = language
        rendered = default_fence(tokens, index, options, env)
        caption = _fence_caption(marks.strip())
        return f'<figure class="example">{rendered}{caption}</figure>\n' if caption else rendered

    renderer.add_render_rule("fence", fence)
    return renderer


def _fence_caption(marks: str) -> str:
    # `torch_xla` marks a block the runner runs under torch_xla; readers need only what it raises.
    marks = marks.removeprefix("torch_xla").strip()
    if marks.startswith("raises="):
        error = html.escape(marks.removeprefix("raises="))
        return f'<figcaption class="raises">Raises <code>{error}</code></figcaption>'
    return ""


def markdown_to_html(markdown: str) -> str:
    """Render page Markdown (headings get anchors, raw HTML is escaped).

    Examples:
        >>> print(markdown_to_html("## Static shapes\\n\\n<b>x</b>"), end="")
        <h2 id="static-shapes">Static shapes <a class="header-anchor" href="#static-shapes">#</a></h2>
        <p>&lt;b&gt;x&lt;/b&gt;</p>
    """
    return _markdown().render(markdown)


def _layout(title: str, body: str, *, scripts: bool = False) -> str:
    script = f'<script src="{SCRIPT}" defer></script>' if scripts else ""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} · xlalens</title>"
        f'<link rel="stylesheet" href="{STYLESHEET}">{script}</head>\n'
        '<body><header class="site"><a href="/">xlalens explainers</a></header>\n'
        f"<main>{body}</main></body></html>\n"
    )


def render_page(
    page: Page,
    rules: Iterable[RuleEntry],
    calculators: Iterable[Calculator[Any, Any]],
    query: Mapping[str, str],
) -> str:
    """A full HTML page with a live panel per calculator the page names.

    A panel closes the section its calculator explains when that section is on this page, so the
    numbers sit next to the text about them; otherwise it ends the page.
    """
    body = markdown_to_html(page_markdown(page, rules))
    trailing = ""
    calculators = list(calculators)
    for calculator in calculators:
        panel = render_panel(calculator, query)
        slug, _, anchor = (calculator.explainer or "").partition("#")
        start = body.find(f'<h2 id="{anchor}"') if slug == page.slug and anchor else -1
        end = body.find("<h2 ", start + 1) if start >= 0 else -1
        if end >= 0:
            body = body[:end] + panel + body[end:]
        else:
            trailing += panel
    article = f"<article><h1>{html.escape(page.title)}</h1>\n{_contents(page)}{body}{trailing}</article>"
    return _layout(page.title, article, scripts=bool(calculators))


def _contents(page: Page) -> str:
    """The page's table of contents: one link per ``##`` section, in order."""
    if len(page.sections) < 2:
        return ""
    items = "".join(
        f'<li><a href="#{html.escape(section.anchor)}">{html.escape(section.title)}</a></li>'
        for section in page.sections
    )
    title = '<p class="contents-title">Contents</p>'
    return f'<nav class="contents" aria-label="Contents">{title}<ol>{items}</ol></nav>\n'


def render_calculator_page(
    calculator: Calculator[Any, Any], query: Mapping[str, str], explainer_href: str | None
) -> str:
    """A page with one calculator, prefilled from ``query``."""
    intro = f"<h1>{html.escape(calculator.title)}</h1><p>{html.escape(calculator.summary)}</p>"
    if explainer_href:
        intro += f'<p><a href="{html.escape(explainer_href)}">How this works</a></p>'
    return _layout(calculator.title, intro + render_panel(calculator, query, heading=False), scripts=True)


def render_index(pages: Iterable[Page], calculators: Iterable[Calculator[Any, Any]], *, rules: bool = False) -> str:
    """The list of pages and calculators, and a link to the rule index when there are rules."""
    items = "".join(
        f'<li><a href="/{html.escape(page.slug)}">{html.escape(page.title)}</a>: {html.escape(page.summary)}</li>'
        for page in pages
    )
    tools = "".join(
        f'<li><a href="/calc/{html.escape(calc.name)}">{html.escape(calc.title)}</a>: {html.escape(calc.summary)}</li>'
        for calc in calculators
    )
    body = f"<h1>Explainers</h1><ul class='pages'>{items}</ul><h2>Calculators</h2><ul class='calculators'>{tools}</ul>"
    if rules:
        body += f'<h2>Rules</h2><p><a href="{rule_url("")}">Every rule, by family</a>: what each finds and why.</p>'
    return _layout("Explainers", body)


def _explainer_link(rule: RuleEntry, pages: Mapping[str, Page]) -> str:
    """A link to the section a rule explains itself with, named ``Page: Section``."""
    page = pages.get(rule.page)
    if page is None:
        return html.escape(rule.explainer)
    section = page.section(rule.anchor) if rule.anchor else None
    name = f"{page.title}: {section.title}" if section else page.title
    return f'<a href="{html.escape(section_url("", rule.explainer))}">{_inline(name)}</a>'


def _inline(markdown: str) -> str:
    """One line of Markdown (code spans in headings) as HTML without a paragraph."""
    return _markdown().renderInline(markdown)


def render_rule_page(rule: RuleEntry, pages: Mapping[str, Page]) -> str:
    """A rule's page: its summary, family, status, the explainer section it links to and its documentation."""
    meta = [f"<p class='summary'>{_inline(rule.summary)}</p>"]
    facts = [f"<li>Family: {html.escape(rule.family)}</li>"] if rule.family else []
    if rule.status:
        facts.append(f"<li>Status: {html.escape(rule.status)}</li>")
    facts.append(f"<li>How it works: {_explainer_link(rule, pages)}</li>")
    meta.append(f"<ul class='rule-facts'>{''.join(facts)}</ul>")
    title = f"{rule.code} · {rule.name}"
    footer = f'<p><a href="{rule_url("")}">All rules</a></p>'
    docs = markdown_to_html(rule.docs)
    body = f"<article class='rule'><h1>{html.escape(title)}</h1>{''.join(meta)}{docs}{footer}</article>"
    return _layout(title, body)


def render_rule_index(rules: Iterable[RuleEntry], pages: Mapping[str, Page]) -> str:
    """Every rule by family, each with its summary and the section that explains it."""
    families: dict[str, list[RuleEntry]] = {}
    for rule in sorted(rules, key=lambda entry: entry.code):
        families.setdefault(rule.family or rule.code[:3] + "xx", []).append(rule)
    sections = []
    for family, members in families.items():
        items = "".join(
            f'<li><a href="{html.escape(rule_url("", rule.code))}">{html.escape(rule.code)}</a> '
            f"<code>{html.escape(rule.name)}</code>: {_inline(rule.summary)} "
            f"({_explainer_link(rule, pages)})</li>"
            for rule in members
        )
        sections.append(
            f"<h2 id='{html.escape(slugify(family))}'>{html.escape(family)}</h2><ul class='rules'>{items}</ul>"
        )
    return _layout("Rules", "<article><h1>Rules</h1>" + "".join(sections) + "</article>")


def render_not_found(message: str) -> str:
    """A 404 page that says what was not found."""
    return _layout("Not found", f"<h1>Not found</h1><p>{html.escape(message)}</p><p><a href='/'>All pages</a></p>")


def render_panel(calculator: Calculator[Any, Any], query: Mapping[str, str], *, heading: bool = True) -> str:
    """A calculator's form, prefilled from ``query``, with its result computed now (works without scripts)."""
    # A page opened without numbers starts from the calculator's first example, so it greets the
    # reader with a result rather than "is required". An empty field means "use the default" here
    # and in the page script alike.
    names = {spec.name for spec in calculator.fields}
    start = query if names & query.keys() or not calculator.examples else calculator.examples[0]
    values = {spec.name: start.get(spec.name, spec.default or "") for spec in calculator.fields}
    error: CalculatorInputError | None = None
    result: CalculatorResult | None = None
    try:
        result = calculator.run({name: text for name, text in values.items() if text != ""})
    except CalculatorInputError as failure:
        error = failure
    picture = calculator.draw(result) if result is not None else None
    name = html.escape(calculator.name)
    title = f"<h2 id='calculator-{name}'>Calculator: {html.escape(calculator.title)}</h2>" if heading else ""
    fields = "".join(_field_html(calculator, spec, values[spec.name], error) for spec in calculator.fields)
    link = calculator_url("", calculator.name, {key: value for key, value in values.items() if value != ""})
    return (
        f'<section class="calculator" data-calculator="{name}">{title}'
        f'<form class="fields" autocomplete="off" novalidate>{fields}</form>'
        f'<div class="result" aria-live="polite">{render_result(result, picture)}</div>'
        f'<p class="permalink"><a href="{html.escape(link)}">Link to these numbers</a></p></section>'
    )


def _field_html(calculator: Calculator[Any, Any], spec: Field, value: str, error: CalculatorInputError | None) -> str:
    ident = f"{calculator.name}-{spec.name}"
    message = error.message if error is not None and error.field == spec.name else ""
    invalid = ' aria-invalid="true"' if message else ""
    attrs = f'id="{html.escape(ident)}" name="{html.escape(spec.name)}" aria-describedby="{html.escape(ident)}-help"'
    text_attrs = f'{attrs} placeholder="{html.escape(spec.placeholder or spec.default or "")}" spellcheck="false"'
    if spec.kind == "choice":
        options = "".join(
            f"<option{' selected' if choice == value else ''}>{html.escape(choice)}</option>" for choice in spec.choices
        )
        control = f"<select {attrs}{invalid}>{options}</select>"
    elif spec.multiline:
        control = f'<textarea {text_attrs} rows="3"{invalid}>{html.escape(value)}</textarea>'
    else:
        control = f'<input type="text" {text_attrs} value="{html.escape(value)}"{invalid}>'
    return (
        f'<div class="field{" wide" if spec.multiline else ""}" data-field="{html.escape(spec.name)}">'
        f'<label for="{html.escape(ident)}">{html.escape(spec.label)}</label>{control}'
        f'<small id="{html.escape(ident)}-help" class="help">{html.escape(spec.help)}</small>'
        f'<output class="error" role="alert">{html.escape(message)}</output></div>'
    )


def render_result(result: CalculatorResult | None, picture: Picture | None = None) -> str:
    """A result's headline, its picture, and its table of intermediate numbers (empty while the input is invalid).

    The picture's SVG is built by the calculator from numbers, with every piece of input text escaped.
    """
    if result is None:
        return ""
    figure = f'<figure class="exhibit">{picture.svg}</figure>' if picture is not None else ""
    rows = "".join(
        f"<tr><th scope='row'>{html.escape(row.label)}</th><td>{html.escape(row.value)}</td>"
        f"<td class='formula'>{html.escape(row.formula)}</td></tr>"
        for row in result.rows()
    )
    status = html.escape(result.status)
    return (
        f'<p class="headline status-{status}" data-status="{status}">{html.escape(result.headline)}</p>'
        f'{figure}<table class="rows"><tbody>{rows}</tbody></table>'
    )
