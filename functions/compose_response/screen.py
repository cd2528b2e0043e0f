"""The answer as the shopper reads it: every check, in the order they apply.

The model's text has lost its invisible characters and its citations are marks
(:mod:`compose_response.known`); the claims of products nobody returned are gone
(:mod:`compose_response.citations`). Then, on what is left:

1. a sentence that sends the shopper out of the store (a link, an e-mail address or a
   phone number that is not the store's own: :mod:`shared.text.contacts`) goes, and so does
   one with HTML in it, which a page that embeds the answer could run;
2. the products it names in words become marks too (:mod:`compose_response.names`), so
   that what follows reads "the HP 14" as it reads "[CMP-023]";
3. a citation beside another product's name ("The Dell XPS 13 [CMP-008]", where CMP-008 is
   the Inspiron) gets the cited product's name, a correction, when nothing else in its
   sentence is what a record cannot vouch for; otherwise its sentence goes
   (:mod:`compose_response.cited_names`);
4. a sentence stating a price, a discount, "free" or a code that no product the tools
   returned vouches for goes (:mod:`compose_response.offers`);
5. the facts said of each product are checked against its record, and corrected or
   removed (:mod:`compose_response.facts`).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from compose_response import money
from compose_response.cited_names import Misnamed, correct_cited_names
from compose_response.facts import TRACE_STEP, Correction, check_marked
from compose_response.known import Marked
from compose_response.names import mark_names
from compose_response.offers import Offers
from compose_response.text import drop_segments
from shared.products.ledger import LedgerIndex
from shared.products.weight import DEFAULT_WEIGHT_UNIT
from shared.text.contacts import NO_CONTACTS, OwnContacts, find

_MARKUP = re.compile(r"<\s*/?\s*[a-zA-Z][\w-]*(?:\s[^<>]*)?/?\s*>")
"""An HTML tag: "<img src=x onerror=...>", "</script>"; not "< $500" nor "<3"."""


class Screened(NamedTuple):
    text: str
    """The marked text, checked: render it with the :class:`Marked` it came from."""
    corrections: list[Correction]
    left_out: list[str]
    """The kinds of what was removed with its sentence: ``link``, ``email``, ``phone``,
    ``offer``; once each it was found."""


def screen(
    marked: Marked,
    text: str,
    keyed: LedgerIndex,
    index: LedgerIndex,
    *,
    own: OwnContacts = NO_CONTACTS,
    currency: str = money.DEFAULT_CURRENCY,
    weight_unit: str = DEFAULT_WEIGHT_UNIT,
    terms: str = "",
) -> Screened:
    """``text`` (``marked``'s, its unknown claims gone) checked by the steps above.

    ``keyed`` maps each citation's mark to its record, and gains the names' marks;
    ``index`` holds every product the session's tools returned that compose knows;
    ``own`` is the store's own contacts (the products' own pages are added); ``terms``
    the store's own words (its policies), whose prices are its own.
    """
    own = own | OwnContacts.of(str(p.url) for p in index.values() if p.url)
    left_out: list[str] = []

    def outside(segment: str) -> bool:
        found = [contact.kind for contact in find(segment, own)]
        found += ["markup"] * bool(_MARKUP.search(segment))
        left_out.extend(found)
        return bool(found)

    text = drop_segments(text, outside)
    text = mark_names(marked, text, index, keyed)
    text, misnamed = correct_cited_names(marked, text, keyed, currency)
    offers = Offers(keyed, currency, terms, index.values())
    text = offers.drop(text)
    left_out += ["offer"] * len(offers.removed)
    text, corrections = check_marked(
        text, keyed, currency, weight_unit, index.values(), offers.names_unreturned
    )
    return Screened(text, [*_name_corrections(misnamed, text), *corrections], left_out)


def _name_corrections(misnamed: list[Misnamed], text: str) -> list[Correction]:
    """A correction for each name :func:`correct_cited_names` corrected or removed: where
    the corrected name is in ``text`` (the checked text), or removed when it is not there."""
    corrections: list[Correction] = []
    for fix in misnamed:
        at = text.find(f"[{fix.mark}]") if fix.mark is not None else -1
        corrections.append(
            Correction(
                productId=fix.product_id,
                field="name",
                said=fix.said,
                record=fix.record,
                text=fix.record if at >= 0 else None,
                dropped=at < 0,
                start=at if at >= 0 else None,
            )
        )
    return corrections


_SAID: dict[str, str] = {
    "link": "a link",
    "email": "an e-mail address",
    "phone": "a phone number",
    "handle": "a messenger or social handle",
    "offer": "a price or an offer",
    "markup": "HTML",
}


def left_out_line(left_out: list[str]) -> dict[str, Any]:
    """One line for "How I found this": what kinds of claims were left out. Their words
    are not repeated: they are what nothing vouches for."""
    kinds = ", ".join(_SAID[kind] for kind in dict.fromkeys(left_out))
    return {
        "tool": TRACE_STEP,
        "input": {},
        "status": "success",
        "summary": f"left out what neither the catalog nor the store vouches for: {kinds}",
        "ms": 0,
    }
