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
