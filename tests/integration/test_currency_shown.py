"""What the shopper reads beside the answer (the live trace's lines, the CLI's product
list) writes prices in the store's currency, not in dollars."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.trace.steps import Step
from storechat.cli import main
from storechat.local import LocalStorechat
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("STORECHAT_DAILY_BUDGET_USD", raising=False)


def _trace_lines(store_currency: str | None, tmp_path: Path, **search: object) -> list[str]:
    """The live trace's lines, as the page shows them, for one search by a real model's
    reply in a store priced in ``store_currency``."""
    model = write_replay(
        tmp_path, [asks_for_tools(lookup(**search)), replies("The HP 14 [CMP-023] fits.")]
    )
    env = {"STORE_CURRENCY": store_currency} if store_currency else {}
    seen: list[Step] = []
    with LocalStorechat(model=model, env=env, search_first=False) as local:
        result = local.ask("a cheap laptop", on_step=seen.append)
    assert result.body is not None and result.body["outcome"] == "answered", result.cause
    return [step.line for step in seen if step.kind == "tool"]


@pytest.mark.parametrize(
    ("store_currency", "search", "said"),
    [
        ("EUR", {"maxPrice": 800}, "under €800"),
        ("GBP", {"minPrice": 300, "maxPrice": 799.5}, "between £300 and £799.50"),
        ("CHF", {"minPrice": 1000}, "over CHF 1,000"),
        ("JPY", {"maxPrice": 120000}, "under ¥120,000"),
        (None, {"maxPrice": 800}, "under $800"),
    ],
)
def test_the_live_trace_says_a_budget_in_the_stores_currency(
    tmp_path: Path, store_currency: str | None, search: dict[str, float], said: str
) -> None:
    # Given a store priced in euros (pounds, Swiss francs, yen; unset: US dollars)
    # When the model searches laptops with a price limit
    lines = _trace_lines(store_currency, tmp_path, category="COMPUTERS", **search)

    # Then the search's line says the limit as the store writes its prices
    assert lines and all(said in line for line in lines), lines
    if store_currency:
        assert not any("$" in line for line in lines), lines


def test_the_cli_lists_the_products_in_the_stores_currency(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a store priced in euros
    monkeypatch.setenv("STORE_CURRENCY", "EUR")

    # When a shopper asks on the command line, with the live trace
    assert main(["ask", "a Windows laptop under 800", "--trace"]) == 0
    out = capsys.readouterr().out

    # Then the trace's search line and every product's price are in euros
    assert "under €800" in out
    listed = out.split("Products:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert listed and all(" · €" in line and " · $" not in line for line in listed), listed
