"""Facts the ledger contradicts, corrected through the whole local loop.

The model's replies come from replay files, as Bedrock would send them; the tools
are the real ones, so the ledger holds the catalog's records of what they returned.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import registry
from compose_response.facts import TRACE_STEP
from shared.config.metric_names import Metric
from shared.runtime.observability import metrics
from storechat.local import LocalStorechat
from storechat.local.lambdas import FakeContext
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay

HP_14 = "CMP-023"  # the catalog: $349.00, 1.4 kg, Windows 11 Home


def ask(tmp_path: Path, answer: str, question: str = "a cheap laptop") -> dict[str, Any]:
    # The model goes first and looks the products up by id: the script's tool round
    script = [asks_for_tools(lookup("t1", productIds=[HP_14, "CMP-014"])), replies(answer)]
    with LocalStorechat(model=write_replay(tmp_path, script), search_first=False) as local:
        result = local.ask(question)
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    body: dict[str, Any] = result.body
    return body


def test_a_wrong_weight_and_price_come_back_corrected_and_listed(tmp_path: Path) -> None:
    # Given a model that states the HP 14's weight and price wrongly
    body = ask(tmp_path, "The HP 14 [CMP-023] weighs 1.1 kg and costs $299.")

    # Then the shopper reads the catalog's values, and the card agrees with the text
    assert body["outcome"] == "answered"
    assert body["answer"] == "The HP 14 [CMP-023] weighs 1.4 kg and costs $349."
    assert [p["productId"] for p in body["products"]] == [HP_14]
    # And the body lists each correction, with where the page can mark it
    assert [
        (c["productId"], c["field"], c["said"], c["record"], c["dropped"])
        for c in body["corrections"]
    ] == [
        (HP_14, "weightKg", "1.1 kg", "1.4 kg", False),
        (HP_14, "price", "$299", "$349.00", False),
    ]
    for c in body["corrections"]:
        assert body["answer"][c["start"] :].startswith(c["text"])
    # And the trace says so after the tool calls
    assert [line["tool"] for line in body["trace"]] == ["lookup_inventory", TRACE_STEP]
    assert "catalog 1.4 kg" in body["trace"][-1]["summary"]
    # And the session history keeps the corrected answer, for the model's next turn
    assert body["historySaved"] is True


@pytest.mark.parametrize(
    ("answer", "corrected"),
    [
        (
            "Das HP 14 [CMP-023] wiegt 1,1 kg und kostet 299 Dollar.",
            "Das HP 14 [CMP-023] wiegt 1,4 kg und kostet 349 Dollar.",
        ),
        (
            "HP 14 [CMP-023] の重さは1.1kgで、価格は299ドルです。",
            "HP 14 [CMP-023] の重さは1.4kgで、価格は349ドルです。",
        ),
    ],
    ids=["german", "japanese"],
)
def test_replies_in_other_languages_are_corrected_in_their_own_style(
    tmp_path: Path, answer: str, corrected: str
) -> None:
    body = ask(tmp_path, answer)
    assert body["answer"] == corrected
    assert [c["field"] for c in body["corrections"]] == ["weightKg", "price"]


def test_a_sold_out_product_said_to_be_in_stock_loses_its_sentence_and_card(
    tmp_path: Path,
) -> None:
    # Given a model that calls the sold-out iMac available
    body = ask(tmp_path, "The iMac 24 [CMP-014] is in stock today. The HP 14 [CMP-023] is too.")

    # Then that claim is gone, and so is the iMac's card
    assert body["answer"] == "The HP 14 [CMP-023] is too."
    assert [p["productId"] for p in body["products"]] == [HP_14]
    assert [(c["productId"], c["field"], c["dropped"]) for c in body["corrections"]] == [
        ("CMP-014", "stock", True)
    ]


def test_a_true_answer_has_no_corrections(tmp_path: Path) -> None:
    body = ask(tmp_path, "The HP 14 [CMP-023] weighs 1.4 kg, costs $349 and runs Windows 11.")
    assert body["corrections"] == []
    assert [line["tool"] for line in body["trace"]] == ["lookup_inventory"]


@pytest.fixture
def deployed_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    """The response builder as deployed: metrics printed as CloudWatch EMF."""
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.delenv("POWERTOOLS_DEV", raising=False)
    monkeypatch.setattr(metrics, "namespace", "Storechat/test")


def compose_metered(
    capsys: pytest.CaptureFixture[str], answer: str, records: list[Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The body the handler returns for ``answer`` over ``records``, and its EMF documents."""
    from compose_response.handler import lambda_handler

    event = {"sessionId": "s-1", "outcome": "answered", "answer": answer, "products": records}
    context = FakeContext(registry.functions_by_key()["compose_response"])
    body = lambda_handler(event, context)
    emitted = [
        json.loads(line)
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("{") and "_aws" in line
    ]
    return body, emitted


def metric(emitted: list[dict[str, Any]], name: str) -> list[float]:
    """Each EMF document's value of ``name``, its values summed where it holds several."""
    return [sum(v) if isinstance(v, list) else v for v in (doc[name] for doc in emitted)]


def hp_14() -> dict[str, Any]:
    from shared.products.catalog_data import load_catalog

    return next(p for p in load_catalog() if p["productId"] == HP_14)


@pytest.mark.usefixtures("deployed_metrics")
def test_the_handler_counts_corrections_in_a_metric(capsys: pytest.CaptureFixture[str]) -> None:
    # Given the response builder as deployed: metrics printed as CloudWatch EMF
    # When it builds a body with two corrections
    _, emitted = compose_metered(
        capsys, "The HP 14 [CMP-023] weighs 1.1 kg and costs $299.", [hp_14()]
    )

    # Then the FactCorrections metric says 2
    assert metric(emitted, Metric.FACT_CORRECTIONS) == [2]


@pytest.mark.usefixtures("deployed_metrics")
def test_the_handler_counts_ledger_records_that_are_not_products_in_a_metric(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given a ledger with the HP 14 and two records that are not products: one with no
    # name, one with a negative price
    records = [
        hp_14(),
        {"productId": "CMP-901", "price": 10},
        {"productId": "CMP-902", "name": "Broken", "price": -5},
    ]

    # When the response is built for an answer that cites all three
    body, emitted = compose_metered(
        capsys,
        "The HP 14 [CMP-023] costs $349.\nThe CMP-901 [CMP-901] is $10.\nBroken [CMP-902] is free.",
        records,
    )

    # Then the shopper reads only what the HP 14's record vouches for, and sees its card alone
    assert body["answer"] == "The HP 14 [CMP-023] costs $349."
    assert [p["productId"] for p in body["products"]] == [HP_14]
    assert body["unverifiedCitations"] == ["CMP-901", "CMP-902"]
    assert "refusedRecords" not in body
    # And the LedgerRecordsRefused metric says 2
    assert metric(emitted, Metric.LEDGER_RECORDS_REFUSED) == [2]


@pytest.mark.usefixtures("deployed_metrics")
def test_a_ledger_of_products_only_counts_no_refused_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Zero included: the metric is then one value per answer, and its average means something
    _, emitted = compose_metered(capsys, "The HP 14 [CMP-023] costs $349.", [hp_14()])
    assert metric(emitted, Metric.LEDGER_RECORDS_REFUSED) == [0]
