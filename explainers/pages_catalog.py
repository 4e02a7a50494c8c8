"""Explainer pages: loading ``pages/<slug>.md``, their sections, and the related-rules list.

A page is Markdown with a small front matter block::

    ---
    title: Tracing
    summary: What JAX sees when it traces a function.
    calculators: retrace
    ---

Its ``##`` headings are the stable anchors that diagnostics link to; :func:`slugify` turns a heading
into its anchor, and everything that builds or checks a link uses that one function. The list of
rules that link to a page is not kept by hand: callers pass the rule catalog in, and
:func:`page_markdown` inserts it before the page's ``## Sources``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PAGES_DIR = Path(__file__).parent / "pages"
_FRONT_MATTER_KEYS = frozenset({"title", "summary", "calculators"})
_SLUG_DROP = re.compile(r"[^a-z0-9 \-]")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`\n]*$")


class PageError(ValueError):
    """A page file that cannot be read as an explainer page."""


def slugify(heading: str) -> str:
    """The anchor of a ``##`` heading: lowercase, letters/digits/spaces/hyphens kept, spaces to ``-``.

    Examples:
        >>> slugify("Python control flow")
        'python-control-flow'
        >>> slugify("`jit` on methods")
        'jit-on-methods'
        >>> slugify("NumPy on tracers!")
        'numpy-on-tracers'
    """
    return _SLUG_DROP.sub("", heading.strip().lower()).strip().replace(" ", "-")


@dataclass(frozen=True)
class Section:
    """A ``##`` section of a page."""

    anchor: str
    title: str


@dataclass(frozen=True)
class RuleEntry:
    """What a page needs to know about a rule that links to it.

    Attributes:
        code: The rule code, e.g. ``JX101``.
        name: The rule's kebab-case name.
        summary: One sentence on what the rule finds.
        explainer: The ``page#section`` it links to.
        family: The family the rule belongs to, as its heading on the rule index
            (``JX1xx: traced values used as Python values``).
        status: The rule's lifecycle and fix availability, one line (``stable; fix sometimes available``).
        docs: The rule's documentation in Markdown (``## What it does``, ``## Example``...).
    """

    code: str
    name: str
    summary: str
    explainer: str
    family: str = ""
    status: str = ""
    docs: str = ""

    @property
    def page(self) -> str:
        """The slug of the page the rule links to."""
        return self.explainer.partition("#")[0]

    @property
    def anchor(self) -> str:
        """The section anchor the rule links to (empty for the page top)."""
        return self.explainer.partition("#")[2]


@dataclass(frozen=True)
class Page:
    """One explainer page.

    Attributes:
        slug: The file name without ``.md``; the page's URL path.
        title: The page title.
        summary: One sentence on what the page teaches.
        calculators: Names of calculators shown as live panels on the page.
        body: The Markdown after the front matter.
        sections: The ``##`` sections in order.
    """

    slug: str
    title: str
    summary: str
    calculators: tuple[str, ...]
    body: str
    sections: tuple[Section, ...]

    def section(self, anchor: str) -> Section | None:
        """The section with this anchor (a heading's text is accepted too)."""
        wanted = slugify(anchor) if anchor not in self.anchors else anchor
        return next((section for section in self.sections if section.anchor == wanted), None)

    @property
    def anchors(self) -> frozenset[str]:
        """Every section anchor of the page."""
        return frozenset(section.anchor for section in self.sections)


def parse_page(slug: str, text: str) -> Page:
    """Read a page from its Markdown text.

    Examples:
        >>> page = parse_page("demo", "---\\ntitle: Demo\\nsummary: S.\\n---\\n\\nIntro.\\n\\n## First part\\n")
        >>> page.title, [section.anchor for section in page.sections]
        ('Demo', ['first-part'])
    """
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise PageError(f"{slug}.md: the page must start with a '---' front matter block")
    try:
        end = next(index for index in range(1, len(lines)) if lines[index].strip() == "---")
    except StopIteration:
        raise PageError(f"{slug}.md: the front matter block is not closed with '---'") from None
    meta: dict[str, str] = {}
    for line in lines[1:end]:
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in _FRONT_MATTER_KEYS:
            raise PageError(
                f"{slug}.md: unknown front matter line {line!r}; keys are {', '.join(sorted(_FRONT_MATTER_KEYS))}"
            )
        meta[key] = value.strip()
    for required in ("title", "summary"):
        if not meta.get(required):
            raise PageError(f"{slug}.md: front matter needs a {required!r}")
    body = "\n".join(lines[end + 1 :]).strip("\n") + "\n"
    calculators = tuple(name.strip() for name in meta.get("calculators", "").split(",") if name.strip())
    return Page(
        slug=slug,
        title=meta["title"],
        summary=meta["summary"],
        calculators=calculators,
        body=body,
        sections=tuple(Section(slugify(title), title) for title in _headings(body)),
    )


def _section_starts(lines: list[str]) -> Iterator[tuple[int, str]]:
    """``(line index, heading text)`` of every ``##`` heading outside fenced code."""
    in_fence = ""
    for index, line in enumerate(lines):
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group(2)
            if not in_fence:
                in_fence = marker[0] * 3
            elif marker.startswith(in_fence):
                in_fence = ""
        elif not in_fence and line.startswith("## "):
            yield index, line[3:].strip()


def _headings(markdown: str) -> list[str]:
    return [heading for _, heading in _section_starts(markdown.splitlines())]


@cache
def load_pages(directory: Path = PAGES_DIR) -> Mapping[str, Page]:
    """Every page in ``directory``, by slug, in alphabetical order.

    Raises:
        PageError: for a page file that is not a valid explainer page.
    """
    pages = {}
    for path in sorted(directory.glob("*.md")):
        pages[path.stem] = parse_page(path.stem, path.read_text(encoding="utf-8"))
    return pages


def related_rules_markdown(page: Page, rules: Iterable[RuleEntry]) -> str:
    """The "Related rules" section for ``page``: every rule that links to it, by code.

    Examples:
        >>> page = parse_page("p", "---\\ntitle: P\\nsummary: S.\\n---\\n## Loops\\n")
        >>> print(related_rules_markdown(page, [RuleEntry("JX9", "bad-loop", "Finds loops.", "p#loops")]))
        ## Related rules
        <BLANKLINE>
        - **JX9** `bad-loop`: Finds loops. See [Loops](#loops).
        <BLANKLINE>
    """
    entries = sorted((rule for rule in rules if rule.page == page.slug), key=lambda rule: rule.code)
    if not entries:
        return ""
    lines = ["## Related rules", ""]
    for rule in entries:
        section = page.section(rule.anchor) if rule.anchor else None
        where = f" See [{section.title}](#{section.anchor})." if section else ""
        lines.append(f"- **{rule.code}** `{rule.name}`: {rule.summary}{where}")
    return "\n".join(lines) + "\n"


def page_markdown(page: Page, rules: Iterable[RuleEntry] = ()) -> str:
    """The page body with the related-rules section inserted before ``## Sources`` (or at the end)."""
    related = related_rules_markdown(page, rules)
    if not related:
        return page.body
    marker = "\n## Sources"
    body = "\n" + page.body
    index = body.rfind(marker)
    if index < 0:
        return page.body.rstrip("\n") + "\n\n" + related
    return (body[:index] + "\n\n" + related + body[index:]).lstrip("\n")


def section_markdown(markdown: str, anchor: str) -> str | None:
    """The ``##`` section with ``anchor`` (heading through the line before the next ``##``)."""
    lines = markdown.splitlines()
    start = None
    for index, heading in _section_starts(lines):
        if start is not None:
            return "\n".join(lines[start:index]).rstrip() + "\n"
        if slugify(heading) == anchor:
            start = index
    if start is None:
        return None
    return "\n".join(lines[start:]).rstrip() + "\n"


def plain_fences(markdown: str) -> str:
    """Markdown with fence info strings cut to the language (``python raises=X`` -> ``python``).

    Pages mark code blocks for the example runner; renderers only need the language.

    Examples:
        >>> plain_fences("```python raises=TypeError\\nx\\n```")
        '```python\\nx\\n```'
    """
    return "\n".join(_FENCE.sub(r"\1\2\3", line) for line in markdown.split("\n"))
