"""Claims that are words, not numbers with units: operating system, author, year, stock.

* An operating system is a name every language writes the same way (Windows 11 Home,
  macOS, ChromeOS, Android, iOS). A family, a Windows version or an edition the
  answer states must be the record's; a name it leaves out is not a mistake.
* An author is a Latin-script name after "by", "von", "de", "par", "di", "author:" or
  before "著": two to four capitalised words or initials. A name in another script
  ("ローリング") is not compared: there is no spelling to compare it with.
* A year is a four-digit number with a sign of publication: "(1997)", "1997年",
  "published in 1997", "erschienen 1997". "The 2001 film" or "set in 1984" is not one.
* Stock is a phrase: "in stock", "out of stock", "vorrätig", "nicht auf Lager",
  "在庫あり", "在庫切れ", "only 3 left".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from compose_response.context import Cue
from shared.catalog.spec import Spec
from shared.catalog.specs import AUTHOR, OS, YEAR

_I = re.IGNORECASE


def _fact_kind(spec: Spec) -> str:
    if spec.fact is None:
        raise ValueError(f"{spec.key} is not a checked fact")
    return spec.fact.kind


OS_KIND: Final = _fact_kind(OS)
AUTHOR_KIND: Final = _fact_kind(AUTHOR)
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
    value: str | int | bool
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

_OUT_OF_STOCK: Final = re.compile(
    r"\b(?:out of stock|sold out|not (?:currently |yet )?in stock|no longer (?:in stock|available)|"
    r"currently unavailable|nicht (?:mehr )?(?:vorrätig|auf Lager|lieferbar|verfügbar)|"
    r"ausverkauft|vergriffen)\b|n['\u2019]t (?:currently )?in stock\b"
    r"|在庫切れ|在庫なし|在庫がありません|在庫はありません|品切れ|売り切れ|完売|缺货|售罄",
    _I,
)
_IN_STOCK: Final = re.compile(
    r"\b(?:(?:back )?in stock|available now|vorrätig|auf Lager|lieferbar|sofort verfügbar)\b"
    r"|在庫あり|在庫があります|在庫がある|在庫有り|有货|现货",
    _I,
)
_STOCK_COUNT: Final = re.compile(
    r"\b(?:only|just)\s(?P<a>\d+)\s(?:left|remaining)\b"
    r"|\b(?P<b>\d+)\s(?:units?\s)?(?:left\s)?in stock\b"
    r"|\bnoch\s(?P<c>\d+)\s?(?:Stück|Exemplare?)?\s?(?:auf Lager|vorrätig|verfügbar|übrig)"
    r"|残り\s?(?P<d>\d+)\s?(?:点|個|台|冊|つ)",
    _I,
)


def stock_claims(text: str) -> list[WordClaim]:
    claims: list[WordClaim] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    for match in _STOCK_COUNT.finditer(text):
        count = int(next(g for g in match.groups() if g is not None))
        claims.append(WordClaim(STOCK_KIND, match.start(), match.end(), count > 0))
        taken.append(match.span())
    for pattern, in_stock in ((_OUT_OF_STOCK, False), (_IN_STOCK, True)):
        for match in pattern.finditer(text):
            if free(*match.span()):
                claims.append(WordClaim(STOCK_KIND, match.start(), match.end(), in_stock))
                taken.append(match.span())
    return sorted(claims, key=lambda c: c.start)
