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


_BOLD = re.compile(r"\*\*(?=[^*\s])([^*\n]+?)\*\*")
"""A bold span as the page draws one: ``**`` around text on one line."""
_GLUED = re.compile(r"[^\W_]|[$€£¥₹]")
_SPLIT_MARK = re.compile(r"(?<=[^\W_$€£¥₹])\*\*(?=[^\W_])|(?<=[$€£¥₹])\*\*(?=\d)")


def unsplit(text: str) -> str:
    """``text`` without the bold marks that split a word or a number: the page draws
    ``$**199**``, ``1**99** dollars``, ``6**4** GB`` and ``in st**ock**`` as $199, 199
    dollars, 64 GB and in stock, so the checks read them so too. Bold around whole words
    stays ("**Dell XPS 13**: $1,299")."""
    if "**" not in text:
        return text

    def span(match: re.Match[str]) -> str:
        before = text[match.start() - 1 : match.start()]
        after = text[match.end() : match.end() + 1]
        glued = bool(_GLUED.fullmatch(before) or (after and re.fullmatch(r"[^\W_]", after)))
        return match[1] if glued else match[0]

    return _SPLIT_MARK.sub("", _BOLD.sub(span, text))


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
