"""Search first, through the whole local loop: the catalog search on the shopper's words
runs before the first model call, and the model reads it as a lookup of its own.

The model is the Converse function's real Bedrock provider calling a Bedrock-shaped
stand-in on loopback (``tests/support/fake_bedrock.py``), which answers from what the
request holds, so each test reads what Bedrock would have been sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.products.table import shown_products
from storechat.local import LocalStorechat, RunResult
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, tool_use
from tests.integration.spend import set_spent, states
from tests.integration.two_modes import CLAUDE
from tests.support.fake_bedrock import FakeBedrock
from tests.support.fake_brave import FakeBrave

CATALOG = {p["productId"]: p for p in load_catalog()}
CATALOG_QUESTION = "A light laptop under $1000"
FOLLOW_UP = "Which of those has a backlit keyboard?"
SEARCH_FIRST_ID = "search-first"
TURN = "5eac4f1a2b3c4d5e6f708192a3b4c5d6"

Model = Callable[[dict[str, Any]], dict[str, Any]]


@pytest.fixture
def bedrock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., FakeBedrock]]:
    """Starts the stand-in with a script or a model, and points the provider at it."""
    started: list[FakeBedrock] = []

    def start(*script: dict[str, Any], model: Model | None = None) -> FakeBedrock:
        fake = FakeBedrock(script, model=model).__enter__()
        started.append(fake)
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", fake.base_url)
        return fake

    yield start
    for fake in started:
        fake.__exit__(None, None, None)


def on_bedrock(**settings: Any) -> LocalStorechat:
    return LocalStorechat(model=f"bedrock:{CLAUDE}", **settings)


def body_of(result: RunResult) -> dict[str, Any]:
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    return result.body


def tool_results(request: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every toolResult the request holds, by toolUseId."""
    return {
        block["toolResult"]["toolUseId"]: block["toolResult"]
        for message in request["messages"]
        for block in message["content"]
        if "toolResult" in block
    }


def first_decision(result: RunResult) -> dict[str, Any]:
    """What the state machine kept of the search first's answer (``$first``)."""
    for event in result.events:
        details = event.get("stateExitedEventDetails") or {}
        if details.get("name") == "SearchCatalogFirst":
            decided: dict[str, Any] = json.loads(details["assignedVariables"]["first"])
            return decided
    raise AssertionError("SearchCatalogFirst did not run")


def live_steps(local: LocalStorechat, turn: str) -> list[dict[str, Any]]:
    raw = local.steps(turn)
    assert raw is not None
    steps: list[dict[str, Any]] = json.loads(raw)["steps"]
    return steps


def misprices_the_first_product(request: dict[str, Any]) -> dict[str, Any]:
    """A model that answers at once from the search it was handed, stating the first
    product's price $100 too low."""
    (result,) = tool_results(request).values()
    product = shown_products(result["content"][0]["json"]["products"])[0]
    wrong = int(CATALOG[product["productId"]]["price"]) - 100
    return replies(f"The {product['name']} [{product['productId']}] is light and costs ${wrong}.")


# -- a catalog question ------------------------------------------------------------------------


def test_a_catalog_question_is_answered_in_one_model_call_with_checked_cards(
    bedrock: Callable[..., FakeBedrock],
) -> None:
    # Given a model that answers from the search it reads
    stand_in = bedrock(model=misprices_the_first_product)

    # When a shopper asks a catalog question
    with on_bedrock() as local:
        result = local.ask(CATALOG_QUESTION, turn_id=TURN)
        steps = live_steps(local, TURN)
    body = body_of(result)

    # Then the model was called once, and read the search as a lookup it had made itself:
    # the shopper's message, its toolUse with exactly those words, then the toolResult
    assert body["outcome"] == "answered"
    assert len(stand_in.requests) == 1 == body["modelCalls"]
    (request,) = stand_in.requests
    asked, used, answered = request["messages"]
    assert asked == {"role": "user", "content": [{"text": CATALOG_QUESTION}]}
    assert used == {
        "role": "assistant",
        "content": [
            {
                "toolUse": {
                    "toolUseId": SEARCH_FIRST_ID,
                    "name": "lookup_inventory",
                    "input": {"keywords": CATALOG_QUESTION},
                }
            }
        ],
    }
    (result_block,) = answered["content"]
    found = result_block["toolResult"]
    assert answered["role"] == "user" and found["toolUseId"] == SEARCH_FIRST_ID
    assert found["status"] == "success" and shown_products(found["content"][0]["json"]["products"])
    # as a table on the wire: each field named once, the id first, a row per product
    table = found["content"][0]["json"]["products"]
    assert table["columns"][0] == "productId" and "price" in table["columns"]
    assert len(table["rows"]) == found["content"][0]["json"]["shown"] > 0

    # And the card is the catalog's product, its wrong price corrected by the fact check
    (card,) = body["products"]
    record = CATALOG[card["productId"]]
    assert card == record
    (correction,) = body["corrections"]
    assert (correction["productId"], correction["field"]) == (record["productId"], "price")
    assert correction["said"] == f"${int(record['price']) - 100}"
    assert correction["said"] not in body["answer"]

    # And "How I found this" shows the search as round 1, the only tool round
    assert [(t["tool"], t.get("round")) for t in body["trace"][:1]] == [("lookup_inventory", 1)]
    assert body["trace"][0]["input"] == {"keywords": CATALOG_QUESTION}
    assert body["toolRounds"] == 1
    assert first_decision(result)["reason"] == "searched"

    # And the live trace shows the search as the turn's first step, then the model reading it
    assert [(s["step"], s["kind"], s["status"]) for s in steps[:2]] == [
        ("r01.t00", "tool", "done"),
        ("r01.z", "think", "done"),
    ]
    assert steps[0]["line"].startswith("Searching the catalog for")


def test_the_cached_prefix_is_the_same_for_every_question_and_the_search_comes_after_it(
    bedrock: Callable[..., FakeBedrock],
) -> None:
    # Given prompt caching on, and a model that answers from the search it reads
    stand_in = bedrock(model=misprices_the_first_product)
    with on_bedrock(env={"PROMPT_CACHING": "true"}) as local:
        # When a shopper asks two different catalog questions in one session
        first = body_of(local.ask(CATALOG_QUESTION))
        body_of(local.ask("Books by Madeline Miller", first["sessionId"]))

    # Then both requests send the same system prompt and tools, the cached prefix
    one, two = stand_in.requests
    assert one["system"] == two["system"] and one["toolConfig"] == two["toolConfig"]
    assert one["system"][-1] == {"cachePoint": {"type": "default"}}
    # And in the second, the cache point after the earlier turn comes before the shopper's
    # new message, and the handed-over search after it, ending at the last cache point
    messages = two["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[1]["content"][-1] == {"cachePoint": {"type": "default"}}
    assert messages[2]["content"] == [{"text": "Books by Madeline Miller"}]
    assert messages[3]["content"][0]["toolUse"]["toolUseId"] == SEARCH_FIRST_ID
    assert messages[4]["content"][0]["toolResult"]["toolUseId"] == SEARCH_FIRST_ID
    assert messages[4]["content"][-1] == {"cachePoint": {"type": "default"}}


# -- a question that needs another tool ------------------------------------------------------


def test_a_review_question_still_gets_its_tool_round_after_the_search(
    bedrock: Callable[..., FakeBedrock],
) -> None:
    # Given reviews on the web, and a model that reads the search, then asks for reviews
    review = {
        "title": "HP 14 review",
        "url": "https://reviews.example/hp-14",
        "description": "A light, affordable everyday laptop with a long battery life.",
    }
    script = [
        asks_for_tools(tool_use("r1", "get_computer_reviews", {"query": "HP 14 Laptop"})),
        replies("Reviewers like the HP 14 [CMP-023] for its battery."),
    ]
    with FakeBrave() as web:
        web.reviews([review])
        stand_in = bedrock(*script)
        with on_bedrock(env=web.environment) as local:
            # When a shopper asks what reviewers say about a laptop
            body = body_of(local.ask("What do reviewers say about the HP 14 laptop?"))

    # Then the model read the search first, asked for reviews, and got them in a round of
    # their own: two model calls, two tool rounds
    first_call, second_call = stand_in.requests
    assert list(tool_results(first_call)) == [SEARCH_FIRST_ID]
    assert tool_results(first_call)[SEARCH_FIRST_ID]["status"] == "success"
    assert tool_results(second_call)["r1"]["status"] == "success"
    assert [(t["tool"], t["round"]) for t in body["trace"] if "round" in t] == [
        ("lookup_inventory", 1),
        ("get_computer_reviews", 2),
    ]
    assert body["modelCalls"] == 2 and body["toolRounds"] == 2
    # And the search, an earlier round by then, reached the model as a brief with its ids
    brief = tool_results(second_call)[SEARCH_FIRST_ID]["content"][0]["json"]
    assert set(brief) == {"earlierResult", "productIds"}
    assert "CMP-023" in brief["productIds"]
    assert [p["productId"] for p in body["products"]] == ["CMP-023"]


# -- questions the search does not serve ---------------------------------------------------


def test_a_follow_up_about_products_already_shown_lets_the_model_go_first(
    bedrock: Callable[..., FakeBedrock],
) -> None:
    # Given a first turn that showed products, and a model that then looks them up by id
    def model(request: dict[str, Any]) -> dict[str, Any]:
        results = tool_results(request)
        if list(results) == [SEARCH_FIRST_ID]:  # the first turn, answered from the search
            return misprices_the_first_product(request)
        if not results:  # the follow-up, going first
            return asks_for_tools(lookup("f1", productIds=shown))
        assert results["f1"]["status"] == "success"
        return replies(f"The [{shown[0]}] has one.")

    shown: list[str] = []
    stand_in = bedrock(model=model)
    with on_bedrock() as local:
        first = body_of(local.ask(CATALOG_QUESTION))
        shown.extend(p["productId"] for p in first["products"])
        # When the shopper asks about those products, more than an order of them
        result = local.ask(FOLLOW_UP, first["sessionId"], turn_id=TURN)
        steps = live_steps(local, TURN)
    body = body_of(result)

    # Then the catalog was not searched first: the model read the shopper's message last
    follow_up = stand_in.requests[1]
    assert follow_up["messages"][-1] == {
        "role": "user",
        "content": [{"text": FOLLOW_UP}],
    }
    assert SEARCH_FIRST_ID not in tool_results(follow_up)
    decided = first_decision(result)
    assert decided["reason"] == "follow_up" and decided["searched"] is False
    # And the turn's first line in the live trace is the model's own lookup
    assert steps[0]["step"] in ("r01.a", "r01.t00")
    tool_lines = [s for s in steps if s["kind"] == "tool"]
    assert tool_lines[0]["step"] == "r01.t00"
    assert tool_lines[0]["line"].startswith("Looking up ")
    assert body["modelCalls"] == 2 and [t["tool"] for t in body["trace"]][:1] == [
        "lookup_inventory"
    ]
    assert body["trace"][0]["input"] == {"productIds": shown}


def test_a_follow_up_that_only_orders_the_products_shown_is_fetched_first_in_that_order(
    bedrock: Callable[..., FakeBedrock],
) -> None:
    # Given a first turn that showed products, and a model that answers from what it reads
    def model(request: dict[str, Any]) -> dict[str, Any]:
        (result,) = tool_results(request).values()
        products = shown_products(result["content"][0]["json"]["products"])
        if len(request["messages"]) == 3:  # the first turn, answered from the search
            return misprices_the_first_product(request)
        return replies(f"The lightest of those is the [{products[0]['productId']}].")

    stand_in = bedrock(model=model)
    with on_bedrock() as local:
        first = body_of(local.ask(CATALOG_QUESTION))
        shown = [p["productId"] for p in first["products"]]
        # When the shopper asks only for an order among them
        result = local.ask("Which of those is the lightest?", first["sessionId"], turn_id=TURN)
        steps = live_steps(local, TURN)
    body = body_of(result)

    # Then the model was called once more: it read those products, fetched by id lightest
    # first, as a lookup it had made itself
    assert len(stand_in.requests) == 2 and body["modelCalls"] == 1
    asked = {"productIds": shown, "sortBy": "weight"}
    used, answered = stand_in.requests[1]["messages"][-2:]
    assert used["content"] == [
        {"toolUse": {"toolUseId": SEARCH_FIRST_ID, "name": "lookup_inventory", "input": asked}}
    ]
    products = shown_products(
        answered["content"][0]["toolResult"]["content"][0]["json"]["products"]
    )
    weights = [CATALOG[p["productId"]]["specs"]["weightKg"] for p in products]
    assert sorted(p["productId"] for p in products) == sorted(shown)
    assert weights == sorted(weights)
    decided = first_decision(result)
    assert decided["reason"] == "shown_ordered" and decided["toolUse"]["input"] == asked

    # And the shopper sees the lightest as the answer's card, and that call in the trace
    lightest = products[0]["productId"]
    assert [card["productId"] for card in body["products"]] == [lightest]
    assert body["trace"][0]["input"] == asked and body["toolRounds"] == 1
    tool_lines = [s for s in steps if s["kind"] == "tool"]
    assert tool_lines[0]["step"] == "r01.t00"
    assert tool_lines[0]["line"].startswith("Looking up ")


def _asked_in_turn(question: str, follow_up: str, *, search_first: bool) -> RunResult:
    """The offline model's follow-up turn, after its answer to ``question``."""
    with LocalStorechat(search_first=search_first) as local:
        first = body_of(local.ask(question))
        return local.ask(follow_up, first["sessionId"])


def test_the_offline_model_answers_an_order_of_those_shown_in_one_call_and_one_lookup() -> None:
    # Given Windows laptops shown by the offline model, then "Of those, which is the
    # lightest?", with search first and without
    asked = ("Do you have Windows laptops?", "Of those, which is the lightest?")
    searched_first = _asked_in_turn(*asked, search_first=True)
    model_first = _asked_in_turn(*asked, search_first=False)

    # Then with search first the loop's fetch of those laptops, lightest first, is the one
    # lookup, and the model is called once
    body = body_of(searched_first)
    assert first_decision(searched_first)["reason"] == "shown_ordered"
    assert _catalog_searches(searched_first) == 1
    assert body["modelCalls"] == 1 and body["toolRounds"] == 1
    assert [t["tool"] for t in body["trace"]] == ["lookup_inventory"]
    # And the shopper reads the same answer and cards as when the model looks them up itself
    today = body_of(model_first)
    assert today["modelCalls"] == 2
    assert body["answer"] == today["answer"]
    assert body["answer"].startswith("Of those, lightest first:")
    assert body["products"] == today["products"]


def test_a_follow_up_that_only_narrows_searches_the_last_search_narrowed_first(
    bedrock: Callable[..., FakeBedrock],
) -> None:
    # Given a first turn answered from the search of its words, and a model that names the
    # first product of what it reads
    def model(request: dict[str, Any]) -> dict[str, Any]:
        results = list(tool_results(request).values())
        products = shown_products(results[-1]["content"][0]["json"]["products"])
        return replies(f"Here is one: [{products[0]['productId']}].")

    stand_in = bedrock(model=model)
    with on_bedrock() as local:
        first = body_of(local.ask(CATALOG_QUESTION))
        # When the shopper only narrows it, in words no search of their own would serve
        result = local.ask("Anything under $700?", first["sessionId"])
        windows = local.ask("Only Windows ones please.", first["sessionId"])
    body = body_of(result)

    # Then the model was called once: it read the first turn's search again with the new
    # budget as the tool's own field, as a lookup of its own
    assert body["modelCalls"] == 1
    asked = {"keywords": CATALOG_QUESTION, "maxPrice": 700.0}
    used, answered = stand_in.requests[1]["messages"][-2:]
    assert used["content"] == [
        {"toolUse": {"toolUseId": SEARCH_FIRST_ID, "name": "lookup_inventory", "input": asked}}
    ]
    products = shown_products(
        answered["content"][0]["toolResult"]["content"][0]["json"]["products"]
    )
    assert products and all(CATALOG[p["productId"]]["price"] <= 700 for p in products)
    assert all(CATALOG[p["productId"]]["category"] == "COMPUTERS" for p in products)
    assert first_decision(result)["reason"] == "narrowed"
    # and the shopper sees that product's card, and that call in the trace
    assert [card["productId"] for card in body["products"]] == [products[0]["productId"]]
    assert body["trace"][0]["input"] == asked and body["toolRounds"] == 1

    # And a word added next ("ones": the kind asked) is searched with that narrowed search,
    # as the turn saved it
    used, answered = stand_in.requests[2]["messages"][-2:]
    added = {**asked, "keywords": f"{CATALOG_QUESTION} windows"}
    assert used["content"][0]["toolUse"]["input"] == added
    products = shown_products(
        answered["content"][0]["toolResult"]["content"][0]["json"]["products"]
    )
    assert products and all("Windows" in CATALOG[p["productId"]]["specs"]["os"] for p in products)
    assert all(CATALOG[p["productId"]]["price"] <= 700 for p in products)
    assert len(stand_in.requests) == 3 and body_of(windows)["modelCalls"] == 1


def test_a_greeting_is_not_searched(bedrock: Callable[..., FakeBedrock]) -> None:
    stand_in = bedrock(replies("Hello! What are you looking for today?"))
    with on_bedrock() as local:
        result = local.ask("Hello!", turn_id=TURN)
        steps = live_steps(local, TURN)
    body = body_of(result)

    assert body["outcome"] == "answered" and body["modelCalls"] == 1
    (request,) = stand_in.requests
    assert request["messages"] == [{"role": "user", "content": [{"text": "Hello!"}]}]
    assert first_decision(result)["reason"] == "no_catalog_words"
    assert body["trace"] == [] and body["toolRounds"] == 0
    assert [s for s in steps if s["kind"] == "tool"] == []


def test_search_first_off_is_the_loop_as_it_was(bedrock: Callable[..., FakeBedrock]) -> None:
    # Given search_first off, and a model that asks for the search itself
    stand_in = bedrock(
        asks_for_tools(lookup("t1", keywords="light laptop", maxPrice=1000)),
        replies("Try the [CMP-023]."),
    )
    with on_bedrock(search_first=False) as local:
        result = local.ask(CATALOG_QUESTION)
    body = body_of(result)

    # Then the model goes first with the shopper's message alone, as it always did
    first_call, _ = stand_in.requests
    assert first_call["messages"] == [{"role": "user", "content": [{"text": CATALOG_QUESTION}]}]
    entered = states(result)
    assert "SearchCatalogFirst" not in entered and "HandOverSearch" not in entered
    assert entered.index("ChooseFirstStep") + 1 == entered.index("CheckDeadline")
    assert body["modelCalls"] == 2 and body["toolRounds"] == 1
    assert [(t["tool"], t["round"]) for t in body["trace"] if "round" in t] == [
        ("lookup_inventory", 1)
    ]


# -- over the day's budget -----------------------------------------------------------------


def _over_budget(question: str, *, search_first: bool) -> RunResult:
    with LocalStorechat(daily_budget_usd=1.0, search_first=search_first) as local:
        # (tomorrow's too, for a test that runs across midnight)
        today = datetime.now(UTC).date()
        for day in (today, today + timedelta(days=1)):
            set_spent(1_000_000, day.isoformat())
        return local.ask(question)


def _catalog_searches(result: RunResult) -> int:
    """How often the execution invoked the catalog tool."""
    invoked = [
        json.loads(details["parameters"])["FunctionName"]
        for event in result.events
        if (details := event.get("taskScheduledEventDetails")) and details["resource"] == "invoke"
    ]
    return sum("lookup-inventory" in function for function in invoked)


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("Do you have a light Windows laptop under $800?", "searched"),  # found as asked
        ("A laptop for underwater basket weaving", "searched"),  # by dropping words: not shown
        ("qwxzy vbnmk plokij", "nothing_found"),  # found nothing: not handed over
    ],
)
def test_over_budget_the_search_first_is_the_catalogs_answer_not_searched_twice(
    question: str, reason: str
) -> None:
    # Given a day whose model budget is spent
    # When a shopper asks, with search first and without
    searched_first = _over_budget(question, search_first=True)
    model_first = _over_budget(question, search_first=False)

    # Then with search first the shopper's words were searched once, and no model was called
    body = body_of(searched_first)
    assert first_decision(searched_first)["reason"] == reason
    assert _catalog_searches(searched_first) == 1
    assert "AnswerFromCatalog" not in states(searched_first)
    assert body["fallbackReason"] == "budget_exhausted" and body["modelCalls"] == 0
    # And the shopper gets what the catalog's answer without a model always gave them
    today = body_of(model_first)
    assert body["answer"] == today["answer"]
    assert body["products"] == today["products"]
    assert [(t["tool"], t["input"], t["round"]) for t in body["trace"]] == [
        (t["tool"], t["input"], t["round"]) for t in today["trace"]
    ]
    assert body["toolRounds"] == today["toolRounds"] == 1
