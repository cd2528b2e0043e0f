"""Search first, decided without a model: which messages the catalog search on the
shopper's words serves, and why the others are left to the model (lookup_inventory/first.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lookup_inventory.first import FirstAsk, Reason, after_search, before_search, decide
from lookup_inventory.logic import run
from shared.api.contract import ToolCall, ToolOutput, ToolUse
from shared.products.catalog_data import load_catalog
from shared.runtime.errors import FailureKind
from shared.search import SearchIndex, build_index
from tests.unit.test_lookup_inventory import Table

CATALOG = load_catalog()
SHOWN = ["CMP-023", "CMP-001"]
ORDERS = {
    "weight": ("weightKg", False),
    "battery": ("batteryHours", True),
    "price": ("price", False),
    "ram": ("ramGb", True),
}


def _spec(product_id: str, field: str) -> float:
    (product,) = [p for p in CATALOG if p["productId"] == product_id]
    return float(product[field] if field == "price" else product["specs"][field])


def reason(message: str, *, history: bool = False, shown: list[str] | None = None) -> str | None:
    return before_search(FirstAsk(message=message, hasHistory=history, shown=shown or []))


@pytest.mark.parametrize(
    "message",
    [
        "What is your return policy?",
        "Can I send it back if it doesn't fit my needs?  I want a refund.",
        "How long does shipping to Canada take?",
        "Do you deliver on weekends?",
        "Where is my order? It was supposed to arrive yesterday.",
        "I'd like to cancel my order",
        "Can I pay with PayPal or in installments?",
        "What warranty do your products have?",
        "How can I contact customer service?",
        "Wie lange dauert die Lieferung nach Österreich?",
        "Kann ich meine Bestellung stornieren?",
        "¿Cuáles son los gastos de envío?",
        "¿Dónde está mi pedido?",
        "Quels sont les frais de port ?",
        "Comment retourner un article ?",
    ],
)
def test_a_question_about_the_store_is_left_to_the_model_and_its_policies_tool(
    message: str,
) -> None:
    assert reason(message) == Reason.STORE_QUESTION


@pytest.mark.parametrize(
    "message",
    [
        "Headphones with noise cancelling",
        "A simple laptop for email and browsing",
        "A phone I can repair myself",
        "An order of magnitude faster laptop",
    ],
)
def test_words_products_are_described_by_are_not_a_question_about_the_store(
    message: str,
) -> None:
    assert reason(message) is None


@pytest.mark.parametrize(
    "message",
    [
        "Which of those is the lightest?",
        "Is the second one in stock?",
        "Does it have a backlit keyboard?",
        "How do they compare for gaming?",
        "Any cheaper ones?",
        "I'll take the cheaper one.",
        "Tell me more about cmp-023",
        "Welches davon ist leichter?",
        "¿Cuál de ellos tiene más memoria?",
        "Lequel est le plus léger ?",
    ],
)
def test_a_follow_up_about_products_shown_is_left_to_the_model(message: str) -> None:
    # Given the last turn showed products, a message pointing at them goes to the model
    assert reason(message, history=True, shown=SHOWN) == Reason.FOLLOW_UP


@pytest.mark.parametrize(
    "message",
    ["Under $500.", "Which is the cheapest?", "Only ones on sale", "With at least 16GB RAM?"],
)
def test_a_message_that_only_narrows_what_was_asked_before_is_a_follow_up(message: str) -> None:
    assert reason(message, history=True) == Reason.FOLLOW_UP
    # while as a session's first message it is a search of its own
    assert reason(message) is None


def test_pointers_without_products_shown_are_no_follow_up() -> None:
    assert reason("Which of those laptops is the lightest?") is None
    assert reason("Which of those laptops is the lightest?", history=True) is None


@pytest.mark.parametrize(
    "message",
    [
        "Hello!",
        "hi there",
        "Good morning, how are you doing today?",
        "Thanks a lot!",
        "Who are you?",
        "What can you do?",
        "ok, bye",
        "Hallo, wie geht es dir?",
        "¡Hola! ¿Qué tal?",
        "Merci beaucoup, au revoir",
    ],
)
def test_a_message_without_catalog_words_is_not_searched(message: str) -> None:
    assert reason(message) == Reason.NO_CATALOG_WORDS
    assert reason(message, history=True, shown=SHOWN) in (
        Reason.NO_CATALOG_WORDS,
        Reason.FOLLOW_UP,
    )


@pytest.mark.parametrize(
    "message",
    [
        "A light laptop under $1000",
        "Books by Madeline Miller",
        "Do you have anything from Lenovo?",
        "An Android phone with a big battery",
        "Something for a gamer on a budget",
        "Welches Handy hat die beste Kamera?",
        "un portátil por menos de 900 dólares",
        "Je cherche un ordinateur portable léger",
        "Hi! I'm looking for a mystery novel",
    ],
)
def test_a_catalog_question_is_searched_first(message: str) -> None:
    assert reason(message) is None
    # a new subject after earlier turns is searched too
    assert reason(message, history=True) is None


# -- what the search found -------------------------------------------------------------------


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    path = tmp_path_factory.mktemp("first") / "catalog.sqlite"
    build_index(CATALOG, path)
    opened = SearchIndex.open(path)
    yield opened
    opened.close()


def searching(
    index: SearchIndex,
    message: str,
    shown: list[str] | None = None,
    before: dict[str, object] | None = None,
) -> tuple[object, list[ToolOutput]]:
    """``decide`` on ``message`` as the state machine asks it (after a turn that showed
    ``shown``, in a session whose last search of words was ``before``), and the calls it
    ran."""
    ran: list[ToolOutput] = []
    use = ToolUse(toolUseId="search-first", name="lookup_inventory", input={"keywords": message})

    def search(other: dict[str, object] | None = None) -> ToolOutput:
        called = use if other is None else use.model_copy(update={"input": other})
        output = run(called, index=lambda: index, source=Table(CATALOG), max_results=4)
        ran.append(output)
        return output

    first = {
        "message": message,
        "hasHistory": shown is not None or before is not None,
        "shown": shown or [],
        "before": before,
    }
    return decide(first, search), ran


def test_a_search_that_finds_what_was_asked_is_handed_over(index: SearchIndex) -> None:
    (answer, handed), ran = searching(index, "A light laptop under $1000")  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, answer.searched) == (True, "searched", True)
    assert handed is ran[0] and handed.ledger.products
    assert answer.trace is None  # the output's own trace line goes with it


def test_a_budget_nothing_meets_hands_over_the_nearest_of_the_kind_asked(
    index: SearchIndex,
) -> None:
    # "a laptop under $200": no laptop costs that little. The search hands over the
    # cheapest laptops and says it dropped the limit, for the model to say so in one call
    # (it handed over the cheapest books before: any product under $200).
    (answer, handed), _ = searching(index, "Do you have a laptop under $200?")  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason) == (True, "searched")
    told = handed.tool_result["content"][0]["json"]
    assert "dropped: the limits in nearestTo" in told["relaxed"]
    assert told["nearestTo"] == {"maxPrice": 200}
    products = handed.ledger.products
    assert {p.category for p in products} == {"COMPUTERS"}
    laptops = [p["price"] for p in CATALOG if p["specs"].get("formFactor") == "laptop"]
    assert [p.price for p in products] == sorted(laptops)[: len(products)]


@pytest.mark.parametrize(
    ("message", "lacked"),
    [("Do you sell kayaks?", ["kayaks"]), ("Do you have the Nokia 3310?", ["Nokia 3310"])],
)
def test_a_search_that_found_nothing_but_what_the_store_lacks_is_handed_over(
    index: SearchIndex, message: str, lacked: list[str]
) -> None:
    # The model can say at once that the store does not sell it: one call, not two
    (answer, handed), _ = searching(index, message)  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason) == (True, "searched")
    assert handed.tool_result["content"][0]["json"]["notCarried"] == lacked
    assert not handed.ledger.products


@pytest.mark.parametrize("message", ["qwxzy vbnmk", "Do you have anything blorptastic?"])
def test_a_search_that_found_nothing_for_the_words_is_not_handed_over(
    index: SearchIndex, message: str
) -> None:
    (answer, handed), ran = searching(index, message)  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, answer.searched) == (False, "nothing_found", True)
    assert handed is None and len(ran) == 1
    # and its line is kept, for an answer the catalog gives without a model
    assert answer.trace == ran[0].trace


def test_words_that_decide_alone_are_never_searched(index: SearchIndex) -> None:
    (answer, handed), ran = searching(index, "What is your return policy?")  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, answer.searched) == (False, "store_question", False)
    assert handed is None and ran == []


@pytest.mark.parametrize(
    ("message", "order"),
    [
        ("Which of those is the lightest?", "weight"),
        ("Which one has the longest battery?", "battery"),
        ("Which is the cheapest one?", "price"),
        ("Which of these laptops has the most RAM?", "ram"),
        ("Welches davon ist am leichtesten?", "weight"),
    ],
)
def test_a_follow_up_that_only_orders_the_products_shown_fetches_them_in_that_order(
    index: SearchIndex, message: str, order: str
) -> None:
    # Given the last turn showed two laptops, a light one second
    (answer, handed), ran = searching(index, message, shown=SHOWN)  # type: ignore[misc]

    # Then those products are fetched by id in the order asked, and the model is handed
    # that call, with the input it would have sent itself
    asked = {"productIds": SHOWN, "sortBy": order}
    assert (answer.searchFirst, answer.reason, answer.searchedWith) == (
        True,
        "shown_ordered",
        asked,
    )
    assert handed is ran[0] and ran[0].trace.input == asked
    found = [p.productId for p in handed.ledger.products]
    assert sorted(found) == sorted(SHOWN)
    # and in that order: the first is the lightest, the longest battery, the cheapest...
    field, biggest_first = ORDERS[order]
    values = [_spec(pid, field) for pid in found]
    assert values == sorted(values, reverse=biggest_first)


@pytest.mark.parametrize(
    "message", ["Anything cheaper?", "Do you have a cheaper one?", "¿Algo más barato?"]
)
def test_cheaper_than_those_shown_searches_the_search_before_under_the_cheapest_shown(
    index: SearchIndex, message: str
) -> None:
    # Given the last turn showed two laptops of the session's search for university laptops
    (answer, handed), ran = searching(index, message, shown=SHOWN, before=UNIVERSITY)  # type: ignore[misc]

    # Then the catalog says what the cheapest of them costs, and that search runs under it
    cheapest = min(p["price"] for p in CATALOG if p["productId"] in SHOWN)
    asked = {**UNIVERSITY, "sortBy": "price", "maxPrice": round(cheapest - 0.01, 2)}
    assert ran[0].trace.input == {"productIds": SHOWN}
    assert (answer.searchFirst, answer.reason, answer.searchedWith) == (True, "narrowed", asked)
    assert handed is ran[1] and ran[1].trace.input == asked
    prices = [p.price for p in handed.ledger.products]
    assert prices and all(price < cheapest for price in prices)
    assert prices == sorted(prices)  # cheapest first


def test_cheaper_than_products_compared_by_name_is_left_to_the_model(index: SearchIndex) -> None:
    # The search before named two products, which it shows first whatever the price: it
    # said "nothing cheaper than $1,099" with 21 laptops under it
    before = {"keywords": "Compare the Dell XPS 13 and the MacBook Air 13"}
    shown = ["CMP-007", "CMP-011"]
    (answer, handed), _ = searching(index, "Anything cheaper?", shown=shown, before=before)  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, handed) == (False, "follow_up", None)


def test_cheaper_ones_are_cheapest_first_whatever_order_the_search_before_had(
    index: SearchIndex,
) -> None:
    # "anything cheaper?" after "which is the lightest?" kept the weight order: the
    # cheapest fell out of the top of the list
    before = {**UNIVERSITY, "sortBy": "weight"}
    (answer, _), _ = searching(index, "Anything cheaper?", shown=SHOWN, before=before)  # type: ignore[misc]
    assert answer.searchedWith is not None and answer.searchedWith["sortBy"] == "price"


@pytest.mark.parametrize(
    "message",
    [
        "Anything cheaper from Samsung?",  # words of its own: the model reads them
        "Anything cheaper under $500?",  # a price of its own
        "Something lighter?",  # lighter is no price
        "Anything cheaper on Windows?",  # a system's word of its own
    ],
)
def test_cheaper_with_more_than_that_is_left_to_the_model(index: SearchIndex, message: str) -> None:
    (answer, _), ran = searching(index, message, shown=SHOWN, before=UNIVERSITY)  # type: ignore[misc]
    assert (
        answer.reason != "narrowed"
        or "maxPrice" not in (answer.searchedWith or {})
        or (answer.searchedWith["maxPrice"] == 500)
    )
    assert all(output.trace.input != {"productIds": SHOWN} for output in ran)


@pytest.mark.parametrize(
    ("message", "order"),
    [("Which is the cheapest?", "price"), ("Which has the longest battery?", "battery")],
)
def test_an_order_that_points_at_none_shown_orders_the_search_before(
    index: SearchIndex, message: str, order: str
) -> None:
    # Given the last turn showed two laptops of the session's search for university laptops
    (answer, handed), ran = searching(index, message, shown=SHOWN, before=UNIVERSITY)  # type: ignore[misc]

    # Then the order is of what was asked, not of the two shown: that search, in that order
    asked = {**UNIVERSITY, "sortBy": order}
    assert (answer.searchFirst, answer.reason, answer.searchedWith) == (True, "narrowed", asked)
    assert handed is ran[0] and ran[0].trace.input == asked
    # Without a search before, the model reads it, knowing what was shown
    (answer, handed), ran = searching(index, message, shown=SHOWN)  # type: ignore[misc]
    assert (answer.reason, handed, ran) == ("follow_up", None, [])
    # After a product looked up by name, the search before is of it: the model reads it
    named = {"keywords": "Tell me about the Dell XPS 13"}
    (answer, handed), _ = searching(index, message, shown=["CMP-007"], before=named)  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, handed) == (False, "follow_up", None)


@pytest.mark.parametrize(
    "message",
    [
        "Which of those has a backlit keyboard?",  # a word to search: the model reads them
        "Which of those under $500 is the lightest?",  # a price as well as an order
        "Which of those is best for travel?",  # a use, not an order
        "Is the second one in stock?",
        # other products in an order: the ones shown in that order answer none of them
        "Anything cheaper?",
        "Do you have a lighter one?",
        "Is there something lighter?",
        "Any lighter ones?",
        "¿Tienes algo más barato que esos?",
        "Avez-vous quelque chose de plus léger que ceux-ci ?",
    ],
)
def test_a_follow_up_that_asks_more_than_an_order_is_left_to_the_model(
    index: SearchIndex, message: str
) -> None:
    (answer, handed), ran = searching(index, message, shown=SHOWN)  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, answer.searched) == (False, "follow_up", False)
    assert handed is None and ran == []


def test_an_order_without_products_shown_or_for_another_kind_is_searched_as_words(
    index: SearchIndex,
) -> None:
    # A session's first message: the lightest laptops in the catalog
    (answer, _), ran = searching(index, "Which laptop is the lightest?")  # type: ignore[misc]
    assert answer.reason == "searched" and answer.searchedWith is None
    assert ran[0].trace.input == {"keywords": "Which laptop is the lightest?"}
    # After laptops were shown, phones named without pointing at those: phones are searched
    (answer, _), ran = searching(index, "Which phone is the lightest?", shown=SHOWN)  # type: ignore[misc]
    assert answer.reason == "searched" and answer.searchedWith is None


UNIVERSITY = {"keywords": "I need a laptop for university."}


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("Anything under $700?", {"maxPrice": 700.0}),
        ("And over $1000?", {"minPrice": 1000.0}),
        ("With at least 16GB RAM?", {"minRamGb": 16.0}),
        ("Which is the cheapest?", {"sortBy": "price"}),
        ("Und unter 700 Euro?", {"maxPrice": 700.0}),
    ],
)
def test_a_follow_up_that_only_narrows_searches_the_last_search_narrowed(
    index: SearchIndex, message: str, said: dict[str, object]
) -> None:
    # Given a session whose last search of words was laptops for university, and a turn
    # since that showed nothing (a review, say)
    (answer, handed), ran = searching(index, message, shown=[], before=UNIVERSITY)  # type: ignore[misc]

    # Then that search runs again with what the words narrow as the tool's own fields, and
    # the model is handed it as its own call
    asked = {**UNIVERSITY, **said}
    assert (answer.searchFirst, answer.reason, answer.searchedWith) == (True, "narrowed", asked)
    assert handed is ran[0] and ran[0].trace.input == asked
    products = handed.ledger.products
    assert products and all(p.category == "COMPUTERS" for p in products)
    if "maxPrice" in said:
        assert all(p.price <= said["maxPrice"] for p in products)


@pytest.mark.parametrize(
    ("message", "before", "carried"),
    [
        ("What about a MacBook instead?", {**UNIVERSITY, "maxPrice": 1200}, {"maxPrice": 1200}),
        ("What about a Mac?", {"keywords": "A laptop with at least 16 GB of RAM"},
         {"minRamGb": 16.0}),
        ("Wie wäre es mit einem MacBook?", {"keywords": "Laptops unter 1200 Euro"},
         {"maxPrice": 1200.0}),
        # A price of its own wins; a spec's limit is no limit on another kind
        ("What about a MacBook under $1,500?",
         {"keywords": "A laptop with 16 GB of RAM under $900"}, {"minRamGb": 16.0}),
        # The price said to be no limit is dropped, a spec's limit still holds
        ("Forget the budget, what about a MacBook instead?",
         {"keywords": "A laptop with 16 GB of RAM under $900"}, {"minRamGb": 16.0}),
    ],
)  # fmt: skip
def test_a_new_kind_in_place_of_the_one_before_is_searched_under_its_limits(
    index: SearchIndex, message: str, before: dict[str, object], carried: dict[str, object]
) -> None:
    # Given a session whose last search of words had a budget or a spec's limit, and a
    # message that asks for another kind or line in its place
    (answer, handed), ran = searching(index, message, shown=[], before=before)  # type: ignore[misc]

    # Then its words are searched with the limits it does not say itself, and the model is
    # handed that call as its own
    asked = {"keywords": message, **carried}
    assert (answer.searchFirst, answer.reason, answer.searchedWith) == (True, "carried", asked)
    assert handed is ran[0] and ran[0].trace.input == asked
    products = handed.ledger.products
    assert products
    if "maxPrice" in carried and not ran[0].trace.demand.relaxed:
        assert all(p.price <= carried["maxPrice"] for p in products)


@pytest.mark.parametrize(
    ("message", "before"),
    [
        ("Thanks! Now I need a phone too.", {"keywords": "Laptops under $700"}),  # no switch
        ("What about a MacBook instead?", UNIVERSITY),  # no limit to carry
        ("What about it instead?", {"keywords": "Laptops under $700"}),  # no kind named
        # the budget was the only limit, and the shopper lets it go
        (
            "Never mind the price, what about a MacBook Pro instead?",
            {"keywords": "Laptops under $700"},
        ),
        # another kind than the one before: a laptop's budget is no phone's
        ("How about phones?", {"keywords": "A laptop with 16 GB of RAM under $900"}),
        ("I'd rather get a laptop for video editing", {"keywords": "Phones under $400"}),
        # "mejor" says "best" as often as "rather"
        ("¿Cuál es el mejor portátil para juegos?", {"keywords": "Portátiles con 16 GB de RAM"}),
    ],
)
def test_a_new_subject_carries_nothing_without_a_limit_a_kind_and_a_word_that_switches(
    index: SearchIndex, message: str, before: dict[str, object]
) -> None:
    (answer, _), ran = searching(index, message, shown=[], before=before)  # type: ignore[misc]
    assert answer.reason != "carried"
    assert all(output.trace.input.get("keywords") != message or len(output.trace.input) == 1
               for output in ran)  # fmt: skip


def test_a_narrowed_search_says_the_newer_budget_and_drops_what_contradicts_it(
    index: SearchIndex,
) -> None:
    before = {"keywords": "gaming laptop", "minPrice": 1500, "maxPrice": 2500, "offset": 4}
    (answer, _), ran = searching(index, "Anything under $1000?", shown=[], before=before)  # type: ignore[misc]
    # the new highest price wins, the lowest above it goes, and a page of the old does not carry
    assert answer.searchedWith == {"keywords": "gaming laptop", "maxPrice": 1000.0}
    assert ran[0].trace.input == answer.searchedWith


@pytest.mark.parametrize(
    ("message", "before", "shown"),
    [
        ("Anything under $700?", None, []),  # no search of words before
        ("Anything under $700?", {"productIds": ["CMP-001"], "sortBy": "weight"}, []),
        ("Which of those is under $700?", UNIVERSITY, SHOWN),  # the products shown
        ("Only ones on sale", UNIVERSITY, []),  # no field of the tool says it
        ("What about phones under $700?", UNIVERSITY, []),  # a new kind: a search of its own
    ],
)
def test_a_follow_up_the_last_search_cannot_narrow_is_not_narrowed(
    index: SearchIndex, message: str, before: dict[str, object] | None, shown: list[str]
) -> None:
    (answer, _), ran = searching(index, message, shown=shown, before=before)  # type: ignore[misc]
    assert answer.reason != "narrowed" and answer.searchedWith is None
    assert all(r.trace.input in ({"keywords": message},) for r in ran)


PHONES = {"keywords": "Thanks! Now I need a phone too."}


@pytest.mark.parametrize(
    ("message", "before", "shown", "added", "holds"),
    [
        ("Only Windows ones please.", UNIVERSITY, SHOWN, "windows", "Windows"),
        ("A Samsung one.", PHONES, [], "samsung", "Samsung"),
        ("Nur welche mit Windows, bitte", UNIVERSITY, SHOWN, "windows", "Windows"),
    ],
)
def test_a_follow_up_that_adds_a_word_searches_it_with_the_search_before(
    index: SearchIndex,
    message: str,
    before: dict[str, object],
    shown: list[str],
    added: str,
    holds: str,
) -> None:
    (answer, handed), ran = searching(index, message, shown=shown, before=before)  # type: ignore[misc]
    # Then the search before runs with the word added to its keywords ("ones" is the kind
    # asked, not the products shown), and every product it shows says that word
    asked = {"keywords": f"{before['keywords']} {added}"}
    assert (answer.searchFirst, answer.reason, answer.searchedWith) == (True, "narrowed", asked)
    assert handed is ran[0] and len(ran) == 1
    kind = "MOBILE" if before is PHONES else "COMPUTERS"
    products = handed.ledger.products
    assert len(products) >= 3 and all(p.category == kind for p in products)
    assert all(holds in p.model_dump_json() for p in products)


# no laptop says "Orwell" or "Tolkien": each is a question of its own
@pytest.mark.parametrize("message", ["Anything by Orwell?", "Anything by Tolkien?"])
def test_words_the_search_before_holds_nothing_of_are_searched_as_they_came(
    index: SearchIndex, message: str
) -> None:
    (answer, handed), ran = searching(index, message, shown=SHOWN, before=UNIVERSITY)  # type: ignore[misc]
    # Then the search before was tried with the words, and the words alone were handed over
    assert [r.trace.input for r in ran] == [
        {"keywords": f"{UNIVERSITY['keywords']} {message.split()[-1].strip('?').lower()}"},
        {"keywords": message},
    ]
    assert (answer.reason, answer.searchedWith) == ("searched", None) and handed is ran[1]
    assert handed.ledger.products[0].category == "BOOKS"


@pytest.mark.parametrize(
    "message",
    [
        "Which ones are Windows?",  # points at the products shown
        "The red one",
        "A Windows one with a backlit keyboard and a fingerprint reader",  # a question
        "What about phones?",  # a kind of its own
    ],
)
def test_a_follow_up_that_is_more_than_a_word_added_is_not_narrowed(
    index: SearchIndex, message: str
) -> None:
    (answer, _), ran = searching(index, message, shown=SHOWN, before=UNIVERSITY)  # type: ignore[misc]
    assert answer.reason != "narrowed" and answer.searchedWith is None
    assert all(r.trace.input == {"keywords": message} for r in ran)


def test_words_that_would_make_the_keywords_too_long_are_not_added(index: SearchIndex) -> None:
    before = {"keywords": "x" * 115}
    (answer, _), ran = searching(index, "A Samsung one.", shown=[], before=before)  # type: ignore[misc]
    assert answer.reason == "searched" and ran[0].trace.input == {"keywords": "A Samsung one."}


def test_a_narrowed_search_that_finds_nothing_is_left_to_the_model(index: SearchIndex) -> None:
    before = {"keywords": "laptop", "category": "BOOKS"}
    (answer, handed), ran = searching(index, "With at least 64GB RAM?", shown=[], before=before)  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason, answer.searched) == (False, "follow_up", True)
    assert handed is None and len(ran) == 1
    # over the day's budget, that search is the catalog's answer, as for a search of words
    assert answer.trace == ran[0].trace


def test_products_shown_that_are_gone_leave_the_order_to_the_model(index: SearchIndex) -> None:
    (answer, handed), _ = searching(index, "Which is the lightest?", shown=["CMP-999"])  # type: ignore[misc]
    assert (answer.searchFirst, answer.reason) == (False, "follow_up")
    assert handed is None


def test_a_search_that_failed_is_left_to_the_model() -> None:
    use = ToolUse(toolUseId="search-first", name="lookup_inventory", input={"keywords": "laptop"})
    failed = ToolCall(use).failure(FailureKind.UNAVAILABLE, "The catalog is unavailable.", "down")
    ask = FirstAsk(message="laptop")
    assert after_search(ask, failed) == Reason.SEARCH_FAILED


def test_every_reason_is_named_in_the_limits_doc() -> None:
    limits = (Path(__file__).parents[2] / "docs" / "limits.md").read_text(encoding="utf-8")
    section = limits.split("## Search first", 1)[1].split("\n## ", 1)[0]
    assert {f"`{r}`" for r in Reason} <= set(re.findall(r"`[a-z_]+`", section))
