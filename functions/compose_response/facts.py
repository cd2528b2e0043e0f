"""Facts in the answer, checked against the ledger records of the products they are about.

After the model answers, every checkable fact stated in the same sentence or bullet as
a citation of a product (``[productId]``, :mod:`compose_response.known`), or as its name
in words (:mod:`compose_response.names`, read as a citation here), is compared
with that product's ledger record: price, RAM and storage, weight, battery, screen
size, camera, operating system, author and year, page count, and whether it is in
stock. A wrong fact is rewritten with the record's
value in the unit the answer used ("$299" becomes "$349", "1,1 kg" becomes "1,4 kg",
"3 lb" becomes "3.1 lb"); a claim that cannot be rewritten in place (stock: "in stock"
for a sold-out product) removes its sentence, or its whole bullet. Each is a
:class:`Correction`. Facts about products no tool returned are not checked: their
sentences are gone before this runs.

The rules, in the order they apply:

* **Which product.** A fact before a sentence's first citation belongs to it; after
  its last citation, to the last. Between two citations of different products, the
  first clause after a citation describes it ("the HP 14 [CMP-023] weighs 1.4 kg, the
  Dell [CMP-008] 1.54 kg") and the clause that leads into the next citation describes
  that one ("…, while the 1.54 kg Dell [CMP-008]"); brackets right after a citation
  describe it ("[CMP-023] (8 GB RAM, 1.4 kg)"). A fact in one clause shared by
  both, or in a clause between, is not attributed, and so not corrected. Clauses
  break at commas, semicolons, brackets, dashes, "but", "while", "、"; when none
  separate the two citations, at "and", "und", "と".
* **Lists and tables.** A line listed under a heading that names one product, and a
  table's cell, is that product's (:mod:`compose_response.layout`), checked as a sentence
  citing it; a cell is corrected in place, and a claim that cannot be takes its row.
* **Which fact.** Units decide (:mod:`compose_response.units`): a number with no unit
  is never a fact. GB is RAM or storage by the word next to it ("8 GB RAM", "SSD",
  "Arbeitsspeicher", "ストレージ"); a GB amount with no such word is compared with both
  and left alone when it matches neither. Hours are battery life only in a sentence
  about the battery. Words such as "not", "under", "cheaper", "shipping" or "より"
  keep a number from being read as the product's value (:mod:`compose_response.context`).
* **Within what.** Price within $0.50 or 0.5 %; weight within 0.05 kg (5 g for a
  record in grams), in any unit; screen within 0.05 inch, and a whole number of
  inches is the screen's class ("15-inch" for 15.6); RAM and storage exact, a TB
  being 1024 or 1000 GB; battery within 0.5 h, or 1 % of its mAh; camera to the
  whole megapixel; pages within 1 %; year exact. A value written with decimals also
  agrees when the record rounds to it. "About", "etwa", "約" widen each to 10 %. A correction
  says a weight rounded, in the store's unit (``STORE_WEIGHT_UNIT``: 1.18 kg, 2.6 lb).
* **In the store's currency.** The catalog's prices are in one currency, the store's
  (US dollars unless ``STORE_CURRENCY`` says otherwise). An amount in any notation is
  a price (``$299``, ``€299``, ``1.299,00 €``, ``EUR 299``, ``299 dollars``:
  :mod:`compose_response.money`); one in another currency is never right, since the
  store set no price in it. It is rewritten as the record's price in the store's
  currency, where and as the answer wrote it ("299 €" becomes "349 $", "EUR 299"
  "USD 349"), so that the sentence about a real product stays and says what the store
  charges; a conversion in brackets after the right price ("$349 (about €320)") goes.
* **One value agrees, the others stand.** When a sentence states a field of one
  product twice and one agrees with the record, the others are about something else
  (another camera, the memory it can be expanded to, a total with tax, a launch price,
  another model) and stay, unless words take the right price back: "$1,299, sorry, I
  mean $199" and "$1,299, now only $199" are corrected.
* **A price said as a limit of the product's own.** "The XPS 13 [..] is under $400",
  "costs less than $500", "is over $1,000": the record's price must keep the limit, or
  the sentence goes (a limit cannot be corrected). Not a budget ("under your $400
  budget"), a limit negated or wished ("not under", "would be under") or one said of
  nothing ("Nothing is under $300, but the HP 14 [..] is close at $349").
* **A spec said as a limit of the product's own.** "The XPS 13 [..] weighs under 1 kg",
  "has more than 32 GB of RAM", with only the product's own words between ("weighs", "has
  a battery that lasts for"): the record must keep it, or the sentence goes. Not what it
  can be upgraded to, what comes with it, or another product named after it.
* **The price before a sale.** A price said to be the one before ("was $999", "down
  from", "originally", "statt", or struck through: "~~$999~~") is checked against the
  record's ``compareAtPrice`` when the product is on sale; a product not on sale has one
  price, and any is checked against it. Said above the right price of a product not on
  sale ("$349 (it was $399)"), it claims a sale the store is not running, and its
  sentence goes.
* **A sentence that points back.** A sentence that cites nothing and starts with "It",
  "This one" ("Good news: it is in stock now") says that the one product the sentence
  before cites can be had, and that is checked; its other facts may be about anything
  ("It beats the 8 GB most laptops have") and are not. "They", "Both" ("They are both in
  stock") say so of every product the sentence before cites, and one price said after
  them ("They're both $349", not a total or a bound) is each one's price, checked for each.
  A guess or a future ("it should be back in stock soon") is no stock claim. After a
  sentence that cites nothing and names a model no tool returned ("How about the Pixel 10
  Pro XL?", "The Galaxy S25 Ultra has the best zoom."), "It" is that model, not the product
  cited before it ("It isn't in stock here" is no wrong stock of the Pixel 9):
  :mod:`compose_response.offers` reads what it says of that model. A sentence
  with no subject that says a product can be had ("Only a handful left.", "Ships today.")
  is about the one product the sentence before cites, unless it is a question, a lead-in,
  or about another place, time or version ("In stock at Best Buy", "In stock from next
  week").
* **One value said of several.** After a list of products that opens its sentence ("The
  Dell XPS 13 [..] and the iMac 24 [..]"; not "Unlike the iMac 24 [..], the XPS [..] and
  ..." nor "... respectively"), stock with only words such as "are both" between ("...
  are both in stock") and the sentence's one price with "both", "each" or "all" ("...
  both cost $649", "... are $649 each") are checked against each of them; "They are both
  in stock" after such a list is too, and after a bulleted or numbered list of products.
  Wrong for any, the sentence goes, since one value cannot be corrected for two products.
* **What several cost together.** A price said of a list of products that opens its
  clause, with only words such as "together cost" between ("The XPS 13 [..] and the HP 14
  [..] together cost $1,648", "... $1,648 in total", "Together, the XPS 13 [..] and the HP
  14 [..] cost $1,648"), or a clause of its own after their prices (", so $1,648 for
  both"), is their sum (or what each costs, "$1,299 for both"), or its sentence goes.
  "Together with a mouse", "the cheaper of the pair at $349" and a price said of one of
  them after the list are no total.
* **Missing is unknown.** A field the record lacks, or a screen size of 0 (a desktop),
  is not checked.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Final

from pydantic import BaseModel, Field

from compose_response import context, money
from compose_response.against import Against, not_the_most, sectioned, set_against
from compose_response.amounts import other_prices
from compose_response.claims import (
    STOCK_KIND,
    StockSaid,
    author_claims,
    chip_claims,
    os_claims,
    stock_claims,
    year_claims,
)
from compose_response.compare import (
    MEMORY_FIELDS,
    Claim,
    Style,
    agrees,
    answer_style,
    as_number,
    display,
    field_of,
    foreign,
    record_value,
    rewrite,
)
from compose_response.known import KnownProducts
from compose_response.layout import Row, cells, listed_under, row_cells, table_rows
from compose_response.text import BULLET, CITATION, HEADING, kept_lines, segments
from compose_response.units import halfwidth, quantities
from shared.catalog.specs import AUTHOR, WEIGHT_KG
from shared.products.ledger import LedgerIndex, LedgerProduct
from shared.products.weight import DEFAULT_WEIGHT_UNIT

TRACE_STEP = "check_facts"
"""The ``tool`` of the trace line that lists the corrections (the page shows it apart)."""

# Invisible brackets around each rewritten value while sentences are removed and the
# text is tidied, so that its final offset can be read. Unicode noncharacters are
# reserved for a program's internal use; any in the model's text are removed first.
_OPEN, _CLOSE = "\ufdd0", "\ufdd1"


class Correction(BaseModel):
    """A fact in the model's answer that its product's ledger record contradicts."""

    productId: str
    field: Annotated[str, Field(description="The record's field: price, ramGb, weightKg, ...")]
    said: Annotated[str, Field(description="The model's words for the fact")]
    record: Annotated[str, Field(description="The record's value, as a shopper reads it")]
    text: Annotated[
        str | None, Field(description="What the answer says now; null when it was removed")
    ] = None
    dropped: Annotated[
        bool,
        Field(
            description="Removed: with its sentence, or alone when it was a conversion into "
            "another currency in brackets"
        ),
    ] = False
    start: Annotated[
        int | None,
        Field(description="Where ``text`` starts in ``answer``, in code points; null if cut"),
    ] = None


@dataclass(frozen=True)
class _Citation:
    start: int
    end: int
    mark: str
    """The citation's mark: the key of its record in the index."""


@dataclass
class _Checked:
    text: str
    corrections: list[Correction] = field(default_factory=list)
    dropped: bool = False


_STOCK_CONDITION = re.compile(r"\b(?:if|whether|unless|wenn|falls|ob)\b|かどうか|なら", re.I)
_WEAK_BREAK = re.compile(r"\s(?:and|und|or|oder|et|y|&)\s|と|及び|および|や", re.I)


# -- lists and tables ----------------------------------------------------------------------------

_BARE: Final = re.compile(r"[*_]*\d[\d.,]*[*_]*")
"""A cell that is a number alone, whose unit its header says."""
_TICKS: Final = {"✅": "in stock", "✔": "in stock", "✔️": "in stock", "✓": "in stock",
                 "☑": "in stock", "☑️": "in stock", "❌": "out of stock", "✗": "out of stock",
                 "✘": "out of stock", "✖": "out of stock"}  # fmt: skip
"""A mark in an availability cell, as the words it stands for."""
_AVAILABILITY: Final = re.compile(r"stock|avail|verfügbar|lager|disponib", re.IGNORECASE)


def _check_row(
    line: str, row: Row, index: LedgerIndex, style: Style, store: str, weight_unit: str
) -> _Checked:
    """A table's row, each of ``row``'s cells checked as its product's value under its label
    (:mod:`compose_response.layout`). A cell the check would take a sentence away for takes
    its row; a number alone gets its header's unit to be read."""
    written = cells(line)
    checked_cells = list(written)
    corrections: list[Correction] = []
    for cell in row.cells:
        value = written[cell.at].strip()
        said = _TICKS.get(value, value) if _AVAILABILITY.search(cell.label) else value
        if not said:
            continue
        suffix = f" {cell.unit}" if cell.unit and _BARE.fullmatch(said) else ""
        prefix = f"{cell.mark} {cell.label}: "
        checked = _check_segment(prefix + said + suffix, index, style, store, weight_unit)
        for correction in checked.corrections:
            # as the cell says it, without the unit its header gave it
            if suffix and correction.said.endswith(suffix):
                correction.said = correction.said[: -len(suffix)]
            if suffix and correction.text and correction.text.endswith(suffix):
                correction.text = correction.text[: -len(suffix)]
        corrections += checked.corrections
        if checked.dropped:
            return _Checked(line, corrections, dropped=True)
        if checked.corrections:
            text = checked.text[len(prefix) :]
            if suffix and text.endswith(suffix + _CLOSE):
                text = text[: -len(suffix) - 1] + _CLOSE
            elif suffix and text.endswith(suffix):
                text = text[: -len(suffix)]
            checked_cells[cell.at] = written[cell.at].replace(value, text, 1)
    if not corrections:
        return _Checked(line)
    lead = line[: len(line) - len(line.lstrip())] + ("|" if line.strip().startswith("|") else "")
    tail = "|" if line.strip().endswith("|") and len(line.strip()) > 1 else ""
    return _Checked(lead + "|".join(checked_cells) + tail, corrections)


# -- reading one sentence ------------------------------------------------------------------------


def _owner(claim: Claim, cited: list[_Citation], view: str, index: LedgerIndex) -> str | None:
    """The product a claim is about, by the rule in the module docstring; None when unsure."""
    before = [c for c in cited if c.end <= claim.start]
    after = [c for c in cited if c.start >= claim.end]
    if not before or not after:
        return (after[0] if not before else before[-1]).mark
    previous, following = before[-1], after[0]
    if index[previous.mark].productId == index[following.mark].productId:
        return previous.mark  # one product, cited and named, or cited twice
    between = view[previous.end : following.start]
    aside = re.match(r"\s*\([^()]*\)", between)
    if aside and claim.end <= previous.end + aside.end():
        return previous.mark  # "[CMP-023] (8 GB RAM, 1.4 kg)"
    breaks = list(context.clause_breaks(between)) or list(_WEAK_BREAK.finditer(between))
    if not breaks:
        return None
    edges = [0, *(b for m in breaks for b in (m.start(), m.end())), len(between)]
    pieces = [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]
    content = [p for p in pieces if re.search(r"\w", between[p[0] : p[1]])]
    if not content:
        return None
    first, last = content[0], pieces[-1]
    at = claim.start - previous.end
    if first != last and first[0] <= at < first[1]:
        return previous.mark
    if first != last and last[0] <= at < last[1]:
        return following.mark
    return None


_ARTICLE: Final = r"(?:the|die|der|das|den|dem|le|la|les|el|los|las)"
_AND: Final = r"(?:and|&|und|et|y)"
_LIST_START: Final = re.compile(
    rf"^[\s*_•-]*(?:(?:both|all|beide|alle|tous|ambos)\s+)?{_ARTICLE}?\s*$", re.I
)
"""What may open a sentence before its list of products: "Both the", "The"."""
_LIST_JOINT: Final = re.compile(rf"^[\s*_]*(?:,\s*(?:{_AND}\s+)?|{_AND}\s+){_ARTICLE}?\s*$", re.I)
"""What may stand between two products of one list: ", ", " and the"."""
_SHARED: Final = re.compile(
    r"^[\s*_]*(?:(?:are|were|both|all|each|now|currently|still|also|sind|beide|alle|jetzt|"
    r"sont|tous|les|deux|están|ambos)\b[\s*_]*)+$",
    re.I,
)
"""What may stand between a list and the stock it says all of them have: "are both"."""
_PRICED: Final = re.compile(
    r"^[\s*_]*(?:(?:are|both|all|each|cost|priced|at|sell|for|just|only|kosten|beide|jeweils|"
    r"coûtent|tous|les|deux|cuestan|ambos)\b[\s*_]*)+$",
    re.I,
)
"""What may stand between a list and the one price it says all of them have: "both cost"."""
_ALL_OF_THEM: Final = re.compile(r"\b(?:both|each|all|beide|jeweils|tous|ambos)\b", re.I)
_EACH_ITS_OWN: Final = re.compile(
    r"\b(?:respectively|jeweils|respectivement|respectivamente)\b", re.I
)


def _a_list(view: str, cited: list[_Citation], index: LedgerIndex) -> bool:
    """Whether the products ``view`` cites open it as one list of two or more ("The Dell
    XPS 13 [..] and the iMac 24 [..] ..."), not one set apart from the others ("Unlike the
    iMac 24 [..], the XPS [..] and the HP [..] ...", "... cost $349 and $649 respectively")."""
    if len({index[c.mark].productId for c in cited}) < 2 or _EACH_ITS_OWN.search(view):
        return False
    # What opens the list's clause: "Tell the shopper: the Dell XPS 13 [..] and ...".
    if not _LIST_START.match(re.split(r"[:;,\u2013\u2014]", view[: cited[0].start])[-1]):
        return False
    return all(
        _LIST_JOINT.match(view[one.end : other.start])
        for one, other in itertools.pairwise(cited)
        if index[one.mark].productId != index[other.mark].productId
    )


def _all_of(lead: str, verb: str) -> bool:
    """Whether the words ``lead`` before a stock claim, or the claim's first word ``verb``
    when none stand there, say it of every product of a list: "are both", "are"."""
    return bool(_SHARED.match(lead) or (not lead.strip() and _SHARED.match(verb)))


def _owners(
    claim: Claim, cited: list[_Citation], view: str, index: LedgerIndex, prices: int
) -> list[str]:
    """The products a claim is said of together: each of a list that opens the sentence,
    for its stock when only words such as "are both" stand between ("The Dell XPS 13 [..]
    and the iMac 24 [..] are both in stock"), for its one price (``prices``: how many the
    sentence states) when "both", "each" or "all" says so ("... both cost $649", "... are
    $649 each"). Empty for a claim of one product."""
    if any(c.end > claim.start for c in cited) or not _a_list(view, cited, index):
        return []
    lead = view[cited[-1].end : claim.start]
    if claim.kind == STOCK_KIND:
        # The claim's own first word may be the list's verb: "... are both available".
        verb = view[claim.start : claim.end].split(maxsplit=1)[0]
        # Or a verb of its own after another: "... cost $2,598 for both and are both in stock".
        tail = "" if any(context.clause_breaks(lead)) else re.split(r"\sand\s", lead)[-1]
        shared = _all_of(lead, verb) or (
            tail != lead
            and _all_of(tail, verb)
            and bool(re.search(r"\b(?:both|all)\b", tail + view[claim.start : claim.end], re.I))
        )
    elif claim.kind == "price" and prices == 1:
        around = lead + view[claim.end : claim.end + 12]
        shared = bool(
            _PRICED.match(lead) and (_ALL_OF_THEM.search(around) or PER_ITEM.match(view, claim.end))
        )
    else:
        shared = False
    return list({index[c.mark].productId: c.mark for c in cited}.values()) if shared else []


_TOTAL: Final = (
    r"(?:together|combined|altogether|all\s+told|in\s+(?:total|all)|(?:the\s+|a\s+)?total|"
    r"for\s+(?:both|the\s+(?:two|three|pair|set|lot)|all\s+(?:two|three|of\s+them))|"
    r"bundle|comes?\s+to|adds?\s+up\s+to|zusammen|insgesamt|(?:au|en)\s+total|en\s+tout|"
    r"ensemble|juntos)"
)
"""Words that make a price the sum of several products': "together", "in total", "for both"."""
TOTAL_SAID: Final = re.compile(rf"\b{_TOTAL}\b", re.I)
_TOTAL_AFTER: Final = re.compile(rf"[\s*_]*{_TOTAL}\b", re.I)
_TOTAL_START: Final = re.compile(
    r"(?:^[\s*_•-]*(?:(?:so|and|then|(?:together|zusammen|ensemble|juntos)\s+\w+)\s+)?|"
    r"\b(?:total\s+(?:for|of)|buy(?:ing)?|get(?:ting)?|order(?:ing)?|pair)\s+)"
    rf"(?:(?:both|all|all\s+three)\s+)?{_ARTICLE}?\s*$",
    re.I,
)
"""How the clause of products whose total is said may open: "The", "so the", "The total
for the", "you could get both the", "Zusammen kosten der"."""
_TOTAL_JOINT: Final = re.compile(
    rf"^[\s*_]*(?:,\s*(?:{_AND}\s+)?|(?:{_AND}|plus)\s+|\+\s*){_ARTICLE}?\s*$", re.I
)
_TOTAL_LEAD: Final = re.compile(
    rf"^(?:[\s*_:=,\u2013\u2014-]|\b(?:{_TOTAL}|would|will|cost|costs|costing|come|comes|to|a|"
    r"of|is|are|be|both|and|now|in\s+stock|available|they|just|only|for|pay|you|you'd|you'll|"
    r"work|out|runs?|sets?|back|adds?|up|about|around|roughly|kosten|coûtent|cuestan|"
    r"(?:before|excluding|excl\.|without|not\s+including)\s+(?:shipping|delivery|tax(?:es)?))\b)*$",
    re.I,
)
"""What may stand between the products and the total said of them: " together cost "."""
_SUMMED: Final = re.compile(
    r"^\s*(?:so|or|that's|that\s+is|which\s+is|making\s+it|i\.e\.|=)?\s*"
    r"(?:just|only|about|around|roughly)?\s*$",
    re.I,
)
"""A clause that holds only the total, after the products' own prices: ", so $1,648"."""


def _totalled(
    claim: Claim, cited: list[_Citation], view: str, index: LedgerIndex, store: str
) -> list[str]:
    """The products a price is said to be the total of: two or more that open its clause
    as one list, with only words such as "together cost" between them and the price, and
    words of a total there, right after the price or opening the sentence ("The XPS 13 [..]
    and the HP 14 [..] together cost $1,648", "... cost $1,648 in total", "Together, the
    XPS 13 [..] and the HP 14 [..] cost $1,648"). Empty otherwise."""
    listed = [c for c in cited if c.end <= claim.start]
    marks = list({index[c.mark].productId: c.mark for c in listed}.values())
    if claim.kind != "price" or len(marks) < 2 or _EACH_ITS_OWN.search(view):
        return []
    pieces = re.split(r"[:;,\u2013\u2014]", view[: listed[0].start])
    lead = view[listed[-1].end : claim.start]
    after = _TOTAL_AFTER.match(view, claim.end)
    if after and _SUMMED.match(context.clause_before(view, claim.start)):
        return marks  # "... costs $1,299 and the HP 14 [..] $349, so $1,648 for both"
    joints = [
        view[one.end : other.start]
        for one, other in itertools.pairwise(listed)
        if index[one.mark].productId != index[other.mark].productId
    ]
    if re.search(r"=[\s*_]*$", lead) and all("+" in joint for joint in joints):
        return marks  # a sum written out: "X [..] + Y [..] = $1,148", "X [..] ($349) + ..."
    if not (
        _TOTAL_START.search(pieces[-1])
        and _TOTAL_LEAD.match(lead)
        and all(_TOTAL_JOINT.match(joint) for joint in joints)
    ):
        return []
    opening = pieces[-2] if len(pieces) > 1 else ""
    opened = len(opening) < 32 and not re.search(r"\d", opening) and TOTAL_SAID.search(opening)
    # Their sum exactly, with no word of a total: "the XPS 13 [..] and the HP 14 [..] are $1,648"
    summed = _sum_of(marks, index)
    exact = (
        summed is not None
        and agrees(claim, "price", summed, store)
        and not re.search(
            r"\b(?:both|each|all)(?:\s+(?:cost|costs|are|be|priced|at|just|only))*[\s*_]*$",
            lead,
            re.I,
        )
        and not PER_ITEM.match(view, claim.end)
    )
    return marks if TOTAL_SAID.search(lead + pieces[-1]) or after or opened or exact else []


PER_ITEM: Final = re.compile(
    r"[\s*_]*(?:each|apiece|a\s+piece|per\s+\w+|/\s*ea\b|jeweils|chacun|cada\s+uno)\b", re.I
)
"""Words after a price that make it each one's ("$1,648 each"), not a total."""


_COUNTS: Final = {"both": 2, "two": 2, "beide": 2, "deux": 2, "ambos": 2, "three": 3, "four": 4}
_COUNTED: Final = re.compile(
    r"\b((?:all|the|these|those)\s+(?:two|three|four)|both|beide|les\s+deux|ambos)\b",
    re.IGNORECASE,
)
"""Words that count the products a total is of: "both", "all three"."""
WITH_MORE: Final = re.compile(
    r"\b(?:with|including|incl\.?|inc\.?|plus|after|and)\s+(?:\w+\s+)?(?:tax(?:es)?|vat|"
    r"shipping|delivery|postage|handling|fees?)\b|\b(?:tax(?:es)?|vat|shipping|delivery)\s+"
    r"(?:is\s+|are\s+)?included\b|\+\s*(?:tax|vat|shipping)",
    re.IGNORECASE,
)
"""Words that put tax or shipping in a total ("with tax", "shipping included")."""
_ALL_CITED: Final = re.compile(
    r"^[\s*_]*(?:(?:so|and|then)\s+)?(?:(?P<together>(?:taken\s+)?together|combined|"
    r"altogether|all\s+told)|in\s+total)?[\s,]*"
    r"(?:(?P<plural>they|it\s+all|the\s+(?:pair|lot|set))\b|"
    r"(?:that|this)(?=\s*['\u2019]s\b|\s+(?:is|comes?|adds?|makes?|brings?|would|will|totals?|"
    r"works)\b)|you(?=(?:['\u2019](?:d|ll)|\s+(?:would|will|could|can))?\s+(?:pay|spend)\b)|"
    r"(?(together)(?::|is|comes\s+to|would\s+be|will\s+be)\s*$|(?!)))",
    re.IGNORECASE,
)
"""A sentence or clause that opens on a word for every product the answer cites ("Together
they cost", "Combined, they come to", "Together, that's", "So together you'd pay",
"Altogether:", "..., that comes to"); not "That one", "That Dell", "This model", which
point at one. "You'd pay" needs a word of togetherness too (:data:`_TOGETHER`)."""
_TOGETHER: Final = re.compile(
    r"\b(?:together|combined|altogether|all\s+told|both|all\s+(?:two|three|four)|the\s+pair)\b",
    re.I,
)
_CHOSEN: Final = re.compile(
    r"\b(?:over|rather\s+than|instead\s+of|not\s+the|versus|vs\.?|than)\b", re.I
)
"""Words that pick one product of those cited ("the XPS over the HP"): no total of both."""
_EXTRAS: Final = re.compile(
    r"\btogether\s+with\b|\bwith\s+(?:a|an|the|everything|all|some|its|their)\b|"
    r"\bplus\s+(?:a|an|the)\b|\bincl(?:uding|\.)?\b",
    re.I,
)
"""Words that put something more in a total ("with a case", "together with AppleCare")."""
_COUNT_WORD: Final = re.compile(r"\b(?:two|three|four|both)\b", re.I)


def _of_them_all(
    sentence: str, before: str, after: str, cited: set[str], index: LedgerIndex
) -> bool:
    """Whether a total's sentence says it of every product cited (``cited``) with a word
    for them all: "they", "the pair", or "that" with a word of togetherness ("Together,
    that's") or with them all named in the sentence ("If you buy the XPS and the HP, that
    comes to"); not when it names fewer, counts another number ("three of them"), picks one
    ("the XPS over the HP") or adds something to them ("together with AppleCare")."""
    opens = _ALL_CITED.search(sentence) or _ALL_CITED.search(before)
    if opens is None:
        return False
    said = f"{sentence} {after}"
    around = _named_in(said, index)
    if (around and around != cited) or _CHOSEN.search(said) or _EXTRAS.search(said):
        return False
    if any(_COUNTS[w.casefold()] != len(cited) for w in _COUNT_WORD.findall(said)):
        return False
    return bool(opens["plural"] or _TOGETHER.search(said) or around == cited)


_ROUGHLY: Final = re.compile(
    r"\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|under|over|just\s+over|"
    r"just\s+under|ca\.?|circa|etwa|environ|unos|unas)[\s*_]*$|~[\s*_]*$",
    re.IGNORECASE,
)
_SUM_SAID: Final = re.compile(
    rf"\b{_TOTAL}\b|\b(?:both|all\s+(?:two|three|four)|the\s+(?:two|three|four))[\s*_]*[:=][\s*_]*$",
    re.I,
)
"""Words before a price that say it is what several cost: "in total", "all three:" (not
"both cost", which is each one's price)."""


def summed_of_some(claim: Claim, view: str, index: LedgerIndex, store: str) -> bool:
    """Whether the price ``claim`` of ``view`` is said as the total (a word of one before
    it in its clause, or right after it) of products the answer cites, and is exactly their
    sum: two or more it names in that clause, by name or by the brand of one of them
    ("Total for the XPS and the HP: $1,648"), or all of them, counted ("Buying both comes to
    $1,648" of two, "All three: $2,947" of three, "If you buy both, that comes to $1,648")
    or said in a sentence that opens on a word for them all ("Together they cost $1,648").
    Not a total with tax or shipping in it, nor one said roughly."""
    if claim.kind != "price" or PER_ITEM.match(view, claim.end):
        return False
    before = context.clause_before(view, claim.start)
    # "If you buy both, that comes to $1,648": the sentence may count them before the clause
    sentence = re.split(r"(?<=[.!?])\s+|\n", view[: claim.start])[-1]
    of_all = bool(_ALL_CITED.search(sentence) and TOTAL_SAID.search(sentence))
    if not (_SUM_SAID.search(before) or _TOTAL_AFTER.match(view, claim.end) or of_all):
        return False
    if WITH_MORE.search(view) or _ROUGHLY.search(before):
        return False
    products = {p.productId: p for p in index.values()}
    named = _named_in(before, index)
    counted = _COUNTED.search(f"{sentence} {context.clause_after(view, claim.end)}")
    if len(named) >= 2:
        chosen = named
    elif named:
        return False  # "The XPS 13 costs $1,648 for both" is said of one product
    elif counted and _COUNTS[counted[1].casefold().split()[-1]] == len(products):
        chosen = set(products)
    elif len(products) >= 2 and _of_them_all(
        sentence, before, context.clause_after(view, claim.end), set(products), index
    ):
        chosen = set(products)  # "Together they cost $1,648"
    else:
        return False
    prices = [as_number(record_value(products[pid], "price")) for pid in chosen]
    return None not in prices and agrees(
        claim, "price", sum(p for p in prices if p is not None), store
    )


def _named_in(text: str, index: LedgerIndex) -> set[str]:
    """The products ``text`` names: by their marks, or by a brand only one of them has,
    said alone ("the HP", not "a Dell dock")."""
    named = {index[m[1]].productId for m in CITATION.finditer(text) if m[1] in index}
    by_brand: dict[str, set[str]] = {}
    for product in index.values():
        if product.brand:
            by_brand.setdefault(product.brand.casefold(), set()).add(product.productId)
    for said in re.finditer(r"[^\W\d_][\w&'-]*", text):
        owners = by_brand.get(said[0].casefold(), set())
        alone = re.match(
            r"\s*(?:$|[,:;)]|(?:and|or|plus|with|together|\+|&)\b)", text[said.end() :]
        )
        if len(owners) == 1 and alone:
            named |= owners
    return named


def _sum_of(marks: list[str], index: LedgerIndex) -> float | None:
    """What the products of ``marks`` cost together; None when a record has no price."""
    prices = [as_number(record_value(index[m], "price")) for m in marks]
    return None if None in prices else sum(p for p in prices if p is not None)


def _a_total(claim: Claim, marks: list[str], index: LedgerIndex, store: str) -> bool:
    """Whether the price ``claim`` says is what the products of ``marks`` cost together,
    or what each of them costs ("$1,299 for both" of two at $1,299)."""
    summed = _sum_of(marks, index)
    if summed is None:
        return True  # a price the record lacks is unknown, and so is the sum
    return agrees(claim, "price", summed, store) or all(
        agrees(claim, "price", as_number(record_value(index[m], "price")), store) for m in marks
    )


def _claims(view: str, cited: list[_Citation], index: LedgerIndex, store: str) -> list[Claim]:
    records = [index[c.mark] for c in cited]
    surnames: list[str | None] = [
        str(a).split()[-1] for r in records if (a := record_value(r, AUTHOR.key)) and str(a).split()
    ]
    names = [r.name for r in records]
    amounts = [*quantities(view, names), *other_prices(view, store)]
    claims = [Claim(q.kind, q.start, q.end, quantity=q) for q in amounts]
    words = [*os_claims(view), *stock_claims(view), *year_claims(view), *chip_claims(view)]
    for surname in surnames or [None]:
        words += author_claims(view, surname=surname)
    claims += [Claim(w.kind, w.start, w.end, word=w) for w in words]
    # Not a fact: anything inside a citation or inside a cited product's own name.
    blocked = [(c.start, c.end) for c in cited]
    for record in records:
        name = record.name.strip()
        for found in re.finditer(re.escape(name), view, re.IGNORECASE) if name else ():
            blocked.append(found.span())
    kept: list[Claim] = []
    for claim in sorted(claims, key=lambda c: (c.start, -(c.end - c.start))):
        if any(claim.start < b and a < claim.end for a, b in blocked):
            continue
        if kept and claim.start < kept[-1].end:
            continue
        kept.append(claim)
    return kept


_STOCK_AND: Final = (
    r"(?:in\s+stock|available|auf\s+lager|lieferbar|verfügbar|en\s+stock|disponibles?)"
    rf"\s*,?\s*{_AND}\s+(?:(?:both|all|beide|alle|tous\s+deux|ambos)\s+)?"
    r"(?:(?:costs?|is|are|kostet|kosten|ist|coûte|est|cuesta|es)\s+)?"
)
"""A stock said before a limit, joined to it: "in stock and under $1,000", "auf Lager und
kostet unter 400 $"; the stock check reads the stock as it reads any."""
_AT_MOST: Final = re.compile(
    r"[\s*_)]*(?:(?P<negated>(?:is|are)n['\u2019]t(?:\s+priced)?|"
    r"(?:does|do)(?:n['\u2019]t|\s+not)\s+(?:cost|come\s+in)|"
    r"n['\u2019]est\s+pas|ne\s+coûte\s+pas|no\s+(?:es|está|cuesta))|"
    r"is|are|costs?|is\s+priced|priced|sells\s+for|comes\s+in|"
    r"ist|kostet|liegt|est|coûte|cuesta|está|es)\s+(?:(?:à|a|bei)\s+)?"
    r"(?P<not>[*_]*(?:not|nicht|no\s+longer|nicht\s+mehr)[*_]*\s+)?"
    rf"(?:{_STOCK_AND})?"
    r"(?:(?:now|today|currently|this\s+week|jetzt|heute|derzeit|aktuell|gerade|diese\s+woche|"
    r"maintenant|aujourd'hui|actuellement|cette\s+semaine|ahora|hoy|esta\s+semana)\s+)?"
    r"(?:well\s+|just\s+|still\s+|deutlich\s+|noch\s+|bien\s+)?"
    r"(?:(?P<most>under|below|less\s+than|at\s+most|no\s+more\s+than|"
    r"unter|weniger\s+als|höchstens|moins\s+de|sous(?:\s+les)?|(?:en|au)[\s-]dessous\s+de|"
    r"au\s+plus|menos\s+de|por\s+debajo\s+de(?:\s+l[oa]s)?|como\s+máximo)|"
    r"(?P<least>over|above|more\s+than|at\s+least|über|mehr\s+als|mindestens|plus\s+de|"
    r"(?:en|au)[\s-]dessus\s+de|au\s+moins|más\s+de|por\s+encima\s+de(?:\s+l[oa]s)?|"
    r"al\s+menos|como\s+mínimo))\s*[*_]*",
    re.IGNORECASE,
)
"""A product's own price said as a limit, right after the product: "[..] is under $400",
"[..] costs less than $500", "[..] is over $1,000", "[..] kostet unter 400 $", "[..]
coûte moins de 400 $", "[..] cuesta menos de 400 $"; or said to be past it ("[..] is not
under $400", "[..] isn't under $400", "[..] no cuesta menos de 400 $": the other way)."""
_THE_PRODUCT: Final = re.compile(
    r"^[\s\d.*_#>•-]*(?:(?:unfortunately|sadly|however|also|so|yes|no|good\s+news|"
    r"great\s+news|leider|malheureusement|lamentablemente|desafortunadamente),?\s+)?"
    r"(?:(?:the\s+)?(?:[^\W\d_]|\[)[^,;:&+]*)?$",
    re.IGNORECASE,
)
"""The words of a sentence before the product it is about: its name, else nothing."""
_OF_ANOTHER: Final = re.compile(
    r"\b(?:for|of|with|on|to|in|from|than|and|plus|or|per|vs|not|no|never|nothing|if|"
    r"unless|would|could|might|may|"
    r"für|mit|von|vom|zum|zur|ohne|als|und|oder|nicht|kein\w*|wenn|pour|avec|sans|de|du|des|"
    r"que|et|ou|ne|pas|si|para|con|sin|del|y|o|ni|nunca)\b|n['\u2019]t\b|\bd['\u2019]",
    re.IGNORECASE,
)
"""Words before the product that make the price another thing's, or no price said: "a
sleeve for the XPS", "une housse pour le", "wenn", "not"."""
_NOTHING_MORE: Final = re.compile(
    r"[\s*_]*(?:(?:right\s+)?now|today|currently|at\s+the\s+moment|this\s+week|any\s?more|"
    r"these\s+days|jetzt|"
    r"heute|derzeit|aktuell|maintenant|aujourd'hui|actuellement|ahora|hoy|actualmente)?[\s*_]*"
    r"(?:,?\s*(?:and|&)\s+(?:(?:is|are)\s+)?(?:both\s+|all\s+)?(?:in\s+stock|available)[\s*_]*)?"
    r"(?:[.!]|$)",
    re.IGNORECASE,
)
"""What may follow a limit of the product's price: a time it holds at, its stock ("and
in stock"), which the stock check reads."""


def _price_bound(
    claim: Claim, view: str, cited: list[_Citation], index: LedgerIndex
) -> tuple[str, str] | None:
    """The product's mark and ``most`` or ``least`` where ``claim`` is a price said as a
    limit of the product's
    own price, the product the whole subject of its sentence and the limit all that is
    said of it ("The XPS 13 [..] is under $400."); else None: not an accessory's price ("A
    sleeve for the XPS [..] is under $30"), a difference ("less than $150 more than"), a
    total, a price with tax or of another version ("for the base model"), nor a limit
    negated or wished."""
    if claim.kind != "price":
        return None
    before = [c for c in cited if c.end <= claim.start]
    if not before:
        return None
    product = before[-1]
    said = _AT_MOST.fullmatch(view, product.end, claim.start)
    sentence = re.split(r"[.!?:]\s|\n", view[: product.start])[-1]  # "Note: the XPS..."
    if said is None or not _THE_PRODUCT.match(sentence) or _OF_ANOTHER.search(sentence):
        return None
    owner = index[product.mark].productId
    if any(m[1] in index and index[m[1]].productId != owner for m in CITATION.finditer(sentence)):
        return None  # another product named before it
    if not _NOTHING_MORE.match(view, claim.end):
        return None
    most = bool(said["most"]) != bool(said["negated"] or said["not"])  # "not under": at least
    return product.mark, "most" if most else "least"


_SPEC_LIMIT: Final = re.compile(
    r"(?<!\w)(?:(?P<most>under|below|less\s+than|lighter\s+than|at\s+most|no\s+more\s+than|"
    r"unter|weniger\s+als|höchstens|moins\s+de|menos\s+de)|"
    r"(?P<least>over|above|more\s+than|at\s+least|no\s+less\s+than|upwards\s+of|über|"
    r"mehr\s+als|mindestens|plus\s+de|au\s+moins|más\s+de|al\s+menos))[\s*_]*$",
    re.IGNORECASE,
)
"""A limit said right before a spec: "under 1 kg", "more than 32 GB", "at least 15 hours"."""
_ITS_OWN_SPEC: Final = frozenset(
    re.findall(
        r"\w+",
        "weighs weigh weighing has have comes come with offers packs lasts last runs run gets "
        "keeps going delivers boasts features sports is are it its a an the just only well of "
        "that which for battery life ram memory storage ssd screen display camera sensor weight "
        "wiegt hat bietet hält mit der die das ein eine einen einem akku speicher "
        "arbeitsspeicher pèse a offre avec une le la sa son de batterie écran pesa tiene ofrece "
        "con un una el su batería pantalla",
    )
)
"""The words that may stand between a product and a limit of its own spec ("[..] weighs",
"[..] has a battery that lasts for", "[..]: "): anything else makes the limit another's
("a charger under 200 g", "the LG Gram weighs under 1 kg", "supports more than 16 GB")."""
_NOT_ITS_LIMIT: Final = re.compile(
    r"\b(?:with|including|inkl\w*|mit|avec|con|charger|case|dock|if|when|for\s+(?:anyone|those|"
    r"people|users|you))\b",
    re.IGNORECASE,
)
"""Words after a limit that make it another weight or a need: "over 1.3 kg with the
charger", "at least 16 GB for anyone who edits video"."""
_SPEC_KINDS: Final = frozenset({"weight", "data", "hours", "inches", "mp", "mah"})


def _spec_bound(
    claim: Claim, view: str, cited: list[_Citation], index: LedgerIndex
) -> tuple[str, str, str] | None:
    """The product's mark, its field and ``most`` or ``least`` where ``claim`` is a spec
    said as a limit of the product's own, right after it ("The XPS 13 [..] weighs under
    1 kg", "[..] has more than 32 GB of RAM"); else None: a limit of what someone needs,
    of other products, negated or wished, or a spec the words do not say which of."""
    if claim.kind not in _SPEC_KINDS or claim.quantity is None:
        return None
    limit = _SPEC_LIMIT.search(view, 0, claim.start)
    before = [c for c in cited if c.end <= claim.start]
    if limit is None or not before:
        return None
    product = before[-1]
    between = view[product.end : limit.start()]
    words = re.findall(r"[^\W\d_]+", between.casefold())
    if len(between) > 48 or re.search(r"[.;!?,]", between) or not set(words) <= _ITS_OWN_SPEC:
        return None
    around = context.clause_before(view, claim.start), context.clause_after(view, claim.end)
    if claim.kind == "data":
        claim.role = context.memory_role(*around)
    if claim.kind == "hours" and not context.about_battery(view, *around):
        return None
    key = field_of(claim, index[product.mark])
    if key is None or _NOT_ITS_LIMIT.search(around[1]):
        return None
    return product.mark, key, "most" if limit["most"] else "least"


def _keeps(claim: Claim, key: str, value: Any, way: str) -> bool:
    """Whether the record's ``value`` of ``key`` keeps the limit ``claim`` says (a value at
    the limit does: "under 1.2 kg" of 1.2 kg is close enough to stand)."""
    record, quantity = as_number(value), claim.quantity
    if record is None or quantity is None:
        return True
    said = quantity.value
    if claim.kind == "data":
        # a TB is 1000 GB or 1024: the one that keeps the limit
        amount = quantity.value / quantity.unit.factor
        terabyte = quantity.unit.name == "TB"
        said = amount * (1024 if way == "most" else 1000) if terabyte else amount
    if claim.kind == "weight" and key != WEIGHT_KG.key:
        record /= 1000  # a record in grams; a weight said is in kg
    return record <= said * 1.001 if way == "most" else record >= said * 0.999


def stated(claim: Claim, segment: str) -> bool:
    """False when the words around the claim say it is not the product's value.

    Also notes what those words tell about the claim: which memory a GB amount is,
    and whether the value is approximate.
    """
    before = context.clause_before(segment, claim.start)
    after = context.clause_after(segment, claim.end)
    if claim.kind == "stock":
        return not _STOCK_CONDITION.search(before + after)
    if context.GUARDS.not_stated.around(before, after):
        return False
    if claim.quantity is None:
        return True
    if context.not_a_value(before, after, battery=claim.kind == "hours"):
        return False
    if claim.kind == "price" and context.GUARDS.other_price.around(before, after):
        return False
    if claim.kind == "price" and context.GUARDS.earlier_price.around(before, after):
        claim.role = context.EARLIER_PRICE
    if claim.kind == "hours" and not context.about_battery(segment, before, after):
        return False
    if claim.kind == "mp" and context.other_camera(before, after):
        return False
    if claim.kind == "data":
        claim.role = context.memory_role(before, after)
        if claim.role == context.OTHER_MEMORY:
            return False
    claim.approx = context.GUARDS.approximate.around(before, after)
    return True


def _conversion_aside(claim: Claim, view: str) -> tuple[int, int] | None:
    """The span of a bracketed aside that holds nothing but ``claim`` and a few words
    ("(about €320)", "(etwa 320 €)"), with the space before it; None if it is not one."""
    opening = view.rfind("(", 0, claim.start)
    closing = view.find(")", claim.end)
    if opening < 0 or closing < 0 or ")" in view[opening : claim.start]:
        return None
    if "(" in view[claim.end : closing]:
        return None
    words = view[opening + 1 : claim.start] + view[claim.end : closing]
    if re.search(r"\d", words) or len(words) > 24:
        return None
    while opening > 0 and view[opening - 1] in " \u00a0":
        opening -= 1
    return opening, closing + 1


_TAKEN_BACK: Final = re.compile(
    r"\b(?:sorry|I\s+mean[t]?|correction|make\s+that|scratch\s+that|oops|my\s+mistake|"
    r"I\s+misspoke|typo|entschuldigung|ich\s+meine|pardon|perd[oó]n)\b[^.!?$€£¥₹\d]{0,24}$"
    r"|(?:^|[,;:\u2013\u2014-])\s*(?:but\s+)?(?:now|today)\s+(?:only|just)\s*$",
    re.IGNORECASE,
)
"""Words that take back a price just said, or make another the one to pay now: "$1,299,
sorry, I mean $199", "$1,299, now only $199" (not "the dock is now only $199")."""
_BEFORE_NOW: Final = re.compile(
    r"\b(?:ago|last\s+(?:year|month|week|spring|summer|fall|autumn|winter)|at\s+launch|"
    r"launched|in\s+(?:19|20)\d\d|previous\s+(?:model|generation)|predecessor)\b",
    re.IGNORECASE,
)
"""Words that date a price before to another time than a sale's: "a year ago it was"."""


def _lead(view: str, claim: Claim) -> str:
    """The few words before ``claim`` in its sentence."""
    return view[max(0, claim.start - 40) : claim.start]


def _above(claim: Claim, value: Any) -> bool:
    """Whether the price ``claim`` says is above ``value``, the record's price."""
    said = claim.quantity.value if claim.quantity is not None else None
    price = as_number(value)
    return said is not None and price is not None and said > price


def _check_segment(
    segment: str,
    index: LedgerIndex,
    style: Style,
    store: str,
    weight_unit: str,
    kinds: frozenset[str] | None = None,
    limits_only: bool = False,
) -> _Checked:
    """``segment`` checked against the products it cites; only claims of ``kinds``, if given,
    and only specs said as limits of the product's own, if ``limits_only``."""
    view = halfwidth(segment)
    cited = [
        _Citation(m.start(), m.end(), m[1]) for m in CITATION.finditer(segment) if m[1] in index
    ]
    if not cited:
        return _Checked(segment)
    wrong: list[tuple[Claim, str, str]] = []
    agreeing: set[tuple[str, str]] = set()  # (productId, field)
    shared: set[int] = set()  # claims said of several products, wrong for one of them
    totals: list[tuple[Claim, list[str]]] = []  # prices said to be a sum, and wrong
    claims = _claims(view, cited, index, store)
    prices = sum(1 for claim in claims if claim.kind == "price")
    for claim in claims if kinds is None else [c for c in claims if c.kind in kinds]:
        if limits_only and _spec_bound(claim, view, cited, index) is None:
            continue
        if (bounded := _price_bound(claim, view, cited, index)) is not None:
            # "The XPS 13 [..] is under $400": a limit its price must keep; wrong, it goes.
            its, way = bounded
            price = as_number(record_value(index[its], "price"))
            limit = claim.quantity.value if claim.quantity else None
            if price is not None and limit is not None and not foreign(claim, store):
                kept = price <= limit if way == "most" else price >= limit
                if not kept:
                    wrong.append((claim, its, "price"))
                    shared.add(claim.start)
            continue
        if (limited := _spec_bound(claim, view, cited, index)) is not None:
            # "The XPS 13 [..] weighs under 1 kg": a limit its spec must keep; wrong, it goes.
            its, limited_field, way = limited
            if not _keeps(claim, limited_field, record_value(index[its], limited_field), way):
                wrong.append((claim, its, limited_field))
                shared.add(claim.start)
            continue
        if not stated(claim, view):
            continue
        if marks := _totalled(claim, cited, view, index, store):
            # What several cost together is no product's price: it is their sum, or it goes.
            if not _a_total(claim, marks, index, store):
                totals.append((claim, marks))
            continue
        if summed_of_some(claim, view, index, store):
            continue  # "Total for the XPS and the HP: $1,648", of two of the three shown
        if owners := _owners(claim, cited, view, index, prices):
            # Said of them all: wrong for any, it is no fact of theirs.
            for mark in owners:
                record = index[mark]
                key = field_of(claim, record)
                if key is None:
                    continue
                if agrees(claim, key, record_value(record, key), store):
                    agreeing.add((record.productId, key))
                else:
                    wrong.append((claim, mark, key))
                    shared.add(claim.start)
            continue
        owner = _owner(claim, cited, view, index)
        if owner is None:
            continue
        record = index[owner]
        if claim.kind == "data" and claim.role is None:
            # No word says which: it is fine if it is either, and too unclear to correct.
            for spec in MEMORY_FIELDS:
                value = record_value(record, spec)
                if as_number(value) is not None and agrees(claim, spec, value):
                    agreeing.add((record.productId, spec))
            continue
        key = field_of(claim, record)
        if key is None:
            continue
        if agrees(claim, key, record_value(record, key), store):
            agreeing.add((record.productId, key))
        else:
            wrong.append((claim, owner, key))
    checked = _Checked(segment)
    edits: list[tuple[int, int, str | None]] = []
    for claim, owner, key in wrong:
        value = record_value(index[owner], key)
        said = segment[claim.start : claim.end]
        aside = None
        # A stock said twice of one product is never about something else: "in stock
        # (only 2 left!)" is checked in full, its count as much as its "in stock".
        said_twice = key != "stock" and (index[owner].productId, key) in agreeing
        fake_sale = False
        if said_twice and not foreign(claim, store):
            # Stated rightly elsewhere in the sentence: this one is about something else
            # (another camera, the memory it can be expanded to, a launch price, a total
            # with tax), unless it takes the right one back ("$1,299, sorry, I mean $199")
            # or claims a sale the store is not running ("$349 (it was $399)").
            fake_sale = (
                key == "price"
                and claim.role == context.EARLIER_PRICE
                and _above(claim, value)
                and not _BEFORE_NOW.search(view)
            )
            if not (
                fake_sale or (claim.kind == "price" and _TAKEN_BACK.search(_lead(view, claim)))
            ):
                continue
        elif said_twice:
            # The price again in another currency, a conversion the store never made.
            # Alone in brackets it goes; anywhere else it is corrected.
            aside = _conversion_aside(claim, view)
        shown = display(key, value, store, weight_unit)
        product_id = index[owner].productId
        if fake_sale:
            checked.corrections.append(
                Correction(productId=product_id, field=key, said=said, record=shown, dropped=True)
            )
            checked.dropped = True
            continue
        if aside is not None:
            checked.corrections.append(
                Correction(productId=product_id, field=key, said=said, record=shown, dropped=True)
            )
            edits.append((*aside, None))
            continue
        shared_by = claim.start in shared
        replacement = None if shared_by else rewrite(claim, key, value, segment, style, store)
        checked.corrections.append(
            Correction(
                productId=product_id,
                field=key,
                said=said,
                record=shown,
                text=replacement,
                dropped=replacement is None,
            )
        )
        if replacement is None:
            checked.dropped = True
        else:
            edits.append((claim.start, claim.end, replacement))
    for claim, marks in totals:
        total = sum(as_number(record_value(index[m], "price")) or 0 for m in marks)
        shown = display("price", total, store, weight_unit)
        said = segment[claim.start : claim.end]
        for mark in marks:
            checked.corrections.append(
                Correction(
                    productId=index[mark].productId,
                    field="price",
                    said=said,
                    record=shown,
                    dropped=True,
                )
            )
        checked.dropped = True
    spans = [(c.start, c.end, c.mark) for c in cited]
    against = set_against(view, spans, index) if kinds is None else []
    # "The XPS 13 [..] is cheaper than the HP 14 [..]": no value to correct, it goes
    checked = _dropped(segment, against, index, store, weight_unit, checked) or checked
    if checked.dropped:
        for correction in checked.corrections:
            correction.text, correction.dropped = None, True
        return checked
    text = segment
    for start, end, replacement in sorted(edits, key=lambda e: e[0], reverse=True):
        marked = "" if replacement is None else _OPEN + replacement + _CLOSE
        text = text[:start] + marked + text[end:]
    checked.text = text
    return checked


def _dropped(
    segment: str,
    wrong: list[Against],
    index: LedgerIndex,
    store: str,
    weight_unit: str,
    checked: _Checked | None = None,
) -> _Checked | None:
    """``checked`` (a new one of ``segment`` if None) dropped for the comparisons ``wrong``
    of its products, each a correction; None when there is none."""
    if not wrong:
        return None
    checked = checked or _Checked(segment)
    for each in wrong:
        record = index[each.mark]
        value = display(each.key, record_value(record, each.key), store, weight_unit)
        checked.corrections.append(
            Correction(
                productId=record.productId,
                field=each.key,
                said=each.said,
                record=value,
                dropped=True,
            )
        )
    checked.dropped = True
    return checked


_PRONOUN: Final = re.compile(
    r"^\s*(?:[-*•]\s+)?[*_\"'\u201c\u2018(]*"
    r"(?:(?:and|plus|also|yes|so|good news|great news|best of all|even better|better yet|ja|"
    r"oui|s[ií])"
    r"[,:!]?\s+)?[*_]*"
    r"(?:it|it's|this one|this model|that one|es|il|elle|él|ella|está)\b",
    re.IGNORECASE,
)
"""A sentence that starts by pointing back to a product ("It is in stock", "Good news:
this one ships today"): it is about the one product the sentence before cites."""
_NO_SUBJECT: Final = re.compile(
    r"\s*(?:[-*•]\s+)?[*_\"'\u201c\u2018(✅✔☑\ufe0f]*\s*(?:(?:and|plus|also|yes|so|good\s+news|"
    r"great\s+news|best\s+of\s+all|even\s+better|better\s+yet|bonus|hurry|only|just|now|"
    r"currently|still|right\s+now|sofort|jetzt|nur\s+noch|noch|order\s+(?:it\s+)?(?:now|today)|"
    r"bestellen\s+sie\s+heute|heute\s+bestellen|ja|it|(?:availability|stock|status|"
    r"verfügbarkeit|disponibilité|disponibilidad)[*_]*)[,:!]?[*_]*\s+)*[*_]*",
    re.IGNORECASE,
)
_NOT_HERE_NOW: Final = re.compile(
    r"\b(?:not|no|never|elsewhere|other|alternatives?|instead|below|again|though|version|"
    r"variant|model|colou?r|retailers?|from\s+next|next\s+(?:week|month)|nicht|kein\w*|pas|"
    r"at\s+[A-Z]\w*)\b|n['\u2019]t|\?|[:\uff1a]\s*$"
)
"""What makes such a sentence no claim this product can be had now: a negation, a
question, a lead-in, another place or version ("In-stock alternatives:", "In stock? No",
"In stock at Best Buy", "In stock from next week", "Only 2 left in the 32 GB version")."""
"""What may open a sentence before the words saying a product can be had, when nothing
else is its subject: "Only a handful left", "Hurry, only 2 left!", "Heute bestellen,
Lieferung morgen"."""
_THEY: Final = re.compile(
    r"^\s*(?:[-*•]\s+)?[*_\"'\u201c\u2018(]*"
    r"(?:(?:and|plus|also|yes|so|good news|great news|best of all|even better|better yet)"
    r"[,:!]?\s+)?[*_]*"
    r"(?:they're|they\u2019re|they|both of them|both|all of them|all three|these|those|each|"
    r"beide|sie|ils|elles|ambos|ambas|ellos|ellas)\b",
    re.IGNORECASE,
)
"""A sentence that starts by pointing back to several products ("They are both in
stock"): it is about the products the sentence before cites."""
_NONE_OF_THEM: Final = re.compile(
    r"^\s*(?:[-*•]\s+)?[*_\"'\u201c\u2018(]*(?:(?:but|and|sadly|unfortunately)[,:!]?\s+)?[*_]*"
    r"(?:neither(?:\s+of\s+(?:them|these|those|the\s+two)|\s+one)?|none\s+of\s+(?:them|these|those|the\s+\w+)|"
    r"keine?r?\s+(?:von\s+)?(?:beiden|ihnen)|aucun(?:e)?\s+(?:des\s+(?:deux|trois)|d['\u2019]entre\s+eux)|"
    r"ninguno(?:\s+de\s+(?:ellos|los\s+dos))?)\b",
    re.IGNORECASE,
)
"""A sentence that starts by saying a thing of none of the products before ("Neither is
under $500", "None of them is in stock"): each one's price is past that limit, each one is
not in stock."""
_ITS_OWN: Final = re.compile(
    r"\s*(?:'s|\u2019s|is|ist|est|ships?|will\s+ship)?\s*"
    r"(?:now|currently|still|also|definitely|actually|jetzt|ahora)?\s*[*_]*",
    re.IGNORECASE,
)
"""What may stand between a pointing word and its stock claim: "It is", "it's now"."""
_THEIR_OWN: Final = re.compile(
    r"\s*(?:are|sind|sont|están|ship|will\s+ship)?\s*(?:both|all|each|beide|alle|tous)?\s*"
    r"(?:now|currently|still|also|jetzt|ahora)?\s*[*_]*",
    re.IGNORECASE,
)
_HEDGED: Final = re.compile(
    r"\b(?:should|may|might|could|would|will|can|if|when|once|until|again|back|soon|later|"
    r"sollte|wieder|bientôt|pronto)\b|'ll\b",
    re.IGNORECASE,
)
"""Words that make availability a guess or a future, which no stock claim is."""


def _check_pronoun(
    segment: str,
    subject: list[str],
    index: LedgerIndex,
    style: Style,
    store: str,
    weight_unit: str,
) -> _Checked:
    """``segment``, citing nothing, checked for availability as a sentence about
    ``subject`` (the citations of the products the sentence before is about) when it
    starts by pointing back to it ("It", or "They", "Both" to several) and says it can
    be had now. Other facts in it may be about anything ("It beats the 8 GB most laptops
    have")."""
    one = len(subject) == 1
    view = halfwidth(segment)
    none_of = None if one else _NONE_OF_THEM.match(view)
    if subject and none_of and not _HEDGED.search(segment):
        bound = _EACH_BOUND.match(view, none_of.end())
        if bound and not bound["stock"] and _NOTHING_MORE.match(view, bound.end()):
            # "Neither is under $500": each one's price is not, as "[..] is not under $500"
            return _of_each(segment, subject, f"is not {view[bound.start('limit') :]}",
                            _PRICE_ONLY, index, style, store, weight_unit)  # fmt: skip
        said = stock_claims(view)
        some = said and isinstance(said[0].value, StockSaid) and said[0].value.low
        if some and _ITS_OWN.fullmatch(view, none_of.end(), said[0].start):
            # "Neither is in stock": each one is not, as "[..] is not in stock"
            return _of_each(segment, subject, f"is not {view[said[0].start :]}",
                            _STOCK_ONLY, index, style, store, weight_unit)  # fmt: skip
    pointing = (_PRONOUN if one else _THEY).match(segment)
    said = stock_claims(segment) if one and pointing is None else []
    if said and isinstance(said[0].value, StockSaid) and said[0].value.low:
        # "Only a handful left.", "Ships today.", "Lieferung morgen.": no subject but the one
        # the sentence before cites
        pointing = _NO_SUBJECT.fullmatch(segment, 0, said[0].start)
        if _NOT_HERE_NOW.search(segment):
            pointing = None
    if not subject or pointing is None or _HEDGED.search(segment):
        return _Checked(segment)
    if one:
        # "It weighs under 1 kg.": a limit of its own spec, checked as "[..] weighs under 1 kg"
        limited = _check_segment(f"{subject[0]} {segment[pointing.end() :]}", index, style,
                                 store, weight_unit, _SPEC_KINDS, limits_only=True)  # fmt: skip
        if limited.dropped:
            return _Checked(segment, limited.corrections, dropped=True)
    priced = _EACH_PRICED.match(view, pointing.end())
    bound = _EACH_BOUND.match(view, pointing.end())
    said_of_each = segment
    if bound and _NOTHING_MORE.match(view, bound.end()):
        # "They're both under $400": a limit each one's price must keep, said of each as
        # it is of one ("The XPS 13 [..] is under $400"), and "and in stock" with it
        # ("Both are in stock and under $1,000": the stock with it)
        start = bound.start("stock") if bound["stock"] else bound.start("limit")
        kinds, said_of_each = _PRICE_ONLY | _STOCK_ONLY, f"is {view[start:]}"
    elif not one and priced and not _NOT_EACH.search(view[priced.end() :]):
        # "Both cost $349": each one's price, checked as the stock said of them all is;
        # "Both are $349 and in stock": and their stock.
        kinds = _PRICE_ONLY
        said = stock_claims(segment)
        if said and _JOINED.fullmatch(segment, priced.end(), said[0].start):
            kinds = _PRICE_ONLY | _STOCK_ONLY
    else:
        said = stock_claims(segment)
        own = _ITS_OWN if one else _THEIR_OWN
        if not said or not own.fullmatch(segment[pointing.end() : said[0].start]):
            return _Checked(segment)  # "It pairs well with the dock, which is sold out"
        kinds = _STOCK_ONLY
    return _of_each(segment, subject, said_of_each, kinds, index, style, store, weight_unit)


def _of_each(
    segment: str,
    subject: list[str],
    said_of_each: str,
    kinds: frozenset[str] | None,
    index: LedgerIndex,
    style: Style,
    store: str,
    weight_unit: str,
) -> _Checked:
    """``segment`` checked as ``said_of_each`` said of each product of ``subject``; only
    claims of ``kinds``, if given."""
    one = len(subject) == 1
    each = [
        _check_segment(f"{mark} {said_of_each}", index, style, store, weight_unit, kinds)
        for mark in subject
    ]
    if one and not each[0].dropped:
        checked = each[0]
        checked.text = checked.text[len(subject[0]) + 1 :] if checked.corrections else segment
        return checked
    wrong = [c for checked in each for c in checked.corrections]
    if not wrong:
        return _Checked(segment)
    for correction in wrong:
        # Said of them all: no one value can be corrected for two products.
        correction.text, correction.dropped = None, True
    return _Checked(segment, wrong, dropped=True)


_EACH_BOUND: Final = re.compile(
    r"\s*(?:[^\W\d_]+s\s+(?=(?:are|cost)\b))?(?:each\s+)?"
    r"(?:is|are|'s|'re|\u2019s|\u2019re|costs?|comes?\s+in|kosten|sind|liegen|coûtent|sont|"
    r"cuestan|son|están)?"
    r"\s*(?:both|all|each|all\s+three|beide|alle|jeweils|tous\s+(?:les\s+)?deux|ambos)?\s*"
    rf"(?P<stock>{_STOCK_AND})?"
    r"(?:priced\s+)?[*_]*(?P<limit>(?:well\s+|just\s+|deutlich\s+|bien\s+)?"
    r"(?:under|below|less\s+than|at\s+most|no\s+more\s+than|over|above|more\s+than|at\s+least|"
    r"unter|weniger\s+als|höchstens|über|mehr\s+als|mindestens|moins\s+de|au\s+plus|"
    r"plus\s+de|au\s+moins|sous(?:\s+les)?|(?:en|au)[\s-]d(?:essous|essus)\s+de|menos\s+de|"
    r"más\s+de|por\s+(?:debajo|encima)\s+de(?:\s+l[oa]s)?|como\s+máximo|al\s+menos)\s*[*_]*"
    r"(?:[$€£]\s?\d[\d,]*(?:\.\d{2})?(?![\d,])|\d[\d.,]*\s?[$€£]))",
    re.IGNORECASE,
)
"""A limit said of the products a sentence points back to, after its pointing word: "It's
under $400", "Both are under $400", "Both laptops are under $1,000", "They each cost less
than $500", "Beide kosten unter 400 $", "Ils coûtent tous deux moins de 400 $", "Ambos
cuestan menos de 400 $"."""
_JOINED: Final = re.compile(
    rf"[\s*_]*,?\s*{_AND}?\s*(?:both|all|each)?\s*(?:are\s+)?(?:both\s+)?", re.I
)
"""What joins one price of each to a stock said of each: "$1,299 and in stock"."""
_STOCK_ONLY: Final = frozenset({STOCK_KIND})
_PRICE_ONLY: Final = frozenset({"price"})
_EACH_PRICED: Final = re.compile(
    r"\s*(?:both|all|each|all\s+three|beide|alle|tous\s+(?:les\s+)?deux|ambos)?\s*"
    r"(?:cost|costs|are|'re|sell\s+for|go\s+for|retail\s+for|(?:are\s+)?priced\s+at|kosten|"
    r"sind|coûtent|sont|cuestan|son)?\s*(?:both|all|each|beide|jeweils|alle)?\s*(?:at\s+)?[*_]*"
    r"[$€£]\s?\d[\d,]*(?:\.\d{2})?(?![\d,])",
    re.IGNORECASE,
)
"""What says one price of each product a sentence points back to, after its pointing word:
"Both cost $349", "They're $349 each", "They are both $649 this week"; not a bound ("Both
are under $400")."""
_NOT_EACH: Final = re.compile(
    rf"{TOTAL_SAID.pattern}|^\s*\+|\b(?:from|starting)\b|[$€£]\s?\d|\d\s?(?:[$€£]|dollars?|euros?)|"
    r"\bor\s+(?:less|more|so|under|over|cheaper|below|above)\b|\band\s+(?:up|above|under|below)\b",
    re.IGNORECASE,
)
"""What makes a price after "They're both" no one price of each: a total ("together", "in
total"), another price, a bound after it ("or less", "$349+")."""
_LIST_SUMMED: Final = re.compile(
    rf"(?=(?:{_THEY.pattern}))(?![^.!?\n]*(?:\b(?:except|but|apart\s+from|other\s+than|save|"
    r"only|noted|ausser|außer|sauf|excepto)\b|:\s*$))",
    re.IGNORECASE,
)
"""A line that says what it says of every product of the list before it: "They are both in
stock", not "They are all in stock except the second one" nor "These are sold out:"."""


_STOCK_HEADING: Final = re.compile(
    r"\b(?:stock|availab\w*|lieferbar\w*|verfügbar\w*|lager\w*|disponib\w*|existencias|"
    r"summary|verdict|bottom\s+line|overview|recap|which\s+to\s+(?:buy|choose|pick)|delivery|"
    r"shipping|zusammenfassung|fazit|résumé|resumen)\b|在庫",
    re.I,
)
"""A heading about availability or that sums up what comes before it, which a "They are
both in stock" after it goes on from: any other ("## Accessories") starts something else."""


def check_facts(
    answer: str,
    index: LedgerIndex,
    store: str = money.DEFAULT_CURRENCY,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
) -> tuple[str, list[Correction]]:
    """``answer`` with each wrong fact corrected or its sentence removed, and the corrections.

    ``index`` maps each product id the tools returned to its ledger record; ``store``
    is the currency of its prices, ``weight_unit`` the unit a correction says a weight in.
    The products are recognised in the answer by :mod:`compose_response.known`. Each
    correction that is still in the returned text has its ``start`` there.
    """
    marked = KnownProducts(index).read(answer).marked()
    keyed = {m: index[n.product_id] for m, n in marked.marks.items() if n.product_id in index}
    text, corrections = check_marked(marked.text, keyed, store, weight_unit, index.values())
    shown, where = marked.render(text)
    for correction in corrections:
        if correction.start is not None:
            correction.start = where(correction.start)
    return shown, corrections


def check_marked(
    answer: str,
    index: LedgerIndex,
    store: str = money.DEFAULT_CURRENCY,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
    ledger: Iterable[LedgerProduct] = (),
    names_another: Callable[[str], object] | None = None,
) -> tuple[str, list[Correction]]:
    """:func:`check_facts` of an answer whose citations are marks
    (:class:`~compose_response.known.Marked`); ``index`` maps each mark to its record,
    ``ledger`` holds every product the tools returned. ``names_another`` says whether a
    sentence that cites nothing names a model no tool returned
    (:meth:`compose_response.offers.Offers.names_unreturned`): a sentence pointing back
    after it is about that model, not a product cited before it."""
    answer = answer.replace(_OPEN, "").replace(_CLOSE, "")
    style = answer_style(answer)
    # the products a superlative sets one against, but each section's its own
    everything = [] if sectioned(answer) else [m[1] for m in CITATION.finditer(answer)]
    everything = [mark for mark in everything if mark in index]
    corrections: list[Correction] = []
    lines: list[tuple[str, str | None]] = []
    subject: list[str] = []  # the citations of the products the sentence before cites
    listed: dict[str, str] = {}  # those of the list of products the lines before are
    headed = False  # a heading since that list: a list after it is a new one
    aside: dict[str, str] = {}  # the list before a heading about something else
    rows = answer.split("\n")
    tables = table_rows(rows)

    def cites_in(text: str) -> dict[str, str]:
        return {index[m[1]].productId: m.group() for m in CITATION.finditer(text) if m[1] in index}

    owned = listed_under(rows, cites_in)
    for number, line in enumerate(rows):
        header = rows[tables[number]] if number in tables else None
        row = row_cells(line, header, cites_in, owned.get(number)) if header else None
        if row is not None:
            checked_row = _check_row(line, row, index, style, store, weight_unit)
            if row.by_columns or checked_row.corrections:
                # a row of products by rows, none corrected, is read as a sentence too
                corrections.extend(checked_row.corrections)
                lines.append((line, None if checked_row.dropped else checked_row.text))
                continue
        kept: list[str] = []
        whole = True
        bullet = BULLET.match(line)
        cites = cites_in(line)
        under = None if number in tables else owned.get(number)
        about_list: list[str] = []
        if bullet and cites:
            if headed:
                listed, headed = {}, False
            listed.update((pid, mark) for pid, mark in cites.items() if pid not in listed)
        elif line.strip() and not bullet and not line[:1].isspace():
            # "They are both in stock" right after a list (a heading between): said of
            # every product it lists.
            if len(listed) > 1 and not cites and _LIST_SUMMED.match(line):
                about_list = list(listed.values())
            heading = not cites and HEADING.match(line)
            if heading and _STOCK_HEADING.search(line):
                # "# Laptops" then "## Stock": the list before the first heading
                listed, aside, headed = listed or aside, {}, True
            elif heading:
                listed, aside, headed = {}, listed or aside, True
            else:
                listed, aside, headed = {}, {}, False
        for at, segment in enumerate(segments(line)):
            cited = {
                index[m[1]].productId: m.group()
                for m in CITATION.finditer(segment)
                if m[1] in index
            }
            if cited or not segment.strip():
                checked = _check_segment(segment, index, style, store, weight_unit)
                marks = [
                    _Citation(m.start(), m.end(), m[1])
                    for m in CITATION.finditer(segment)
                    if m[1] in index
                ]
                if cited and not checked.dropped:
                    # "[..] is the cheapest of the three": against all the answer cites
                    spans = [(c.start, c.end, c.mark) for c in marks]
                    most = not_the_most(halfwidth(segment), spans, everything, index, ledger)
                    checked = _dropped(segment, most, index, store, weight_unit) or checked
                together = _a_list(halfwidth(segment), marks, index) if len(cited) > 1 else True
                subject = list(cited.values()) if cited and together else []
            elif under is not None:
                # "### Dell XPS 13 [..]" then "RAM: 32 GB": said of the product it names
                checked = _of_each(segment, [under], segment, None, index, style, store,
                                   weight_unit)  # fmt: skip
            else:
                about = about_list if at == 0 and about_list else subject
                checked = _check_pronoun(segment, about, index, style, store, weight_unit)
                if names_another is not None and names_another(segment):
                    # "The Galaxy S25 Ultra has the best zoom.": "It" after it is that one
                    subject, about_list = [], []
            corrections.extend(checked.corrections)
            if checked.dropped:
                whole = False
            else:
                kept.append(checked.text)
        if whole:
            lines.append((line, "".join(kept)))
        elif kept and not BULLET.match(line):
            lines.append((line, "".join(kept).rstrip()))
        else:
            lines.append((line, None))
    if not corrections:
        return answer, []
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept_lines(lines))).strip()
    shown = iter(c for c in corrections if not c.dropped)
    plain: list[str] = []
    length = 0
    for piece in re.split(f"([{_OPEN}{_CLOSE}])", text):
        if piece == _OPEN:
            next(shown).start = length
        elif piece != _CLOSE:
            plain.append(piece)
            length += len(piece)
    return "".join(plain), corrections


def trace_line(corrections: list[Correction], ms: int = 0) -> dict[str, Any]:
    """One line for "How I found this": what was corrected, against which records."""
    parts = [
        f"{c.productId} {c.field}: said {c.said!r}, catalog {c.record}"
        + (" (removed)" if c.dropped else "")
        for c in corrections
    ]
    count = len(corrections)
    summary = f"corrected {count} fact{'s' if count != 1 else ''} from the catalog: " + "; ".join(
        parts
    )
    return {
        "tool": TRACE_STEP,
        "input": {"productIds": list(dict.fromkeys(c.productId for c in corrections))},
        "status": "success",
        "summary": summary[:300],
        "ms": ms,
    }
