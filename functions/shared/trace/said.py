"""The model's words before a tool call, as the live trace may show them.

While the shopper waits, the trace shows what the model wrote before it asked for a tool
("Let me look that up"). Those words are not checked against the catalog: the answer's
checks (``compose_response``) run only on the answer, once the tools have answered. So
a sentence of them is shown only when there is nothing in it to check: no amount of
money (a currency sign or code, a money word, a percentage, a dashed whole amount), no
offer ("free", "deal", "discount", "code", "sale", "price"), no link, e-mail address or
phone number (:mod:`shared.text.contacts`). The rest of the words are shown; the sentences
that had such things are not, and none of them is lost to the answer, which the model
writes again after the tools.
"""

from __future__ import annotations

import re
from typing import Final

from shared.text.contacts import NO_CONTACTS, find
from shared.text.shown import visible

_MONEY: Final = re.compile(
    r"[$€£¥₹¢₩₽]|%|\d[.,][-\u2013]"
    r"|\b(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|INR)\s?\d|\d\s?(?:USD|EUR|GBP|CHF)\b"
    r"|\b(?:dollars?|bucks?|cents?|euros?|pounds?\s+sterling|quid|yen|francs?)\b",
    re.IGNORECASE,
)
_OFFER: Final = re.compile(
    r"\b(?:free|gratis|kostenlos|deals?|discounts?|coupons?|vouchers?|promo\w*|codes?|"
    r"sales?|prices?|costs?|cheap\w*|offers?|bargains?|clearance|save|off)\b",
    re.IGNORECASE,
)
_SENTENCE_END: Final = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n")


def before_tools(text: str) -> str:
    """``text`` without the sentences the live trace may not show (the module docstring)."""
    kept: list[str] = []
    for sentence in _SENTENCE_END.split(visible(text)):
        if not sentence.strip():
            continue
        if _MONEY.search(sentence) or _OFFER.search(sentence) or find(sentence, NO_CONTACTS):
            continue
        kept.append(sentence.strip())
    return " ".join(kept)
