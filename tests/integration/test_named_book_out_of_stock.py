"""A shopper asks for a book by its title and it is out of stock (issue 21): the answer
gives its card, says so, and offers the nearest book in stock, by the same author,
else in the same genre, else on the same subject, which the catalog tool found with it
(``inStockInstead``), so that no model needs a second round. When nothing in stock is
near, it says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from storechat.cli import main
from storechat.evaluate.catalogs import ServedCatalog
from storechat.local import LocalStorechat
from tests.integration.test_eval import canned_open_library, offline_env

CATALOG = load_catalog()


def book(pid: str, title: str, author: str, genre: str, stock: int, about: str) -> dict[str, Any]:
    return {
        "productId": pid,
        "name": title,
        "brand": "Northwind Press",
        "category": "BOOKS",
        "price": 14.0,
        "stock": stock,
        "description": about,
        "specs": {"author": author, "genre": genre, "format": "paperback", "year": 2020},
    }


def with_stock(stock: dict[str, int], *extra: dict[str, Any]) -> list[dict[str, Any]]:
    """The bundled catalog with the given stock levels, and ``extra`` products."""
    changed = [
        p | {"stock": stock[p["productId"]]} if p["productId"] in stock else p for p in CATALOG
    ]
    return [*changed, *extra]


def asked(local: LocalStorechat, question: str) -> tuple[str, list[str], list[dict[str, Any]]]:
    """The answer's text, the products it shows, and the trace of its tool calls."""
    result = local.ask(question, None, with_history=False)
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    body = result.body
    return body["answer"], [p["productId"] for p in body["products"]], body["trace"]


def rounds(trace: list[dict[str, Any]]) -> int:
    return max(line["round"] for line in trace)


@pytest.fixture
def bundled() -> Iterator[LocalStorechat]:
    # One local system at a time: each runs on the one process-wide moto backend.
    # (the offline model going first: it is yet to answer from a search handed to it)
    with LocalStorechat(search_first=False) as system:
        yield system


def test_the_same_authors_books_in_stock_are_offered(bundled: LocalStorechat) -> None:
    # Given the bundled catalog, where the last Harry Potter is out of stock and the
    # first four are in stock
    # When a shopper asks for it by its title
    text, shown, trace = asked(bundled, "Harry Potter and the Deathly Hallows in stock?")

    # Then its card says it is out of stock
    assert text.startswith(
        "We carry Harry Potter and the Deathly Hallows [BK-005]: out of stock right now"
    )
    # And the catalog tool found J.K. Rowling's books in stock with it: one round
    assert rounds(trace) == 1
    assert "The nearest we have in stock, by the same author:\n1. Harry Potter and the" in text
    offered = [pid for pid in shown if pid != "BK-005"]
    rowling = {p["productId"] for p in CATALOG if p["specs"].get("author") == "J.K. Rowling"}
    assert shown[0] == "BK-005" and len(offered) == 2 and set(offered) <= rowling - {"BK-005"}


def test_the_book_facts_stay_in_the_answer_with_the_nearest_in_stock() -> None:
    # Given a book information service that answers
    with (
        canned_open_library([ServedCatalog(CATALOG, "the bundled sample")]) as open_library,
        LocalStorechat(env=offline_env(open_library), search_first=False) as local,
    ):
        # When a shopper asks for the out-of-stock Harry Potter
        text, _, trace = asked(local, "Harry Potter and the Deathly Hallows in stock?")

    # Then the nearest in stock are offered and the book's facts are given, all from one
    # round: the facts are asked once
    assert "The nearest we have in stock, by the same author:" in text
    assert "“Harry Potter and the Deathly Hallows” by J.K. Rowling (2007)" in text
    assert "couldn't" not in text
    assert [t["tool"] for t in trace].count("get_book_info") == 1 and rounds(trace) == 1


def test_a_book_in_stock_is_answered_in_one_round(bundled: LocalStorechat) -> None:
    # When a shopper asks for a book that is in stock
    text, shown, trace = asked(bundled, "is Circe in stock?")

    # Then its card says so, and nothing else is offered
    assert text.startswith("We carry Circe [BK-006]: in stock (27 available)")
    assert shown == ["BK-006"] and "nearest" not in text
    assert rounds(trace) == 1


def test_only_the_same_genre_in_stock_is_offered_with_its_genre() -> None:
    # Given The Hobbit out of stock, and Tolkien's other book too
    catalog = with_stock({"BK-020": 0, "BK-021": 0})
    with LocalStorechat(catalog=catalog, search_first=False) as local:
        # When a shopper asks for The Hobbit
        text, shown, _ = asked(local, "do you have The Hobbit in stock?")

    # Then the answer says it is out of stock and offers fantasy books in stock
    assert text.startswith("We carry The Hobbit [BK-020]: out of stock right now")
    assert "The nearest we have in stock, in the same genre (Fantasy):\n1. " in text
    genres = {p["productId"]: p["specs"]["genre"] for p in catalog if p["category"] == "BOOKS"}
    stock = {p["productId"]: p["stock"] for p in catalog}
    offered = [pid for pid in shown if pid != "BK-020"]
    assert len(offered) == 2
    assert all(genres[pid] == "Fantasy" and stock[pid] > 0 for pid in offered)
    assert "BK-021" not in shown


def test_a_book_on_the_same_subject_is_offered_when_no_author_or_genre_is() -> None:
    # Given a sea story out of stock, alone of its author and genre, and a travel book
    # about the same islands in stock
    sold_out = book(
        "BK-901", "The Lighthouse at Skerryvore", "Morag Lindsay", "Sea adventure", 0,
        "Keepers of a Hebridean lighthouse shelter shipwrecked whalers through a storm.",
    )  # fmt: skip
    travel = book(
        "BK-902", "Walking the Hebrides", "Tom Ardern", "Travel writing", 12,
        "A walk across the Hebridean islands, from lighthouse to lighthouse.",
    )  # fmt: skip
    with LocalStorechat(catalog=with_stock({}, sold_out, travel), search_first=False) as local:
        # When a shopper asks for the sea story
        text, shown, _ = asked(local, "is The Lighthouse at Skerryvore in stock?")

    # Then it is out of stock, and the travel book is offered as near by its subject
    assert text.startswith("We carry The Lighthouse at Skerryvore [BK-901]: out of stock")
    assert (
        "Nothing by the same author or in the same genre is in stock; on a similar subject:\n"
        "1. Walking the Hebrides [BK-902]: in stock (12 available)"
    ) in text
    assert shown[:2] == ["BK-901", "BK-902"]


@pytest.fixture
def storechat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Any:
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("STORECHAT_SEARCH_FIRST", "0")  # the offline model going first

    def run(*args: str) -> tuple[int, str]:
        code = main(list(args))
        return code, capsys.readouterr().out

    return run


def test_an_imported_book_with_nothing_near_in_stock_is_said_plainly(
    storechat: Any, tmp_path: Path
) -> None:
    # Given a store owner's import of a book of its own author, genre and subject, sold out
    imported = book(
        "BK-903", "Quillwort and Sundew", "Ysolde Pennick", "Botanical verse", 0,
        "Quatrains on bog mosses, sundews and quillworts of Cornish moorland.",
    )  # fmt: skip
    path = tmp_path / "new.jsonl"
    path.write_text(json.dumps(imported) + "\n", encoding="utf-8")
    assert storechat("catalog", "import", str(path))[0] == 0

    # When a shopper asks for it
    code, out = storechat("ask", "Quillwort and Sundew in stock?")

    # Then its card says it is out of stock, and that nothing close is in stock
    assert code == 0
    assert "We carry Quillwort and Sundew [BK-903]: out of stock right now" in out
    assert "Nothing close to it is in stock right now." in out
    products = out.split("Products:")[1].split("outcome:")[0]
    assert "[BK-903]" in products and products.count("[") == 1
