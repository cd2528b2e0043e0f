"""A card names a book's maker once: a book imported with no brand takes its author's name
as its brand, and its card's author chip says that name already. The response's product
decides it, so the page, the widget and ``storechat ask`` show the same."""

from __future__ import annotations

import io
from typing import Any

import pytest

from compose_response.logic import ComposeInput, compose
from storechat.local import RunResult
from storechat.printing import print_answer

DUNE = {
    "productId": "BK-DUNE",
    "name": "Dune - Paperback",
    "brand": "Frank Herbert",
    "category": "BOOKS",
    "price": 10.99,
    "stock": 9,
    "specs": {"author": "Frank Herbert", "year": 1965, "genre": "Science Fiction"},
}


def card_of(record: dict[str, Any]) -> dict[str, Any]:
    """The product the response shows when an answer cites ``record``."""
    event = ComposeInput.model_validate(
        {
            "sessionId": "s",
            "outcome": "answered",
            "answer": f"{record['name']} [{record['productId']}] is a classic.",
            "products": [record],
        }
    )
    (card,) = compose(event).model_dump()["products"]
    return card


@pytest.mark.parametrize("brand", ["Frank Herbert", "frank herbert", " Frank  Herbert "])
def test_a_book_whose_brand_is_its_author_shows_the_author_once(brand: str) -> None:
    # Given a book from a shop's export with no brand: its author's name is its brand
    card = card_of({**DUNE, "brand": brand})
    # Then its card shows "Dune - Paperback · $10.99 · Frank Herbert", not the name twice:
    # the author's chip, and no brand line saying the same
    assert "brand" not in card
    assert card["specs"]["author"] == "Frank Herbert"
    assert card["name"] == "Dune - Paperback" and card["price"] == 10.99


@pytest.mark.parametrize(
    ("brand", "specs", "category"),
    [
        # A publisher that is not the author: the card shows both, "Ace" and "Frank Herbert"
        ("Ace", {"author": "Frank Herbert"}, "BOOKS"),
        # Authors the card shows no chip of (a list): the brand is where their names are
        (
            "Douglas Preston, Lincoln Child",
            {"author": ["Douglas Preston", "Lincoln Child"]},
            "BOOKS",
        ),
        # A product whose card has no author chip keeps its brand whatever its specs say
        ("Frank Herbert", {"author": "Frank Herbert"}, "COMPUTERS"),
        # A book with no author keeps its brand
        ("Frank Herbert", {"genre": "Science Fiction"}, "BOOKS"),
    ],
)
def test_a_brand_the_card_does_not_say_otherwise_stays(
    brand: str, specs: dict[str, Any], category: str
) -> None:
    card = card_of({**DUNE, "brand": brand, "specs": specs, "category": category})
    assert card["brand"] == brand


def test_storechat_ask_prints_the_author_once() -> None:
    body = {
        "answer": "Dune - Paperback [BK-DUNE] is a classic.",
        "products": [card_of(DUNE), card_of({**DUNE, "productId": "BK-DUNE-ACE", "brand": "Ace"})],
    }
    out = io.StringIO()
    print_answer(RunResult("SUCCEEDED", body, None, None), "offline", out)
    printed = out.getvalue()
    # Before: "Dune - Paperback · Frank Herbert · $10.99 · Frank Herbert, 1965, ..."
    assert "[BK-DUNE] Dune - Paperback · $10.99 · Frank Herbert, 1965, Science Fiction" in printed
    assert "[BK-DUNE-ACE] Dune - Paperback · Ace · $10.99 · Frank Herbert, 1965" in printed
    assert not [line for line in printed.splitlines() if line.startswith("  [") and "None" in line]


def test_storechat_ask_prints_two_authors_as_one_entry() -> None:
    # Given a book whose export names two authors (a list in its specs)
    omens = {
        **DUNE,
        "productId": "BK-OMENS",
        "name": "Good Omens",
        "brand": "Gollancz",
        "specs": {"author": ["Neil Gaiman", "Terry Pratchett"], "year": 1990, "genre": "Fantasy"},
    }
    body = {"answer": "Good Omens [BK-OMENS] is a classic.", "products": [card_of(omens)]}
    out = io.StringIO()
    # When `storechat ask` prints the answer's products
    print_answer(RunResult("SUCCEEDED", body, None, None), "offline", out)
    # Then the line names both authors as a reader writes them, not as a Python list
    # (before: "... · ['Neil Gaiman', 'Terry Pratchett'], 1990, Fantasy")
    assert "Good Omens · Gollancz · $10.99 · Neil Gaiman & Terry Pratchett, 1990, Fantasy" in (
        out.getvalue()
    )
