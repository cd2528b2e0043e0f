"""Links, e-mail addresses and phone numbers in a model's words, and which are the store's.

A review page can tell a model to send the shopper elsewhere: a link to a "deal", a
support line, an address to write to. Only the store's own may reach the shopper: its
storefront's domain (and its subdomains), the contact in its settings, the pages of its
own products. Everything else a model writes that reaches out of the store is found
here, however it is dressed:

* a link: with a scheme (``https://…``), starting ``www.``, a Markdown link's target, or a
  bare domain under a top-level domain (``deals.example``, ``shop.xyz/path``), also
  written so as not to look like one (``deals[.]example``, ``deals (dot) example``,
  ``hxxps://``);
* an e-mail address, also ``name [at] host [dot] com``;
* a phone number: digits in groups (``555-0100``, ``+1 (555) 010-0199``, ``0800 123 456``)
  with 7 to 15 digits, not a date, a year range, an ISBN or a price;
* a handle on a messenger or a social network (``@BetterDeals``), in a text that speaks of
  one ("message us on Telegram", "WhatsApp", "DM").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

# Generic top-level domains a model or a page writes, the two-letter country codes, and the
# names reserved for examples: a word "dot" one of these is a link.
_TLDS = (
    "com|net|org|info|biz|io|co|app|dev|shop|store|online|site|website|xyz|top|club|me|tv|"
    "cc|ly|gg|to|link|click|live|pro|deals|sale|buy|win|vip|bid|loan|work|icu|cfd|sbs|"
    "example|test|invalid|local|"
    "us|uk|de|fr|es|it|nl|eu|ca|au|jp|cn|ru|in|br|ch|se|no|dk|fi|pl|be|at|cz|ie|nz|za|mx|ar|"
    "kr|tw|hk|sg|my|id|th|vn|ph|tr|gr|pt|ro|hu|il|ae|sa|ua|kz|ai|so|ws|la|st|sh|ac|is|lt|"
    "lv|ee|sk|si|hr|rs|bg|cl|pe|ng|ke|eg|pk|bd|ir|su"
)
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_DOT = r"(?:\.|\s*[\[({]\s*(?:\.|dot)\s*[\])}]\s*|\s+dot\s+)"
_DOMAIN = rf"(?:{_LABEL}{_DOT})+(?:{_TLDS})(?![a-z0-9-])"
# Bare (no scheme, no www): the top-level domain in lower case, as addresses are written,
# so that "ASP.NET" or "Model.IT" is a name, not a link.
_BARE_DOMAIN = rf"(?:{_LABEL}{_DOT})+(?-i:{_TLDS})(?![A-Za-z0-9-])"
_SCHEME = r"\b(?:h[tx]{2}ps?|ftp)(?::|\[:\])//"
_LINK = re.compile(
    rf"{_SCHEME}[^\s<>\"')\]]+"
    rf"|\bwww{_DOT}[^\s<>\"')\]]+"
    rf"|\]\(\s*(?P<target>[^)\s]+)[^)]*\)"
    rf"|(?<![\w@.-]){_BARE_DOMAIN}(?:[/:?#][^\s<>\"')\]]*)?",
    re.IGNORECASE,
)
_AT = r"(?:@|\s*[\[({]\s*at\s*[\])}]\s*|\s+at\s+(?=[a-z0-9-]+\s*(?:\.|[\[({]\s*dot|dot\s)))"
_EMAIL = re.compile(rf"[\w.+-]+{_AT}{_DOMAIN}", re.IGNORECASE)
_PHONE = re.compile(
    r"(?<![\w.,/$€£¥-])"
    r"(?:\+\d{1,3}[ .\u00a0-]?)?(?:\(\d{1,5}\)[ .\u00a0-]?)?"
    r"\d{2,5}(?:[ .\u00a0-]\d{2,5}){0,4}"
    r"(?![\w/$€£¥%]|[.,]\d|\s?(?:[%$€£¥]|(?:gb|tb|mb|kg|g|lbs?|oz|mm|cm|in|inch|inches|mp|"
    r"mah|h|hrs?|hours|w|wh|hz|ghz|mhz|nm|pages|usd|eur|gbp|dollars?|euros?)\b))",
    re.IGNORECASE,
)
_NOT_A_PHONE = re.compile(
    r"^(?:\d{4}-\d{1,2}-\d{1,2}|(?:19|20)\d\d(?:\s?[-\u2013 ]\s?(?:19|20)?\d\d)+"
    r"|\d{1,3}(?:[ .]\d{3})+)$"
)
_PHONE_WORDS = re.compile(
    r"\b(?:call|dial|phone|tel|telephone|ring|text|sms|whatsapp|hotline|fax|helpline|"
    r"anrufen|telefon|appelez|llame)\b",
    re.IGNORECASE,
)
_SEPARATOR_AFTER_LABEL = re.compile(_DOT, re.IGNORECASE)


def _host(address: str) -> str:
    """The host a link or an e-mail address points at, lower case."""
    text = re.sub(_AT, "@", address.strip().lower())
    text = _SEPARATOR_AFTER_LABEL.sub(".", text)
    if "@" in text:
        return text.rsplit("@", 1)[1]
    text = re.sub(r"^h[tx]{2}p(s?)(?::|\[:\])//", r"http\1://", text)
    if "://" not in text:
        text = "http://" + text
    try:
        return (urlsplit(text).hostname or "").rstrip(".")
    except ValueError:
        return ""  # not an address a browser could open: nobody's own


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


@dataclass(frozen=True)
class Contact:
    """One link, e-mail address or phone number in a text."""

    kind: str
    """``link``, ``email``, ``phone`` or ``handle``."""
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class OwnContacts:
    """The store's own: domains (a subdomain of one is its own too), e-mail addresses
    and phone numbers (compared by their digits)."""

    domains: frozenset[str] = frozenset()
    emails: frozenset[str] = frozenset()
    phones: frozenset[str] = frozenset()
    handles: frozenset[str] = frozenset()

    @classmethod
    def of(cls, entries: Iterable[str]) -> OwnContacts:
        """From a list of the store's own: each an address (a URL or a domain), an
        e-mail address or a phone number. Text around them is ignored, so the contact
        paragraph of the store's settings can be passed as it is written."""
        domains: set[str] = set()
        emails: set[str] = set()
        phones: set[str] = set()
        handles: set[str] = set()
        for entry in entries:
            for found in find(entry, OwnContacts()):
                if found.kind == "email":
                    emails.add(found.text.lower())
                    domains.add(_host(found.text))
                elif found.kind == "phone":
                    phones.add(_digits(found.text)[-9:])
                elif found.kind != "handle":
                    domains.add(_host(found.text))
            # the store's settings are its own words: a handle there needs no messenger's
            handles.update(m.group().casefold() for m in _HANDLE.finditer(entry))
        return cls(
            frozenset(d for d in domains if d),
            frozenset(emails),
            frozenset(phones),
            frozenset(handles),
        )

    def __or__(self, other: OwnContacts) -> OwnContacts:
        return OwnContacts(
            self.domains | other.domains,
            self.emails | other.emails,
            self.phones | other.phones,
            self.handles | other.handles,
        )

    def owns(self, contact: Contact) -> bool:
        if contact.kind == "handle":
            return contact.text.casefold() in self.handles
        if contact.kind == "phone":
            return _digits(contact.text)[-9:] in self.phones
        host = _host(contact.text)
        if contact.kind == "link" and contact.text.startswith("]("):
            target = contact.text[2:].strip(" )")
            host = _host(target) if re.match(r"[a-z]+:", target, re.I) else ""
        return bool(host) and any(host == d or host.endswith("." + d) for d in self.domains)


NO_CONTACTS: Final = OwnContacts()
"""No contact is the store's own: the default until the store's settings give them."""


def find(text: str, own: OwnContacts) -> list[Contact]:
    """The links, e-mail addresses and phone numbers in ``text`` that are not ``own``."""
    found: list[Contact] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, start: int, end: int) -> None:
        if any(start < b and a < end for a, b in taken):
            return
        taken.append((start, end))
        contact = Contact(kind, text[start:end], start, end)
        if not own.owns(contact):
            found.append(contact)

    for match in _EMAIL.finditer(text):
        add("email", *match.span())
    for match in _LINK.finditer(text):
        add("link", *match.span())
    spoken_of = bool(_PHONE_WORDS.search(text))
    for match in _PHONE.finditer(text):
        written = match.group().strip()
        digits = _digits(written)
        if not 7 <= len(digits) <= 15 or _NOT_A_PHONE.match(written):
            continue
        if re.search(r"ISBN[\s:-]*$", text[max(0, match.start() - 12) : match.start()], re.I):
            continue
        shaped = written.startswith("+") or "(" in written or re.search(r"\d[-.]\d", written)
        if shaped or spoken_of:
            add("phone", match.start(), match.start() + len(written))
    if _MESSENGERS.search(text):
        for match in _HANDLE.finditer(text):
            add("handle", *match.span())
    return sorted(found, key=lambda c: c.start)


_HANDLE: Final = re.compile(r"(?<![\w.@+-])@[A-Za-z_](?:[A-Za-z0-9_.]{0,30}[A-Za-z0-9_])?(?![\w@])")
"""A handle starts with a letter: "@60fps", "@4.8GHz" are a spec's notation."""
_MESSENGERS: Final = re.compile(
    r"\b(?:telegram|whats\s?app|instagram|insta|tiktok|twitter|facebook|messenger|"
    r"discord|wechat|snapchat|viber|bluesky|dm|dms|direct\s+message|message\s+us|"
    r"follow\s+us|handle)\b",
    re.IGNORECASE,
)
"""Words that make an ``@name`` a handle to write to, not an aside ("@ $349")."""
