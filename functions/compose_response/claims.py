"""Claims that are words, not numbers with units: operating system, chips, author, year,
stock.

* An operating system is a name every language writes the same way (Windows 11 Home,
  macOS, ChromeOS, Android, iOS). A family, a Windows version or an edition the
  answer states must be the record's; a name it leaves out is not a mistake.
* An author is a Latin-script name after "by", "von", "de", "par", "di", "author:" or
  before "著": two to four capitalised words or initials. A name in another script
  ("ローリング") is not compared: there is no spelling to compare it with.
* A processor or graphics chip ("Core i7-1355U", "Core Ultra 7", "M3 Pro", "Snapdragon 8
  Gen 3", "RTX 4060") is the record's when each word it says is one of the record's
  (brand words aside), and it names the record's variant when it names the number before
  it: "Core i5" of "Intel Core i5-1335U" is; "M3 Pro" of "Apple M3" is not, nor "A18" of
  "Apple A18 Pro". One said of another ("faster than the Core i5", "the M2 model") is not
  compared.
* A year is a four-digit number with a sign of publication: "(1997)", "1997年",
  "published in 1997", "erschienen 1997". "The 2001 film" or "set in 1984" is not one.
* Stock is what the words allow a product to have (:class:`StockSaid`). Any word that it
  can be had says 1 or more: "in stock", "in-stock", "is available.", "ships today",
  "ready to ship", "immediate delivery", "plenty", "a few left", "not sold out", "auf
  Lager", "即日発送", "不缺货". "Out of stock", "sold out", "not available" say 0. A count
  of units says that many, bounded by its word: "only 2 left" 2, "over 500 units of the
  [X] in stock" 501 or more, "fewer than 20 left" 1 to 19, "about 50" 45 to 55. A number
  of something else ("2 colours available", "16 GB", "top 3", "Pixel 9") is no count. What
  is no claim about now: the past ("was sold out"), a condition on stock ("when it is
  back in stock, ..."), a denied shipping ("does not ship today"), "available" said of
  something not the product ("financing is available").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Final

from compose_response.context import Cue
from compose_response.text import CITATION, MARKS
from shared.catalog.spec import Spec
from shared.catalog.specs import AUTHOR, CPU, GPU, OS, YEAR

_I = re.IGNORECASE


def _fact_kind(spec: Spec) -> str:
    if spec.fact is None:
        raise ValueError(f"{spec.key} is not a checked fact")
    return spec.fact.kind


OS_KIND: Final = _fact_kind(OS)
AUTHOR_KIND: Final = _fact_kind(AUTHOR)
PROCESSOR_KIND: Final = _fact_kind(CPU)
GRAPHICS_KIND: Final = _fact_kind(GPU)
YEAR_KIND: Final = _fact_kind(YEAR)
STOCK_KIND: Final = "stock"
"""Stock is the record's own field, as price is, not a spec."""
WordKind = str
"""A word claim's kind: the fact kind of the spec it states (:data:`OS_KIND`, ...), by
which the check finds the record's field, or :data:`STOCK_KIND`."""


@dataclass(frozen=True)
class WordClaim:
    kind: WordKind
    start: int
    end: int
    value: str | int | bool | StockSaid
    """The OS as written, the author's name, the year, or whether it is in stock."""


# -- operating systems -------------------------------------------------------------------------

_OS: Final = re.compile(
    r"(?<![\w-])(?:"
    r"(?P<windows>Windows)(?:\s(?P<version>1[01]|[78]|XP|Vista))?"
    r"(?:\s(?P<edition>Home|Pro|SE|S|Education|Enterprise)\b)?(?!\s(?:Hello|Ink|Studio|Store))"
    r"|(?P<macos>macOS|Mac\s?OS(?:\sX)?|OS\sX)"
    r"|(?P<chromeos>Chrome\s?OS)(?:\sFlex)?"
    r"|(?P<android>Android)"
    r"|(?P<ios>iOS|iPadOS)"
    r"|(?P<linux>Linux|Ubuntu)"
    r")(?![A-Za-z])"
)
_GENERIC: Final = Cue.of(
    r"\b(?:works with|compatible with|syncs? with|connects? to|pairs? with|other|most|many|all|"
    r"kompatibel mit|funktioniert mit|andere\w*|viele|alle)\s*$",
    r"^[\s-]?(?:laptops|PCs|phones|smartphones|tablets|devices|machines|users|fans|computers|"
    r"notebooks|world|ecosystem|Geräte\w*|Nutzer\w*|Rechner|Smartphones|Handys|Welt|"
    r"ユーザー?|派|陣営|機種|端末|用户|に対応|対応|と連携|互換)",
)
"""Words that make an OS name stand for devices in general ("macOS fans", "works with
Android"), not for the product's system."""


@dataclass(frozen=True)
class OperatingSystem:
    family: str
    version: str | None
    edition: str | None


def parse_os(text: str) -> OperatingSystem | None:
    match = _OS.search(text)
    if not match:
        return None
    family = next(
        name for name in ("windows", "macos", "chromeos", "android", "ios", "linux") if match[name]
    )
    if family == "ios" and match["ios"] == "iPadOS":
        family = "ipados"
    return OperatingSystem(family, match["version"], match["edition"])


def os_agrees(said: OperatingSystem, record: OperatingSystem) -> bool:
    """The family is the same, and so is each part the answer states that the record has."""
    return (
        said.family == record.family
        and (said.version is None or record.version is None or said.version == record.version)
        and (said.edition is None or record.edition is None or said.edition == record.edition)
    )


def os_claims(text: str) -> list[WordClaim]:
    return [
        WordClaim(OS_KIND, match.start(), match.end(), match[0])
        for match in _OS.finditer(text)
        if not _GENERIC.around(text[: match.start()], text[match.end() :])
    ]


# -- processors and graphics --------------------------------------------------------------------

_PROCESSOR: Final = re.compile(
    r"(?<![\w-])(?:(?:\d{1,2}(?:st|nd|rd|th)[-\s](?:gen(?:eration)?)\s+)?(?:"
    r"(?:Intel\s+)?Core\s+(?:Ultra\s+[3579](?:\s+\d{3}[A-Z]{0,2})?"
    r"|i[3579](?:[-\s][A-Z]?\d{3,5}[A-Z]{0,2})?|[3579]\s+\d{3}[A-Z]{0,2})"
    r"|(?:Intel\s+)?i[3579]-[A-Z]?\d{4,5}[A-Z]{0,2}"
    r"|(?:Intel\s+)?(?:Celeron|Pentium)(?:\s+(?:Silver|Gold))?\s+[A-Z]?\d{3,4}[A-Z]?"
    r"|(?:AMD\s+)?Ryzen\s+(?:AI\s+)?[3579](?:\s+(?:PRO\s+)?\d{3,4}[A-Z]{0,2})?"
    r"|(?:Apple\s+)?M[1-4](?:\s+(?:Pro|Max|Ultra))?(?=\s+(?:chip|processor|CPU)\b|[\s,.;)]|$)"
    r"|(?:Apple\s+)?A1[4-9](?:\s+(?:Pro|Bionic))?(?=\s+(?:chip|processor)\b)"
    r"|(?:Apple\s+)?A1[4-9]\s+(?:Pro|Bionic)"
    r"|(?:Qualcomm\s+)?Snapdragon\s+(?:X\s+(?:Elite|Plus)|\d\s+Gen\s+\d|\d{3})"
    r"|(?:Google\s+)?Tensor\s+G[1-9]|Exynos\s+\d{4}"
    r"|(?:MediaTek\s+)?(?:Dimensity|Helio)\s+[A-Z]?\d{2,4}"
    r"))(?![\w-])"
)
"""A processor's name: "Core i7-1355U", "Core Ultra 7 155H", "Ryzen 5 7520U", "M3 Pro",
"A17 Pro", "Snapdragon 8 Gen 3", "Tensor G4"."""
_GRAPHICS: Final = re.compile(
    r"(?<![\w-])(?:(?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX|GTX)\s+\d{4}(?:\s+Ti)?"
    r"|(?:AMD\s+)?Radeon\s+(?:RX\s+)?\d{3,4}[MSX]?(?:\s+XT)?"
    r"|(?:Intel\s+)?Arc\s+[A-Z]\d{3}M?|(?:Intel\s+)?Iris\s+Xe)(?![\w-])"
)
"""A graphics chip's name: "RTX 4060", "GeForce RTX 4070 Ti", "Radeon 780M", "Iris Xe"."""
_ITS_OWN_CHIP: Final = frozenset(
    re.findall(
        r"\w+",
        "has have packs pack pairs combines runs run on comes come with features sports is are "
        "powered by uses "
        "use gets boasts equipped a an the its it new latest fast speedy capable powerful "
        "efficient processor chip chipset cpu gpu graphics card and plus intel amd apple nvidia "
        "qualcomm google hat mit einem einer einen ein eine der die das prozessor läuft un une "
        "le la avec processeur puce tiene con una el procesador",
    )
)
"""The words that may stand between a product and a chip of its own ("[..] has a", "[..] is
powered by the", "[..] (", "[..] Processor:"): anything else makes it advice, another
product's or a comparison ("for gaming you'd want a Core i5", "beats the HP's Core i3")."""
_NOT_ITS_CHIP: Final = re.compile(
    r"\s*(?:SSD|NVMe|slot|drive|storage|MacBook|Mac|iMac|iPhone|iPad|Pixel|Galaxy|models?|"
    r"versions?|options?|configurations?|phones|laptops|notebooks|machines|owners|Super)\b",
    re.IGNORECASE,
)
"""Words after a chip that make it another thing's: "an M2 SSD", "the M3 MacBook Air"."""
_CHIP_NOISE: Final = frozenset(
    re.findall(
        r"\w+",
        "intel amd apple qualcomm nvidia geforce google mediatek laptop gpu graphics chip "
        "processor cpu for with the a an gen generation 1st 2nd 3rd 4th 5th 6th 7th 8th 9th 10th "
        "11th 12th 13th 14th 15th",
    )
)
"""Words of a chip's name that tell no chip from another."""


def chip_claims(text: str) -> list[WordClaim]:
    """The processors and graphics chips ``text`` says are a cited product's own: right
    after its citation, with only such words between (:data:`_ITS_OWN_CHIP`)."""
    found = []
    for kind, pattern in ((PROCESSOR_KIND, _PROCESSOR), (GRAPHICS_KIND, _GRAPHICS)):
        for match in pattern.finditer(text):
            cited = list(CITATION.finditer(text, 0, match.start()))
            if not cited or _NOT_ITS_CHIP.match(text, match.end()):
                continue
            between = text[cited[-1].end() : match.start()]
            # "[..] has a Core Ultra 7 and an Arc": the chip before is the product's too
            bare = _GRAPHICS.sub(" ", _PROCESSOR.sub(" ", between))
            words = set(re.findall(r"[^\W\d_]+", bare.casefold()))
            if len(between) <= 40 and not re.search(r"[.;!?]", between) and words <= _ITS_OWN_CHIP:
                # with its article, which a corrected chip may need another of ("a" "an")
                article = re.search(r"\b[Aa]n?\s+$", text[: match.start()])
                start = article.start() if article else match.start()
                found.append(WordClaim(kind, start, match.end(), text[start : match.end()]))
    return found


def _chip_words(name: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", name.casefold())) - _CHIP_NOISE


def chip_name(record: str) -> str:
    """A chip's name as a sentence says it: "Apple M3 (8-core CPU)" as "M3", "NVIDIA GeForce
    RTX 4060 Laptop GPU" as "GeForce RTX 4060"."""
    name = re.sub(r"\s*\([^)]*\)", "", record)
    name = re.sub(r"^(?:Intel|AMD|Apple|Qualcomm|NVIDIA|Google|MediaTek)\s+", "", name.strip())
    return re.sub(r"\s+(?:Laptop\s+GPU|\d+-core\s+GPU)$", "", name) or record


def chip_written(said: str, record: str, after: str) -> str:
    """The record's chip written where ``said`` was, before ``after``: its name
    (:func:`chip_name`), with the article ``said`` had made to fit ("a Core i9" as "an
    M3"), and no "Graphics" before the word ("Arc graphics", not "Arc Graphics graphics")."""
    name = chip_name(record)
    if re.match(r"\s*graphics\b", after, re.IGNORECASE):
        name = re.sub(r"\s+Graphics$", "", name) or name
    article = re.match(r"([Aa])n?\s+", said)
    if article is None:
        return name
    sound = re.match(r"[AEIOaeio]|[FHLMNRSX](?=[\dA-Z])", name)
    return f"{article[1]}{'n' if sound else ''} {name}"


_VARIANT: Final = re.compile(r"\d\w*\s+(pro|max|ultra|plus|super|ti|xt)\b", re.IGNORECASE)
"""A variant's word after a chip's number: "M3 Pro", "A18 Pro", "RTX 4060 Ti"."""


def chip_agrees(said: str, record: str) -> bool:
    """Whether a chip's name as said is the record's: every word it says is one of the
    record's ("Core i5" of "Intel Core i5-1335U", "RTX 4060" of "NVIDIA GeForce RTX 4060
    Laptop GPU"; not "M3 Pro" of "Apple M3 (8-core CPU)"), and the record's variant, when
    it said the number the variant follows ("the A18" is not an A18 Pro, nor "RTX 4060"
    a 4060 Ti)."""
    words = _chip_words(said)
    variant = _VARIANT.search(record)
    number = re.match(r"\S+", record[: variant.start(1)].split()[-1]) if variant else None
    if variant and number and number[0].casefold() in words and variant[1].casefold() not in words:
        return False
    return words <= _chip_words(record)


# -- authors -----------------------------------------------------------------------------------

_UPPER = "A-ZÀ-ÖØ-Þ"
_LOWER = "a-zß-öø-ÿ'\u2019"
# At most four initials a token ("J.R.R."), so that a run of them cannot be cut up in
# ever more ways while the pattern looks for a name.
_TOKEN = rf"(?:[A-Z]\.(?:\s?[A-Z]\.){{0,3}}|[{_UPPER}][{_LOWER}]+(?:-[{_UPPER}][{_LOWER}]+)?)"
_NAME = rf"{_TOKEN}(?:\s(?:(?:de|van|von|der|du|la|le|del|da)\s)?{_TOKEN}){{0,3}}"
_AUTHOR: Final = re.compile(
    rf"(?:\b(?:by|von|par|di|de)\s|\b(?:[Aa]uthor|Autor(?:in)?)\s?:?\s|(?:著者|作者)(?:は|:|\uff1a)\s?)"
    rf"(?P<name>{_NAME})"
    rf"|(?P<before>{_NAME})\s?(?:著|作)"
)
_NOT_AUTHOR: Final = Cue.of(
    r"\b(?:followed|preceded|inspired|illustrated|narrated|translated|edited|read|published|"
    r"sold|loved|recommended|praised|adapted|directed|played|owned|made|shipped|outsold|"
    r"influenced|reviewed|introduced|curated|covered|voiced|übersetzt|illustriert|"
    r"herausgegeben|gelesen|verfilmt|inspiriert|gefolgt)\s+(?:by|von)\s$",
)
"""A name after "by" that is not the author's: "illustrated by", "translated by"."""
_NOT_A_NAME: Final = frozenset(
    [
        "the",
        "a",
        "an",
        "this",
        "that",
        "our",
        "your",
        "its",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "ein",
        "eine",
        "le",
        "la",
        "les",
        "el",
        "los",
        "las",
        "il",
        "amazon",
    ]
)


def _name_tokens(name: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    return [t for t in re.split(r"[\s.\-]+", plain) if t]


def author_agrees(said: str, record: str) -> bool:
    """The same name, or the same surname with the same first initial, or the surname alone."""
    ours, theirs = _name_tokens(said), _name_tokens(record)
    if not ours or not theirs:
        return True
    if "".join(ours) == "".join(theirs):
        return True
    if ours[-1] != theirs[-1]:
        return False
    return len(ours) == 1 or ours[0][0] == theirs[0][0]


def author_claims(text: str, *, surname: str | None) -> list[WordClaim]:
    """Names stated as an author; one word only when it is ``surname`` ("by Orwell")."""
    claims = []
    for match in _AUTHOR.finditer(text):
        group = "name" if match["name"] else "before"
        name = match[group]
        tokens = name.split()
        if tokens[0].lower() in _NOT_A_NAME:
            continue
        if len(tokens) < 2 and (surname is None or _name_tokens(name) != _name_tokens(surname)):
            continue
        if _NOT_AUTHOR.around(text[: match.start(group)]):
            continue
        claims.append(WordClaim(AUTHOR_KIND, match.start(group), match.end(group), name))
    return claims


# -- years -------------------------------------------------------------------------------------

_YEAR: Final = re.compile(r"(?<![0-9A-Za-z_.,$])(?:1[4-9]\d\d|20\d\d)(?![0-9]|[.,]\d)")
_PUBLICATION: Final = Cue.of(
    r"(?:\b(?:published|released|written|first|appeared|came out|from|in|erschien\w*|"
    r"veröffentlicht|Jahr|publié|publicado|pubblicato)|出版|刊行|発表|発売)\W{0,3}$",
    r"^(?:\)|\s*(?:erschienen|veröffentlicht|published|publiziert)|年(?!代|型|モデル|製))",
)
_NOT_PUBLICATION: Final = Cue.either(
    r"\b(?:set in|takes place|spielt|film|movie|adaptation|edition|reprint|Ausgabe|Auflage|"
    r"Verfilmung|American|British|translation|translated|Übersetzung|übersetzt)\b|"
    r"舞台|映画|版|翻訳|\b(?-i:US|UK)\b",
)


def year_claims(text: str) -> list[WordClaim]:
    claims = []
    for match in _YEAR.finditer(text):
        before = text[max(0, match.start() - 24) : match.start()]
        after = text[match.end() : match.end() + 16]
        parenthesised = before.endswith("(") and after.startswith(")")
        if not (parenthesised or _PUBLICATION.around(before, after)):
            continue
        if _NOT_PUBLICATION.around(before, after[:12]):
            continue
        if re.match(r"\s*\[", after) and not parenthesised:
            continue  # "1984 [BK-010]": the title, not a year
        claims.append(WordClaim(YEAR_KIND, match.start(), match.end(), int(match[0])))
    return claims


# -- stock -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StockSaid:
    """How many units the words say a product has: at least ``low``, at most ``high``
    (None: no bound). "In stock", "ships today" and "plenty" are 1 or more, "sold out"
    is 0, "only 2 left" 2, "over 500 units" 501 or more, "about 50 left" 45 to 55.

    It is true when the words say the product can be had, so that a check asking only
    whether a product is in stock reads it as ``True`` or ``False``.
    """

    low: int
    high: int | None = None
    amount: bool = field(default=False, compare=False)
    """The words say how many, not only that it can be had: a count, or a word for how
    many ("plenty", "only a few left", "low stock", "almost gone")."""

    def __bool__(self) -> bool:
        return self.high is None or self.high > 0


IN_STOCK: Final = StockSaid(1)
OUT_OF_STOCK: Final = StockSaid(0, 0)


def stock_agrees(said: object, stock: float) -> bool:
    """Whether a record's ``stock`` is what the words say: a count within their bounds,
    in stock or not for a yes or a no."""
    if isinstance(said, StockSaid):
        return said.low <= stock and (said.high is None or stock <= said.high)
    return bool(said) == (stock > 0)


def uncounted_agrees(said: object) -> bool:
    """Whether the words are true of a product the store sells without counting it: it
    is in stock, and no number of units ("only 3 left", "5 in stock") nor word for how
    many ("plenty", "only a few left", "low stock", "almost gone") is anything the store
    said, so each is an unsupported claim."""
    if isinstance(said, StockSaid):
        return said == IN_STOCK and not said.amount
    return bool(said)


_MARK: Final = rf"\[[{MARKS[0]}-{MARKS[1]}]\]"
_MARK_RE: Final = re.compile(_MARK)
_NAMED = rf"(?:\s*{_MARK})*"
"""A product's marks, if any: its name and its id are a mark each."""
_ARTICLE = r"(?:the|these|this|those|our|der|die|das|den)"
_THE = rf"{_ARTICLE}\s+"
_APOS = "['\u2019]"
_UNIT = (
    r"(?:units?|pieces?|pcs\.?|items?|copies|copy|pairs?|sets?|boxes|devices|"
    r"Stück|Exemplare?|Einheiten|Geräte)"
)
_WORD_NUMBERS: Final = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a dozen": 12,
}  # fmt: skip
_WORD_NUMBER = "|".join(word.replace(" ", r"\s+") for word in _WORD_NUMBERS)
_EXACT = r"only|just|a\s+mere|merely|exactly|nur\s+noch|noch|nur"
_MORE = r"over|more\s+than|upwards\s+of|in\s+excess\s+of|über|mehr\s+als"
_AT_LEAST = r"at\s+least|mindestens"
_FEWER = r"fewer\s+than|less\s+than|under|below|weniger\s+als|unter"
_AT_MOST = r"up\s+to|at\s+most|no\s+more\s+than|höchstens|bis\s+zu"
_ABOUT = r"about|around|approximately|approx\.|roughly|nearly|almost|close\s+to|some|etwa|ca\.|rund"
_QUALIFIER = rf"(?P<q>{_EXACT}|{_MORE}|{_AT_LEAST}|{_FEWER}|{_AT_MOST}|{_ABOUT})\s+"
_COUNT = (
    rf"(?<![\w$€£¥.,/#+-])(?P<n>\d{{1,3}}(?:,\d{{3}})+(?![\d,])|\d+|"
    rf"{_WORD_NUMBER})(?P<plus>\+)?(?![\w.,]\d)"
)
_LEFT = (
    r"(?:(?:are|is|sind|ist)\s+)?(?:still\s+)?(?:left|remain(?:s|ing)?|in[\s-]stock|available|"
    r"on\s+hand|in\s+(?:the|our)\s+warehouse|auf\s+Lager|vorrätig|verfügbar|übrig|lieferbar)"
    r"(?:\s+in[\s-]stock)?\b"
)
_OF_IT = rf"(?:\s+of\s+(?:{_THE})?{_MARK}{_NAMED}(?:\s+{_UNIT})?)?"
"""The product the count is of, after it: "500 units of the [X]"."""
_COUNTS: Final = [
    # "only 2 left", "over 500 units of the [X] in stock", "Only 2 [X] units are left"
    rf"\b(?:{_QUALIFIER})?{_COUNT}(?:\s+of)?(?:\s+{_THE})?{_NAMED}(?:\s+{_UNIT})?"
    rf"{_OF_IT}\s+{_LEFT}",
    # "we have over 500 [X] units", "there are 40 units of the [X]"
    rf"\b(?:we\s+(?:still\s+|currently\s+|now\s+|also\s+)?(?:have(?:\s+got)?|hold|carry|stock)|"
    rf"we{_APOS}ve\s+(?:still\s+)?got|there\s+(?:are|is)(?:\s+still)?|there{_APOS}re)\s+"
    rf"(?:{_QUALIFIER})?{_COUNT}(?:\s+of)?(?:\s+{_THE})?{_NAMED}\s+{_UNIT}\b{_OF_IT}",
    # "in stock: 14", "Stock: 14 units"
    rf"\b(?:in[\s-]stock\s*[:(\u2013\u2014-]|(?:stock|inventory|availability|Lagerbestand)"
    rf"(?:\s+level)?\s*:)\s*(?:{_QUALIFIER})?{_COUNT}(?:\s+{_UNIT})?(?:\s+(?:left|remaining|"
    rf"available|in\s+stock))?(?=\s*(?:$|[).,;!?]))",
    # 残り2点, 在庫3台, 仅剩2件
    r"(?:残り|在庫(?:は|が)?|仅剩|还剩|只剩|库存)\s?(?P<n>\d+)\s?(?:点|個|台|冊|つ|件|个|本)",
]
_COUNTS_RE: Final = [re.compile(form, _I) for form in _COUNTS]
"""A number of units said to be there, with the words that bound it."""
_NONE_LEFT: Final = re.compile(
    rf"\b(?:no|zero|none|nothing)(?:\s+more)?(?:\s+of)?(?:\s+{_THE})?{_NAMED}"
    rf"(?:\s+{_UNIT})?\s+{_LEFT}(?!\s+(?:to|for|over|out|behind)\b)"
    rf"|\bkeine?\s+(?:{_UNIT}\s+)?(?:mehr\s+)?(?:auf\s+Lager|vorrätig)\b",
    _I,
)
_LAST_ONE: Final = re.compile(
    rf"\b(?:the\s+)?last\s+(?:one|unit|copy|piece){_OF_IT}\s+(?:(?:is\s+)?(?:still\s+)?"
    rf"(?:left|remaining|in[\s-]stock|available))\b",
    _I,
)
_PLENTY = r"plenty|lots|loads|tons|heaps|a\s+lot|dozens|hundreds|thousands"
_SOME: Final = re.compile(
    # "plenty in stock", "many [X] units left", "only a few left"
    rf"\b(?P<w>{_PLENTY}|(?<!\bhow\s)many|(?:only\s+|just\s+)?(?:a\s+)?few|a\s+handful|a\s+couple)"
    rf"(?:\s+of)?(?:\s+{_THE})?{_NAMED}(?:\s+{_UNIT})?\s+{_LEFT}"
    # "plenty of [X] units", "lots of stock"
    rf"|\b(?P<v>{_PLENTY})\s+of(?:\s+{_THE})?{_NAMED}\s+(?:{_UNIT}|stock|inventory)\b"
    r"(?!\s+(?:sold|shipped|delivered|returned))"
    r"|\b(?:well|fully|amply)[\s-]stocked\b|\b(?:ample|good|limited|low)\s+stock\b"
    r"|\bstock\s+is\s+(?:plentiful|high|good|low|limited|running\s+low)\b"
    r"|\bin\s+(?:good|plentiful|ample|large)\s+supply\b"
    r"|\b(?:selling|going|moving)\s+(?:out\s+)?(?:fast|quickly)\b|\balmost\s+gone\b"
    r"|残りわずか|在庫(?:は|が)?(?:十分|たくさん|豊富|多数)|在庫多数|在庫豊富|库存充足|库存很多",
    _I,
)
"""Words for how many, with no number: some are there."""
_AT_LEAST_WORDS: Final = {"dozens": 24, "hundreds": 200, "thousands": 2000}

_NOT = (
    rf"(?:does\s+not|doesn{_APOS}t|do\s+not|don{_APOS}t|cannot|can{_APOS}t|can\s+not|"
    rf"won{_APOS}t|will\s+not|isn{_APOS}t|is\s+not|aren{_APOS}t|are\s+not|not|never|no)\s+"
    r"(?:be\s+|yet\s+)?"
)
_SOON = (
    r"(?:today|tonight|tomorrow|same[\s-]day|next[\s-]day|overnight|immediately|right\s+away|"
    r"at\s+once|now|this\s+week|next\s+week|by\s+(?:tomorrow|tonight|(?:this\s+|next\s+)?(?:Monday|"
    r"Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|weekend))|"
    r"(?:with)?in\s+(?:\d+(?:\s*[-\u2013]\s*\d+)?|one|two|three|a|an)"
    r"\s+(?:business\s+|working\s+)?(?:hours?|days?))"
)
_SHIPS: Final = re.compile(
    rf"(?P<neg>\b{_NOT})?(?:"
    rf"\b(?:ships?|shipped|shipping|dispatch(?:es|ed)?|sent|deliver(?:s|y|ed)?|arrives?|"
    rf"goes\s+out|leaves\s+(?:our|the)\s+warehouse)(?:\s+out)?\s+{_SOON}\b"
    r"|\bready\s+(?:to\s+(?:ship|go|dispatch|be\s+(?:shipped|dispatched|delivered))|"
    r"for\s+(?:dispatch|shipping|shipment|pick[\s-]?up|collection|delivery))\b"
    r"|\b(?:same|next)[\s-]day\s+(?:delivery|shipping|dispatch)\b"
    rf"|\b(?:get|have|receive|buy|order|purchase|grab)\s+(?:it|them|one|yours)\s+{_SOON}\b"
    rf"|\b(?:can|could)\s+(?:buy|order|purchase|get)\s+(?:{_THE})?(?:{_MARK}\s*)*(?:today|now|"
    r"right\s+now|immediately)\b|\bwhile\s+(?:supplies|stocks?)\s+lasts?\b"
    r"|\b(?:immediate(?:ly)?|instant)\s+(?:delivery|dispatch|shipping|shipment|availability)\b"
    r"|\b(?:sofort\s+)?(?:versandbereit|versandfertig|lieferbereit)\b"
    r"|\b(?:wird\s+)?(?:heute|morgen|sofort)\s+(?:versandt|versendet|verschickt|geliefert)\b"
    r"|\b(?:Versand|Lieferung)\s+(?:heute|morgen|sofort|innerhalb\s+(?:von\s+)?\d+\s+"
    r"(?:Stunden|Tagen|Werktagen))\b"
    # "expédié sous 24 h", "livré demain", "enviado en 24 horas", "envío inmediato"
    r"|\b(?:exp[ée]di[ée]e?s?|livr[ée]e?s?|envoy[ée]e?s?)\s+(?:(?:sous|en|dans\s+les)\s+\d+\s*"
    r"(?:h|heures?|jours?)|demain|aujourd['\u2019]hui|imm[ée]diatement)(?![\w-])"
    r"|\blivraison\s+(?:demain|aujourd['\u2019]hui|imm[ée]diate)(?![\w-])"
    r"|\b(?:enviad[oa]s?|entregad[oa]s?)\s+(?:en\s+\d+\s+(?:horas|d[ií]as)|mañana|hoy|"
    r"de\s+inmediato|inmediatamente)(?![\w-])"
    r"|\b(?:env[ií]o|entrega)\s+(?:inmediat[oa]|mañana|hoy)(?![\w-])"
    r")|(?:即日|本日|当日|翌日)(?:発送|配送|お届け|出荷)"
    r"(?P<ja_neg>(?:は)?(?:できません|不可|しません))?"
    r"|すぐに?(?:発送|お届け)|発送可能|(?:当天|今天|今日|立即|现在)发货",
    _I,
)
"""The product leaves the store soon: only one in stock can."""
_AVAILABLE_FOR = (
    r"(?:now|today|immediately|again|right\s+(?:now|away)|at\s+(?:the\s+moment|once)|currently|"
    r"from\s+stock|in[\s-]stock|to\s+(?:order|buy|ship|purchase)|for\s+(?:immediate\s+|"
    r"same[\s-]day\s+|next[\s-]day\s+|quick\s+|fast\s+|express\s+)?(?:delivery|dispatch|"
    r"shipping|shipment|purchase|order(?:ing)?|pick[\s-]?up|collection|sale|you))\b"
)
_AVAILABLE: Final = re.compile(
    # "is available.", "is still available, ...", "isn't available right now"
    rf"\b(?P<be>is|are|remains?|stays?|isn{_APOS}t|aren{_APOS}t|{_APOS}s)\s+"
    r"(?P<adverbs>(?:(?:still|currently|now|also|readily|immediately|definitely|indeed|not|both|all|"
    r"no\s+longer)\s+)*)available\b"
    rf"(?:\s+{_AVAILABLE_FOR}|(?=\s*(?:$|[.!?,;:)\]\u3002])))"
    # "available for immediate delivery", "not available right now"
    rf"|(?P<not>\b(?:not|no\s+longer)\s+)?\bavailable\s+(?:now|today|immediately|"
    rf"right\s+(?:now|away)|from\s+stock|for\s+(?:immediate\s+|same[\s-]day\s+|next[\s-]day\s+)?"
    rf"(?:delivery|dispatch|shipping|shipment|pick[\s-]?up|collection))\b"
    # "ist verfügbar."
    r"|\b(?P<ist>ist|sind)\s+(?:(?:derzeit|aktuell|jetzt|sofort|noch|wieder|momentan)\s+)*"
    r"(?:verfügbar|erhältlich|bestellbar)\b(?=\s*(?:$|[.!?,;:]))"
    # "est disponible.", "está disponible."
    r"|\b(?P<est>est|sont|está|están)\s+(?:(?:ya|déjà|actuellement|toujours)\s+)?"
    r"disponibles?(?:\s+(?:imm[ée]diatement|tout\s+de\s+suite|maintenant|aujourd['\u2019]hui|"
    r"de\s+suite|en\s+stock|de\s+inmediato|inmediatamente|ahora|hoy|ya))?"
    r"(?=\s*(?:$|[.!?,;:]))",
    _I,
)
_SUBJECT: Final = re.compile(
    rf"(?:{_MARK}|\b(?:it|they|both|all|which|that|this|these|those|er|sie|es|beide|il|elle|ils|"
    r"elles))\s*$",
    _I,
)
"""What "is available" must be said of to be about stock: a product, or a word for it.
"Financing is available" is not."""
_UNAVAILABLE: Final = re.compile(
    rf"\b(?:is|are|remains?|{_APOS}s)\s+(?:(?:still|currently|temporarily|now)\s+)*unavailable\b",
    _I,
)
_NOT_SOLD_OUT: Final = re.compile(
    rf"\b(?:not|never|no\s+longer|isn{_APOS}t|aren{_APOS}t|hasn{_APOS}t|haven{_APOS}t)\s+"
    r"(?:(?:yet|currently|been|completely)\s+)*(?:sold\s+out|out\s+of\s+stock)\b"
    r"|\bnicht\s+(?:mehr\s+)?(?:ausverkauft|vergriffen)\b"
    r"|(?:在庫切れ|品切れ|売り切れ|完売)(?:では|じゃ)(?:ありません|ない|なく)"
    r"|不缺货|没有?缺货|未售罄|没有?售罄|没有?卖完",
    _I,
)
"""Sold out, denied: in stock."""
_OUT_OF_STOCK: Final = re.compile(
    r"\b(?:out of stock|sold out|not (?:currently |yet )?in[\s-]stock|"
    r"no longer (?:in[\s-]stock|available)|currently unavailable|"
    r"nicht (?:mehr )?(?:vorrätig|auf Lager|lieferbar|verfügbar)|"
    r"ausverkauft|vergriffen)\b|n['\u2019]t (?:currently )?in[\s-]stock\b"
    r"|在庫切れ|在庫なし|在庫がありません|在庫はありません|品切れ|売り切れ|完売|缺货|售罄"
    r"|没有?货|无货|暂无库存|没有库存|无库存"
    r"|\b(?:(?:en\s+)?rupture\s+de\s+stock|épuisée?s?|indisponibles?|agotad[oa]s?|sin\s+(?:stock|"
    r"existencias)|(?:pas|plus|no)\s+(?:(?:est|está|hay)\s+)?(?:en\s+stock|disponibles?))\b",
    _I,
)
_IN_STOCK: Final = re.compile(
    r"\b(?:(?:back )?in[\s-]stock|available now|vorrätig|auf Lager|lieferbar|sofort verfügbar)\b"
    r"|在庫あり|在庫があります|在庫がある|在庫有り|有货|现货|有库存"
    r"|(?:✅|✔\ufe0f?|☑\ufe0f?)\s*available\b|^\s*(?:[-*•]\s*)?available\s*:"
    r"|\ben\s+stock\b",
    _I,
)
_NOT_NOW: Final = re.compile(
    # "was sold out last week", "was in stock": not what it is now
    r"\b(?:was|were|had\s+been|used\s+to\s+be)\s+(?:(?:briefly|temporarily|previously|once|"
    r"already)\s+)?(?:sold\s+out|out\s+of\s+stock|in[\s-]stock|available)\b"
    # "when the [X] is back in stock, ...": a condition, and what follows from it
    rf"|\b(?:if|when|once(?!\s+again)|as\s+soon\s+as|until|till|unless|whenever)\s+"
    rf"(?:it|they|this|that|(?:{_THE})?{_MARK}{_NAMED})\s*(?:is|are|{_APOS}s|comes?|gets?|goes|"
    r"becomes?|will\s+be)\s+(?:back\s+)?(?:in(?:to)?[\s-]stock|available|restocked|replenished|"
    r"back)\b[^.!?;\n]*"
    rf"|\b(?:wenn|falls|sobald)\s+(?:er|sie|es|(?:{_THE})?{_MARK}{_NAMED})\s*(?:wieder\s+)?"
    r"(?:auf\s+Lager|verfügbar|vorrätig|lieferbar|da)\b[^.!?;\n]*"
    r"|(?:在庫が?あれば|入荷(?:したら|次第|後)|再入荷|到货后|补货后|有货时|如果有货)[^。！？\n]*",
    _I,
)
"""Stock words that say nothing of now: what is skipped here is no claim."""
_NOT_A_COUNT_AFTER: Final = re.compile(
    r"[ \t]{0,3}(?:side|-?hand|,?[ \t]{0,3}(?:and|&)\s+\S+\s+right)", _I
)
"""After "left": a side, not what remains ("1 left and 1 right")."""
_QUALIFIED: Final = [
    (re.compile(_EXACT, _I), "exact"),
    (re.compile(_MORE, _I), "more"),
    (re.compile(_AT_LEAST, _I), "at least"),
    (re.compile(_FEWER, _I), "fewer"),
    (re.compile(_AT_MOST, _I), "at most"),
    (re.compile(_ABOUT, _I), "about"),
]


_JOINED: Final = re.compile(
    rf"[\s,]*(?:(?:and|&|und|so|plus|with|mit|y|et)\s+)?(?:(?:it|they|es)(?:\s+(?:is|are|can|will)|"
    rf"{_APOS}s|{_APOS}ll)?\s+)?(?:(?:also|even|auch)\s+)?",
    _I,
)
"""Between two stock claims that are one: "in stock and ships today", "in stock, only 2 left"."""


def _joined(text: str, claims: list[WordClaim]) -> list[WordClaim]:
    """Stock claims next to each other, both saying it can be had or both not, as one
    claim of the units both allow: one sentence, one correction."""
    joined: list[WordClaim] = []
    for claim in claims:
        last = joined[-1] if joined else None
        if (
            last is not None
            and isinstance(last.value, StockSaid)
            and isinstance(claim.value, StockSaid)
            and bool(last.value) == bool(claim.value)
            and _JOINED.fullmatch(text, last.end, claim.start)
        ):
            low = max(last.value.low, claim.value.low)
            highs = [h for h in (last.value.high, claim.value.high) if h is not None]
            said = StockSaid(
                low, min(highs) if highs else None, last.value.amount or claim.value.amount
            )
            joined[-1] = WordClaim(STOCK_KIND, last.start, claim.end, said)
        else:
            joined.append(claim)
    return joined


def _units(written: str) -> int:
    word = re.sub(r"\s+", " ", written.lower())
    return _WORD_NUMBERS[word] if word in _WORD_NUMBERS else int(written.replace(",", ""))


def _bounds(count: int, qualifier: str | None, plus: bool) -> StockSaid:
    """The units a count allows, by the word before it ("over", "only", "about")."""
    how = next((h for p, h in _QUALIFIED if qualifier and p.fullmatch(qualifier)), "exact")
    if plus or how == "at least":
        return StockSaid(count, amount=True)
    if how == "more":
        return StockSaid(count + 1, amount=True)
    if how == "fewer":
        return StockSaid(min(1, count - 1), count - 1, amount=True)
    if how == "at most":
        return StockSaid(min(1, count), count, amount=True)
    if how == "about":
        low, high = min(count - 1, int(count * 0.9)), max(count + 1, -(-count * 11 // 10))
        return StockSaid(low, high, amount=True)
    return StockSaid(count, count, amount=True)


def _part_of_a_name(text: str, at: int) -> bool:
    """Whether the number at ``at`` ends a name ("Pixel 9", "Galaxy S24 Ultra"), not a count."""
    before = re.search(r"(?:^|(\S+)\s)(\S+)\s$", text[max(0, at - 40) : at])
    if before is None:
        return False
    word, previous = before[2], before[1]
    if not word[:1].isalpha():
        return False
    mixed = any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)
    mid_sentence = previous is not None and not re.search(r"[.!?:;]$", previous)
    return mixed or (word[0].isupper() and mid_sentence)


def _before_mark(text: str, start: int, end: int) -> int:
    """Where a claim ends if it reaches a product's mark: before it, and before "of the"."""
    mark = _MARK_RE.search(text, start, end)
    if mark is None:
        return end
    head = re.sub(rf"(?:\s+(?:of|{_ARTICLE}))*\s*$", "", text[start : mark.start()])
    return start + len(head)


def stock_claims(text: str) -> list[WordClaim]:
    """What the text says of a product's stock, each with the units it allows
    (:class:`StockSaid`); a claim stops before a product's mark, so that it is not taken
    for part of the product's name."""
    claims: list[WordClaim] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    def claim(match: re.Match[str], said: StockSaid | None, start: int | None = None) -> None:
        """``said`` of the match, from ``start``; None takes its words for no claim."""
        if not free(*match.span()):
            return
        taken.append(match.span())
        if said is not None:
            begin = match.start() if start is None else start
            end = _before_mark(text, begin, match.end())
            claims.append(WordClaim(STOCK_KIND, begin, end, said))

    for match in _NOT_NOW.finditer(text):
        claim(match, None)
    for form, pattern in enumerate(_COUNTS_RE):
        for match in pattern.finditer(text):
            qualifier = match.groupdict().get("q")
            written = match["n"]
            if not qualifier and not written[0].isdigit():
                continue  # "one left" is not a count, "only one left" is
            if form == 0 and not qualifier and _part_of_a_name(text, match.start("n")):
                continue  # "Pixel 9 in stock"
            if re.search(r"\bleft$", match[0], _I) and _NOT_A_COUNT_AFTER.match(text, match.end()):
                continue  # "1 left and 1 right"
            plus = bool(match.groupdict().get("plus"))
            said = _bounds(_units(written), qualifier, plus)
            claim(
                match,
                said,
                match.start("q") if qualifier else match.start("n") if form < 2 else None,
            )
    for match in _NONE_LEFT.finditer(text):
        claim(match, OUT_OF_STOCK)
    for match in _LAST_ONE.finditer(text):
        claim(match, StockSaid(1, 1, amount=True))
    for match in _SOME.finditer(text):
        word = (match["w"] or match["v"] or "").lower()
        claim(match, StockSaid(_AT_LEAST_WORDS.get(word, 1), amount=True))
    for match in _NOT_SOLD_OUT.finditer(text):
        claim(match, IN_STOCK)
    for match in _AVAILABLE.finditer(text):
        if (match["be"] or match["ist"] or match["est"]) and not _SUBJECT.search(
            text, 0, match.start()
        ):
            continue
        verb = (match["adverbs"] or "") + (match["be"] or "")
        denied = match["not"] or re.search(rf"\bnot\b|\bno\s+longer\b|n{_APOS}t$", verb, _I)
        both = re.search(r"\b(?:both|all)\b", verb, _I)
        if both and (denied or re.search(r"\b(?:which|that)\s*$", text[: match.start()], _I)):
            # "are not both available": one of them may be; "blue and silver, which are
            # both available": the colours are.
            claim(match, None)
            continue
        claim(match, OUT_OF_STOCK if denied else IN_STOCK)
    for match in _SHIPS.finditer(text):
        claim(match, None if match["neg"] or match["ja_neg"] else IN_STOCK)
    for match in _UNAVAILABLE.finditer(text):
        if _SUBJECT.search(text, 0, match.start()):
            claim(match, OUT_OF_STOCK)
    for pattern, said in (
        (_OUT_OF_STOCK, OUT_OF_STOCK),
        (_IN_STOCK, IN_STOCK),
    ):
        for match in pattern.finditer(text):
            claim(match, said)
    return _joined(text, sorted(claims, key=lambda c: c.start))
