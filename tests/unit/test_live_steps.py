"""The live trace's words and shapes, declared once and held together."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

import statemachine
from get_book_info.schema import BookInput
from get_computer_reviews.schema import ReviewsInput
from lookup_inventory.schema import InventoryInput
from shared.runtime.errors import FailureKind
from shared.tools.tool_steps import FAILURE_WORDS, call_line, outcome
from shared.trace import steps
from shared.trace.step_writer import StepWriter


class PlainInput(BaseModel):
    """A new tool's input that declares no words of its own."""


WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.mark.parametrize(
    ("tool_input", "line"),
    [
        (
            {"category": "COMPUTERS", "keywords": "gaming laptops", "maxPrice": 1500},
            "Searching the catalog for gaming laptops under $1,500",
        ),
        (
            {"category": "MOBILE", "brandId": "Samsung", "minBatteryMah": 5000, "sortBy": "price"},
            "Searching the catalog for Samsung phones with a 5,000+ mAh battery, cheapest first",
        ),
        (
            {"category": "COMPUTERS", "minPrice": 500, "maxPrice": 999.99, "maxWeightKg": 1.5},
            "Searching the catalog for computers between $500 and $999.99 weighing at most 1.5 kg",
        ),
        ({"productIds": ["CMP-001", "BK-002"]}, "Looking up CMP-001 and BK-002 in the catalog"),
        ({"category": "BOOKS", "minYear": 2020}, "Searching the catalog for books from 2020 on"),
        (
            {"keywords": "gaming laptops", "limit": 6, "offset": 6},
            "Searching the catalog for gaming laptops past the first 6",
        ),
        ({"keywords": "gaming laptops", "offset": 0}, "Searching the catalog for gaming laptops"),
        ({}, "Searching the catalog for products"),
    ],
)
def test_a_catalog_search_reads_as_the_shopper_would_say_it(
    tool_input: dict[str, object], line: str
) -> None:
    assert call_line("lookup_inventory", InventoryInput, tool_input) == line


def test_every_tool_has_its_own_line_and_a_new_one_gets_a_plain_one() -> None:
    assert call_line("get_book_info", BookInput, {"query": "Dune"}) == (
        "Looking up “Dune” at Open Library"
    )
    assert call_line("get_computer_reviews", ReviewsInput, {"query": "Dell XPS 13"}) == (
        "Reading reviews of the Dell XPS 13"
    )
    # input the tool will refuse, a tool without words of its own, a tool that does not exist
    assert call_line("get_book_info", BookInput, {"query": 3}) == "Using the get_book_info tool"
    assert call_line("new_tool", PlainInput, {}) == "Using the new_tool tool"
    assert call_line("nope", None, {}) == "Asking for a tool I don't have (nope)"


def test_a_finished_call_says_what_it_found_or_why_it_did_not() -> None:
    def result(status: str, body: dict[str, object]) -> dict[str, object]:
        return {"toolResult": {"status": status, "content": [{"json": body}]}}

    assert outcome(InventoryInput, result("success", {"count": 12})) == ("done", "12 found")
    assert outcome(InventoryInput, result("success", {"count": 0})) == ("done", "nothing found")
    assert outcome(ReviewsInput, result("success", {"results": [1, 2]})) == (
        "done",
        "2 reviews found",
    )
    assert outcome(BookInput, result("success", {"results": []})) == ("done", "not found")
    assert outcome(BookInput, result("error", {"kind": "timeout"})) == (
        "failed",
        "did not answer in time",
    )
    assert outcome(BookInput, result("error", {"kind": "whatever"})) == ("failed", "failed")


def test_the_state_machine_ends_a_failed_tools_line_in_the_same_words() -> None:
    definition = statemachine.read_definition()
    written = dict(re.findall(r"'kind': '(\w+)'[^}]*?'shown': '([^']+)'", definition))
    assert written == {k: v for k, v in FAILURE_WORDS.items() if k in written}
    assert set(written) == {"timeout", "tool_failed", "unknown_tool", "too_many_tools"}
    # And each of those kinds is one the tools' failure kinds declare
    assert set(written) <= {kind.value for kind in FailureKind}


def test_the_page_and_the_api_agree_on_the_poll_and_the_turn_id() -> None:
    source = (WEB / "steps.js").read_text(encoding="utf-8")
    assert f"export const POLL_MS = {steps.POLL_INTERVAL_MS};" in source
    assert "new Uint8Array(16)" in source  # 128 bits, as TURN_ID_PATTERN's 32 hex digits
    assert steps.TURN_ID_PATTERN == "^[0-9a-f]{32}$"


def test_step_keys_sort_in_the_order_a_turn_happens() -> None:
    keys = [
        steps.said_key(1),
        steps.tool_key(1, 0),
        steps.tool_key(1, 2),
        steps.reading_key(1),
        steps.said_key(2),
        steps.tool_key(2, 0),
        steps.reading_key(2),
        steps.CHECK_KEY,
    ]
    assert sorted(keys) == keys


def test_a_step_holds_only_its_fields_and_its_words_are_cleaned() -> None:
    shown = steps.step("r01.a", "said", "Let me\nlook \x1b[31mthat\x07 up " + "x" * 400, "done")
    assert "\n" not in shown.line and "\x1b" not in shown.line and len(shown.line) <= 200
    turn = steps.Turn(turnId="a" * 32, expiresAt=1)
    item = steps.item(turn, shown)
    assert set(json.loads(item[steps.SHOWN_ATTRIBUTE]["S"])) == {
        "step",
        "kind",
        "line",
        "status",
        "at",
    }


class FailingClient:
    def put_item(self, **_: object) -> None:
        raise ConnectionError("the table is not there")


def test_a_write_that_fails_is_counted_and_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STEPS_TABLE_NAME", "steps")
    writer = StepWriter(client_factory=lambda region: FailingClient())
    turn = steps.Turn(turnId="a" * 32, expiresAt=1)
    writer.report(turn, steps.step("r01.a", "said", "hello", "done"))
    writer.report(turn, steps.step("r01.t00", "tool", "Searching", "running"))
    assert writer.settle(2.0) == 2
    assert writer.settle(0.0) == 0


def test_without_a_table_or_a_turn_nothing_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STEPS_TABLE_NAME", raising=False)
    calls: list[str] = []
    writer = StepWriter(client_factory=lambda region: calls.append("client"))
    writer.report(steps.Turn(turnId="a" * 32, expiresAt=1), steps.step("k", "said", "x", "done"))
    writer.report(None, steps.step("k", "said", "x", "done"))
    assert writer.settle(0.5) == 0 and calls == []
