"""The words around a number that say it is not a product's value, in a few languages.

A number next to a unit is a claim about a product only when nothing around it says
otherwise. Each guard here reads the clause the number stands in (up to a comma,
a semicolon, a bracket, a dash or "but"), never across it:

* a negation, a condition or a comparison ("not", "if", "unlike", "nicht", "wenn",
  "ではなく", "なら", "より"): the sentence does not state the value;
* a bound ("under $400", "bis zu", "moins de", "menos de", "以下"): a limit, not the value;
* a difference ("$50 cheaper", "200 g leichter", "200g軽い", "save $50");
* a range ("$300-$400", "zwischen", "から");
* a price of something else: shipping, a plan, a budget ("送料", "Versand", "予算").

"About", "etwa", "約" make a value approximate: it is still checked, more loosely.
Words missing from these lists only make the check skip less; it never corrects a
value because a word is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from shared.catalog.spec import Spec
from shared.catalog.specs import RAM_GB, STORAGE_GB

_I = re.IGNORECASE

_CLAUSE_BREAK: Final = re.compile(
    r"(?<!\d),|,(?!\d)|[;()\u3001\uff0c\uff1b\uff08\uff09\u2014\u2013]|\s-\s|"
    r"\b(?:but|while|whereas|aber|während|wohingegen|jedoch|doch)\b|"
    r"\u304c\u3001|\u4e00\u65b9",
    _I,
)
WINDOW_BEFORE: Final = 48
WINDOW_AFTER: Final = 32


def clause_breaks(text: str) -> Iterator[re.Match[str]]:
    """Where ``text`` breaks into clauses: commas, semicolons, brackets, dashes, "but"."""
    return _CLAUSE_BREAK.finditer(text)


def clause_before(segment: str, position: int) -> str:
    """The text of ``position``'s clause before it (at most :data:`WINDOW_BEFORE` characters)."""
    start = max(0, position - WINDOW_BEFORE)
    window = segment[start:position]
    breaks = list(_CLAUSE_BREAK.finditer(window))
    return window[breaks[-1].end() :] if breaks else window


def clause_after(segment: str, position: int) -> str:
    """The text of ``position``'s clause after it (at most :data:`WINDOW_AFTER` characters)."""
    window = segment[position : position + WINDOW_AFTER]
    found = _CLAUSE_BREAK.search(window)
    return window[: found.start()] if found else window


@dataclass(frozen=True)
class Cue:
    """Words beside a place in the text that tell what stands there: ``before`` is
    searched in the text up to the place (its words end there, ``$``), ``after`` in the
    text from it (they start there, ``^``). Either may be missing."""

    before: re.Pattern[str] | None = None
    after: re.Pattern[str] | None = None

    @classmethod
    def of(cls, before: str = "", after: str = "", *, flags: int = _I) -> Cue:
        return cls(
            re.compile(before, flags) if before else None,
            re.compile(after, flags) if after else None,
        )

    @classmethod
    def either(cls, words: str, *, flags: int = _I) -> Cue:
        """The same words on either side."""
        pattern = re.compile(words, flags)
        return cls(pattern, pattern)

    def around(self, before: str, after: str = "") -> bool:
        """Whether the words are there, before the place or after it."""
        return bool(
            (self.before is not None and self.before.search(before))
            or (self.after is not None and self.after.search(after))
        )


class Guards(NamedTuple):
    """The cues that keep a number from being read as the product's value, or loosen
    the check: one row a reason, as the module's docstring lists them."""

    not_stated: Cue
    """A negation, condition or comparison governs the clause: the value is not asserted."""
    bound: Cue
    difference: Cue
    range: Cue
    approximate: Cue
    """The value is approximate: it is still checked, more loosely."""
    other_price: Cue
    """The price is of something else: shipping, a plan, a budget."""
    earlier_price: Cue
    """The price is the one before a sale ("was $999", "down from", "statt")."""


_OTHER_PRICE_WORDS: Final = (
    r"\b(?:shipping|delivery|postage|fees?|warranty|protection|plan|subscription|monthly|month|"
    r"trade-?in|credit|gift ?card|coupon|voucher|budget|spend|financing|installments?|"
    r"Versand\w*|Liefer\w*|Gebühr\w*|Garantie|Abo(?:s|nnements?)?|Monat\w*|Inzahlungnahme|"
    r"Gutschein\w*|ausgeben|Raten?)\b|送料|配送|手数料|保証|月額|毎月|月々|下取り|クーポン|ポイント|予算|分割|运费|预算"
)
_OTHER_PRICE_AFTER: Final = (
    # "$349 plus shipping", "$349 before delivery": the price is the products', the rest
    # left out ("plus shipping comes to $358.99" before a price is no price of theirs)
    r"(?<!\bbefore\s)(?<!\bplus\s)(?<!\bexcluding\s)(?<!\bexcl\.\s)(?<!\bwithout\s)"
    r"(?<!\bnot\sincluding\s)(?<!\+\s)(?<!\+)(?<!\bzzgl\.\s)(?<!\bohne\s)(?<!\bhors\s)"
    + _OTHER_PRICE_WORDS
)
"""Words of a price of something else than the product: shipping, a plan, a budget."""

GUARDS: Final = Guards(
    not_stated=Cue.of(
        r"\b(?:not|no|never|without|unlike|instead of|than|compared|versus|vs|if|unless|"
        r"whether|nicht|kein\w*|nie|niemals|ohne|statt|anstatt|anders als|Vergleich|gegenüber|"
        r"wenn|falls|ob)\b|n['\u2019]t\b|もし|不是|没有|如果",
        r"^[^\u3002\uff01\uff1f.!?]{0,10}?(?:ではな|じゃな|ではありません|なら|と比べ|に比べ|より)",
    ),
    bound=Cue.of(
        r"(?:\b(?:under|below|less than|fewer than|up to|at most|within|over|above|more than|"
        r"at least|max(?:imum)?|min(?:imum)?|beyond|unter|über|bis(?: zu)?|höchstens|mindestens|"
        r"weniger als|mehr als|maximal|minimal|(?:expandable|upgradeable|upgradable) to|"
        r"(?:erweiterbar|aufrüstbar) auf|moins de|plus de|au plus|au moins|sous|jusqu'à|"
        r"(?:en|au)[\s-]dessous de|(?:en|au)[\s-]dessus de|"
        r"menos de|más de|hasta|como máximo|como mínimo|al menos|por debajo de|por encima de)|"
        r"[<>\u2264\u2265]|最大|最長|最低|最多|増設)"
        r"\s*(?:of\s+|von\s+|les\s+|l[oa]s\s+)?$",
        r"^\s*(?:or (?:less|more|under|fewer|cheaper|lighter)\b|and (?:up|under|above|below)\b|"
        r"max\b|oder (?:weniger|mehr)|以下|以上|未満|以内|まで|超|を超え)",
    ),
    difference=Cue.of(
        r"(?:\b(?:save|saves|saving|spare|discount|rebate|difference of|by|sparen|sparst|spart|"
        r"Rabatt|Nachlass|Unterschied von|um)|[+\u2212\u00b1]|割引|値引き|差は|差が|差)\s*$",
        r"^\s*(?:(?:less|more|cheaper|pricier|dearer|lighter|heavier|longer|shorter|bigger|larger|"
        r"smaller|extra|higher|lower|fewer|thinner|thicker|difference|apart|off|savings?|weniger|"
        r"mehr|günstiger|billiger|teurer|leichter|schwerer|länger|kürzer|größer|kleiner|höher|"
        r"niedriger|Unterschied|Ersparnis)\b|安|高|軽|重|長|短|大き|小さ|多|少な|お得|の差|差|便宜|贵|轻)",
    ),
    range=Cue.of(
        r"(?:\d\s*[A-Za-z$\u20ac]{0,5}\s*(?:[-\u2013\u2014~\u301c\uff5e]|\bto\b|\bbis\b|から)\s*$)|"
        r"\b(?:between|zwischen)\b",
        r"^\s*(?:[-\u2013\u2014~\u301c\uff5e]|to\b|bis\b|から|and\s+\$?\d|und\s+\d)\s*\$?\s*\d",
    ),
    approximate=Cue.of(
        r"(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|close to|some|"
        r"circa|ca\.?|etwa|ungefähr|rund|knapp|fast|gut)|(?<!~)~|\u2248|約|およそ|大体|大約|约)\s*$",
        r"^\s*(?:or so\b|-?ish\b|ほど|程度|くらい|ぐらい|前後|左右)",
    ),
    other_price=Cue.of(
        r"(?<!\bbefore\s)(?<!\bexcluding\s)(?<!\bexcl\.\s)(?<!\bwithout\s)(?<!\bnot\sincluding\s)"
        r"(?<!\bohne\s)(?<!\bhors\s)"
        + _OTHER_PRICE_WORDS
        + r"|\bship(?:s|ped)?\s+(?:for|at)\s*$",  # "ships for $20"
        _OTHER_PRICE_AFTER,
    ),
    earlier_price=Cue.of(
        r"(?:\b(?:was|were|down from|reduced from|marked down from|originally|regularly|"
        r"normally|usually|previously|formerly|used to (?:be|cost)|regular price|list price|"
        r"compare at|RRP|MSRP|"
        r"vorher|ursprünglich|regulär|UVP|statt)|通常価格|定価|原价)\s*(?:of\s+|von\s+|:\s*)?$",
        # or struck through, "~~$1,299~~ $999": the page draws it crossed out
        r"^\s*(?:(?:before(?: the sale)?|regular(?:ly)?|originally)\b|~~)",
    ),
)
EARLIER_PRICE: Final = "earlier"
"""The role of a price said to be the one before a sale."""
_UP_TO: Final = re.compile(r"(?:\bup to|\bbis zu|最大|最長)\s*$", _I)
"""A battery's life is stated as "up to 10 hours": for hours this is the claim, not a bound."""


def not_a_value(before: str, after: str, *, battery: bool = False) -> bool:
    """The number is a bound, a difference or a range end, not the product's value."""
    bound_before = "" if battery and _UP_TO.search(before) else before
    return GUARDS.bound.around(bound_before, after) or any(
        cue.around(before, after) for cue in (GUARDS.difference, GUARDS.range)
    )


# -- which spec a number is about ------------------------------------------------------------

_BATTERY: Final = re.compile(
    r"batter\w*|akku\w*|batterie\w*|バッテリー|電池|駆動|续航|續航|autonomie|\blasts?\b|"
    r"laufzeit|runtime|unplugged",
    _I,
)
_CHARGING: Final = re.compile(r"charg\w*|lade\w*|充電|充电|deliver\w*|ship\w*|versand|配送", _I)


def _memory_words(spec: Spec, spelt: str) -> tuple[str, re.Pattern[str]]:
    """The memory ``spec`` is (its fact's role) and the words that name it: its facet's,
    and how answers spell it in other ways and languages (``spelt``)."""
    if spec.fact is None or spec.fact.role is None or spec.facet is None:
        raise ValueError(f"{spec.key} is not a memory the answer names")
    words = "|".join([*map(re.escape, spec.facet.words), spelt])
    return spec.fact.role, re.compile(rf"(?<![A-Za-z])(?:{words})(?![A-Za-z])", _I)


_MEMORY: Final = (
    _memory_words(RAM_GB, r"LPDDR\d\w*|(?<!G)DDR\d\w*|Arbeitsspeicher|メモリ|内存|記憶體"),
    _memory_words(
        STORAGE_GB,
        r"HDD|eMMC|UFS|drive|disk|(?<!Arbeits)speicher\w*|Festplatte|ストレージ|容量|存储|儲存|"
        r"ROM|stockage",
    ),
)
OTHER_MEMORY: Final = "other"
"""The role of memory no record field holds: graphics memory, a cache."""
_GRAPHICS: Final = re.compile(
    r"VRAM|GDDR\w*|graphics memory|Grafikspeicher|ビデオメモリ|cache|キャッシュ|显存", _I
)
_OTHER_CAMERA: Final = Cue.either(
    r"ultra-?\s?wide|wide-?angle|telephoto|\btele\b|zoom|periscope|front|selfie|macro|depth|"
    r"Ultraweitwinkel|Weitwinkel|Tele\w*|Front\w*|Selfie|Makro|超広角|広角|望遠|フロント|"
    r"インカメ|自撮り|マクロ|前置|超广角|长焦",
)


def about_battery(segment: str, before: str, after: str) -> bool:
    """Hours are a battery's life only in a sentence about the battery, and not its charging."""
    return bool(_BATTERY.search(segment)) and not _CHARGING.search(before + after)


def memory_role(before: str, after: str) -> str | None:
    """The role of the memory the words name (``"ram"``, ``"storage"``: a data fact's, in
    :data:`~shared.catalog.specs.SPECS`), :data:`OTHER_MEMORY`, or ``None`` when unclear.

    The word right after the number decides ("8 GB RAM", "256 GB SSD", "1 TB of
    storage"); else the word right before it ("RAM: 8 GB", "メモリ8GB",
    "Arbeitsspeicher von 16 GB"). Both read only the number's own clause.
    """
    for text, nearest in ((after[:20], min), (before[-24:], max)):
        if _GRAPHICS.search(text):
            return OTHER_MEMORY
        found = [(m.start(), role) for role, words in _MEMORY for m in words.finditer(text)]
        if found:
            return nearest(found)[1]
    return None


def other_camera(before: str, after: str) -> bool:
    """A front, ultra-wide or telephoto camera, not the main one the catalog lists."""
    return _OTHER_CAMERA.around(before[-24:], after[:24])
