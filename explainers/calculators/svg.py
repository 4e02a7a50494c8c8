"""Drawn exhibits: small inline SVG pictures built from a calculator's own result, with a text equivalent.

A :class:`Picture` is SVG markup plus one paragraph that says the same thing in words. The SVG
has its natural width and shrinks with its container (a ``viewBox``, and ``max-width: 100%`` in the
site's style sheet), so it fits a 390 px phone screen as well as a wide page; it carries
``role="img"`` and a ``<title>`` and ``<desc>`` with the text, which is
what screen readers read. Every piece of text that comes from the user's input is escaped here.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass

COLOURS = ("#cfe0fc", "#d6f0dc", "#fde7c8", "#ead7f7", "#fcd9d6", "#d3f2f2", "#f3f0c4", "#e0e0e0")
"""Fill colours for distinct items (shards, operands); items beyond them repeat the cycle."""
PADDING_FILL = "#f4b4ae"
MISS_FILL = "#f6c26b"
HIT_FILL = "#a9dcb5"
LINE = "#5a6472"
TEXT = "#1d2430"


@dataclass(frozen=True)
class Picture:
    """An exhibit: SVG markup and its text equivalent.

    Attributes:
        svg: The ``<svg>`` element.
        text: What the picture shows, in words.
    """

    svg: str
    text: str

    def data_uri(self) -> str:
        """The SVG as a ``data:`` URI, for Markdown images (editor hovers).

        Examples:
            >>> Picture("<svg/>", "nothing").data_uri()
            'data:image/svg+xml;base64,PHN2Zy8+'
        """
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")


def esc(text: object) -> str:
    """Text escaped for SVG content and attributes."""
    return html.escape(str(text), quote=True)


def svg(width: float, height: float, body: list[str], text: str) -> Picture:
    """Wrap drawn elements in an accessible, scalable ``<svg>``.

    Examples:
        >>> picture = svg(10, 5, ['<rect width="10" height="5"/>'], "A <box>.")
        >>> picture.svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 5" width="10"')
        True
        >>> "<desc>A &lt;box&gt;.</desc>" in picture.svg
        True
    """
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" role="img" '
        f'class="exhibit" font-family="system-ui, sans-serif" font-size="12">'
        f"<title>{esc(text)}</title><desc>{esc(text)}</desc>"
    )
    return Picture(head + "".join(body) + "</svg>", text)


def rect(
    x: float, y: float, w: float, h: float, fill: str, *, stroke: str = LINE, stroke_width: float = 1, extra: str = ""
) -> str:
    """A rectangle.

    Browsers parse the picture as XML, which refuses an attribute given twice, so the stroke width is
    a parameter rather than something ``extra`` could repeat.

    >>> rect(0, 0, 2, 3, "none", stroke_width=2)
    '<rect x="0" y="0" width="2" height="3" fill="none" stroke="#5a6472" stroke-width="2"/>'
    """
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{stroke_width:g}"{extra}/>'
    )


def label(x: float, y: float, text: object, *, anchor: str = "middle", size: int = 12, weight: str = "") -> str:
    """A line of text centred (or anchored) at ``(x, y)``."""
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" dominant-baseline="middle" font-size="{size}" '
        f'fill="{TEXT}"{bold}>{esc(text)}</text>'
    )
