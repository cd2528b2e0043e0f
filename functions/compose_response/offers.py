"""Prices, discounts, "free", codes and terms of sale that nothing the store said vouches for.

The fact check corrects what a sentence says about the products it names
(:mod:`compose_response.facts`). What a sentence says about no product it names, and
every term of sale it promises the shopper, is vouched for here, or removed with its
sentence (its bullet, in a list). Two things vouch: the records of the products the tools
returned (a product's sale is its price against its ``compareAtPrice``), and the store's
own words, its policies (``terms``, which its policies tool returns).

* **a price** stated as one (not "under $500", "your budget of $400", "$20 shipping":
  :mod:`compose_response.context`) that is the price, or the price before a sale, of no
  product the tools returned ("HP UltraBook X is $1 too", "today only: $1"), in any
  notation (:mod:`compose_response.units`, :mod:`compose_response.amounts`);
* **a price beside a product-like name the catalog does not hold**: capitalised words
  with a digit or an inner capital, or after a brand of the products returned ("HP
  UltraBook X is $349"), even at a real product's price; in a sentence that also names
  a real product, only such a name after a brand counts, since "Windows 11" is not a
  product of the shop;
* **"free"** (also "gratis", "kostenlos", "at no cost", a price of zero) said of a product
  that has a price, or of no product at all ("free Office", "the second one free");
* **a discount**, in digits or words ("30% off", "save twenty percent", "half price", "a
  third off", "35% below list") that is not the sale of the product it is said of
  (within one point), or of any product when it names none, nor one the policies state;
  **a saving** ("save $500", "$100 off", "$50 back", "$100 under retail") that is not a
  product's compare-at price minus its price, nor the difference of two products' prices
  ("you save $450 with the HP 14 over the Pixel 9"); **a sale** said with no amount ("on
  sale right now", "marked down", "discounted") of products none of which is on sale;
* **a price or an offer on a condition** the policies do not offer: a trade-in, a
  rebate or cashback, a membership ("members pay $199", "student discount"), a later day
  ("drops to $199 on Friday"), monthly payments or financing, signing up, a bundle; a
  price match and an extended warranty are offers said at all ("we price-match"). Said
  with a negation ("we don't offer financing") they promise nothing. When the policies do
  offer it, its amounts must be theirs, or the price of a product the sentence names;
* **a warranty's length** ("a 5-year warranty", "lifetime warranty") and **a return
  window** ("return it within 365 days", "a 90-day money-back guarantee", "any time")
  that the policies (or, for a warranty, the product's own description) do not state;
* **free shipping, delivery, returns or exchanges** the policies do not promise: a
  service they do not say is free, a faster one ("free express delivery"), for every
  order ("always", "on every order") when theirs has a minimum, or with another minimum
  ("over $25"); and **shipping to a place** ("worldwide", "to Europe") the policies do
  not name;
* **a discount code** ("code PIXEL1", "coupon: SAVE90"): no tool returns one, so every one
  goes.

**A model said to be the store's** that no tool of the session returned goes too, whoever
makes it ("We also carry the HP Spectre x360 14", a bullet under "Also worth a look in our
store:"): a name with a model's number (:func:`compose_response.cited_names.a_model_named`),
not a system or a part ("Windows 11 laptops", "Core i7"), nor a product returned named
without its citation ("the Dell XPS 13 in silver"). A name is read as capitalised words,
or in any case when its words are a returned series' and a model's number ("we also carry
the pixel 10 pro xl" beside the store's Pixels; not "a 14 inch screen", "windows 11").
So does a model no tool returned put forward, whoever makes it and whatever series
("Consider the Galaxy S25 Ultra" after a search for Pixels, "How about the XPS 16?", "Get
the ...", "Also worth a look: the ...", "The ... is a great choice", a bullet under "You
might also like:"), in lower case too ("consider the galaxy s25 ultra"), and one with no
model's number by a known maker or ending with a kind of product ("Consider the Apple
Pencil", "How about the Kindle Paperwhite?", "the Magic Keyboard"), unless the sentence,
or the next one pointing back at it, denies that the store has it ("..., but we don't
carry it", "It isn't in stock here"); and one named a returned product's later version
and said to be had, the store's, put forward or to take its place ("its successor, the
Pixel 11, is in stock", "the newer XPS 16 replaces it"). After a sentence that names a
model no tool returned and cites nothing, "It" is that model: "It is in stock", "We have
it in black", "It costs $999" go; not after one that only sets the product cited before
against it ("Battery life beats the iPhone 15", "Unlike the Galaxy S24 Ultra, ...") or
quotes someone naming it.

The store's own words also vouch for the prices they state, of no product ("express
delivery costs $12.99"), and for a sentence of theirs repeated as they write it ("free
on orders over $50"). Words that only look like an offer stay: "hands-free", "save your
files", "a 2-year-old model", "the return key", "warranty: see the store's policy".
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Callable, Iterable
from typing import Final, NamedTuple

from compose_response import money
from compose_response.amounts import other_prices
from compose_response.cited_names import FEATURE_WORDS, a_model_named, a_product_named
from compose_response.claims import stock_claims
from compose_response.compare import Claim, agrees
from compose_response.context import clause_breaks
from compose_response.facts import PER_ITEM, TOTAL_SAID, WITH_MORE, stated, summed_of_some
from compose_response.names import COMMON
from compose_response.text import BULLET, CITATION, HEADING, drop_segments, segments
from compose_response.units import Quantity, halfwidth, parse_number, quantities
from shared.products.ledger import LedgerIndex, LedgerProduct

_CODE: Final = re.compile(
    r"(?i:\b(?:promo(?:tional)?\s*code|discount\s*code|coupon(?:\s*code)?|voucher(?:\s*code)?|"
    r"code|gutschein(?:code)?|rabattcode|c[oó]digo|cup[oó]n|code\s*promo)\b)"
    r"[\s:\"'\u201c\u201d\u2018\u2019«»`*]*(?P<code>[A-Z0-9][A-Z0-9_-]{2,})\b"
)
_NOT_AN_OFFER: Final = re.compile(
    r"\s+(?:of\s+(?:ads|bloatware)|up|space|storage|from|trial|to\s+(?:choose|ask|use|return))\b",
    re.IGNORECASE,
)
"""What "free" may stand before and promise nothing: "free space", "free to choose"."""
_RUN: Final = re.compile(r"\b[A-Z][\w-]*(?:[ \u00a0]+[A-Z0-9][\w-]*)+")
_NAME_RUN: Final = re.compile(
    r"\b(?:[A-Z]|[a-z]+[A-Z])[\w-]*(?:[ \u00a0]+(?:[A-Z0-9][\w+-]*|[a-z]+\d[\w+-]*))+"
)
"""A name as a model's is written: capitalised words, or one with an inner capital
("iPhone"), then words with a capital or a digit ("HP Spectre x360 14")."""
_INNER: Final = re.compile(r"\d|[a-z][A-Z]")


def _percent_off(product: LedgerProduct) -> float | None:
    if not product.on_sale or product.price is None or not product.compareAtPrice:
        return None
    return 100 * (product.compareAtPrice - product.price) / product.compareAtPrice


def _price_claims(view: str, prices: list[Quantity]) -> list[Claim]:
    """The prices of ``view`` (:func:`_price_claims_in`) it states as prices."""
    found = sorted(prices, key=lambda q: (q.start, q.start - q.end))
    claims: list[Claim] = []
    for quantity in found:
        if claims and quantity.start < claims[-1].end:
            continue
        claims.append(Claim("price", quantity.start, quantity.end, quantity=quantity))
    return [claim for claim in claims if stated(claim, view)]


def _price_claims_in(text: str, store: str) -> list[Quantity]:
    """Every price ``text`` writes, in any notation."""
    view = halfwidth(text)
    return [q for q in [*quantities(view), *other_prices(view, store)] if q.kind == "price"]


def _vouched_price(claim: Claim, products: Iterable[LedgerProduct], store: str) -> bool:
    return any(
        value is not None and agrees(claim, "price", value, store)
        for product in products
        for value in (product.price, product.compareAtPrice)
    )


def _vouched_percent(said: float, products: Iterable[LedgerProduct]) -> bool:
    return any(
        (off := _percent_off(product)) is not None and abs(off - said) <= 1.0
        for product in products
    )


def _product_like(view: str, brands: set[str], *, owned: bool) -> list[re.Match[str]]:
    """Capitalised runs of words that look like a product's name (rules above)."""
    runs: list[re.Match[str]] = []
    for run in _RUN.finditer(view):
        words = run.group().split()
        branded = words[0].casefold() in brands and len(words) > 1
        if branded or (not owned and any(_INNER.search(w) for w in words)):
            runs.append(run)
    return runs


# -- terms of sale ------------------------------------------------------------------------------

_I: Final = re.IGNORECASE

_ONES: Final = {
    word: value
    for value, word in enumerate(
        re.findall(
            r"\w+",
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen",
        )
    )
}
_TENS: Final = {
    word: 10 * value
    for value, word in enumerate(
        re.findall(r"\w+", "twenty thirty forty fifty sixty seventy eighty ninety"), 2
    )
}
_WORD_NUMBER: Final = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(list(_ONES)[1:10])}))?"
    rf"|(?:(?:a|one)[\s-])?hundred|{'|'.join(sorted(_ONES, key=len, reverse=True))})(?!\w)"
)


def _number(written: str) -> float:
    """A number written in digits ("1,299", "12.99") or in words ("twenty-five", "a")."""
    if written[:1].isdecimal():
        return parse_number(written, fractional=False)[0]
    total = 0
    for word in re.split(r"[\s-]+", written.casefold()):
        if word == "hundred":
            total = max(total, 1) * 100
        else:
            total += _ONES.get(word, _TENS.get(word, 1 if word in ("a", "an") else 0))
    return float(total)


# Percent discounts, in digits or words: "30% off", "twenty percent off", "save 15 per cent".
_PCT: Final = r"(?:\s?%|\s?(?:percent|per\s?cent|pct)(?![\w-]))"
_PNUM: Final = rf"(?:\d{{1,3}}(?:[.,]\d+)?|{_WORD_NUMBER})"
_LIST_PRICE: Final = (
    r"(?:the\s+|its\s+)?(?:list|retail|regular|usual|normal|full|original|MSRP|RRP)\b"
    r"(?:\s+price\b)?"
)
"""The price a product is said to sell below: "35% below list", "$300 under retail"."""
_PERCENT: Final = re.compile(
    rf"(?<![\w.,-])(?P<pct>{_PNUM}){_PCT}\s?(?:(?:extra|additional|instant|further|more|member|"
    r"members['\u2019]?|student|loyalty|store)\s+)?"
    r"(?:off\b|discount|rabatt|reduction|de\s+descuento|de\s+r[ée]duction|günstiger|cheaper|"
    r"savings?\b|rebate|cash\s?back|back\b|(?:below|under|less\s+than|lower\s+than|cheaper\s+than)"
    rf"\s+{_LIST_PRICE})"
    r"|(?:discount|save|saving|savings|rabatt|reduced\s+by|spare|cut\s+by|knock)\s+"
    r"(?:(?:of|von|up\s+to|an?\s+(?:extra|additional)|another|a\s+full|over|nearly|almost)\s+)*"
    rf"(?P<pct2>{_PNUM}){_PCT}",
    _I,
)
_FRACTION: Final = re.compile(
    r"(?<![\w-])(?:half[\s-](?:price[ds]?|off)|half\s+(?:the\s+)?(?:price|cost)|"
    r"(?:price|cost)\s+(?:is\s+|was\s+)?halved|(?:a|one)[\s-](?P<part>third|quarter|fifth)\s+off)"
    r"(?![\w-])",
    _I,
)
_PARTS: Final = {None: 50.0, "third": 100 / 3, "quarter": 25.0, "fifth": 20.0}

# An amount of money in any notation, with a rate after it or not ("$19", "$54/month").
_MONEY: Final = re.compile(
    rf"(?:(?<![\w.,])(?:{money.PREFIX})\s?(?P<a>\d+(?:[.,]\d+)*)"
    rf"|(?<![\w.,$])(?P<b>\d+(?:[.,]\d+)*)\s?(?:{money.SUFFIX})(?![A-Za-z]))(?![\d])"
)
# A bare number where a price stands: "comes in at 1299 before tax, 199 after our rebate".
_BARE: Final = re.compile(
    r"\b(?:at|for|pay|pays|paying|just|only|costs?|priced|(?:drops?|falls?|down|comes?\s+in)"
    r"\s+(?:to|at))\s+(?P<a>\d{2,}(?:[.,]\d+)*)(?![\w.,]?\d)(?=\s*(?:$|[.,;!?)]|(?:before|after|"
    r"with|if|when|once|each|per|a\s+month|plus|and|or|on|for|total|up\s+front|instead|now|today|"
    r"only)\b))"
    r"|(?<![\w.,$€£¥])(?P<b>\d{2,}(?:[.,]\d+)*)\s+(?:before|after)\s+(?:tax|taxes|the|our|an?|"
    r"any|your|rebates?|trade|discounts?|coupons?|savings?|credits?)\b",
    _I,
)
_RATE: Final = re.compile(
    r"\s?(?:/\s?(?:mo|month|mth|wk|week)\b|(?:per|a|an|each|every)\s+(?:month|week)\b|"
    r"monthly\b|(?:for|over)\s+\d+\s+months\b)",
    _I,
)
_SAVE_BEFORE: Final = re.compile(
    r"\b(?:save|saves|saving|savings\s+of|knock(?:s|ing)?|shaves?|discount\s+of|reduced\s+by|"
    r"cut\s+by|markdown\s+of|rebate\s+of|credit\s+of|cash\s?back\s+of)\s+(?:(?:up\s+to|"
    r"an?\s+(?:extra|additional)|another|a\s+full|over|nearly|almost|a\s+whopping|you)\s+)*$",
    _I,
)
_SAVE_AFTER: Final = re.compile(
    r"\s?(?:off|discount|rebate|cash\s?back|back|(?:in\s+)?(?:store\s+)?credit|savings?|"
    rf"markdown|price\s+cut|(?:below|under)\s+{_LIST_PRICE}|"
    r"(?:cheaper|less|lower|below)\s+than\s+(?:usual|normal(?:ly)?|before|"
    r"retail|list|regular|(?:the|its)\s+(?:usual|normal|regular|list|retail|full)\s+price|"
    r"it\s+(?:was|used\s+to\s+be)))\b",
    _I,
)
# Words that make a sentence about a price or a deal, besides an amount.
_DEAL: Final = re.compile(
    r"\b(?:discount(?:s|ed)?|cheaper|lower\s+price|reduced\s+price|special\s+price|price\s+cut|"
    r"markdown|deal|bargain)\b",
    _I,
)

# Durations, as a warranty or a return window says them ("5-year", "a full year", "365 days").
_DURATION: Final = re.compile(
    rf"(?<![\w.,-])(?P<n>\d+(?:[.,]\d+)?|{_WORD_NUMBER}|an?)[\s-]+"
    r"(?:(?:full|whole|entire|extra|additional|more)[\s-]+)?"
    r"(?:(?:working|business|calendar)[\s-]+)?"
    r"(?P<unit>days?|weeks?|months?|years?|yrs?)(?!\w)(?!-?\s*old\b)(?!\s+ago\b)",
    _I,
)
_FOREVER: Final = re.compile(
    r"(?<![\w-])(?:life[\s-]?time|life[\s-]?long|for\s+life|forever|any\s?time|"
    r"indefinitely|unlimited|no\s+time\s+limit|never\s+expires?|perpetual)(?![\w-])"
    r"(?!\s+(?:within|before|during|up\s+to|in\s+the\s+first)\b)",
    _I,
)
_DAYS: Final = {"d": 1, "w": 7, "m": 30, "y": 365}
_WARRANTY: Final = re.compile(
    r"(?<![\w-])(?:warrant(?:y|ies|ied)|(?<!back\s)(?<!back-)(?<!price\s)(?<!satisfaction\s)"
    r"guarantee[ds]?|garantie|gew[äa]hrleistung|garant[ií]a)(?![\w-])"
    # not the maker's promise of software: "guaranteed updates for 7 years"
    r"(?!\s+(?:[\w-]+\s+)?(?:updates?|upgrades?|patch(?:es)?|support|software|security)\b)",
    _I,
)
_RETURN: Final = re.compile(
    r"(?<![\w-])(?:return(?:s|ed|ing|able)?(?!\s+(?:key|on|of)\b)|refund(?:s|ed|able)?|"
    r"money[\s-]back|exchang(?:e|es|ed|ing)|(?:send|bring|take)\s+(?:\w+\s+)?back|"
    r"r[üu]ckgabe|umtausch|devoluci[oó]n(?:es)?|retours?)(?![\w-])",
    _I,
)
# What stands between a term's word and its duration when the one says the other: a few
# words, no clause or list between them.
_APART: Final = re.compile(
    r"[,;()\[\]!?:\u2014\u2013]|\s[-\u2013]\s|\b(?:and|but|or|while|whereas|though|although|plus)\b",
    _I,
)

# Free shipping, delivery, returns, exchanges: the services a store's policies price.
_FREE_WORD: Final = re.compile(
    r"(?<![\w-])(?:free(?:\s+of\s+(?:charge|cost))?|complimentary(?!\s+(?:about|of|to|"
    r"with|remarks?|reviews?|words?|colou?rs?|reads?|and|but|in)\b)|gratis|kostenlos|umsonst|"
    r"gratuit|gratuito|"
    r"at\s+no\s+(?:extra\s+)?(?:cost|charge)|for\s+nothing|no\s+charge)(?![\w-])",
    _I,
)
_SERVICE_WORDS: Final = (
    r"(?<![\w-])(?:(?P<shipping>ship(?:s|ping|ped)?|deliver(?:y|ies|ed|s)?|postage|versand|"
    r"lieferung|env[ií]os?|livraison)|(?P<returns>returns?|returning|r[üu]cksendung)|"
    r"(?P<exchanges>exchanges?|umtausch))(?![\w-])"
)
_SERVICE: Final = re.compile(_SERVICE_WORDS, _I)
_A_SERVICE: Final = r"(?:ship(?:s|ping)?|deliver(?:y|ies)|postage|returns?|exchanges?)"
_COSTS_NOTHING: Final = re.compile(
    rf"(?<![\w-]){_A_SERVICE}(?:\s+(?:fees?|charges?|costs?))?\s+(?:(?:is|are|comes?)\s+)?"
    r"(?:(?:always|also|now|even|fully|already|all)\s+)?(?:included(?=\s*(?:[.,;!)]|$)|\s+(?:"
    r"in\s+the\s+price|at\s+no|for\s+(?:free|members?|you|everyone|all|every)|"
    r"(?:on|in|with)\s+(?:(?:every|each|all|this|orders?)\b|(?:the|your)\s+(?:\[|(?!(?:total|"
    r"estimate|summary|checkout|receipt|confirmation|e-?mail|details|quote|subtotal|invoice|"
    r"bill|cost|amount|sum|price|payment|charge|cart|delivery|figure|order\s+(?:total|price))"
    r"\b)[\w-]+\b))))|"
    r"on\s+us|on\s+the\s+house|(?:costs?|is)\s+nothing)(?![\w-])|"
    rf"\bprices?\s+(?:already\s+)?includes?\s+(?:the\s+)?{_A_SERVICE}(?!\s+\w*(?:insurance|details?|"
    r"options?|costs?|times?|info))\b|"
    rf"\bwe\s+(?:cover|pay(?:\s+for)?)\s+(?:the\s+|all\s+)?{_A_SERVICE}\b|"
    rf"\bno\s+{_A_SERVICE}\s+(?:fees?|charges?|costs?)(?=\s*(?:[.,;:!)]|$|on\b|for\s+(?:any|every|"
    r"all|your|orders?)\b|whatever\b|whichever\b|anywhere\b|at\s+all\b))",
    _I,
)
"""A service said to cost nothing without the word "free": "shipping is included", "the
price includes shipping", "delivery is on us", "no shipping fees"."""
_QUALIFIER: Final = (
    r"(?:standard|express|overnight|next[\s-]day|same[\s-]day|expedited|priority|rush|"
    r"(?:one|two|1|2)[\s-]day|ground|international|worldwide|global|domestic|fast(?:er|est)?|"
    r"premium|economy|tracked|insured|home|doorstep|unlimited|lifetime)"
)
_FREE_SERVICE: Final = re.compile(
    rf"(?:(?:[\s-]+{_QUALIFIER}){{0,2}}[\s-]+"
    rf"|\s+(?:for|on)\s+(?:(?:the|your|all|{_QUALIFIER})\s+){{0,2}}){_SERVICE_WORDS}",
    _I,
)
_PREDICATE_END: Final = re.compile(
    r"\s*(?:[.,;:!?)\]]|$)|\s+(?:on|for|of|to|with|if|when|over|above|anywhere|worldwide|"
    r"everywhere|within|in|across|throughout|this|today|now|always|too|as|and|but|or|once|after|"
    r"from|at|by|via|internationally|every|all|each|no|unless|until|again|here|there|both|since|"
    r"because|so|thanks)\b",
    _I,
)
_SPEED: Final = re.compile(
    r"(?<![\w-])(?:express|overnight|next[\s-]day|same[\s-]day|expedited|priority|rush|"
    r"(?:one|two|1|2)[\s-]day|premium|fast(?:er|est)?|international(?:ly)?|world[\s-]?wide|"
    r"global(?:ly)?)(?![\w-])",
    _I,
)
_UNIVERSAL: Final = re.compile(
    r"\b(?:every|all|any|each)\s+(?:(?:single|other|\w+)\s+)?(?:orders?|purchases?|items?|"
    r"products?|deliver(?:y|ies)|shipments?|laptops?|phones?|books?|things?|customers?|"
    r"shoppers?|buyers?)\b(?!\s+(?:over|above|"
    r"of\s+(?:more\s+than|at\s+least|over)|from|worth|totall?ing|exceeding|that\s+(?:is|are|costs?|"
    r"comes?)\s+(?:over|above|more)))|\b(?:always|everything|anything|no\s+minimum|regardless|"
    r"unconditionally|without\s+(?:a\s+)?minimum|everyone|everybody)\b",
    _I,
)
# Where an order is shipped: "worldwide", "to Europe" (the places the policies name).
_ANYWHERE: Final = re.compile(
    r"(?<![\w-])(?:world[\s-]?wide|anywhere|everywhere|internationally|international|overseas|"
    r"abroad|globally|across\s+the\s+(?:world|globe)|(?:around|all\s+over|in)\s+the\s+world|"
    r"(?:any|every|all)\s+countr(?:y|ies))(?![\w-])",
    _I,
)
_PLACE: Final = re.compile(
    r"\bto\s+(?:the\s+)?(?P<place>[A-Z][\w.]*(?:\s+(?:(?:and|or|&)\s+(?:the\s+)?)?[A-Z][\w.]*)*)"
)
_TO_PLACE_AFTER: Final = re.compile(
    r"(?:(?<![\w-])(?:ship(?:s|ping|ped)?|deliver(?:y|ies|ed|s)?|send(?:s|ing)?|sent)"
    r"(?:\s+[\w'\u2019]+){0,2}|\b(?:even|also|including|as\s+well\s+as|plus))\s+$",
    _I,
)
_ALIASES: Final = {
    "us": "united states",
    "usa": "united states",
    "america": "united states",
    "uk": "united kingdom",
    "britain": "united kingdom",
}
"""Other names of a place, its dots left out ("U.S." is "us")."""
_ON_SALE: Final = re.compile(
    r"\b(?:is|are|'s|\u2019s|has\s+been|have\s+been|was\s+just|got)\s+"
    r"(?:(?:now|currently|also|just|already|even|heavily|specially)\s+)*"
    r"(?:on\s+(?:sale|special|offer|promotion|promo|markdown|clearance)|(?:marked|priced)\s+down|"
    r"discounted|reduced|specially\s+priced|(?:in|part\s+of)\s+(?:the|our|a)\s+[\w\s-]{0,20}sale)"
    r"\b(?!\s+(?:in|since|from|until|to|by|at|around|elsewhere|for\s+(?:students|members))\b)"
    r"|\b(?:ist|sind)\s+(?:jetzt\s+|gerade\s+|diese\s+Woche\s+)*(?:im\s+Angebot|reduziert|"
    r"heruntergesetzt|ein\s+Sonderangebot)"
    r"|\b(?:est|sont)\s+(?:en\s+(?:solde|promo(?:tion)?)s?|soldée?s?)"
    r"|\b(?:está|están)\s+(?:en\s+oferta|rebajad[oa]s?|de\s+oferta)|セール中|値下げ中",
    _I,
)
"""A sale said of a product without an amount: "is on sale right now", "has been marked
down", "is in the Black Friday sale"; not "went on sale in March", "reduced to 8 hours"."""
_HEDGED_SALE: Final = re.compile(
    r"\b(?:if|when|whenever|once|until|wait|often|usually|rarely|sometimes|typically|"
    r"elsewhere|other\s+(?:retailers?|stores?|shops?))\b",
    _I,
)
"""Words that make a sale a guess, a habit or someone else's."""
_NOBODY: Final = re.compile(r"[\s,;:]*(?:nothing|none)\b", _I)
"""A clause whose subject is no product: "Nothing is on sale this week"."""
_NEGATION: Final = re.compile(r"\b(?:not|no|never|neither|nor|without|cannot)\b|n['\u2019]t\b", _I)


class _Kind(NamedTuple):
    """A condition a lower price or an offer may come with."""

    name: str
    with_amount: re.Pattern[str]
    """Said with an amount (a price, a percent, "free"), it makes the amount an offer."""
    alone: re.Pattern[str] | None
    """Said at all, it is an offer ("we price-match", "trade in your laptop for credit")."""
    store: re.Pattern[str]
    """How the store's policies would mention it."""
    as_now: bool
    """Whether it is no offer when its amounts are the prices, or the sales, that already
    are ("tomorrow, express delivery for $12.99"): a later day, not a condition."""


def _kind(
    name: str, with_amount: str, store: str, *, alone: str | bool = False, as_now: bool = False
) -> _Kind:
    pattern = re.compile(with_amount, _I)
    offer = re.compile(alone, _I) if isinstance(alone, str) else pattern if alone else None
    return _Kind(name, pattern, offer, re.compile(store, _I), as_now)


def _said(pattern: re.Pattern[str], view: str) -> bool:
    """Whether ``view`` says ``pattern`` other than after a negation ("we don't offer ...")."""
    return any(not _negated(view, m.start()) for m in pattern.finditer(view))


_PRICE_MATCH: Final = (
    r"\bprice[\s-]?match(?:ing|ed)?\b|\bmatch(?:es)?\s+(?:any|the\s+lowest|a\s+lower|lower|"
    r"competitors?['\u2019]?s?|other\s+\w+['\u2019]?s?|their)(?:\s+[\w'\u2019]+){0,2}\s+prices?\b|"
    r"\bbeat\s+(?:any|the|their|a|every)\s+(?:[\w'\u2019]+\s+){0,2}?prices?\b|"
    r"\bprice\s+(?:guarantee|protection|promise)\b|\blowest[\s-]price\s+guarantee\b|"
    r"\b(?:we|we['\u2019]ll|we\s+will)\s+match\s+(?:any|it|that|the)\b|"
    r"\brefund\s+(?:you\s+)?the\s+difference\b"
)
_MEMBER_OFFER: Final = (
    r"\b(?:members?|membership|club|subscriber|student|teacher|senior|veteran|military|employee|"
    r"vip|insider|loyalty|rewards)[\s-]+(?:only\s+)?(?:prices?|pricing|rates?|discounts?|deals?|"
    r"offers?|perks?|benefits?|savings?|specials?)\b|\bmembers?[\s-]only\b|"
    r"\bwith\s+(?:a|an|our|your)\s+(?:\w+\s+)?(?:membership|loyalty\s+card|rewards\s+card|"
    r"club\s+card|student\s+id)\b"
)
_REBATE: Final = (
    r"\brebates?\b|\bcash[\s-]?back\b|\bmail[\s-]in\b|\bstore\s+credit\b|"
    r"\b(?:reward|loyalty|bonus)\s+points\b"
)
_KINDS: Final = (
    _kind(
        "a price match",
        _PRICE_MATCH,
        r"price[\s-]?match|match\w*\s+(?:\S+\s+){0,4}?prices?|beat\s+(?:\S+\s+){0,3}?prices?|"
        r"price\s+(?:guarantee|protection|promise)",
        alone=True,
    ),
    _kind(
        "a trade-in",
        r"\btrad(?:e|ing)[\s-]?ins?\b|\btrade\s+(?:it|them|your|yours)\b",
        r"\btrad(?:e|ing)[\s-]?in",
        alone=True,
    ),
    _kind(
        "a rebate",
        rf"{_REBATE}|\bgift\s+cards?\b|\bvouchers?\b",
        r"rebate|cash[\s-]?back|mail[\s-]in|store\s+credit|points",
        alone=rf"{_REBATE}|\b(?:get|gets|receive|earn|plus|bonus|free)\s+(?:an?\s+)?(?:\S+\s+)?"
        r"gift\s+cards?\b",
    ),
    _kind(
        "financing",
        r"\bfinancing\b|\bfinanced\b|\bfinance\s+(?:it|them|your|the\s+rest|plans?|options?)\b|"
        r"\binstal?lments?\b|\bpayment\s+plans?\b|\bmonthly\s+(?:payments?|instal?lments?|plans?)\b|"
        r"\bpay\s+(?:monthly|over\s+time|later|in\s+(?:\d+|two|three|four|six|twelve)\b)|"
        r"\bAPR\b|\binterest[\s-]free\b|\b0\s?%\s+interest\b|\bno\s+interest\b|"
        r"\bbuy\s+now,?\s+pay\s+later\b|\bklarna\b|\bafterpay\b|\blay-?away\b|\bleasing\b",
        r"financ|instal?lment|payment\s+plan|monthly\s+pay|\bAPR\b|interest|pay\s+later|klarna|"
        r"afterpay|lay-?away|leasing",
        alone=True,
    ),
    _kind(
        "a members' price",
        rf"{_MEMBER_OFFER}|\b(?:members?|subscribers?|students?|teachers?|seniors?|veterans?|"
        r"employees?|vips?|insiders?)\s+(?:only\s+)?(?:pay|pays|get|gets|save|saves|enjoy|enjoys|"
        r"receive|receives)\b|\b(?:for|to)\s+(?:our\s+)?(?:\w+\s+)?(?:members|subscribers|vips|"
        r"insiders)\b|\bcard\s*holders?\b|\bholders\s+of\s+(?:our|the)\s+(?:\w+\s+)?card\b|"
        r"\b(?:with|using)\s+our\s+(?:\w+\s+)?card\b|\bstore\s+card\b",
        r"member|club|subscri|student|teacher|senior|veteran|military|employee|vip|insider|"
        r"loyalty|rewards|card\s*holder|store\s+card",
        alone=_MEMBER_OFFER,
    ),
    _kind(
        "a later price",
        r"\b(?:on|from|starting|until|till|after|next|this\s+coming)\s+(?:mon|tues|wednes|thurs|"
        r"fri|satur|sun)day\b|\btomorrow\b|\bnext\s+(?:week|month|weekend|year|season)\b|"
        r"\b(?:black\s+friday|cyber\s+monday|prime\s+day|boxing\s+day)\b|"
        r"\b(?:will|['\u2019]ll|is\s+going\s+to|are\s+going\s+to)\s+(?:drop|fall|go\s+down|be\s+reduced|"
        r"be\s+cheaper|be\s+discounted|be\s+on\s+sale)\b|\blater\s+this\s+(?:week|month)\b|"
        r"\b(?:upcoming|coming)\s+(?:sale|deal|discount)s?\b",
        r"\b(?:on|from|starting|until|till|after|next)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)"
        r"day\b|tomorrow|next\s+(?:week|month)|black\s+friday|cyber\s+monday|upcoming\s+sale",
        as_now=True,
    ),
    _kind(
        "a sign-up offer",
        r"\bsign(?:ing)?[\s-]?up\b|\bsubscrib(?:e|ing)\b|\bnewsletter\b|\bfirst\s+(?:order|purchase)\b|"
        r"\bnew\s+customers?\b|\breferr(?:al|ing)\b|\bin\s+(?:our|the)\s+app\b|\bapp[\s-]only\b",
        r"sign(?:ing)?[\s-]?up|subscrib|newsletter|first\s+(?:order|purchase)|new\s+customer|"
        r"referr|\bapp\b",
    ),
    _kind(
        "a bundle",
        r"\bbundle[sd]?\b|\bbuy\s+(?:one|two|three|1|2|3|any\s+two)\b|\bbogo\b|"
        r"\b(?:two|2|three|3)[\s-]+for[\s-]+(?:one|1|two|2)\b|\bwhen\s+you\s+buy\b|"
        r"\bsecond\s+(?:one|item|unit)\b|\b(?:with|on)\s+(?:any|every)\s+(?:order|purchase)\b",
        r"bundle|buy\s+(?:one|two|1|2)|bogo|(?:two|2)\s+for\s+(?:one|1)|second\s+(?:one|item)|"
        r"(?:with|on)\s+(?:any|every)\s+(?:order|purchase)",
    ),
    _kind(
        "an extended warranty",
        r"\bextended\s+(?:\w+\s+)?(?:warranty|guarantee|coverage)\b|\bwarranty\s+(?:upgrade|"
        r"extension)\b|\bprotection\s+plans?\b|\baccidental[\s-]damage\s+(?:cover|coverage|plan|"
        r"protection|insurance)|\b(?:device|screen|theft|loss)\s+(?:protection|insurance)\b",
        r"extended\s+(?:\w+\s+)?(?:warranty|guarantee|coverage)|protection\s+plan|"
        r"accidental[\s-]damage",
        alone=True,
    ),
)
_RATE_KIND: Final = _kind(
    "a monthly price", r"(?!)", r"per\s+month|a\s+month|/\s?mo|monthly|per\s+week|weekly"
)
"""An amount with a rate after it ("$54/month", "$19 a month"): found by :data:`_RATE`
after each amount, not by its own pattern, which matches nothing."""


def _sentences(text: str) -> list[str]:
    """``text`` (the store's policies, a description) cut into sentences, headings apart."""
    flat = " ".join(halfwidth(text).replace("#", "\n").split())
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])", flat) if s]


@functools.lru_cache(maxsize=16)
def _breaks(view: str) -> tuple[list[int], list[int]]:
    """Where ``view``'s clause breaks end, and where they start (both in order)."""
    found = list(clause_breaks(view))
    return [b.end() for b in found], [b.start() for b in found]


def _clause(view: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause around ``view[start:end]`` starts and ends."""
    ends, starts = _breaks(view)
    at = bisect.bisect_right(ends, start)
    after = bisect.bisect_left(starts, end)
    return (ends[at - 1] if at else 0), (starts[after] if after < len(starts) else len(view))


def _negated(view: str, at: int) -> bool:
    """Whether a negation stands in the few words before ``at``, in its clause."""
    left, _ = _clause(view, at, at)
    before = re.split(r"[:.!?]", view[max(left, at - _NEAR) : at])[-1]
    return bool(_NEGATION.search(" ".join(re.findall(r"[\w'\u2019]+", before)[-4:])))


_NEAR: Final = 80
"""Characters farther than a term's few words can reach."""


def _close(gap: str, words: int) -> bool:
    """Whether ``gap`` is a few words with no clause or list in it."""
    return not _APART.search(gap) and len(re.findall(r"[\w'\u2019]+", gap)) <= words


def _spans(view: str) -> list[tuple[int, int, float]]:
    """Every duration in ``view``, in days (an unbounded one as infinity)."""
    found = [
        (m.start(), m.end(), _number(m["n"]) * _DAYS[m["unit"][0].lower()])
        for m in _DURATION.finditer(view)
    ]
    return found + [(m.start(), m.end(), math.inf) for m in _FOREVER.finditer(view)]


def _lengths_said(view: str, word: re.Pattern[str]) -> list[tuple[str, float]]:
    """The durations a sentence gives a term (a warranty, a return window): those that
    stand right before its word ("5-year warranty", "60 days to return it") or a few
    words after it ("return it within 365 days", "warranty (at least one year)")."""
    said: list[tuple[str, float]] = []
    spans = _spans(view)
    for term in word.finditer(view):
        for start, end, days in spans:
            if end < term.start() - _NEAR or start > term.end() + _NEAR:
                attached = False  # more words apart than either side allows
            elif end <= term.start():
                attached = _close(view[end : term.start()], 3)
            elif start >= term.end():
                gap = re.sub(r"^\s*[(:]", " ", view[term.end() : start])
                attached = _close(gap, 6)
            else:
                attached = False
            if attached:
                said.append((view[min(start, term.start()) : max(end, term.end())], days))
    return said


def _lengths_in(sentences: Iterable[str], word: re.Pattern[str]) -> list[float]:
    """Every duration of the sentences that name the term: what the store states of it."""
    return [days for s in sentences if word.search(s) for _, _, days in _spans(s)]


def _same_length(said: float, stated: Iterable[float]) -> bool:
    """Whether a stated length is ``said`` (within 3%: "a year" is "12 months")."""
    if math.isinf(said):
        return any(math.isinf(value) for value in stated)
    return any(abs(said - value) <= 0.03 * max(said, value) for value in stated)


def _percents(view: str) -> list[tuple[str, float]]:
    """The percent discounts ``view`` states, with their words."""
    found = [(m.group(), _pct(m["pct"] or m["pct2"])) for m in _PERCENT.finditer(view)]
    parts = [(m.group(), _PARTS[m["part"] and m["part"].lower()]) for m in _FRACTION.finditer(view)]
    return found + parts


def _pct(written: str) -> float:
    return _number(written) if written[:1].isalpha() else float(written.replace(",", "."))


class _Amount(NamedTuple):
    start: int
    end: int
    value: float


def _amounts(view: str, store: str, prices: list[Quantity] | None = None) -> list[_Amount]:
    """The amounts of money ``view`` writes, in any notation, a rate or not; ``prices``
    are its prices (:func:`_price_claims_in`) when already read."""
    if prices is None:
        prices = _price_claims_in(view, store)
    found = [_Amount(q.start, q.end, q.value) for q in prices]
    for match in _MONEY.finditer(view):
        if not any(a.start < match.end() and match.start() < a.end for a in found):
            number = match["a"] or match["b"]
            found.append(
                _Amount(match.start(), match.end(), parse_number(number, fractional=False)[0])
            )
    return sorted(found)


def _bare(view: str) -> list[float]:
    return [parse_number(m["a"] or m["b"], fractional=False)[0] for m in _BARE.finditer(view)]


def _saving(product: LedgerProduct) -> float | None:
    if not product.on_sale or product.price is None or product.compareAtPrice is None:
        return None
    return product.compareAtPrice - product.price


class _Service(NamedTuple):
    kind: str
    """``shipping``, ``returns`` or ``exchanges``."""
    clause: str
    """The clause that says it is free."""
    included: bool = False
    """Said included, not free: beside an amount no product costs, that amount is a total
    with the service paid ("$1,311.98 with express shipping included")."""


def _free_services(view: str) -> tuple[list[_Service], list[re.Match[str]]]:
    """The services ``view`` says are free, and every other "free" it says."""
    services: list[_Service] = []
    others: list[re.Match[str]] = []
    for free in _FREE_WORD.finditer(view):
        if _negated(view, free.start()):
            continue  # "I can't confirm free shipping", "shipping is not free": no promise
        left, right = _clause(view, free.start(), free.end())
        after = _FREE_SERVICE.match(view, free.end())
        if after is None and _PREDICATE_END.match(view, free.end()):
            # "Standard delivery is free on orders over $50", "ships free", "returns are free";
            # a clause that starts with it is about the one before ("30-day returns, free")
            if not view[left : free.start()].strip():
                left = _clause(view, max(0, left - 2), max(0, left - 2))[0]
            before = list(_SERVICE.finditer(view, left, free.start()))
            after = before[-1] if before else None
        if after is not None:
            kind = next(k for k in ("shipping", "returns", "exchanges") if after[k])
            services.append(_Service(kind, view[left:right]))
        elif not (
            free.group().casefold() == "complimentary" and _PREDICATE_END.match(view, free.end())
        ):
            others.append(free)  # "the reviews are complimentary" is praise, no offer
    for said in _COSTS_NOTHING.finditer(view):
        service = _SERVICE.search(said.group())
        ends = re.search(r"[.!?]", view[said.end() :])
        if ends is not None and ends.group() == "?":
            continue  # "Does the price include shipping?" asks; it promises nothing
        if service is not None and not _negated(view, said.start()):
            left, right = _clause(view, said.start(), said.end())
            kind = next(k for k in ("shipping", "returns", "exchanges") if service[k])
            services.append(_Service(kind, view[left:right], "includ" in said.group().casefold()))
    return services, others


class _Store(NamedTuple):
    """What the store's own words (its policies) state of its terms."""

    prices: list[float]
    percents: list[float]
    warranties: list[float]
    returns: list[float]
    free: dict[str, list[str]]
    """Per service, the clauses that say it is free."""
    ships_anywhere: bool
    text: str
    """All of it, casefolded, for the places it ships to and the conditions it names."""

    @classmethod
    def of(cls, terms: str, store: str) -> _Store:
        sentences = _sentences(terms)
        free: dict[str, list[str]] = {}
        for sentence in sentences:
            for service in _free_services(sentence)[0]:
                free.setdefault(service.kind, []).append(service.clause)
        return cls(
            prices=[q.value for q in _price_claims_in(terms, store)],
            percents=[p for s in sentences for _, p in _percents(s)],
            warranties=_lengths_in(sentences, _WARRANTY),
            returns=_lengths_in(sentences, _RETURN),
            free=free,
            ships_anywhere=any(_ANYWHERE.search(s) and _SERVICE.search(s) for s in sentences),
            text=" ".join(halfwidth(terms).casefold().split()),
        )


def _models_of(
    view: str,
    returned: list[frozenset[str]],
    series: Callable[[str], bool] = lambda _: False,
    lines: re.Pattern[str] | None = None,
) -> list[str]:
    """The models ``view`` names by a number, whoever makes them ("the HP Spectre x360 14",
    "Galaxy S24"), that are none of the ``returned`` products (the words of each one's
    name): not a line ("Dell XPS models"), a system ("Windows 11"), a part of a product
    (after "with", "running": "phones with the Tensor G4") nor a word before a kind ("Gen 4
    SSDs") unless it is of a ``series`` ("Galaxy S24 Ultra phones" beside the Galaxy S24).
    Names are read as :func:`_name_runs` reads them with ``lines``."""
    found = []
    for run in _name_runs(view, lines):
        words = run.group().split()
        while words and words[0].casefold() in _ARTICLES:
            words = words[1:]
        before = re.findall(r"[\w'-]+", view[: run.start()].casefold())
        # said with no article ("MIL-STD 810H rugged laptops"), not "the Galaxy S24 phone"
        bare = words == run.group().split() and not (before and before[-1] in _ARTICLES)
        while before and before[-1] in _ARTICLES:
            before.pop()
        after = re.match(r"\s*([\w'-]+)", view[run.end() :])
        if (before and before[-1] in _HAS) or (
            bare
            and after
            and after[1][0].islower()
            and after[1].casefold() not in _AFTER_A_NAME
            and not series(" ".join(words))
        ):
            continue  # a part or a kind: "phones with the Tensor G4", "Gen 4 SSDs"
        if not a_model_named(words):
            continue
        said = _name_words(" ".join(words))
        if not any(said <= name for name in returned):
            found.append(" ".join(words))
    return found


def _name_runs(view: str, lines: re.Pattern[str] | None) -> list[re.Match[str]]:
    """The names ``view`` writes as a model's (:data:`_NAME_RUN`) and, in any case, those of
    a series the tools returned (``lines``, :func:`_series_names`: "the galaxy s25 ultra",
    "pixel 10 pro xl"); of two at one place, the longer."""
    runs = list(_NAME_RUN.finditer(view))
    if lines is None:
        return runs
    for said in lines.finditer(view):
        over = [r for r in runs if r.start() < said.end() and said.start() < r.end()]
        if all(len(r.group()) < len(said.group()) for r in over):
            runs = [r for r in runs if r not in over] + [said]
    return sorted(runs, key=lambda r: r.start())


_VARIANT_WORDS: Final = r"(?:pro|max|plus|ultra|mini|air|lite|se|fe|neo|xl|fold|flip|5g)"
"""Words after a model's number that name a variant of it ("pixel 10 pro xl")."""
_NOT_A_NUMBER_OF_A_MODEL: Final = (
    r"(?![\w+-])(?![\s-]*(?:inch(?:es)?\b|in\.|[\"\u2033\u201d]|cm\b|mm\b|[gtm]b\b|hz\b|"
    r"mah\b|mp\b|kg\b|lbs?\b|hours?\b|hrs?\b|%|in\s*1\b|of\b))"
)
"""What makes a number after a series' word no model's: a size, an amount ("a modern 15
inch laptop", "a modern 2 in 1"), a count ("the pixel 2 of them")."""


def _series_names(returned: Iterable[LedgerProduct], makers: set[str]) -> re.Pattern[str] | None:
    """A name of a series the tools returned a model of, in any case: the series' words
    (:func:`_line`, its maker's before them or not) and a model's number or letter and
    number, then a variant's words ("galaxy s25 ultra", "samsung galaxy z fold 7", "pixel 10
    pro xl", "hp 17"); not a number that is a size or an amount ("hp 14 inch")."""
    heads: set[str] = set()
    for product in returned:
        words = [w for w in re.findall(r"[\w+]+", product.name.casefold()) if w not in _ARTICLES]
        if not a_model_named(words):
            continue  # a book, a name with no model's number
        named = next((n for n, w in enumerate(words) if w not in makers), len(words))
        rest = words[named:]
        if not rest or rest[0][0].isdigit():
            head = words[:named]  # "hp" of "HP 14 Laptop"
        elif len(rest) < 2 or rest[1][0].isdigit():
            head = rest[:1]  # "pixel" of "Pixel 9"
        else:
            series = re.match(r"[^\W\d_]+", rest[1])
            letters = series[0] if series else rest[1]
            head = [rest[0], letters]  # "galaxy s" of "Galaxy S24", "surface laptop"
            stem = re.match(r"[^\W\d_]+", rest[2]) if letters == rest[1] and rest[2:] else None
            if stem:  # "galaxy z" + "fold" of "Galaxy Z Fold6"
                head.append(f"(?:{re.escape(stem[0])})?")
        if head:
            escaped = [w if w.startswith("(?:") else re.escape(w) for w in head]
            heads.add(r"\s*".join(escaped) + r"\s*\d[\w+]*")
    if not heads:
        return None
    maker = rf"(?:(?:{'|'.join(map(re.escape, sorted(makers)))})\s+)?" if makers else ""
    return re.compile(
        rf"(?<![\w-]){maker}(?:{'|'.join(sorted(heads))})(?:\+|\s+{_VARIANT_WORDS}\b){{0,3}}"
        + _NOT_A_NUMBER_OF_A_MODEL,
        re.IGNORECASE,
    )


_SIZE: Final = re.compile(r"\b\d+\s?[GT]B\b", re.IGNORECASE)
"""A storage size written after a model's name: "iPhone 16 Pro Max 256GB"."""


def _line(name: str, makers: set[str]) -> str:
    """The series of a model's name, after its maker's words: "galaxy s" of "Samsung
    Galaxy S24", "galaxy tab" of "Galaxy Tab S9", "pixel #" of "Pixel 9", "xiaomi #" of
    "Xiaomi 14 Ultra"."""
    words = [w for w in re.findall(r"[\w+]+", name.casefold()) if w not in _ARTICLES]
    named = next((n for n, w in enumerate(words) if w not in makers), len(words))
    line = words[named : named + 2]
    if not line or line[0][0].isdigit():
        return f"{' '.join(words[:named])} #"
    series = re.match(r"\d|[^\W\d_]+", line[1]) if len(line) > 1 else None
    return f"{line[0]} {'#' if series and series[0].isdigit() else series[0] if series else ''}"


def _name_words(name: str) -> frozenset[str]:
    return frozenset(re.findall(r"[\w+]+", name.casefold()))


def _announced_ours(text: str) -> set[str]:
    """The bullets, stripped, of each list that a line saying the store has them announces
    ("Also worth a look in our store:")."""
    found: set[str] = set()
    under = False
    for line in text.split("\n"):
        if BULLET.match(line) and under:
            found.add(line.strip())
        elif line.strip():
            under = bool(_ours(halfwidth(line)) and line.rstrip(" *_").endswith((":", "\uff1a")))
    return found


def _flat(text: str) -> str:
    return re.sub(r"[\s-]+", "", text.casefold())


_TOTAL_LINE: Final = re.compile(
    r"^[\s|*_#>•-]*(?:(?:grand\s+|sub)?total|in\s+total|altogether|together|combined|all\s+told|"
    r"sum|for\s+(?:both|all\s+(?:two|three|of\s+them))|zusammen|insgesamt|gesamt|summe|"
    r"gesamt(?:preis|summe|betrag)|beide|(?:au|en)\s+total|en\s+tout|ensemble|"
    r"(?:prix|montant|co[uû]t)\s+total|les\s+deux|juntos|suma|(?:precio|importe)\s+total|"
    r"(?:los|las)\s+dos)\b",
    re.IGNORECASE,
)
"""A line that opens with a total: "Total: $1,648", "| **Total** | **$1,648** |", "Summe:",
"Prix total :", "Suma total:"."""
_SUM_LINE: Final = re.compile(
    r"^[\s*_•>-]*(?:(?:so|and|also|donc|alors|entonces)[,\s]+)?(?:that(?:'s|\s+is|\s+comes|"
    r"\s+makes)|which\s+is|this\s+comes|it\s+all\s+comes|you'd\s+pay|you\s+would\s+pay|"
    r"you'll\s+pay|das\s+(?:macht|sind|ergibt)|(?:cela|[cç]a)\s+fait|eso\s+(?:hace|suma|son))\b",
    re.IGNORECASE,
)
"""A line that says the sum with a total's word after it: "That's $1,648 in total.", "Das
macht zusammen $1,648.", "Cela fait $1,648 au total."."""


_OURS: Final = re.compile(
    r"\b(?:(?:in|from)\s+(?:our|the)\s+(?:store|shop|catalog(?:ue)?|range)|"
    r"at\s+our\s+(?:store|shop)|on\s+our\s+shelves|from\s+us|also\s+in\s+stock|"
    r"we(?:\s+also|\s+do|['\u2019]ve(?:\s+also)?)?\s+(?:have|carry|sell|stock|offer|got)|"
    r"our\s+(?:line-?up|range|catalog(?:ue)?|selection|store)\s+(?:also\s+)?"
    r"(?:includes|has|lists|offers|features|carries|stocks|contains)|"
    r"the\s+store\s+(?:also\s+)?(?:sells|carries|stocks|has)|"
    r"(?:also\s+)?(?:available|for\s+sale|sold|stocked)\s+(?:here|with\s+us|from\s+us|by\s+us)|"
    r"also\s+available\s*:)",
    re.IGNORECASE,
)
"""Words that say the store has what they name: "we also carry", "in our store", "also
in stock:", "sold here", "also available:"."""
_PUTS_FORWARD: Final = re.compile(
    r"\byou\s+(?:might|may|could|would|can)(?:\s+also)?\s+(?:like|love|enjoy|prefer|want|"
    r"consider|check\s+out)\b|\b(?:I|we)(?:['\u2019]d|\s+would)(?:\s+also)?\s+(?:recommend|suggest)\b|"
    r"\byou(?:['\u2019]ll|\s+will|\s+can)(?:\s+also)?\s+find\b|\bcheck\s+out\b",
    re.IGNORECASE,
)
"""Words that put what follows them before the shopper ("you might also like", "I'd
recommend", "you'll also find", "check out"): no hedge nor report of a search, so a sentence that
also says the store has it stays a claim ("You might also like the X, available in our
store"). Put forward alone, a name is no claim the store has it (advice names chips and
software: "I'd recommend the M3 Pro"), but a product no tool returned put forward goes
(:meth:`Offers._put_forward`)."""
_ASKS_FORWARD: Final = re.compile(
    r"\b(?:how|what)\s+about|\bhave\s+you\s+(?:(?:ever|also)\s+)?(?:considered|thought\s+"
    r"(?:about|of)|looked\s+at|tried|checked\s+out)|\bwhy\s+not(?:\s+(?:try|get|go\s+for|"
    r"consider|pick|choose|grab|opt\s+for|look\s+at))?|\b(?:did|do|would|could|will|might)\s+"
    r"you\s+(?:(?:also|perhaps|maybe)\s+)?consider|\b(?:may|can|could|might)\s+I\s+"
    r"(?:suggest|recommend)|\bwhat\s+do\s+you\s+think\s+(?:of|about)",
    re.IGNORECASE,
)
"""Questions that put what follows them before the shopper, as "Consider the" does: "How
about the", "Have you considered the", "Why not the", "Would you consider the"."""
_LEAD_IN: Final = (
    r"(?:(?:also|equally)\s+)?worth\s+(?:a\s+(?:look|try)|considering|checking\s+out)"
    r"|(?:other|more|some|similar)\s+(?:options|alternatives|picks|suggestions|models|phones|"
    r"laptops|books)(?:\s+(?:to\s+consider|worth\s+a\s+look))?"
    r"|alternatives?|(?:my\s+)?(?:suggestions?|recommendations?)|(?:also\s+)?consider"
)
"""What a lead-in says before a colon that puts what follows forward: "Also worth a look:",
"Other options:", "Alternatives:"."""
_ADVISED: Final = re.compile(
    rf"(?:{_PUTS_FORWARD.pattern}|(?:^|[.!:;,\u2013\u2014]\s*|\b(?:and|or|but|so|then|just|"
    r"instead|otherwise|alternatively,?)\s+)(?:(?:also\s+)?consider|try(?:\s+out)?|go\s+for|"
    rf"take\s+a\s+look\s+at|look\s+at|pick(?:\s+up)?|choose|grab|opt\s+for|get|buy|order|"
    rf"(?:{_LEAD_IN})\s*[:\u2013\u2014-])|{_ASKS_FORWARD.pattern}|"
    r"\b(?:another|a\s+(?:good|great|better|cheaper)\s+)?(?:option|alternative|pick)\s+is|"
    r"\byou(?:['\u2019]ll|\s+will|\s+would|['\u2019]d)\s+love|"
    r"\byou\s+(?:might|may|could|can|should)(?:\s+also)?\s+(?:get|buy|try|pick\s+up|go\s+for|"
    r"grab|opt\s+for))"
    r"\s+(?:also\s+)?(?:(?:the|a|an)\s+)?(?:(?:new|newer|upcoming|latest)\s+)?",
    re.IGNORECASE,
)
"""Words that put a name right after them before the shopper: "You might also like the",
"Consider the", "I'd recommend the", "Get the", "You could also get the", "Also worth a look:
the"."""
_FORWARD_LIST: Final = re.compile(
    rf"{_PUTS_FORWARD.pattern}|{_ASKS_FORWARD.pattern}|^[\s*_#>]*(?:{_LEAD_IN})\b",
    re.IGNORECASE,
)
"""A line before a list that puts the list forward ("You might also like:", "Other
options:"), when it ends with a colon."""
_JOINED_NAME: Final = re.compile(
    r"[\s*_]*(?:,\s*(?:(?:and|or)\s+)?|(?<=\s)(?:and|or|&)\s+|/\s*)(?:(?:the|a|an)\s+)?",
    re.IGNORECASE,
)
"""What joins one name put forward to the next: "the Pixel 9 Pro or the Pixel 10 Pro XL"."""
_CITED_HERE: Final = re.compile(r" {3,}")
"""A citation, blanked out: a product the tools returned, in a list of names."""
_RECOMMENDED: Final = re.compile(
    r"[\s*_]*(?:is|['\u2019]s|would\s+be|could\s+be|makes|remains)\s+(?:also\s+|still\s+|really\s+)?"
    r"(?:(?:a|an|my|our|the)\s+)?(?:(?:great|good|solid|excellent|better|top|best|smart|safe|"
    r"strong|fine|nice|perfect|ideal|worthy|wise|clear|obvious|other|another|budget|premium)\s+)*"
    r"(?:choice|option|pick|alternative|buy|bet|fit|recommendation|contender|upgrade|"
    r"suggestion)\b"
    r"|[\s*_]*(?:is|['\u2019]s)\s+(?:also\s+|still\s+|really\s+)?(?:well\s+)?worth\s+"
    r"(?:a\s+(?:look|try)|considering|checking\s+out|buying|getting|it|the\s+money)\b"
    r"|[\s*_]*(?:would|will|could|might)\s+(?:also\s+)?suit\s+you\b",
    re.IGNORECASE,
)
"""What after a name makes it one put forward: "the Galaxy S25 Ultra is a great choice",
"... is worth a look", "... would suit you"."""
_SUBJECT_BEFORE: Final = re.compile(
    r"^[\s*_\"'\u201c\u2018(>-]*(?:[^,.;:!?\n]*,\s+)?"
    r"(?:(?:also|alternatively|instead|otherwise|or|and|plus|but|however|then|honestly|"
    r"personally|overall)[,:]?\s+)*(?:(?:the|a|an)\s+)?$",
    re.IGNORECASE,
)
"""What may stand before a name that is its sentence's subject: "Alternatively, the", "For
photos, the"."""
_HAVING: Final = (
    r"(?:carr(?:y|ies|ied|ying)|ha(?:ve|s)(?!\s+(?:it|them|that|one)\s+in\s+(?!stock\b|"
    r"(?:our|the|this)\s+(?:store|shop|catalog)))|stock(?:s|ed)?|sell(?:s)?|sold|"
    r"offer(?:s|ed)?|list(?:s|ed)?|available|in\s+(?:our|the|this)\s+(?:store|shop|"
    r"catalog(?:ue)?|range|line-?up|selection)|our\s+(?:store|shop|catalog(?:ue)?|range|"
    r"line-?up|selection)|in\s+stock|on\s+(?:our\s+)?shelves|with\s+us|from\s+us)\b"
)
_DENIES_HAVING: Final = re.compile(
    r"(?:\b(?:not|never|no\s+longer)\b|n['\u2019]t\b)"
    r"(?:\s+(?:currently|presently|yet|actually|really|even|also|sadly|unfortunately|right|now|"
    r"something|anything|one|a|an|the|this|that|it|them|model|product|phone|laptop|book|we|"
    r"which|i|you|can|any|part|of|being))*\s+" + _HAVING,
    re.IGNORECASE,
)
"""A denial that the store has what a sentence names: "We don't carry it", "It's not in our
catalog", "It isn't in stock here", "something we don't currently sell"; not any negation
("It isn't expensive", "you won't regret it", "it's not hard to find in our store")."""
_ELSEWHERE: Final = re.compile(
    r"\b(?:elsewhere|other\s+(?:retailers?|stores?|shops?|sellers?)|another\s+(?:retailer|"
    r"store|shop|seller)|(?:directly\s+)?from\s+the\s+maker)\b",
    re.IGNORECASE,
)
"""Words that give what is put forward to another seller: "consider the X elsewhere"."""
_NOT_A_PRODUCT: Final = re.compile(
    r"^(?:(?:apple|google|qualcomm|intel|amd|mediatek|samsung|microsoft)\s+)?"
    r"(?:[am]\d+\b|tensor\b|exynos\b|one\s+ui\b|(?:microsoft|office)\s+\d|copilot\b|"
    r"chapter\b|section\b|step\b|gen(?:eration)?\s+\d|series\s+\d)",
    re.IGNORECASE,
)
"""Names with a number that are a chip, a system, software or a place in a text, not a
product put forward: "an M3 Pro", "One UI 7", "Microsoft 365", "Chapter 11"."""
_GEAR: Final = frozenset(
    re.findall(
        r"[\w-]+",
        "pencil pen stylus keyboard mouse trackpad touchpad case cover folio sleeve charger "
        "cable adapter dock stand hub buds earbuds earphones headphones headset speaker "
        "soundbar watch band strap tracker tablet phone laptop monitor display router webcam "
        "camera controller console reader e-reader remote",
    )
)
"""Kinds of product that end a product's name written with no model's number ("Magic
Keyboard", "Apple Pencil", "Galaxy Buds", "Pixel Watch")."""
_PLAIN_WORDS: Final = frozenset(
    re.findall(
        r"[\w-]+",
        "wireless bluetooth usb usb-c type-c lightning magsafe qi gaming mechanical portable "
        "external protective screen charging fast wall car desk travel smart slim rugged "
        "leather silicone clear ergonomic noise cancelling canceling true stereo spare extra "
        "good great new basic cheap budget premium over-ear in-ear on-ear sports kids "
        "magnetic folding foldable compact power braided digital e-ink ink",
    )
)
"""Words that describe a kind of product, not name one ("a Wireless Mouse", "a Phone
Case"): a name of them and a kind's word is no product's name."""
_SERVICES: Final = frozenset(
    re.findall(
        r"[\w+-]+",
        "music photos tv tv+ one care care+ applecare store play drive maps pay wallet cloud "
        "icloud assistant gemini siri intelligence ai office teams word excel outlook account "
        "id support fitness fitness+ arcade news search chrome workspace docs sheets gmail "
        "youtube premium family plan subscription unlimited prime video app apps software "
        "update updates warranty protection insurance service services os ui dex knox health "
        "notes lens fi home members rewards trade-in financing card credit ecosystem silicon "
        "edition version format website site ink connect link sync share manager vantage "
        "armoury crate command companion launcher defender security antivirus edge bing "
        "copilot",
    )
)
"""Words after a maker's name that make it a service, software or a part of the maker's
offer, not a product put forward: "Google Photos", "Apple Music", "Samsung Care+", "Kindle
Unlimited", "the Kindle edition", "Apple Silicon", "HP Instant Ink", "Dell Mobile Connect",
"Lenovo Vantage"."""
_MAKERS_KNOWN: Final = frozenset(
    re.findall(
        r"[\w-]+",
        "amazon kindle sony bose logitech beats jbl anker belkin garmin fitbit nintendo xbox "
        "playstation xiaomi motorola huawei oppo lg sennheiser sonos kobo wacom corsair "
        "steelseries razer ipad airpods homepod airtag",
    )
)
"""Makers and their product lines that many answers name and a store may carry, besides
those of the store's bundled catalog and the session's tools (:func:`_known_makers`)."""
_LOWER_MODEL: Final = re.compile(
    rf"(?<![\w-])(?:[a-z][\w'-]*\s+){{1,3}}?[a-z]{{0,4}}\d[\w+]*(?!\.\d)"
    rf"(?:\+|\s+{_VARIANT_WORDS}\b){{0,3}}{_NOT_A_NUMBER_OF_A_MODEL}"
    rf"|(?<![\w-])[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,2}}?\s+(?:{'|'.join(sorted(_GEAR))})\b",
)
"""A name written in lower case, as a model's would be: words and a model's number, then a
variant's words ("galaxy s25 ultra", "pixel 10 pro", "apple pencil 2"), or words and a
kind of product ("apple pencil", "galaxy buds"); what it names is read by
:meth:`Offers._lower_model`."""
_NOT_A_NAME_WORD: Final = frozenset(
    re.findall(
        r"[\w'-]+",
        "to of for with and or at in on by up about under over than more less only just all "
        "both any some each every other another one two few many much most best top new "
        "newer latest version gen generation chapter step part volume vol season episode page "
        "option plan tier level size day days week weeks month months year years model "
        "series number no upgrade upgrading getting buying adding using it them this that "
        "these those your my our their its his her get buy try pick go grab choose",
    )
)
"""Words that open no lower-case name: a preposition, a count, a place in a text, a verb
("upgrading to 16 gb", "version 2", "chapter 11", "the top 3")."""


@functools.cache
def _catalog_makers() -> frozenset[str]:
    """The makers of the store's bundled catalog's products (not its books' publishers),
    and the first word of each one's line ("galaxy", "pixel", "iphone", "thinkpad")."""
    from shared.products.catalog_data import load_catalog

    found: set[str] = set()
    for record in load_catalog():
        if str(record.get("category", "")).upper() != "BOOKS":
            found |= _maker_and_line(record.get("brand"), str(record.get("name", "")))
    return frozenset(found)


def _maker_and_line(brand: object, name: str) -> set[str]:
    """The words of a product's maker, and the first word of its line after them ("galaxy"
    of "Samsung Galaxy S24"); of a book (no model's number), its publisher's only."""
    maker = set(_name_words(str(brand or "")))
    words = re.findall(r"[\w+]+", name.casefold())
    line = next((w for w in words if w not in maker), None)
    if (
        line
        and line.isalpha()
        and len(line) > 2
        and line not in COMMON
        and a_model_named(name.split())
    ):
        maker.add(line)
    return maker


_SUCCESSOR: Final = re.compile(
    r"\b(?:successors?|replacements?|follow[\s-]?ups?|(?:newer|latest|updated|upgraded)\b|"
    r"next[\s-]gen(?:eration)?\b|new\s+(?:version|model|generation)\b)",
    re.IGNORECASE,
)
"""Words that make a model another one's later version: "its successor, the Pixel 11", "the
newer XPS 16", "the next-generation Pixel"."""
_REPLACES: Final = re.compile(
    r"\b(?:replaces|supersedes|succeeds|is\s+replacing|takes\s+over\s+from|"
    r"(?:is|as)\s+(?:its|their|the)\s+(?:\w+\s+)?(?:successor|replacement))\b",
    re.IGNORECASE,
)
"""A model said now to take a product's place ("the newer XPS 16 replaces it", "the Pixel 11
is its successor"): beside the store's product, the one the shopper would be sold."""
_REPLACED_BY: Final = re.compile(
    r"\b(?:is|are|has\s+been|have\s+been|was|were|got|gets)\s+(?:now\s+)?"
    r"(?:replaced|superseded|succeeded)\s+by\s+(?:(?:the|a|an|its)\s+)?"
    r"(?:(?:new|newer|latest)\s+)?$",
    re.IGNORECASE,
)
_TAKEN_OVER: Final = re.compile(r"\b(?:replaced|superseded|succeeded)\s+by\b", re.IGNORECASE)
_BEFORE_IT: Final = re.compile(
    r"\b(?:(?:successor|replacement|follow[\s-]?up|upgrade)\s+(?:to|of|for)|replaces|replaced|"
    r"replacing|supersedes|superseded|succeeds|succeeded|follows|than|over|from|older|previous|"
    r"original|last\s+year['\u2019]s)\s+(?:(?:the|a|an|its|their)\s+)?$",
    re.IGNORECASE,
)
"""Words that make the model after them the earlier one: "the successor to the Pixel 8",
"replaces last year's Pixel 8 Pro", "follows the Pixel 8a", "newer than the Pixel 8", "an
upgrade over the Pixel 8", "brighter than the Pixel 8"."""
_REFERS_BACK: Final = re.compile(
    r"\s*(?:(?:but|sadly|unfortunately|however|though),?\s+)?(?:it\b|its\b|they\b|"
    r"this\s+one\b|that\s+one\b|we\s+(?:[\w'\u2019]+\s+){1,3}?(?:it|them)\b)",
    re.IGNORECASE,
)
"""A sentence that opens by pointing back at what the one before it named: "It's not in our
catalog.", "It is in stock.", "We don't carry it."."""
_OTHER_CLAUSE: Final = re.compile(r"\b(?:and|but|while|though|although|whereas)\b|[;:]", re.I)
"""What stands between a model and a claim that is another's: "replaces the Pixel 8 and is
in stock" says it of the subject."""
_PUT_BEFORE: Final = re.compile(
    rf"{_ADVISED.pattern}|\b(?:consider|try|go\s+for|check\s+out|look\s+at|opt\s+for)\s+",
    re.IGNORECASE,
)
"""The same said of the product taken over: "the XPS 13 has been replaced by"."""
_AVAILABLE: Final = re.compile(
    r"\b(?:available|out\s+now|(?:you\s+)?can\s+(?:now\s+|already\s+)?(?:get|buy|order))\b",
    re.IGNORECASE,
)
"""Words that say a model can be had besides the stock claims: "is available now"."""
_NOT_SAID_SO: Final = re.compile(
    r"\b(?:not|no|never|neither|nor|if|whether|unless|once|when|rumou?red|expected|"
    r"upcoming|coming)\b|n['\u2019]t|\?",
    re.IGNORECASE,
)
"""A denial, a question, a condition or a model yet to come: "its successor, the Pixel 10,
isn't in our store", "if the newer XPS 16 replaces it"."""
_PUT_FORWARD: Final = ", put forward beside the store's"
"""How :meth:`Offers.problem` ends what it says of a model put forward."""
_OF_A_MODEL: Final = (
    _PUT_FORWARD,
    ", said to be the store's",
    ", said to follow a product of the store's",
    ", said of what went before it",
)
"""How :meth:`Offers.problem` ends what it says of a model no tool returned: a sentence
pointing back after it is about that model, whatever its words were taken for."""
_ARTICLES: Final = frozenset(
    {"the", "a", "an", "our", "this", "that", "its", "their", "your", "his", "her", "my"}
)
_HAS: Final = frozenset(re.findall(r"\w+", "with running featuring using powered on"))
"""Words before a name that make it a part or a system of a product: "laptops with M3 Pro
chips", "phones running One UI 6"."""
_AFTER_A_NAME: Final = frozenset(
    re.findall(
        r"\w+",
        "in at and or too is are was were which that with for from to as on by also here now "
        "today right available if but so while when where still",
    )
)
"""Words after a name that leave it a name; any other word in lower case makes a name
said with no article a modifier of a kind ("MIL-STD 810H rugged laptops", "Windows 11
laptops"); "the Galaxy S24 Ultra phone" is a model."""
_KINDS_NAMED: Final = frozenset(
    re.findall(
        r"\w+",
        "phone phones smartphone laptop laptops notebook tablet desktop computer monitor mouse "
        "keyboard headphones earbuds watch smartwatch console camera speaker model edition",
    )
)
"""Kinds of product a name may stand before and still be the product ("the Galaxy S25 Ultra
phone", "a Logitech MX Master 3S mouse")."""
_AFTER_ADVISED: Final = (
    _AFTER_A_NAME | _KINDS_NAMED | {"instead", "over", "because", "since", "rather"}
)
"""Words after a name put forward that leave it the name of what is put forward: a word
of the shopper's needs ("instead", "because"), or the kind it is ("Get a Logitech MX Master
3S mouse"); any other ("the XPS 14 reviews", "the Pixel 9 case") makes it a subject or a
part."""
_NOT_OURS: Final = re.compile(
    r"\b(?:not|no|never|neither|nor|if|whether|unless|once|when|search(?:ed)?|looked|"
    r"check(?:ed)?|confirm(?:ed)?|find|found|results?|seem|might|may|could|would)\b|"
    r"n['\u2019]t|\?",
    re.IGNORECASE,
)
"""Words that make a sentence no claim that the store has it: a denial, a question, a
condition, a report of a search ("we don't seem to carry", "Is it in our store?", "If it
comes back in our store", "I couldn't find it in our catalog")."""


_POPULAR: Final = re.compile(
    r"\b(?:selling\s+(?:fast|quickly|like\s+hot\s*cakes)|"
    r"sells?\s+out\s+(?:fast|quickly)|flying\s+off\s+(?:the\s+|our\s+)?shelves|"
    r"\d[\d,]*\+?\s+(?:happy\s+|satisfied\s+)?(?:customers|shoppers|buyers)\s+(?:have\s+)?"
    r"(?:already\s+)?(?:bought|purchased|ordered|rated|reviewed|chose)\b|"
    r"(?:hundreds|thousands|dozens)\s+of\s+our\s+(?:customers|shoppers|buyers)|"
    r"\d[\d,]*\+?\s+(?:five|5)[\s-]star\s+(?:reviews|ratings)\s+(?:in|on|at|from)\s+our|"
    r"(?:our|the\s+store['\u2019]s)\s+(?:customers|shoppers|buyers)\s+"
    r"(?:rate|rated|give|gave|love|loved)|"
    r"(?:customers|shoppers|buyers)\s+here\s+(?:rate|rated|give|gave|love|loved)|"
    r"[\d.]+\s*(?:/\s*5|out\s+of\s+5|stars?)\s+(?:from|by|among)\s+(?:our|the\s+store['\u2019]s)\s+"
    r"(?:customers|shoppers|buyers)|"
    r"[\d.]+\s+stars?\s+from\s+[\d,]+\s+(?:reviews|ratings)\s+(?:on|in|at)\s+our)",
    re.IGNORECASE,
)
"""What only the store's sales or its shoppers' ratings could say: "selling fast", "500
customers bought it", "our customers rate it 4.8", "4.8/5 from our customers"."""
_POPULARITY = (
    r"(?:best[\s-]?sell(?:ing|ers?)|top[\s-]?sell(?:ing|ers?)|most[\s-]popular|"
    r"most[\s-](?:sold|bought|purchased|ordered)|(?:customer|shopper|fan)[\s-]favou?rites?|"
    r"trending|in\s+(?:high|huge|great)\s+demand)"
    r"(?!\s+(?:author|writer|novelist|series|franchise)s?\b)"
)
_HERE = (
    r"(?:here(?!\s+in\s+(?:the\s+)?[A-Z])|in\s+(?:our|the|this)\s+(?:store|shop)|"
    r"at\s+our\s+(?:store|shop)|on\s+our\s+(?:site|website|shelves)|"
    r"(?:that\s+)?we\s+(?:sell|carry|have|stock|offer))"
)
_POPULAR_HERE: Final = re.compile(
    rf"\b(?:our|this\s+store['\u2019]s|the\s+store['\u2019]s)\s+(?:[\w-]+\s+){{0,2}}?"
    rf"{_POPULARITY}\b|"
    rf"\b{_POPULARITY}\b(?:\s+[\w-]+){{0,3}}?\s+{_HERE}\b",
    re.IGNORECASE,
)
"""A best seller said of the store, the store's words beside it ("our best-selling laptop",
"the most popular laptop we sell"); "one of the best-selling novels of all time" is the
book's fame, "a best-selling author we carry" the author's, "a bestseller we carry in
paperback" a list's or the world's (:data:`_FAME`)."""
_FAME: Final = re.compile(
    r"\b(?:new\s+york\s+times|nyt|sunday\s+times|usa\s+today|international|national|global|"
    r"worldwide|all[\s-]time|of\s+all\s+time|ever|in\s+the\s+world|amazon)\b",
    re.IGNORECASE,
)
_A_BEFORE: Final = re.compile(r"\ban?\s+(?:[\w-]+\s+)?$", re.IGNORECASE)
_BEST_SELLER: Final = re.compile(r"\b(?:best|top)[\s-]?sell", re.IGNORECASE)
"""A best seller, not the store's: "a Penguin bestseller we carry" is the book's fame."""
_SAID_BY_OTHERS: Final = re.compile(
    r"\b(?:reviewers?|critics?|according\s+to|amazon|best\s+buy|says|said|reports?|"
    r"(?:reviews?|magazines?)\s+(?:say|call|calls|name|names|rank|ranks))\b",
    re.IGNORECASE,
)
"""Words that give a popularity claim to someone outside the store ("reviewers call it a
best seller", "Samsung says it is selling fast"), whose words the answer may report; not
one with the store's own words ("a reviewer writes: our best seller"), which is the
store's."""
_DENIED: Final = re.compile(
    r"\b(?:not|no|never|cannot|unless|if|whether)\b|n['\u2019]t\b|\?", re.IGNORECASE
)
"""A denial, a question or a condition: "I can't tell you which is our best seller"."""


def _popular_on_record(product: LedgerProduct) -> bool:
    """Whether the product's own record says it sells well (a "bestseller" tag)."""
    said = " ".join([product.description or "", *(product.tags or [])])
    return bool(_BEST_SELLER.search(said))


def _popularity_claimed(view: str, owners: list[LedgerProduct]) -> str | None:
    """The store's sales or its shoppers' ratings ``view`` states of a product, where the
    record of none it cites says so (:func:`_popular_on_record`)."""
    said = _POPULAR.search(view)
    here = _POPULAR_HERE.search(view)
    a_best_seller = here and (
        _A_BEFORE.search(view[: here.start()]) and _BEST_SELLER.match(here.group())
    )
    if here and not said and (_FAME.search(view) or a_best_seller):
        here = None  # "a New York Times bestseller we carry", "a bestselling classic"
    claim = said or here
    if claim is None or _DENIED.search(view) or any(_popular_on_record(p) for p in owners):
        return None
    if _SAID_BY_OTHERS.search(view) and not here:
        return None  # "Samsung says it is selling fast worldwide"
    return claim.group()


def _ours(view: str) -> re.Match[str] | None:
    """Where ``view`` says the store has what it names, if it says so and nothing else
    ("you might also like it, available in our store": "might" is no hedge there)."""
    said = _OURS.search(view)
    return None if said is None or _NOT_OURS.search(_PUTS_FORWARD.sub(" ", view)) else said


class _Piece(NamedTuple):
    """A sentence of the answer (a bullet, a sentence of a line), where it stands."""

    segment: str
    line: int
    prose: bool
    """Whether its line is prose: not a bullet, a heading or a table's row."""

    def joins(self, following: _Piece) -> bool:
        """Whether ``following`` goes on from this one: on its line, or prose after prose."""
        return self.line == following.line or (self.prose and following.prose)


def _prose(line: str) -> bool:
    return bool(line.strip()) and not (
        BULLET.match(line) or HEADING.match(line) or line.lstrip().startswith("|")
    )


_POINTER: Final = re.compile(
    r"\b(?:this|that)\s+(?:one|model|phone|laptop|book)\b|\bits?\b|\bthem\b|\bthey\b",
    re.IGNORECASE,
)
"""The word of a sentence that points back at what the one before named: "It", "its",
"this one", "we have them"."""


def _record_words(product: LedgerProduct) -> str:
    """The words a record writes (its brand, name, description, specs and tags), lower
    case, one space apart and at both ends: what :meth:`Offers._named_by_records` reads."""
    specs = [
        " ".join(map(str, value)) if isinstance(value, list) else str(value)
        for value in (product.specs or {}).values()
    ]
    text = " ".join(
        [product.brand or "", product.name, product.description or "", *specs,
         *(product.tags or [])]
    )  # fmt: skip
    words = re.findall(r"[\w+]+", text.casefold())
    return f" {' '.join(words)} "


_SET_AGAINST: Final = re.compile(
    r"\b(?:(?<!also\s)(?<!might\s)(?<!would\s)(?<!\bd\s)(?<!will\s)(?<!\bll\s)like|unlike|"
    r"than|over|from|versus|vs\.?|against|beats?|beating|bests?|tops|outlasts?|outperforms?|"
    r"outshines?|outclasses?|rivals?|matches|trails?|compared?\s+(?:to|with)|next\s+to|"
    r"beside|instead\s+of|rather\s+than)\s+(?:(?:the|a|an|your|my|our|its|their)\s+)?"
    r"(?:(?:older|old|previous|last|earlier)\s+)?$",
    re.IGNORECASE,
)
"""Words right before a model that only set the product the answer is about against it:
"beats the iPhone 15", "Unlike the Galaxy S24 Ultra", "upgrading from a Pixel 6", "prefer
both over the iPhone 16"."""
_QUOTED: Final = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")
"""Someone's words, quoted: a model they name is theirs, not what the answer is about."""


def _set_against(view: str, name: str) -> bool:
    """Whether ``view`` names ``name`` only set against another product (:data:`_SET_AGAINST`),
    and never put forward ("You might also like the ...")."""
    found = list(re.finditer(re.escape(name), view, re.IGNORECASE))
    return bool(found) and all(
        _SET_AGAINST.search(view, 0, at.start()) is not None
        and not any(m.end() == at.start() for m in _ADVISED.finditer(view, 0, at.start()))
        for at in found
    )


def _announced_forward(text: str) -> set[str]:
    """The bullets, stripped, of each list that a line putting it forward announces ("You
    might also like:", "Other options:", "Also worth a look:")."""
    found: set[str] = set()
    under = False
    for line in text.split("\n"):
        if BULLET.match(line) and under:
            found.add(line.strip())
        elif line.strip():
            view = halfwidth(line)
            under = (
                bool(_FORWARD_LIST.search(view))
                and line.rstrip(" *_").endswith((":", "\uff1a"))
                and not _DENIES_HAVING.search(view)
            )
    return found


class Offers:
    """What the products a turn's tools returned, and the store's own words, vouch for,
    read against each sentence."""

    def __init__(
        self,
        keyed: LedgerIndex,
        store: str = money.DEFAULT_CURRENCY,
        terms: str = "",
        returned: Iterable[LedgerProduct] = (),
    ) -> None:
        """``keyed``: the records of the products the answer cites, by mark; ``returned``:
        every product the session's tools returned."""
        self._keyed = keyed
        self._store = store
        self._stated = _Store.of(terms, store)
        self._terms_text = self._stated.text
        self._known = list({p.productId: p for p in keyed.values()}.values())
        self._brands = {p.brand.casefold() for p in self._known if p.brand}
        returned = list(returned)
        self._returned = [_name_words(f"{p.brand or ''} {p.name}") for p in returned]
        self._makers = {w for p in returned for w in _name_words(p.brand or "")}
        self._lines = {_line(p.name, self._makers) for p in returned}
        self._flat_returned = [_flat(_SIZE.sub(" ", f"{p.brand or ''} {p.name}")) for p in returned]
        self._series = _series_names(returned, self._makers)
        self._records = [_record_words(p) for p in returned]
        self._makers_known = frozenset(
            set().union(
                *(_maker_and_line(p.brand, p.name) for p in returned if p.category != "BOOKS")
            )
            | _catalog_makers()
            | _MAKERS_KNOWN
        )
        """The makers and lines a name put forward with no model's number may open with: the
        session's tools', the bundled catalog's, and well-known others (:data:`_MAKERS_KNOWN`);
        not a book's publisher ("Penguin Classics" is a publisher's series)."""
        self.removed: list[str] = []
        """What each removed sentence held that nothing vouched for, for the trace."""
        self._totals: dict[str, float] = {}
        self._announced: set[str] = set()
        self._forwarded: set[str] = set()

    def drop(self, text: str) -> str:
        """``text`` without the sentences that state an offer no product vouches for."""
        self._totals = self._list_totals(text)
        self._announced = _announced_ours(text)
        self._forwarded = _announced_forward(text)
        pieces = [
            _Piece(segment, number, _prose(line))
            for number, line in enumerate(text.split("\n"))
            for segment in segments(line)
        ]
        verdicts: dict[str, list[bool]] = {}
        for segment, doomed in self._verdicts(pieces):
            verdicts.setdefault(segment, []).append(doomed)
        return drop_segments(text, lambda segment: verdicts[segment].pop(0))

    def _verdicts(self, pieces: list[_Piece]) -> list[tuple[str, bool]]:
        """Each sentence with whether it goes. A sentence that opens by pointing back at the
        one before it, on its line or on the prose line before (:data:`_REFERS_BACK`: "It is
        in stock.", "We don't carry it."), and cites nothing:

        * goes with that one when it went and cited no product (a model no tool returned,
          else it would be said of the product named before; after a cited product's
          sentence removed for an offer, "It is light." is still that product's);
        * is said of the model that one names, when it named one no tool returned and
          cited nothing ("The Galaxy S25 Ultra has the best zoom. It is in stock."): said
          to be had, the store's, priced or put forward, it goes (:meth:`_said_of`); so
          does a sentence with no subject saying something can be had ("Ships today.");
        * keeps a model put forward with it when it denies that the store has it ("How
          about the Pixel 10? We don't carry it.", "It isn't in stock here.":
          :data:`_DENIES_HAVING`; not any negation: "It isn't expensive.")."""
        problems = [self.problem(piece.segment) for piece in pieces]
        verdicts: list[tuple[str, bool]] = []
        of_a_model = False  # whether the sentence before went for a model no tool returned
        for at, piece in enumerate(pieces):
            segment, problem = piece.segment, problems[at]
            following = pieces[at + 1] if at + 1 < len(pieces) else None
            after = following.segment if following and piece.joins(following) else ""
            back = bool(after) and _REFERS_BACK.match(after) and not CITATION.search(after)
            before = verdicts[-1] if verdicts and pieces[at - 1].joins(piece) else None
            cites = CITATION.search(segment) is not None
            if problem and problem.endswith(_PUT_FORWARD) and back and _DENIES_HAVING.search(after):
                problem = None
            elif (
                not problem
                and before is not None
                and before[1]
                and (CITATION.search(before[0]) is None or of_a_model)
                and not cites
                and _REFERS_BACK.match(segment)
            ):
                # "the Pixel 10 Pro XL" may have had "Pro XL" read as the Pixel 9 Pro XL
                problem = f"{segment.strip()}, said of what went before it"
            elif not problem and before is not None and not before[1] and not cites:
                named = self.names_unreturned(before[0])
                problem = self._said_of(segment, named) if named else None
            if problem:
                self.removed.append(problem)
            of_a_model = problem is not None and problem.endswith(_OF_A_MODEL)
            verdicts.append((segment, problem is not None))
        return verdicts

    def names_unreturned(self, segment: str) -> str | None:
        """The model no tool of the session returned that ``segment`` names last, when it
        cites nothing and does not open by pointing back itself: what a sentence after it
        that opens with "It" is about ("The Galaxy S25 Ultra has the best zoom. It is in
        stock."), not the product cited before it. A model only set against another
        ("Battery life beats the iPhone 15", "Unlike the Galaxy S24 Ultra, ...", "upgrading
        from a Pixel 6", :data:`_SET_AGAINST`) or named in someone's quoted words is not
        what the answer is about: "It" after it stays the product cited before. The fact
        check reads such a sentence so too (:func:`compose_response.facts.check_marked`)."""
        if CITATION.search(segment) or _REFERS_BACK.match(segment):
            return None
        view = _QUOTED.sub(" ", halfwidth(segment))
        names = [n for n in self._unreturned_names(view) if not _set_against(view, n)]
        return names[-1] if names else None

    def _said_of(self, segment: str, name: str) -> str | None:
        """What ``segment``, citing nothing and said right after a sentence naming ``name``
        (a model no tool returned), says of it that nothing vouches for: that it can be had,
        is the store's, has a price or is a good choice; not a denial ("We don't carry it")."""
        view = halfwidth(segment)
        pointer = _POINTER.search(view) if _REFERS_BACK.match(view) else None
        if pointer is not None:
            own = "'s" if pointer.group().casefold() == "its" else ""
            said = f"{view[: pointer.start()]}the {name}{own}{view[pointer.end() :]}"
            at = pointer.start() + len(f"the {name}{own}")
        elif not _NAME_RUN.search(view) and any(c.value for c in stock_claims(view)):
            said, at = view, 0  # "Ships today.", "Only a handful left."
        else:
            return None
        if _DENIES_HAVING.search(said):
            return None
        claims = (
            any(c.value for c in stock_claims(said))
            or _ours(said) is not None
            or _AVAILABLE.search(said) is not None
            or bool(_price_claims(said, _price_claims_in(said, self._store)))
            or (pointer is not None and _RECOMMENDED.match(said, at) is not None)
        )
        return f"{segment.strip()}, said of the {name}" if claims else None

    def _list_totals(self, text: str) -> dict[str, float]:
        """Each line that opens with a total right after a list of two or more products
        (bullets, or a table's rows: "Total: $1,648"), with the sum of their prices: what
        it may say they cost together."""
        totals: dict[str, float] = {}
        listed: dict[str, float | None] = {}
        for line in text.split("\n"):
            cites = [self._keyed[m[1]] for m in CITATION.finditer(line) if m[1] in self._keyed]
            row = line.lstrip().startswith("|")
            if cites and (BULLET.match(line) or row):
                listed.update((p.productId, p.price) for p in cites if p.productId not in listed)
                continue
            total = _TOTAL_LINE.match(line) or (_SUM_LINE.match(line) and TOTAL_SAID.search(line))
            if total and WITH_MORE.search(line):
                total = None  # "Total with tax: $1,780" is no sum of their prices
            if not line.strip() or (row and not cites and not total):
                continue  # a blank line between, a table's header or rule
            prices = [price for price in listed.values() if price is not None]
            each = any(PER_ITEM.match(line, q.end) for q in _price_claims_in(line, self._store))
            if total and not cites and not each and len(prices) == len(listed) > 1:
                totals[line] = sum(prices)
            listed = {}
        return totals

    def problem(self, segment: str) -> str | None:
        """What in ``segment`` nothing vouches for, or None."""
        view = halfwidth(segment)
        owners = [self._keyed[m[1]] for m in CITATION.finditer(segment) if m[1] in self._keyed]
        code = _CODE.search(view)
        if code:
            return f"code {code['code']}"
        if self._terms_text and " ".join(view.casefold().split()) in self._terms_text:
            return None  # the store's own words, as its policies write them
        priced = _price_claims_in(view, self._store)
        term = self._term(view, owners, priced)
        if term:
            return term
        # "the iMac 24 (sold out) is selling fast" is a stock claim the fact check corrects
        sold_out = any(p.stock == 0 and not p.uncounted for p in owners) and bool(
            stock_claims(view)
        )
        popular = None if sold_out else _popularity_claimed(view, owners)
        if popular:
            # "our best-selling laptop", "rated 4.8/5 by our customers": no tool keeps the
            # store's sales or its shoppers' ratings
            return popular
        blank = CITATION.sub(lambda m: " " * len(m.group()), view)
        ours = _ours(view) if not owners else None
        if ours or (not owners and segment.strip() in self._announced):
            # "We also carry the Dell XPS 14", or a bullet under "Also in our store:": a
            # product no tool returned, said to be the store's ("Windows 11 laptops" is no
            # product)
            models = _models_of(blank, self._returned, self._of_series, self._series)
            if models:
                return f"{models[0]}, said to be the store's"
        listed = segment.strip() in self._forwarded
        sibling = None if ours else self._put_forward(blank, listed=listed)
        if sibling:
            # "You might also like the Pixel 10 Pro XL", "Consider the Galaxy S25 Ultra",
            # "How about the Pixel 10?", "The Galaxy S25 Ultra is a great choice": a model
            # no tool returned, put before the shopper as if the store had it, whoever
            # makes it (whatever a product the words of its name were taken for: "Pro XL",
            # the Pixel 9 Pro XL)
            return f"{sibling}{_PUT_FORWARD}"
        successor = None if ours or sibling else self._successor(view, blank)
        if successor:
            # "the Pixel 9 [..]'s successor, the Pixel 11, is in stock", "the newer XPS 16
            # replaces it": a later model the store's product is said to give way to
            return f"{successor}, said to follow a product of the store's"
        stocked = [claim for claim in stock_claims(view) if claim.value] if not owners else []
        if stocked:
            # "the Acme Phone X9 is in stock now": a product no tool returned, said to be had
            # (said to be sold out or not carried, it is promised nothing).
            runs = self._unreturned(blank, _product_like(blank, self._brands, owned=False))
            # a model's number may be read as a count ("the pixel 11 is in stock": 11)
            named = [run for run in runs if run.start() < stocked[0].start]
            if named:
                return f"{named[-1].group()} {view[stocked[0].start : stocked[0].end]}"
        prices = _price_claims(view, priced)
        if not prices:
            return None
        runs = self._unreturned(blank, _product_like(blank, self._brands, owned=bool(owners)))
        for claim in prices:
            named = [run for run in runs if run.end() <= claim.start]
            if named and (not owners or named[-1].start() > _last_citation(view, claim.start)):
                return f"{named[-1].group()} at {view[claim.start : claim.end]}"
            sums = [total for line, total in self._totals.items() if segment.strip() in line]
            if not owners and not (
                _vouched_price(claim, self._known, self._store)
                or any(agrees(claim, "price", value, self._store) for value in self._stated.prices)
                or any(agrees(claim, "price", total, self._store) for total in sums)
                or summed_of_some(claim, view, self._keyed, self._store)
            ):
                return view[claim.start : claim.end]
        return None

    def _unreturned(self, view: str, runs: list[re.Match[str]]) -> list[re.Match[str]]:
        """``runs`` and, with them, the models of a series the tools returned that ``view``
        writes in lower case and no tool returned ("the pixel 11", "the galaxy s25 ultra",
        :func:`_series_names`), in order: a name as a capitalised one would be read."""
        if self._series is None:
            return runs
        more = [
            said
            for said in self._series.finditer(view)
            if said[0] != said[0].title()
            and not self._returned_as(said.group())
            and not any(r.start() < said.end() and said.start() < r.end() for r in runs)
            # the earlier model: "[..] is the successor to the iPhone 15 and costs $799"
            and not _BEFORE_IT.search(view, 0, said.start())
        ]
        return sorted([*runs, *more], key=lambda r: r.start()) if more else runs

    def _returned_as(self, name: str) -> bool:
        """Whether ``name`` is a returned product's written another way ("Z Flip 6", "iPhone
        16 Pro Max 256GB", "Pixel 9 ProXL")."""
        flat = _flat(_SIZE.sub(" ", name))
        return any(flat in returned for returned in self._flat_returned)

    def _of_series(self, name: str) -> bool:
        """Whether ``name`` is of a series the session's tools returned a model of."""
        return _line(name, self._makers) in self._lines

    def _put_forward(self, view: str, *, listed: bool = False) -> str | None:
        """A model no tool of the session returned that ``view`` puts before the shopper,
        whoever makes it: right after the words that do so (:data:`_ADVISED`: "Consider
        the", "You might also like the", "Get the", "Also worth a look:", also as a question:
        "How about the", :data:`_ASKS_FORWARD`), or a name joined to it ("the Pixel 9 Pro or
        the Pixel 10 Pro XL"); the subject of words that make it a choice ("The Galaxy S25
        Ultra is a great choice", :data:`_RECOMMENDED`); or, ``listed``, the name a bullet
        under a line that puts its list forward opens with ("You might also like:").

        A model is a name with a model's number (:func:`_models_of`), or a name by a maker
        the tools returned products of with a model's word ("Apple MacBook Air"), or one with
        no number (:meth:`_named_product`: "Apple Pencil", "Magic Keyboard"), or a name in
        lower case (:meth:`_lower_model`: "galaxy s25 ultra", "apple pencil"), that no
        product returned is ("the Dell XPS 13 in silver") and no returned record names (a
        book's title or an accessory its description gives); not a chip, a system or
        software ("an M3 Pro", "Windows 11", "One UI 7", "Microsoft 365"), nor a name before
        a word that makes it a part or a subject ("the Galaxy S24 Ultra reviews", "the iPhone
        15's cable"). It stays where the sentence then denies that the store has it ("...,
        but we don't carry it": :data:`_DENIES_HAVING`) or gives it to another seller
        (:data:`_ELSEWHERE`), and where the words that put it forward are negated ("I'd
        never go for the XPS 16"); a choice said by reviewers, or asked, stays too."""
        if _ELSEWHERE.search(view):
            return None
        # "How about the XPS 16?" is among them: it asks nothing, it puts the model forward
        starts = [a.end() for a in _ADVISED.finditer(view) if not _negated(view, a.start())]
        if listed:
            bullet = BULLET.match(view)
            at = bullet.end() if bullet else 0
            starts.append(len(view) - len(view[at:].lstrip(" \t*_")))
        for start in starts:
            for run in self._runs_from(view, start):
                after = re.match(r"['\u2019]s\b|\s*([a-z][\w-]*)", view[run.end() :])
                if after and (after[1] is None or after[1] not in _AFTER_ADVISED):
                    break  # "the XPS 14 reviews", "the iPhone 15's cable": no model put forward
                model = self._unreturned_model(run.group())
                if model and not _DENIES_HAVING.search(view, run.end()):
                    return model
        if view.rstrip(" *_\"'\u201d)").endswith("?") or _SAID_BY_OTHERS.search(view):
            return None  # "Is the Galaxy S25 Ultra worth it?", "Reviewers call it a great pick"
        for run in [*_name_runs(view, self._series), *_LOWER_MODEL.finditer(view)]:
            if not _SUBJECT_BEFORE.match(view[: run.start()]):
                continue
            if _RECOMMENDED.match(view, run.end()) is None:
                continue
            model = self._unreturned_model(run.group())
            if model and not _DENIES_HAVING.search(view, run.end()):
                return model
        return None

    def _runs_from(self, view: str, start: int) -> list[re.Match[str]]:
        """The names ``view`` writes from ``start`` on (:func:`_name_runs`), one after the
        other where a comma, "and" or "or" joins them."""
        found: list[re.Match[str]] = []
        while True:
            here = [_NAME_RUN.match(view, start), _LOWER_MODEL.match(view, start)]
            if self._series is not None:
                here.append(self._series.match(view, start))
            runs = [run for run in here if run is not None] or [
                cited for cited in [_CITED_HERE.match(view, start)] if cited is not None
            ]
            eaten = _JOINED_NAME.match(view, start) if view.endswith("   ", 0, start) else None
            if not runs and not found and eaten is not None:
                start = eaten.end()  # "the [..] or the Pixel 10": the citation went before
                continue
            if not runs:
                return found
            run = max(runs, key=lambda r: r.end())
            found.append(run)
            joined = _JOINED_NAME.match(view, run.end())
            if joined is None:
                return found
            start = joined.end()

    def _unreturned_model(self, name: str) -> str | None:
        """The model ``name`` (a name as written, alone) names, when no tool of the session
        returned it and no returned record names it (rules of :meth:`_put_forward`)."""
        models = _models_of(name, self._returned, lines=self._series)
        model = models[0] if models else self._by_a_maker(name) or self._named_product(name)
        if model is None and name == name.casefold():
            model = self._lower_model(name)
        if model is None or _NOT_A_PRODUCT.match(model):
            return None
        if self._returned_as(model) or self._named_by_records(model):
            return None
        return model

    def _by_a_maker(self, name: str) -> str | None:
        """``name`` when it is a maker's whose products the tools returned, with a model's
        word ("Apple MacBook Air", "Samsung Galaxy Book Pro"), and no product returned."""
        words = name.split()
        while words and words[0].casefold() in _ARTICLES:
            words = words[1:]
        if len(words) < 2 or words[0].casefold() not in self._makers:
            return None
        if not a_product_named(words):
            return None
        said = _name_words(" ".join(words))
        return None if any(said <= returned for returned in self._returned) else " ".join(words)

    def _named_product(self, name: str) -> str | None:
        """``name`` (capitalised words, alone) when it names a product with no model's
        number: a known maker's or line's name and a word of a product after it ("Apple
        Pencil", "Kindle Paperwhite", "Galaxy Buds"), or a name that ends with a kind of
        product ("Magic Keyboard"); not a service, software or a part of a maker's offer
        ("Google Photos", "Apple Music", "Kindle Unlimited", :data:`_SERVICES`), a maker's
        line alone ("Samsung Galaxy"), nor words that describe a kind ("Wireless Mouse")."""
        words = name.split()
        while words and words[0].casefold() in _ARTICLES:
            words = words[1:]
        folded = [w.casefold().rstrip("+") for w in words]
        if not 2 <= len(words) <= 5 or any(w in _SERVICES or w in FEATURE_WORDS for w in folded):
            return None
        if not all(w[0].isupper() or w[0].isdigit() or _INNER.search(w) for w in words):
            return None
        known = self._makers_known
        if folded[0] in known:
            rest = [w for w in folded[1:] if w not in known and w not in _PLAIN_WORDS]
            return " ".join(words) if rest else None
        kinds = [at for at, w in enumerate(folded) if w in _GEAR]
        if not kinds or kinds[-1] == 0:
            return None
        before = folded[: kinds[-1]]
        if all(w in _PLAIN_WORDS or w in _GEAR or w in COMMON for w in before):
            return None  # "a Wireless Mouse", "the Phone Case"
        return " ".join(words)

    def _lower_model(self, name: str) -> str | None:
        """``name`` (lower-case words, alone: :data:`_LOWER_MODEL`) when it names a model:
        words and a model's number ("galaxy s25 ultra", "pixel 10 pro", "apple pencil 2"),
        whoever makes it, or a known maker's or line's name and a kind of product ("apple
        pencil", "galaxy buds"); not a system, a port, an amount or a place in a text
        ("windows 11", "usb-c", "16 gb", "chapter 11", "version 2")."""
        words = name.split()
        while words and words[0] in _ARTICLES:
            words = words[1:]
        if not words or words[0] in _NOT_A_NAME_WORD or words[0] in FEATURE_WORDS:
            return None
        if any(w.rstrip("+") in _SERVICES or w in _NOT_A_NAME_WORD for w in words):
            return None
        said = " ".join(words)
        if any(c.isdigit() for c in said):
            titled = [w[:1].upper() + w[1:] for w in words]
            return said if a_model_named(titled) else None
        known = self._makers_known
        if len(words) >= 2 and words[0] in known and words[-1] in _GEAR:
            return said if not all(w in known for w in words[1:-1]) or len(words) == 2 else None
        return None

    def _unreturned_names(self, view: str) -> list[str]:
        """The models ``view`` names, wherever, that no tool of the session returned and no
        returned record names (:meth:`_unreturned_model`'s rules, a name read in its
        sentence: "phones with the Tensor G4" names no model)."""
        models = _models_of(view, self._returned, self._of_series, self._series)
        makers = [
            made
            for run in _name_runs(view, None)
            if (made := self._by_a_maker(run.group())) is not None and made not in models
        ]
        return [
            model
            for model in [*models, *makers]
            if not (
                _NOT_A_PRODUCT.match(model)
                or self._returned_as(model)
                or self._named_by_records(model)
            )
        ]

    def _named_by_records(self, name: str) -> bool:
        """Whether a record the tools returned writes ``name``, word for word: in its name,
        its description, its specs or its tags ("Apple Pencil Pro" in an iPad's, a title a
        book's description quotes)."""
        words = [w for w in re.findall(r"[\w+]+", name.casefold()) if w not in _ARTICLES]
        said = f" {' '.join(words)} "
        return bool(words) and any(said in record for record in self._records)

    def _successor(self, view: str, blank: str) -> str | None:
        """A model none of the session's tools returned, of a series they returned, that
        ``view`` names a later version of one (:data:`_SUCCESSOR`, :data:`_REPLACES`) and
        says can be had, is the store's or puts forward: the name right before a claim that
        it can be had ("its successor, the Pixel 11, is in stock"), right after the words
        that say the store has it or put it forward ("we also carry its successor, the
        Pixel 11"), or the one said to take the product's place ("the newer XPS 16 replaces
        it", "the XPS 13 [..] has been replaced by the XPS 14"); not where the sentence
        denies it, asks or makes it a condition (:data:`_NOT_SAID_SO`)."""
        replaces = list(_REPLACES.finditer(blank))
        if not (replaces or _SUCCESSOR.search(blank) or _TAKEN_OVER.search(blank)):
            return None
        plain = _ASKS_FORWARD.sub(" ", _PUTS_FORWARD.sub(" ", blank))
        if _NOT_SAID_SO.search(plain):
            return None
        runs = _name_runs(blank, self._series)
        marks = [m.start() for m in CITATION.finditer(view)]
        had = [
            *(c.start for c in stock_claims(view) if c.value),
            *(m.start() for m in _AVAILABLE.finditer(view)),
            *(m.start() for m in replaces),
        ]
        put = [m.end() for m in (*_OURS.finditer(view), *_PUT_BEFORE.finditer(view))]
        for run in runs:
            models = _models_of(run.group(), self._returned, lines=self._series)
            if not models or not self._of_series(models[0]) or self._returned_as(models[0]):
                continue
            later = [r.start() for r in runs if r.start() > run.start()] + marks
            nearest = min([m for m in later if m >= run.end()], default=len(view))
            earlier = [r.end() for r in runs if r.end() < run.start()] + marks
            since = max([m for m in earlier if m < run.start()], default=0)
            if _BEFORE_IT.search(view[since : run.start()]):
                continue  # the earlier model: "the successor to the Pixel 8"
            by = _REPLACED_BY.search(view[since : run.start()])
            if (
                any(
                    run.end() <= at < nearest and not _OTHER_CLAUSE.search(view[run.end() : at])
                    for at in had
                )
                or any(since <= at <= run.start() for at in put)
                or by is not None
            ):
                return models[0]
        return None

    # -- terms of sale ----------------------------------------------------------------------

    def _term(self, view: str, owners: list[LedgerProduct], prices: list[Quantity]) -> str | None:
        """The first term of sale in ``view`` (its prices read) nothing vouches for (rules
        above)."""
        pool = owners or self._known
        amounts = _amounts(view, self._store, prices)
        percents = _percents(view)
        services, frees = _free_services(view)
        return (
            self._condition(view, owners, amounts, percents, bool(services or frees))
            or self._length(view, _WARRANTY, [*self._stated.warranties, *_described(pool)])
            or self._length(view, _RETURN, self._stated.returns)
            or self._destination(view)
            or next(filter(None, (self._free(s, owners) for s in services)), None)
            or self._given(view, frees, owners)
            or self._discount(percents, pool)
            or self._saving(view, amounts, pool)
            or self._sale(view, pool)
        )

    def _money_vouched(self, value: float, products: Iterable[LedgerProduct]) -> bool:
        stated = [*self._stated.prices]
        stated += [v for p in products for v in (p.price, p.compareAtPrice) if v is not None]
        return any(abs(value - v) < 0.005 for v in stated)

    def _condition(
        self,
        view: str,
        owners: list[LedgerProduct],
        amounts: list[_Amount],
        percents: list[tuple[str, float]],
        free: bool,
    ) -> str | None:
        """A price or an offer on a condition the policies do not offer, with their amounts."""
        bare = _bare(view)
        said = bool(amounts or percents or free or bare or _DEAL.search(view))
        rated = any(_RATE.match(view, a.end) for a in amounts)
        for kind in (*_KINDS, _RATE_KIND):
            found = rated if kind is _RATE_KIND else _said(kind.with_amount, view)
            offer = kind.alone is not None and _said(kind.alone, view)
            if not (offer or (found and said)):
                continue
            stores = kind.store.search(self._terms_text) is not None
            if kind.as_now and not offer:
                # "tomorrow ... for $12.99": a later day, at a price that is already so
                stores = True
            owned = [
                *(self._money_vouched(a.value, owners) for a in amounts),
                *(self._money_vouched(value, owners) for value in bare),
                *(
                    any(abs(p - s) <= 0.5 for s in self._stated.percents)
                    or (kind.as_now and _vouched_percent(p, owners))
                    for _, p in percents
                ),
            ]
            if not (stores and all(owned)):
                return kind.name
        return None

    @staticmethod
    def _length(view: str, word: re.Pattern[str], stated: list[float]) -> str | None:
        """A warranty's length or a return window the store does not state."""
        for words, days in _lengths_said(view, word):
            if not _same_length(days, stated):
                return words
        return None

    def _destination(self, view: str) -> str | None:
        """A place shipped to that the policies do not name."""
        ships = [m for m in _SERVICE.finditer(view) if m["shipping"]]
        if not ships:
            return None
        for ship in ships:
            left, right = _clause(view, ship.start(), ship.end())
            for place in _ANYWHERE.finditer(view, left, right):
                beside = place.start() >= ship.end() or _close(view[place.end() : ship.start()], 0)
                if beside and not _negated(view, place.start()) and not self._stated.ships_anywhere:
                    return place.group()
        for to in _PLACE.finditer(view):
            if not _TO_PLACE_AFTER.search(view[max(0, to.start() - _NEAR) : to.start()]):
                continue
            if _negated(view, to.start()):
                continue
            for part in re.split(r"\s+(?:and|or|&)\s+(?:the\s+)?", to["place"]):
                name = part.casefold().replace(".", "")
                if _ALIASES.get(name, name) not in self._terms_text:
                    return to.group()
        return None

    def _free(self, service: _Service, owners: list[LedgerProduct]) -> str | None:
        """A free service the policies do not promise, or promise with less: not free,
        not this fast, not on every order, not from this amount."""
        stated = self._stated.free.get(service.kind, [])
        amounts = _amounts(service.clause, self._store)
        named = _SERVICE.search(service.clause)
        before = [a for a in amounts if named is not None and a.end <= named.start()]
        if service.included and any(not self._money_vouched(a.value, owners) for a in before):
            return None  # "$1,311.98 with express shipping included": a total, shipping paid
        if not stated:
            return f"free {service.kind}"
        for speed in _SPEED.finditer(service.clause):
            if not any(_flat(speed.group()) in _flat(clause) for clause in stated):
                return f"free {speed.group()} {service.kind}"
        every = _UNIVERSAL.search(service.clause)
        if every and not any(_UNIVERSAL.search(clause) for clause in stated):
            return f"free {service.kind}, {every.group()}"
        for amount in amounts:
            if not self._money_vouched(amount.value, owners):
                return f"free {service.kind} from {amount.value:g}"
        minimums = [[a.value for a in _amounts(clause, self._store)] for clause in stated]
        if not amounts and all(minimums):
            # The policies' free service has a minimum: said without one, it is free only
            # of the products the sentence names that reach it.
            least = min(min(values) for values in minimums)
            if not owners or any(p.price is None or p.price < least for p in owners):
                return f"free {service.kind}, whatever the order"
        return None

    @staticmethod
    def _given(view: str, frees: list[re.Match[str]], owners: list[LedgerProduct]) -> str | None:
        """Said "free" of a product that has a price, or of none."""
        for free in frees:
            if _NOT_AN_OFFER.match(view, free.end()):
                continue
            if not (owners and all(p.price == 0 for p in owners)):
                return free.group()
        return None

    def _discount(self, percents: list[tuple[str, float]], pool: list[LedgerProduct]) -> str | None:
        """A percent off that is no product's sale nor the policies' own."""
        for words, said in percents:
            if not (
                _vouched_percent(said, pool)
                or any(abs(said - p) <= 0.5 for p in self._stated.percents)
            ):
                return words
        return None

    @staticmethod
    def _sale(view: str, pool: list[LedgerProduct]) -> str | None:
        """A sale said of products none of which is on sale ("on sale right now")."""
        if any(p.on_sale for p in pool):
            return None
        for said in _ON_SALE.finditer(view):
            left, right = _clause(view, said.start(), said.end())
            clause = view[left:right]
            nobody = _NOBODY.match(clause)
            if not (_negated(view, said.start()) or nobody or _HEDGED_SALE.search(clause)):
                return said.group()
        return None

    def _saving(self, view: str, amounts: list[_Amount], pool: list[LedgerProduct]) -> str | None:
        """An amount saved that is no product's sale, no difference of two products'
        prices and no amount of the policies."""
        for amount in amounts:
            before = view[max(0, amount.start - 48) : amount.start]
            if not (_SAVE_BEFORE.search(before) or _SAVE_AFTER.match(view, amount.end)):
                continue
            prices = [p.price for p in pool if p.price is not None]
            vouched = [
                *(s for p in pool if (s := _saving(p)) is not None),
                *(abs(a - b) for a in prices for b in prices if a != b),
                *self._stated.prices,
            ]
            if not any(abs(amount.value - v) < 0.005 for v in vouched):
                return view[amount.start : amount.end]
        return None


def _described(products: Iterable[LedgerProduct]) -> list[float]:
    """The warranty lengths the products' own descriptions state."""
    return [
        days
        for product in products
        for days in _lengths_in(_sentences(product.description or ""), _WARRANTY)
    ]


def _last_citation(view: str, before: int) -> int:
    starts = [m.start() for m in CITATION.finditer(view) if m.start() < before]
    return starts[-1] if starts else -1
