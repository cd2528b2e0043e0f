"""The day's model budget, through the whole state machine on moto: what a shopper gets
once it is spent, and how the day's spend is counted (``test_spend_holds.py``: under
load, and whatever becomes of a call)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest

from converse.metering import DEFAULT_STAND_IN
from shared.api.vocabulary import FALLBACK_REASONS
from shared.config.pricing import token_prices
from shared.products.catalog_data import load_catalog
from storechat.local import LocalStorechat
from storechat.local.runner import REGION, SPEND_TABLE
from tests.integration.spend import reservations

QUESTION = "Do you have a light Windows laptop under $800?"
CATALOG = {p["productId"]: p for p in load_catalog()}
SONNET = token_prices(DEFAULT_STAND_IN)


def _days(*offsets: int) -> list[str]:
    today = datetime.now(UTC).date()
    return [(today + timedelta(days=offset)).isoformat() for offset in offsets]


def spent(micro_usd: int, *, days: list[str] | None = None) -> None:
    """Set the spend counters of ``days`` (today, and tomorrow in case the test runs
    across midnight, by default)."""
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    for day in days or _days(0, 1):
        dynamodb.put_item(
            TableName=SPEND_TABLE,
            Item={"day": {"S": day}, "spentMicroUsd": {"N": str(micro_usd)}},
        )


def counter(day: str) -> dict[str, Any]:
    item = boto3.client("dynamodb", region_name=REGION).get_item(
        TableName=SPEND_TABLE, Key={"day": {"S": day}}
    )
    return {key: int(value["N"]) for key, value in item.get("Item", {}).items() if "N" in value}


def states(result: Any) -> list[str]:
    return [name for name, _ in result.states_entered]


@pytest.fixture
def budgeted() -> Iterator[LocalStorechat]:
    """A local system with a budget of one US dollar a day (1,000,000 micro-dollars)."""
    with LocalStorechat(daily_budget_usd=1.0) as local:
        yield local


@pytest.fixture
def model_first() -> Iterator[LocalStorechat]:
    """The same, without the search first: over budget, ``AnswerFromCatalog`` searches
    (test_search_first.py holds the search first's answer over budget to this one's)."""
    with LocalStorechat(daily_budget_usd=1.0, search_first=False) as local:
        yield local


def test_over_budget_the_shopper_gets_the_catalogs_matches_without_a_model_call(
    model_first: LocalStorechat,
) -> None:
    # Given a day whose model budget is spent
    spent(1_000_000)

    # When a shopper asks
    result = model_first.ask(QUESTION)

    # Then they are answered, without any model call
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["outcome"] == "fallback" and body["fallbackReason"] == "budget_exhausted"
    assert body["modelCalls"] == 0
    assert set(body["usage"].values()) == {0}
    assert "Converse" not in states(result)
    assert {"ReserveSpend", "AnswerFromCatalog"} <= set(states(result))
    # in words that say the assistant is busy and what was found
    assert FALLBACK_REASONS["budget_exhausted"] in body["answer"]
    assert "Here is what the catalog has for your words:" in body["answer"]
    # with products of a catalog search on their words: Windows laptops under $800
    assert 1 <= len(body["products"]) <= 3
    for product in body["products"]:
        record = CATALOG[product["productId"]]
        assert record["category"] == "COMPUTERS" and record["price"] <= 800
        assert "windows" in str(record["specs"]["os"]).lower()
        assert f"[{product['productId']}]" in body["answer"]
    # and the search is in the trace, as one tool call with the shopper's words
    (line,) = body["trace"]
    assert line["tool"] == "lookup_inventory" and line["status"] == "success"
    assert line["input"] == {"keywords": QUESTION} and line["round"] == 1
    assert body["toolRounds"] == 1 and body["historySaved"] is True


def test_a_search_that_finds_nothing_as_asked_shows_nothing_and_says_so(
    budgeted: LocalStorechat,
) -> None:
    # Given a spent budget and words no product has (the search would drop them)
    spent(2_000_000)
    body = budgeted.ask("qwxzy vbnmk plokij").body

    # Then no unrelated products are passed off as matches, and the answer says so
    assert body is not None and body["fallbackReason"] == "budget_exhausted"
    assert body["products"] == []
    assert "could not find anything in the catalog for those words" in body["answer"]


def test_a_catalog_tool_that_fails_over_budget_still_gets_the_shopper_an_answer() -> None:
    def broken(event: dict[str, Any], context: Any) -> dict[str, Any]:
        raise RuntimeError("catalog tool crashed")

    with LocalStorechat(daily_budget_usd=1.0, overrides={"lookup_inventory": broken}) as local:
        spent(1_000_000)
        result = local.ask(QUESTION)

    assert result.status == "SUCCEEDED" and result.body is not None
    assert result.body["fallbackReason"] == "budget_exhausted"
    assert result.body["products"] == [] and result.body["modelCalls"] == 0
    assert "very busy right now" in result.body["answer"]


def test_under_budget_each_turn_adds_its_tokens_at_the_models_prices(
    budgeted: LocalStorechat,
) -> None:
    # Given a day with some spend already
    today = _days(0)[0]
    spent(100, days=[today])

    # When a shopper asks
    result = budgeted.ask(QUESTION)

    # Then the model answers, and once its calls are settled the day's counter has grown
    # by exactly what its tokens cost at the list prices of the model the offline model
    # stands in for (each call reserved its worst case first)
    body = result.body
    assert body is not None and body["outcome"] == "answered" and body["modelCalls"] >= 1
    assert len(reservations(result)) == body["modelCalls"]
    if _days(0)[0] == today:  # (the turn did not start on the next day)
        after = counter(today)
        assert after["spentMicroUsd"] == 100 + round(SONNET.cost_usd(body["usage"]) * 1_000_000)
        assert after["expiresAt"] > datetime.now(UTC).timestamp() + 30 * 86_400


def test_the_call_that_crosses_the_budget_is_the_days_last() -> None:
    # Given a budget smaller than one model call costs, and a model that goes first (it
    # asks for the search, so the question needs a second call)
    with LocalStorechat(daily_budget_usd=0.001, search_first=False) as local:
        first = local.ask(QUESTION).body
        second = local.ask("And a phone with a great camera?").body

    # Then the day's first call was made (the spend was below the budget), and it spent the
    # budget: the same question's next call was not, and the catalog answered instead
    assert first is not None and first["fallbackReason"] == "budget_exhausted"
    assert first["modelCalls"] == 1
    assert SONNET.cost_usd(first["usage"]) > 0.001
    assert "Here is what the catalog has for your words:" in first["answer"]
    # and the next question too, without any model call
    assert second is not None and second["fallbackReason"] == "budget_exhausted"
    assert second["modelCalls"] == 0
    assert all(CATALOG[p["productId"]]["category"] == "MOBILE" for p in second["products"])


def test_yesterdays_spend_does_not_count_today(budgeted: LocalStorechat) -> None:
    spent(5_000_000, days=_days(-2, -1))
    body = budgeted.ask(QUESTION).body
    assert body is not None and body["outcome"] == "answered"


def test_without_a_budget_no_spend_stops_the_model() -> None:
    with LocalStorechat() as local:
        spent(10**12)
        body = local.ask(QUESTION).body
    assert body is not None and body["outcome"] == "answered"


def test_a_counter_that_cannot_be_written_makes_no_model_call_and_still_answers(
    model_first: LocalStorechat,
) -> None:
    # Given the spend table gone (DynamoDB refuses every call on it)
    boto3.client("dynamodb", region_name=REGION).delete_table(TableName=SPEND_TABLE)

    # When a shopper asks
    result = model_first.ask(QUESTION)

    # Then no model call is made without its spend reserved: the catalog answers their
    # words, and the turn is saved
    body = result.body
    assert result.status == "SUCCEEDED" and body is not None
    assert body["fallbackReason"] == "budget_exhausted" and body["modelCalls"] == 0
    assert body["products"] and body["historySaved"] is True
    assert {"ReserveSpend", "AnswerFromCatalog", "SaveTurn"} <= set(states(result))
    assert "Converse" not in states(result)


def test_the_days_spend_is_kept_between_runs_as_the_cli_runs(tmp_path: Path) -> None:
    # Given one run whose question spends a budget, with its files in a data folder
    with LocalStorechat(daily_budget_usd=1.0, data_dir=tmp_path) as local:
        first = local.ask(QUESTION).body
    assert first is not None and first["outcome"] == "answered"
    budget = SONNET.cost_usd(first["usage"]) / 2

    # When a new run (a new `storechat ask`) with a budget that question spent asks on the
    # same day
    with LocalStorechat(daily_budget_usd=budget, data_dir=tmp_path) as local:
        body = local.ask(QUESTION).body

    # Then the budget is still spent
    assert body is not None and body["fallbackReason"] == "budget_exhausted"
    assert body["modelCalls"] == 0
    assert (tmp_path / "spend.json").is_file()


def test_over_budget_the_live_trace_shows_the_catalog_search_and_the_check(
    budgeted: LocalStorechat,
) -> None:
    # Given a day whose model budget is spent, and a page that reads the turn's live trace
    spent(1_000_000)
    turn = "0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6"

    # When a shopper asks
    result = budgeted.ask(QUESTION, turn_id=turn)
    raw = budgeted.steps(turn)

    # Then the page shows the search the state machine made on their words, in the words
    # the tool uses for any search, with its count, then the check of the answer
    body = result.body
    assert body is not None and body["fallbackReason"] == "budget_exhausted" and raw is not None
    shown = [
        (s["kind"], s["line"], s.get("outcome"), s["status"]) for s in json.loads(raw)["steps"]
    ]
    count = len(body["products"])
    assert shown == [
        (
            "tool",
            f"Searching the catalog for {QUESTION}",
            f"{body['trace'][0]['summary'].split(' ', 1)[0]} found",
            "done",
        ),
        (
            "check",
            f"Checking {count} product{'s' if count > 1 else ''} in the answer against the catalog",
            "all match",
            "done",
        ),
    ]
