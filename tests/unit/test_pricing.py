"""The one price list: every model's token prices, and what the state machine is given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import statemachine
from converse.metering import DEFAULT_STAND_IN
from shared.config.pricing import (
    PRICE_LIST_PATH,
    USAGE_PRICE_FIELDS,
    PriceListError,
    price_list,
    token_prices,
)
from storechat.local.environment import model_token_prices, priced_model
from storechat.settings import BUDGET_VARIABLE, SettingsError, read_settings
from tests.support.store import SAMPLE_PROMPT

SONNET = "anthropic.claude-sonnet-4-5-20250929-v1:0"


def test_every_listed_model_prices_every_kind_of_token() -> None:
    for model_id in price_list()["models"]:
        prices = token_prices(model_id)
        assert set(prices.per_1k) == set(USAGE_PRICE_FIELDS)
        assert all(price > 0 for price in prices.per_1k.values())


def test_a_model_is_found_through_its_inference_profile() -> None:
    assert token_prices(f"us.{SONNET}").model_id == SONNET
    assert token_prices(f"global.{SONNET}").name == "Claude Sonnet 4.5"
    assert token_prices(f"us.{SONNET}").name == "Claude Sonnet 4.5 (us profile, +10 %)"


@pytest.mark.parametrize("profile", ["us.", "eu.", "apac.", "jp."])
def test_a_geographic_profile_is_priced_above_the_global_list_price(profile: str) -> None:
    # Given the list's prices (the global profile's), When the model is called through a
    # geographic profile, as prod calls it, Then every kind of token costs 10 % more
    listed = token_prices(f"global.{SONNET}").per_million_usd()
    called = token_prices(f"{profile}{SONNET}").per_million_usd()
    assert called == {kind: pytest.approx(price * 1.10) for kind, price in listed.items()}
    assert called["inputTokens"] == pytest.approx(3.30)
    assert called["outputTokens"] == pytest.approx(16.50)
    # And the state machine's counter adds those prices (what prod's budget counts)
    counted = statemachine.budget_substitutions(
        100,
        token_prices(f"{profile}{SONNET}"),
        max_tokens=1024,
        currency="USD",
        system_prompt=SAMPLE_PROMPT,
    )
    assert "'inputTokens': 3.3" in counted["ModelPricesPerMTok"]
    with pytest.raises(PriceListError, match=r"is not in model_prices\.json"):
        token_prices("example.unlisted-v1:0")


def test_cost_and_micro_dollars_agree() -> None:
    prices = token_prices(SONNET)
    usage = {"inputTokens": 2_794, "outputTokens": 147, "cacheReadInputTokens": 1_130}
    usage["cacheWriteInputTokens"] = 40
    micro = sum(tokens * prices.per_million_usd()[kind] for kind, tokens in usage.items())
    assert micro == pytest.approx(prices.cost_usd(usage) * 1_000_000)
    # $3 / $15 per million input / output tokens
    assert prices.per_million_usd()["inputTokens"] == 3.0
    assert prices.per_million_usd()["outputTokens"] == 15.0


def test_a_list_without_a_full_price_is_refused(tmp_path: Path) -> None:
    listed = json.loads(PRICE_LIST_PATH.read_text(encoding="utf-8"))
    del listed["models"][SONNET]["per_1k_cache_write"]
    broken = tmp_path / "prices.json"
    broken.write_text(json.dumps(listed), encoding="utf-8")
    with pytest.raises(PriceListError, match="no full prices"):
        token_prices(SONNET, broken)


def test_the_state_machine_gets_the_budget_in_micro_dollars_and_prices_per_million() -> None:
    def substitutions(budget: float | None) -> dict[str, str]:
        return statemachine.budget_substitutions(
            budget,
            token_prices(SONNET),
            max_tokens=900,
            currency="EUR",
            system_prompt=SAMPLE_PROMPT,
        )

    values = substitutions(2.5)
    assert values["DailyBudgetMicroUsd"] == "2500000"
    assert values["ModelPricesPerMTok"] == (
        "{'cacheReadInputTokens': 0.3, 'cacheWriteInputTokens': 3.75, "
        "'inputTokens': 3.0, 'outputTokens': 15.0}"
    )
    # a call's worst case: input at the dearest input price (a cache write), a whole reply
    assert values["InputPricePerMTok"] == "3.75"
    assert values["ModelMaxTokens"] == "900"
    assert values["FixedInputTokens"] == str(statemachine.fixed_input_tokens(SAMPLE_PROMPT, "EUR"))
    # without a budget, a day has more room than any day spends
    assert substitutions(None)["DailyBudgetMicroUsd"] == str(statemachine.UNLIMITED_MICRO_USD)
    assert values["CatalogSearchTool"] == "lookup_inventory"
    assert values["CatalogSearchChars"] == "120"  # InventoryInput.keywords' max_length
    with pytest.raises(ValueError, match="above 0"):
        substitutions(0)


def test_the_offline_and_replay_models_are_priced_as_the_model_they_stand_in_for() -> None:
    assert priced_model("offline") == (DEFAULT_STAND_IN, True)
    assert priced_model("replay:/tmp/x.json") == (DEFAULT_STAND_IN, True)
    assert priced_model(f"bedrock:us.{SONNET}") == (f"us.{SONNET}", False)
    assert model_token_prices("offline", budgeted=True).model_id == DEFAULT_STAND_IN


def test_an_unlisted_model_counts_nothing_and_cannot_have_a_budget() -> None:
    free = model_token_prices("bedrock:example.unlisted-v1:0", budgeted=False)
    assert set(free.per_1k.values()) == {0.0}
    with pytest.raises(SettingsError, match=BUDGET_VARIABLE):
        model_token_prices("bedrock:example.unlisted-v1:0", budgeted=True)


@pytest.mark.parametrize(
    ("value", "budget"), [(None, None), ("", None), ("  ", None), ("5", 5.0), ("$0.25", 0.25)]
)
def test_the_local_budget_is_read_from_its_variable(
    value: str | None, budget: float | None
) -> None:
    environ = {} if value is None else {BUDGET_VARIABLE: value}
    assert read_settings(environ).daily_budget_usd == budget


@pytest.mark.parametrize("value", ["five", "0", "-1", "nan", "inf", "1e999"])
def test_a_local_budget_that_is_no_amount_is_refused(value: str) -> None:
    with pytest.raises(SettingsError, match="above 0"):
        read_settings({BUDGET_VARIABLE: value})


def test_the_home_defaults_to_dot_storechat() -> None:
    assert read_settings({}).home == Path(".storechat")
    assert read_settings({"STORECHAT_HOME": "/srv/shop"}).home == Path("/srv/shop")
