"""The answer check on stock words: what a shopper reads of a product the store sells
uncounted, and of a counted one, when the model says how many or says it twice."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, compose

UNCOUNTED: dict[str, Any] = {
    "productId": "ACC-700",
    "name": "Anker Nano USB-C Charger 30W",
    "brand": "Anker",
    "category": "COMPUTERS",
    "price": 25.0,
    "stock": 0,
    "stockTracked": False,
    "specs": {},
}
X = "The Anker Nano USB-C Charger 30W [ACC-700]"
AFTER = " Ask me anything else."


def _shown(answer: str, record: dict[str, Any]) -> Any:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=[record])
    )


def _counted(stock: int) -> dict[str, Any]:
    record = dict(UNCOUNTED, stock=stock)
    del record["stockTracked"]
    return record


@pytest.mark.parametrize(
    "said",
    [
        f"{X} has plenty in stock.",
        f"There is plenty of stock of {X}.",
        f"Only a few left of {X}.",
        f"{X} is almost gone.",
        f"{X}: low stock.",
        f"{X} has limited stock.",
        f"{X} is well stocked.",
        f"{X} has lots left.",
    ],
)
def test_a_word_for_how_many_of_an_uncounted_product_is_not_shown(said: str) -> None:
    # The store never said how many: "plenty", "only a few left" or "low stock" is as
    # made up as "only 3 left", and the shopper does not read it (before: it stood)
    body = _shown(said + AFTER, UNCOUNTED)
    assert body.answer == AFTER.strip(), said
    assert [(c.productId, c.field) for c in body.corrections] == [("ACC-700", "stock")]


@pytest.mark.parametrize(
    "said",
    [
        f"{X} is in stock (only 2 left!).",
        f"{X}: in stock (12 available), $25.",
        f"{X} is in stock, plenty left.",
    ],
)
def test_a_count_after_in_stock_of_an_uncounted_product_is_not_shown(said: str) -> None:
    # "in stock" is true, the count beside it is not: the shopper reads no count
    body = _shown(said + AFTER, UNCOUNTED)
    assert "2 left" not in body.answer and "12 available" not in body.answer
    assert "plenty" not in body.answer
    assert [(c.productId, c.field) for c in body.corrections] == [("ACC-700", "stock")]


def test_in_stock_alone_of_an_uncounted_product_still_stands() -> None:
    for said in (f"{X} is in stock.", f"{X} ships today.", f"{X} is available now."):
        body = _shown(said + AFTER, UNCOUNTED)
        assert (body.answer, body.corrections) == (said + AFTER, []), said


def test_a_wrong_count_after_in_stock_of_a_counted_product_is_not_shown() -> None:
    # 40 units: "only 2 left" after "in stock" is wrong, and the shopper no longer reads
    # it (before: the first "in stock" agreed, and the count went unchecked)
    for said in (f"{X} is in stock (only 2 left!).", f"{X}: in stock (12 available), $25."):
        body = _shown(said + AFTER, _counted(40))
        assert said not in body.answer, said
        assert [(c.productId, c.field) for c in body.corrections] == [("ACC-700", "stock")]


def test_a_right_count_after_in_stock_of_a_counted_product_stands() -> None:
    # 2 units, 12 units: the count is the record's, and the shopper reads it as written
    right = ((2, f"{X} is in stock (only 2 left!)."), (12, f"{X}: in stock (12 available), $25."))
    for stock, said in right:
        body = _shown(said + AFTER, _counted(stock))
        assert (body.answer, body.corrections) == (said + AFTER, []), said


def test_words_for_how_many_of_a_counted_product_are_read_as_before() -> None:
    # Counted: "plenty" and "only a few left" say it can be had, as they did
    for said in (f"{X} has plenty in stock.", f"Only a few left of {X}.", f"{X}: low stock."):
        body = _shown(said + AFTER, _counted(3))
        assert (body.answer, body.corrections) == (said + AFTER, []), said
    body = _shown(f"{X} has plenty in stock." + AFTER, _counted(0))
    assert [(c.productId, c.field) for c in body.corrections] == [("ACC-700", "stock")]
