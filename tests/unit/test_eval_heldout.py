"""The held-out set: answerable as written, on the catalog it is answered from.

Every expectation of ``evals/heldout/questions.jsonl`` is checked here against the
catalog (the bundled sample with ``evals/heldout/catalog.jsonl`` imported), never against
what a model answers: the products a right answer needs exist and meet the question's
own constraints, a superlative has a product to rank first, a price the answer must say
is the price of a product it must show, "out of stock" is said of a product that is.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from storechat.evaluate.catalogs import ServedCatalog, companion_of, served_catalogs
from storechat.evaluate.products import field_value, product_faults
from storechat.evaluate.questions import (
    HELD_OUT,
    HELD_OUT_DIR,
    LoadedQuestion,
    default_question_files,
    load_questions,
)

HELD_OUT_FILE = HELD_OUT_DIR / "questions.jsonl"
QUESTIONS = load_questions([HELD_OUT_FILE])
PRICE = re.compile(r"^\$[\d,]+(?:\.\d\d)?$")


@pytest.fixture(scope="module")
def held_out() -> list[LoadedQuestion]:
    return QUESTIONS


@pytest.fixture(scope="module")
def catalog(
    held_out: list[LoadedQuestion], tmp_path_factory: pytest.TempPathFactory
) -> ServedCatalog:
    # An empty home: the run's own catalog is the bundled sample.
    (served,) = served_catalogs(held_out, tmp_path_factory.mktemp("home"))
    return served


def test_the_held_out_set_is_its_own_set_of_at_least_60_questions_of_every_kind_it_promises(
    held_out: list[LoadedQuestion],
) -> None:
    # Given the default question files
    everything = load_questions(default_question_files())
    # Then the held-out questions are among them, in their own set, and only they are
    assert {q.question.id for q in everything if q.set == HELD_OUT} == {
        q.question.id for q in held_out
    }
    assert all(q.path.parent == HELD_OUT_DIR for q in everything if q.set == HELD_OUT)
    kinds = Counter(q.question.kind for q in held_out)
    assert len(held_out) >= 60
    for kind in ("typo", "superlative", "language", "unclear", "imported", "follow-up"):
        assert kinds[kind] >= 5, kind
    assert kinds["book"] + kinds["named-product"] + kinds["budget"] + kinds["use"] >= 20
    languages = " ".join(q.question.turns[0] for q in held_out if q.question.kind == "language")
    for word in ("Welches", "Qué", "Quel"):  # German, Spanish, French
        assert word in languages


def test_the_held_out_questions_are_answered_from_the_catalog_with_the_imported_products(
    held_out: list[LoadedQuestion], catalog: ServedCatalog
) -> None:
    assert catalog.companion == HELD_OUT_DIR / "catalog.jsonl"
    assert companion_of(HELD_OUT_FILE) == catalog.companion
    brands = {p["brand"] for p in catalog.products}
    assert {"Framework", "System76", "Motorola", "Apple"} <= brands
    assert "catalog.jsonl (14 added)" in catalog.label


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.question.id)
def test_every_held_out_question_is_answerable_as_written(
    catalog: ServedCatalog, question: LoadedQuestion
) -> None:
    expect = question.question.expect
    products = {p["productId"]: p for p in catalog.products}
    meets = [p for p in products.values() if not product_faults(p, expect, None)]

    # The products a right answer must show exist and meet the question's constraints.
    for pid in expect.productIds or ():
        assert pid in products, f"{pid} is not in the catalog"
        assert not product_faults(products[pid], expect, None), product_faults(
            products[pid], expect, None
        )
    # Enough products meet the constraints for the answer asked of it.
    if not expect.noProducts:
        needed = max(expect.minProducts or 0, len(expect.productIds or ()), 1)
        assert len(meets) >= needed, f"{len(meets)} products meet the constraints"
    # A superlative ranks among products that meet the constraints.
    key = expect.firstMost or expect.firstLeast
    if key:
        assert [p for p in meets if field_value(p, key) is not None], f"nothing to rank by {key}"
    # A price the answer must say is the price of a product it must show (or of the one
    # a superlative of price puts first).
    prices = {_price(products[pid]["price"]) for pid in expect.productIds or ()}
    if key == "price":
        first = (min if expect.firstLeast else max)(p["price"] for p in meets)
        prices.add(_price(first))
    for word in expect.answerIncludes or ():
        if PRICE.match(word):
            assert word in prices, f"{word} is not a price of {sorted(prices)}"
    # "Out of stock" is said of a product that is; never said of one that is not.
    stocks = [products[pid]["stock"] for pid in expect.productIds or ()]
    if "out of stock" in (expect.answerIncludes or ()):
        assert 0 in stocks
    if "out of stock" in (expect.answerExcludes or ()):
        assert stocks and 0 not in stocks


def _price(value: float) -> str:
    return f"${value:,.2f}".removesuffix(".00")


def test_a_question_file_elsewhere_named_heldout_is_held_out_too(tmp_path: Path) -> None:
    folder = tmp_path / "heldout"
    folder.mkdir()
    (folder / "q.jsonl").write_text(HELD_OUT_FILE.read_text(encoding="utf-8").splitlines()[0])
    (question,) = load_questions([folder / "q.jsonl"])
    assert question.set == HELD_OUT
    assert companion_of(folder / "q.jsonl") is None  # no catalog.jsonl beside it
