"""Products from earlier turns of the session, cited again in a later answer."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from compose_response.logic import ComposeInput, compose
from shared.products.catalog_data import load_catalog
from shared.products.catalog_table import CatalogRead
from shared.runtime.errors import CatalogUnavailable

CATALOG = {p["productId"]: p for p in load_catalog()}
THINKPAD = "CMP-016"  # Lenovo ThinkPad E14 Gen 5: $879, 1.41 kg, 27 in stock


class Table:
    """The catalog table as the response builder reads it; ``changes`` applied on top."""

    def __init__(self, changes: dict[str, dict[str, Any]] | None = None, *, down: bool = False):
        self.changes = changes or {}
        self.down = down
        self.asked: list[list[str]] = []

    def products_by_id(self, ids: Sequence[str], *, deadline_s: float | None) -> CatalogRead:
        self.asked.append(list(ids))
        if self.down:
            raise CatalogUnavailable("unavailable", "catalog table: ThrottlingException")
        found = []
        for pid in ids:
            if pid in CATALOG:
                found.append({**copy.deepcopy(CATALOG[pid]), **self.changes.get(pid, {})})
        return CatalogRead(found)


def follow_up(answer: str, table: Table | None, **event: Any) -> dict[str, Any]:
    body = compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, **event), catalog=table
    )
    return body.model_dump()


def test_a_product_shown_in_an_earlier_turn_is_cited_checked_and_shown() -> None:
    # Given a session whose earlier turn showed the ThinkPad, now $829 in the table
    table = Table({THINKPAD: {"price": 829.0}})

    # When the model answers the follow-up from memory, with last week's price
    body = follow_up(
        "Yes: the ThinkPad E14 Gen 5 [CMP-016] weighs 1.41 kg and costs $879.",
        table,
        earlier=["CMP-023", THINKPAD],
    )

    # Then the shopper reads today's price, and sees its card with today's values
    assert body["answer"] == "Yes: the ThinkPad E14 Gen 5 [CMP-016] weighs 1.41 kg and costs $829."
    assert [(p["productId"], p["price"]) for p in body["products"]] == [(THINKPAD, 829.0)]
    assert [(c["field"], c["said"], c["record"]) for c in body["corrections"]] == [
        ("price", "$879", "$829.00")
    ]
    assert body["unverifiedCitations"] == []
    # And only the product cited again was read
    assert table.asked == [[THINKPAD]]


def test_an_id_no_tool_returned_in_the_session_is_still_removed() -> None:
    table = Table()
    body = follow_up(
        "The ThinkPad [CMP-016] is light. The Surface Pro [CMP-031] is lighter.",
        table,
        earlier=[THINKPAD],
    )
    assert body["answer"] == "The ThinkPad [CMP-016] is light."
    assert body["unverifiedCitations"] == ["CMP-031"]
    assert table.asked == [[THINKPAD]]


def test_nothing_is_read_when_the_answer_cites_only_this_turns_products() -> None:
    table = Table()
    body = follow_up(
        "The HP 14 [CMP-023] is $349.",
        table,
        products=[CATALOG["CMP-023"]],
        earlier=["CMP-023", THINKPAD],
    )
    assert [p["productId"] for p in body["products"]] == ["CMP-023"]
    assert table.asked == []


def test_this_turns_record_wins_over_an_earlier_one() -> None:
    # The tool read the HP 14 in this turn: that record is the fresh one
    table = Table({"CMP-023": {"price": 1.0}})
    body = follow_up(
        "The HP 14 [CMP-023] is $349.", table, products=[CATALOG["CMP-023"]], earlier=["CMP-023"]
    )
    assert body["corrections"] == [] and table.asked == []


def test_a_product_gone_from_the_catalog_is_removed_with_its_sentence() -> None:
    body = follow_up(
        "The old model [CMP-777] is cheaper. Ask me anything.", Table(), earlier=["CMP-777"]
    )
    assert body["answer"] == "Ask me anything."
    assert body["products"] == [] and body["unverifiedCitations"] == ["CMP-777"]


def test_when_the_catalog_cannot_be_read_earlier_products_are_not_vouched_for() -> None:
    # Given the catalog table down (or no table at all: a store's Products API)
    for table in (Table(down=True), None):
        body = follow_up(
            "The ThinkPad [CMP-016] weighs 1.41 kg. Ask me for more.", table, earlier=[THINKPAD]
        )
        # Then the claim goes, and the shopper is told some products could not be verified
        assert body["answer"] == "Ask me for more."
        assert body["unverifiedCitations"] == [THINKPAD]


def test_a_fallback_does_not_read_earlier_products() -> None:
    table = Table()
    body = compose(
        ComposeInput(
            sessionId="s-1", outcome="fallback", fallbackReason="deadline", earlier=[THINKPAD]
        ),
        catalog=table,
    ).model_dump()
    assert body["products"] == [] and table.asked == []


def test_an_earlier_product_whose_record_is_no_longer_a_product_is_refused_and_counted() -> None:
    # Given a session whose earlier turn showed the ThinkPad, whose record now has no price
    # a product can have
    table = Table({THINKPAD: {"price": -1}})
    event = ComposeInput(
        sessionId="s-1",
        outcome="answered",
        answer="The ThinkPad E14 Gen 5 [CMP-016] is $879. Ask me for more.",
        earlier=[THINKPAD],
    )

    # When the model cites it again
    body = compose(event, catalog=table)

    # Then the shopper does not read what no record vouches for, nor sees its card
    assert body.answer == "Ask me for more."
    assert body.products == []
    assert body.unverifiedCitations == [THINKPAD]
    # And the refused record is counted for the metric
    assert body.refusedRecords == 1
