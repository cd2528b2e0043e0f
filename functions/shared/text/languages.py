"""Shoppers' German, Spanish and French, read as the English the phrase table knows.

The store's catalog and its phrase table (:mod:`shared.search.intents`) are English;
a shopper may not be. Before a phrase is parsed, the words a shopper in German,
Spanish or French uses for a kind of product, a budget, a unit and the usual wishes
(cheap, light, the best camera, a long battery, gaming, programming, school) are
replaced by the English words the table reads (``shared/data/languages.json``, data
rather than code: a word is added there), so that "Welches Handy hat die beste
Kamera?" is a phone with the best camera and "un portátil por menos de 900 dólares" a
laptop under $900, for every model and for the offline one alike. Words with no
meaning to the store ("ich suche", "quiero") become stop words. Anything else is
left as written: a name or a title is searched as the shopper spelt it.

Only words that are not also English words a shopper would use are here ("portable"
is a laptop in French and a wish in English; "Handy" is a German phone only with its
capital, as German writes nouns).
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources
from typing import Final


def _table() -> tuple[dict[str, str], dict[str, str]]:
    """The foreign phrases and the English they mean, from ``shared/data/languages.json``
    (under headings a reader can find a word by), and the German nouns that are also
    English words, read only with the capital German gives them ("Handy")."""
    # importlib.resources, as for the catalog: the file ships inside the package
    text = (resources.files("shared") / "data" / "languages.json").read_text(encoding="utf-8")
    data = json.loads(text)
    english = {phrase: meant for part in data["phrases"].values() for phrase, meant in part.items()}
    return english, dict(data["capitalised"])


def _bare(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@functools.cache
def _pattern() -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str], dict[str, str]]:
    # Written lower case with their accents; each is also read without them ("portatil").
    english, capitalised = _table()
    table = {**{_bare(k): v for k, v in english.items()}, **english}
    phrases = sorted(table, key=len, reverse=True)
    alternation = "|".join(re.escape(p) for p in phrases)
    pattern = re.compile(rf"(?<![\w'-])(?:{alternation})(?![\w'-])", re.IGNORECASE)
    nouns = re.compile(r"(?<![\w'-])(" + "|".join(capitalised) + r")(?![\w'-])")
    return pattern, table, nouns, capitalised


# French elides an article before a vowel: "l'ordinateur" is "the computer".
_ELIDED = re.compile(r"(?<![\w'])(l|d|qu|j)'(?=[^\W\d_])", re.IGNORECASE)
_ELISIONS = {"l": "the ", "d": "of ", "qu": "that ", "j": "i "}


# Numbers as German, Spanish and French write them: "1.200" and "1 000" are a thousand
# two hundred and a thousand, "1,3" is one point three. Read so only in a text with words
# of those languages: in English "1.200" is 1.2 and "1,300" a thousand three hundred.
_THOUSANDS = re.compile(
    r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d,]|\.\d)"
    # A space between groups only before money: "1 000 dollars", never "iPhone 15 128 GB".
    r"|(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?=\s*(?:[€$£]|(?:euros?|dollars?|usd|eur)\b))",
    re.IGNORECASE,
)
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])(\d+),(\d{1,2})(?![\d,])")
# An age: "12 ans", "12 años", "12 Jahre alt", "12-jährigen"; only after a number, as
# "Cien años de soledad" is a title, and beside a word for a child ("mon fils de 12 ans",
# "meinen 12-jährigen Sohn"), as "2 Jahre Garantie" and "7 años de actualizaciones" are
# no ages.
_AGE = re.compile(
    r"(?<![\w.,])(\d{1,2})(?:\s*(?:ans|años|anos|jahren?(?:\s+alt)?)|[\s-]?j(?:ä|ae)hrige[nrms]?)(?!\w)",
    re.IGNORECASE,
)
_CHILD = re.compile(
    r"\b(?:fils|fille|enfants?|gar[çc]on|ado(?:lescente?)?s?|sohn|tochter|kind(?:er)?|junge|"
    r"m[äa]dchen|jugendliche[nr]?|enkel(?:in)?|hij[oa]s?|niñ[oa]s?|nin[oa]s?|chic[oa]s?|"
    r"nieto|nieta|son|daughter|kids?|child(?:ren)?|boy|girl|teen(?:ager)?s?)\b",
    re.IGNORECASE,
)


_LASTING: Final = re.compile(
    r"garant|warrant|gewährleist|support|soporte|updates?|actualizaci|mises?\s+à\s+jour|akku|batter",
    re.IGNORECASE,
)
"""Words for what lasts years, not a child's age ("garantie 2 ans", "7 Jahren Updates")."""


def _age(match: re.Match[str]) -> str:
    """An age said right beside a word for a child ("mon fils de 12 ans", "meinen
    12-jährigen Sohn"), as English says it; else as written."""
    text = match.string
    before, after = text[max(0, match.start() - 28) : match.start()], text[match.end() :][:16]
    near = _CHILD.search(before) or _CHILD.search(after)
    lasting = _LASTING.search(before) or _LASTING.search(after)
    return f"{match[1]} year old" if near and not lasting else match[0]


@functools.lru_cache(maxsize=256)
def in_english(text: str) -> str:
    """``text`` with the German, Spanish and French words of the table in English, and,
    where it had any, their numbers as English writes them. One search reads its words in
    English several times (its sides, a price said against a product, its phrases): the
    latest texts are kept."""
    pattern, table, nouns, capitalised = _pattern()
    text = nouns.sub(lambda m: capitalised[m[1]], text)
    text = _ELIDED.sub(lambda m: _ELISIONS[m[1].lower()], text)
    text, foreign = pattern.subn(lambda m: table[m[0].lower()], unicodedata.normalize("NFC", text))
    aged = _AGE.sub(_age, text)
    foreign += aged != text
    text = aged
    if foreign:
        text = _THOUSANDS.sub(lambda m: re.sub(r"\D", "", m[0]), text)
        text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    return text
