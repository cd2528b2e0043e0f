"""The catalog tool's price fields, as the model reads them, name the store's currency."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from converse.handler import use_provider
from converse.scripted import ScriptedModel
from storechat.local import LocalStorechat
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay


def _ask_in(store_currency: str | None, tmp_path: Path) -> tuple[list[dict[str, Any]], Any]:
    """Ask a local store (priced in ``store_currency``) for a cheap laptop; the model's
    requests as it received them, and the result."""
    script = [
        asks_for_tools(lookup(category="COMPUTERS", maxPrice=500)),
        replies("The HP 14 [CMP-023] is the cheapest."),
    ]
    model = write_replay(tmp_path, script)
    env = {"STORE_CURRENCY": store_currency} if store_currency else {}
    with LocalStorechat(model=model, env=env) as local:
        recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
        use_provider(recording)
        result = local.ask("a laptop under 500")
    return recording.requests, result


def _price_fields(request: dict[str, Any]) -> dict[str, str]:
    (catalog,) = (
        tool["toolSpec"]
        for tool in request["toolConfig"]["tools"]
        if tool["toolSpec"]["name"] == "lookup_inventory"
    )
    properties = catalog["inputSchema"]["json"]["properties"]
    return {name: properties[name]["description"] for name in ("minPrice", "maxPrice")}


@pytest.mark.parametrize(
    ("store_currency", "named"),
    [("EUR", "euros"), ("gbp", "pounds sterling"), (None, "US dollars")],
)
def test_the_model_is_told_prices_are_in_the_stores_currency(
    tmp_path: Path, store_currency: str | None, named: str
) -> None:
    # Given a store priced in euros (or pounds, or unset: US dollars), When a shopper asks
    requests, result = _ask_in(store_currency, tmp_path)

    # Then the turn is answered, and every request the model got says what prices are in,
    # under the field names the tool has always had
    assert result.body is not None and result.body["outcome"] == "answered", result.cause
    assert len(requests) == 2
    for request in requests:
        assert _price_fields(request) == {
            "minPrice": f"Lowest price in {named}",
            "maxPrice": f"Highest price in {named}",
        }


def test_a_currency_the_store_cannot_use_fails_closed_before_the_model(tmp_path: Path) -> None:
    # Given a store set to a currency nobody knows (a stack refuses it at synth: cdk.json
    # is checked; a local shell can still say it), When a shopper asks
    requests, result = _ask_in("dollars", tmp_path)

    # Then no request reaches the model (nothing is spent on a store that cannot price),
    # and the shopper gets the loop's fallback answer, not a made-up one
    assert requests == []
    assert result.body is not None and result.body["outcome"] == "fallback", result.body
    assert result.body["modelCalls"] == 0 and result.body["products"] == []


def _told_by_the_catalog(request: dict[str, Any]) -> list[dict[str, Any]]:
    """Every catalog result in a request to the model, as the model reads it."""
    return [
        block["toolResult"]["content"][0]["json"]
        for message in request["messages"]
        for block in message["content"]
        if "toolResult" in block and "json" in block["toolResult"]["content"][0]
    ]


def _ask_with_words(store_currency: str | None, words: str, tmp_path: Path) -> Any:
    script = [
        asks_for_tools(lookup(keywords=words)),
        replies("The HP 14 [CMP-023] is the cheapest."),
    ]
    model = write_replay(tmp_path, script)
    env = {"STORE_CURRENCY": store_currency} if store_currency else {}
    with LocalStorechat(model=model, env=env) as local:
        recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
        use_provider(recording)
        result = local.ask(words)
    assert result.body is not None and result.body["outcome"] == "answered", result.cause
    return recording.requests


@pytest.mark.parametrize(
    ("store_currency", "words", "said"),
    [(None, "a laptop under €600", "EUR"), ("EUR", "a laptop under $600", "USD")],
)
def test_the_model_is_told_the_shoppers_amount_was_in_another_currency(
    tmp_path: Path, store_currency: str | None, words: str, said: str
) -> None:
    # Given a store priced in US dollars (unset) or euros, When a shopper writes an amount
    # in the other currency and the model searches the shopper's words
    requests = _ask_with_words(store_currency, words, tmp_path)

    # Then the catalog result the model reads says the amount was in that currency and the
    # limit was read, unconverted, in the store's: the model can say €600 is not $600
    store = store_currency or "USD"
    (result,) = [r for r in _told_by_the_catalog(requests[-1]) if "currencySaid" in r]
    assert result["currencySaid"] == {"said": said, "store": store}
    assert result["understood"]["maxPrice"] == 600
    assert f"the price limit was read in the store's {store}, unconverted" in result["note"]


@pytest.mark.parametrize(
    ("store_currency", "words"),
    [(None, "a laptop under $600"), ("EUR", "a laptop under €600"), (None, "a laptop under 600")],
)
def test_an_amount_in_the_stores_currency_or_unmarked_is_not_flagged(
    tmp_path: Path, store_currency: str | None, words: str
) -> None:
    requests = _ask_with_words(store_currency, words, tmp_path)
    results = _told_by_the_catalog(requests[-1])
    assert results and all("currencySaid" not in r for r in results)
    assert all("unconverted" not in r.get("note", "") for r in results)
