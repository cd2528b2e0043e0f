"""A product description written in HTML, as the plain text a shopper would read.

Store platforms keep descriptions as HTML (Shopify's ``Body (HTML)``, WooCommerce's
``Description``). The catalog holds text: tags would cost the model tokens and reach
the page as markup. Paragraphs, headings and line breaks become line breaks, list
items become ``•`` lines (numbered in an ordered list), table cells are separated,
entities are decoded, and scripts, styles and comments are dropped. The standard
library's ``html.parser`` is enough: it tolerates the unclosed and misnested tags that
editors leave, and nothing here needs the document tree.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from shared.text.sanitize import clean_text

BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "figcaption",
        "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main",
        "ol", "p", "pre", "section", "table", "tbody", "thead", "tfoot", "tr", "ul",
    }
)  # fmt: skip
"""Elements that start and end on their own line."""
CELLS = frozenset({"td", "th"})
DROPPED = frozenset({"script", "style", "template", "noscript", "svg", "iframe", "object"})
"""Elements whose content is not text a shopper reads."""
BULLET = "• "
_TAG = re.compile(r"<[A-Za-z!/]")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._dropping = 0
        self._lists: list[list[int] | None] = []  # a counter per <ol>, None per <ul>
        self._marker: str | None = None
        """A list item's bullet or number, written with the item's first words."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in DROPPED:
            self._dropping += 1
        elif tag == "br":
            self.parts.append("\n")
        elif tag in CELLS:
            self.parts.append(" | ")
        elif tag in BLOCKS:
            self.parts.append("\n")
            if tag == "ol":
                self._lists.append([0])
            elif tag == "ul":
                self._lists.append(None)
            elif tag == "li":
                self._marker = self._next_marker()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" or tag in BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in DROPPED:
            self._dropping = max(self._dropping - 1, 0)
        elif tag in BLOCKS:
            self.parts.append("\n")
            if tag in ("ol", "ul") and self._lists:
                self._lists.pop()

    def handle_data(self, data: str) -> None:
        if self._dropping:
            return
        # Inside a paragraph a source line break is only a space, as a browser shows it.
        text = re.sub(r"\s+", " ", data)
        if self._marker is not None and text.strip():
            self.parts.append(f"\n{self._marker}")
            self._marker = None
            text = text.lstrip()
        self.parts.append(text)

    def _next_marker(self) -> str:
        counter = self._lists[-1] if self._lists else None
        if counter is None:
            return BULLET
        counter[0] += 1
        return f"{counter[0]}. "


def html_to_text(html: str, limit: int) -> str:
    """Plain text of ``html``, at most ``limit`` characters (cut with "…")."""
    if not _TAG.search(html):
        # Plain text (which both platforms allow): its line breaks are the author's.
        html = html.replace("\n", "<br>")
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = []
    for raw in "".join(parser.parts).split("\n"):
        line = raw.strip(" |").strip()
        line = re.sub(r"\s*\|\s*", " | ", line) if "|" in raw else line
        if line:
            lines.append(line)
    return clean_text("\n".join(lines), limit)
