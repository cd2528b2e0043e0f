"""Text as a reader sees it: without the characters that hide or reorder what is shown.

A model's text can hold characters nobody sees: zero-width spaces and joiners, the
bidi embeddings, overrides and isolates that show "$349" for what is written "$943",
Unicode's tag characters (which spell ASCII invisibly), soft hyphens, control
characters, private-use characters. A check that reads such text reads something else
than the shopper: "$34\u200b9" is "$34" to a regular expression and "$349" on the page.
So the model's words lose them before any check, and the text checked is the text shown.

A terminal is another reader: an escape sequence (ESC, CSI, OSC, the C1 controls) from
a model or a web page can recolour, retitle or rewrite a terminal. :func:`for_terminal`
removes whole sequences, not only their first character.
"""

from __future__ import annotations

import re
import unicodedata

# Tab and newline are layout; line and paragraph separators become newlines.
_KEPT = frozenset("\t\n")
_LINE_BREAKS = re.compile("[\r\u2028\u2029\x85]")


def _hidden(character: str) -> bool:
    category = unicodedata.category(character)
    if category == "Cc":
        return character not in _KEPT
    # Cf: format characters (zero-width, bidi, tags, soft hyphen); Co: private use;
    # Cs: lone surrogates, which no page can show.
    return category in ("Cf", "Co", "Cs")


def visible(text: str) -> str:
    """``text`` without invisible and direction-changing characters; line and paragraph
    separators (and carriage returns) become newlines."""
    text = _LINE_BREAKS.sub("\n", text.replace("\r\n", "\n"))
    if all(c.isascii() and (c.isprintable() or c in _KEPT) for c in text):
        return text
    return "".join(c for c in text if not _hidden(c))


_EMPHASIS = re.compile(r"(\*\*)(?=[^*\s])([^*\n]+?)\*\*|(__|~~)([\d.,]+)\3")
"""An emphasis span as Markdown draws one: ``**`` (the page's bold) around anything,
``__`` and ``~~`` around a number (a store's id may hold "__")."""
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CITED = re.compile(r"(\[[^\[\]\n]{1,120}\])")
_GLUED = re.compile(r"[^\W_]|[$€£¥₹.,]")
_SPLIT_MARK = re.compile(r"(?<=[^\W_$€£¥₹])\*\*(?=[^\W_])|(?<=[$€£¥₹])\*\*(?=\d)")
_STARRED = re.compile(r"([$€£¥₹]\d+)\*(\d+)\*(?=\d)")
"""Digits between single stars inside a price, Markdown's italic: "$1*9*9" (not "2*3*4")."""
_UNIT = (
    r"(?:[GTM]B|GHz|MHz|Hz|MP|mAh|Wh|kg|g|lbs?|oz|inch(?:es)?|\"|″|hours?|hrs?|h|W|mm|cm|"
    r"gigs?|teras?|gigabytes?|terabytes?)"
)
_UNIT_APART = re.compile(rf"(?<=\d)([ \u00a0]?)(\*{{1,3}}|__?)({_UNIT})\2(?![\w*])")
_NUMBER_APART = re.compile(
    rf"(?<![\w*])(\*{{1,3}}|__?)([$€£¥₹]?\d[\d.,]*)\1"
    rf"(?=[ \u00a0]?(?:\*{{1,3}}|__?)?{_UNIT}(?![^\W\d_]))"
)
"""Emphasis that sets a number apart from its unit: "**64** GB", "64 **GB**", "15*"*"."""


def unsplit(text: str) -> str:
    """``text`` without the marks that split a word or a number: the page draws
    ``$**199**``, ``1**99** dollars``, ``6**4** GB`` and ``in st**ock**`` as $199, 199
    dollars, 64 GB and in stock, and a Markdown page ``$1__99__``, ``$1*9*9`` and
    ``$1<!-- -->99`` as $199, so the checks read them so too. HTML comments go whole.
    Emphasis between a number and its unit goes too ("**64** GB", "64 **GB**": a fact
    the page shows whole). Emphasis around whole words stays ("**Dell XPS 13**: $1,299")."""
    if not any(mark in text for mark in ("**", "__", "~~", "*", "<!--")):
        return text
    # A citation is the store's id as written, whatever marks it holds ("[AB__12__X]").
    parts = _CITED.split(_COMMENT.sub("", text))
    return "".join(part if n % 2 else _unsplit(part) for n, part in enumerate(parts))


def _unsplit(text: str) -> str:
    def span(match: re.Match[str]) -> str:
        before = text[match.start() - 1 : match.start()]
        after = text[match.end() : match.end() + 1]
        glued = bool(_GLUED.fullmatch(before) or (after and re.fullmatch(r"[^\W_]", after)))
        return (match[2] or match[4]) if glued else match[0]

    joined = _STARRED.sub(r"\1\2", _SPLIT_MARK.sub("", _EMPHASIS.sub(span, text)))
    return _UNIT_APART.sub(r"\1\3", _NUMBER_APART.sub(r"\2", joined))


# ESC [ ... final byte (CSI); ESC ] ... BEL or ESC \ (OSC), and the other string
# sequences (DCS, SOS, PM, APC); ESC and one more character; the C1 forms of CSI and
# the string sequences.
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?"
)


def for_terminal(text: str) -> str:
    """``text`` safe to print: escape sequences removed whole, then every control
    character but tab and newline, and every invisible character."""
    return visible(_ESCAPE.sub("", text))
