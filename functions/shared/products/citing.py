"""How a product is written in a citation: its id, or a short handle for an id that
cannot be written safely there.

A model cites a product as ``[productId]``. Most SKUs survive that as they are
(``100201``, ``BK-THE-MARTIAN-PA``, ``shirt.blue/xl``, ``#4411``); some do not: one with
spaces (a model may drop or double them), brackets, commas or Markdown's ``*`` and
`````, characters outside ASCII (a model may write them in another form), or one too
long to copy faithfully. Such an id is shown to the model as a **handle**
(:func:`handle`): ``P-`` and ten letters and digits of a hash of the id. A handle is
derived from the id alone, so it is the same in every turn and every session, no table
keeps it, and whoever holds the id can find it again: the citations of an answer
(``compose_response.known``), the catalog tool asked for ``productIds``
(``shared.search``). The shopper never reads one: the answer shows the product's id.

:func:`normalise` is the form two writings of one id share when a model writes it
nearly right: ``[ cmp-023 ]``, fullwidth letters and digits, an en dash for a hyphen.
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from typing import Final

HANDLE_PREFIX: Final = "P-"
HANDLE_LENGTH: Final = 10
"""Ten base32 characters, 50 bits: two ids of a catalog of 200,000 share a handle with a
chance of about 1 in 50,000, and an exact id always wins over a handle."""
MAX_CITABLE: Final = 40
"""Longer ids are cited by handle: a model copies a long string less faithfully."""

_CITABLE = re.compile(rf"[A-Za-z0-9_./#:+~-]{{1,{MAX_CITABLE}}}")
"""What a model writes back unchanged inside brackets: ASCII letters and digits and a
few marks that are not Markdown, sentence or clause punctuation."""
_HANDLE = re.compile(rf"{re.escape(HANDLE_PREFIX)}[A-Z2-7]{{{HANDLE_LENGTH}}}")
_DASHES = re.compile(r"[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")
_WRAPPERS = "`'\"*_\u2018\u2019\u201c\u201d"
_UNSEEN = frozenset({"Cc", "Cf"})


def citable(product_id: str) -> bool:
    """Whether ``product_id`` can be cited as it is (else it is cited by its handle)."""
    return bool(_CITABLE.fullmatch(product_id))


def handle(product_id: str) -> str:
    """The handle of ``product_id``: the same for the same id, always."""
    digest = hashlib.sha256(product_id.encode("utf-8")).digest()
    return HANDLE_PREFIX + base64.b32encode(digest).decode("ascii")[:HANDLE_LENGTH]


def cite_as(product_id: str) -> str:
    """What the model is given to cite ``product_id`` by: the id, or its handle."""
    return product_id if citable(product_id) else handle(product_id)


def is_handle(text: str) -> bool:
    """Whether ``text`` is written as a handle is (:func:`handle`)."""
    return bool(_HANDLE.fullmatch(text))


def normalise(text: str) -> str:
    """The form that two writings of one id share: invisible characters gone,
    compatibility characters folded
    (NFKC: fullwidth letters and brackets), case folded, any dash a hyphen, quotes, back
    ticks and Markdown emphasis around it and the spaces at its ends gone, and runs of
    spaces inside it one space."""
    seen = "".join(c for c in text if unicodedata.category(c) not in _UNSEEN)
    folded = _DASHES.sub("-", unicodedata.normalize("NFKC", seen).casefold())
    folded = folded.strip().strip(_WRAPPERS).strip()
    return " ".join(folded.split())
