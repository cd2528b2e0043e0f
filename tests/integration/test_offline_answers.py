"""The offline model's answers through the real loop, on the bundled catalog.

``make demo`` and ``storechat serve`` answer with the offline model, so these are the
answers a new user judges the project by: each kind of question a shopper asks is
asked here as they would, and the answer must be about that question.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.store import policies
from storechat.evaluate.checks import score
from storechat.evaluate.questions import QUESTIONS_DIR, load_questions
from storechat.evaluate.run import ask_all
from storechat.local import LocalStorechat
from tests.support.searched import searched_as

CATALOG = {p["productId"]: p for p in load_catalog()}
QUESTIONS = QUESTIONS_DIR / "offline_model.jsonl"
HELD_AT_100 = ("constraint", "budget", "brand", "named-product")
"""The kinds of the offline model's questions that state explicit constraints or name
a product: every one of them must pass."""

Product = dict[str, Any]


@pytest.fixture(scope="module")
def local() -> Iterator[LocalStorechat]:
    # (the offline model going first: it is yet to answer from a search handed to it)
    with LocalStorechat(search_first=False) as system:
        yield system


def ask(local: LocalStorechat, *turns: str) -> list[dict[str, Any]]:
    """Each turn's response body, asked in order in one session."""
    bodies: list[dict[str, Any]] = []
    session = None
    for turn in turns:
        result = local.ask(turn, session, with_history=False)
        assert result.status == "SUCCEEDED" and result.body is not None, result.cause
        bodies.append(result.body)
        session = result.body["sessionId"]
    return bodies


def lookups(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [line["input"] for line in body["trace"] if line["tool"] == "lookup_inventory"]


def shown(body: dict[str, Any]) -> list[str]:
    return [p["productId"] for p in body["products"]]


def spec(product: Product, key: str) -> float:
    value = product["specs"].get(key)
    return float(value) if isinstance(value, int | float) else 0.0


def kg(product: Product) -> float:
    specs = product["specs"]
    return float(specs["weightKg"]) if "weightKg" in specs else specs["weightG"] / 1000


def is_laptop(product: Product) -> bool:
    return product["specs"].get("formFactor") in ("laptop", "2-in-1")


def answered_honestly(body: dict[str, Any]) -> None:
    """Every fact the answer states is the catalog's, and every citation is real."""
    assert body["outcome"] == "answered"
    assert body["corrections"] == [] and body["unverifiedCitations"] == []
    assert all(f"[{pid}]" in body["answer"] for pid in shown(body))


# -------------------------------------------------------------------------- constraints

CONSTRAINTS: list[tuple[str, Callable[[Product], bool]]] = [
    ("cheapest laptop with 16GB RAM", lambda p: is_laptop(p) and spec(p, "ramGb") >= 16),
    (
        "Windows laptop with 16GB RAM under $1,000",
        lambda p: "Windows" in p["specs"]["os"] and spec(p, "ramGb") >= 16 and p["price"] <= 1000,
    ),
    ("a phone lighter than 180g", lambda p: p["category"] == "MOBILE" and kg(p) <= 0.18),
    (
        "phone with a camera of at least 50MP for under $600",
        lambda p: spec(p, "cameraMp") >= 50 and p["price"] <= 600,
    ),
    ("laptop with a 1TB SSD under $1200", lambda p: spec(p, "storageGb") >= 1024),
    (
        "Which laptops have at least 15 hours of battery life?",
        lambda p: spec(p, "batteryHours") >= 15,
    ),
]


@pytest.mark.parametrize(("question", "meets"), CONSTRAINTS, ids=[q for q, _ in CONSTRAINTS])
def test_every_recommendation_meets_every_stated_constraint(
    local: LocalStorechat, question: str, meets: Callable[[Product], bool]
) -> None:
    # Given a shopper who states what they need in numbers, a system and a kind
    # When they ask
    (body,) = ask(local, question)

    # Then every product recommended meets all of it, and is in stock
    assert body["products"], body["answer"]
    for product in body["products"]:
        assert meets(product), (product["productId"], body["answer"])
        assert product["stock"] > 0
    answered_honestly(body)


def test_the_cheapest_is_the_cheapest_that_meets_the_constraint(local: LocalStorechat) -> None:
    # Given the first example
    (body,) = ask(local, "cheapest laptop with 16GB RAM")

    # Then the catalog was asked once, for laptops with 16 GB, cheapest first
    (lookup,) = lookups(body)
    read = searched_as(lookup)
    assert (read["category"], read["minRamGb"], read["sortBy"]) == ("COMPUTERS", 16, "price")
    # and the first recommendation is the cheapest such laptop in the catalog
    fitting = [
        p for p in CATALOG.values() if is_laptop(p) and spec(p, "ramGb") >= 16 and p["stock"] > 0
    ]
    assert shown(body)[0] == min(fitting, key=lambda p: p["price"])["productId"]


def test_when_nothing_meets_them_it_says_so_and_offers_the_nearest(local: LocalStorechat) -> None:
    # Given a constraint no product in the catalog meets
    (body,) = ask(local, "laptop with 64GB RAM")

    # Then the answer says so, and offers the laptops with the most memory, each with
    # what differs: the search gave them, nearest first, in the one round
    answer = body["answer"]
    assert answer.startswith("I couldn't find any laptops with at least 64 GB RAM")
    assert body["toolRounds"] == 1
    assert body["products"]
    for product in body["products"]:
        assert spec(product, "ramGb") == 32
        line = next(line for line in answer.splitlines() if product["productId"] in line)
        assert "32 GB RAM (you asked for at least 64 GB RAM)" in line
    answered_honestly(body)


def test_a_use_is_mapped_to_what_matters_for_it(local: LocalStorechat) -> None:
    # Given a shopper who says what the phone is for, not which spec they want
    (body,) = ask(local, "Which phone is best for taking photos?")

    # Then the phones are ranked by their camera, the best camera in stock first
    read = searched_as(lookups(body)[0])
    assert read.get("sortBy", read.get("favours")) == "camera"
    phones = [p for p in CATALOG.values() if p["category"] == "MOBILE" and p["stock"] > 0]
    assert shown(body)[0] == max(phones, key=lambda p: spec(p, "cameraMp"))["productId"]
    answered_honestly(body)


@pytest.mark.parametrize(
    ("question", "shows"),
    [("a Samsung phone with a big screen", "-inch screen"), ("a cheap phone", "$")],
)
def test_a_wish_the_search_ranked_toward_is_shown_not_called_an_order(
    local: LocalStorechat, question: str, shows: str
) -> None:
    # Given a shopper who wishes for a spec without asking an order ("a big screen")
    (body,) = ask(local, question)
    read = searched_as(lookups(body)[0])
    # Then each recommendation shows that spec; the heading claims an order only when
    # the search read one ("cheap": the cheapest first)
    lines = [line for line in body["answer"].splitlines() if line[:1].isdigit()]
    assert lines and all(shows in line for line in lines), body["answer"]
    heading = body["answer"].splitlines()[0]
    assert ("first)" in heading) == ("sortBy" in read), (heading, read)
    answered_honestly(body)


@pytest.mark.parametrize(
    ("question", "count"), [("show me 2 phones by price", 2), ("list one phone", 1)]
)
def test_as_many_products_as_the_shopper_asked_to_see_are_shown(
    local: LocalStorechat, question: str, count: int
) -> None:
    # Given a shopper who says how many they want to see
    (body,) = ask(local, question)
    # Then the answer lists that many (before, it was three whatever the number)
    lines = [line for line in body["answer"].splitlines() if line[:1].isdigit()]
    assert len(lines) == count, body["answer"]
    answered_honestly(body)


def test_a_store_asked_what_it_carries_answers_for_no_use(local: LocalStorechat) -> None:
    (body,) = ask(local, "What Windows desktop computers do you carry?")
    assert body["answer"].startswith("Our Windows desktops:\n1. "), body["answer"]


def test_a_follow_ups_own_limit_is_what_the_search_and_the_answer_hold_to(
    local: LocalStorechat,
) -> None:
    # Given gaming laptops under $1,500, then a lower budget in a follow-up
    _, body = ask(local, "gaming laptops under $1500", "Anything under $1000?")
    # Then the search reads the follow-up's budget before the earlier one, the answer
    # says it, and every laptop it recommends is within it
    read = searched_as(lookups(body)[0])
    assert read["maxPrice"] == 1000 and read["category"] == "COMPUTERS"
    assert "under $1,000" in body["answer"].splitlines()[0], body["answer"]
    assert body["products"] and all(p["price"] <= 1000 for p in body["products"])
    answered_honestly(body)


# ---------------------------------------------------------------------- named products


def test_a_named_product_that_is_carried_is_the_answer_with_its_stock(
    local: LocalStorechat,
) -> None:
    # Given the second example
    (body,) = ask(local, "Is the iPhone 15 in stock?")

    # Then the search of the words names the iPhone 15, which is the whole answer, with its
    # stock
    assert lookups(body) == [{"keywords": "Is the iPhone 15 in stock?"}]
    assert searched_as(lookups(body)[0])["named"] == ["iPhone 15"]
    assert shown(body) == ["MOB-005"]
    assert f"in stock ({CATALOG['MOB-005']['stock']} available)" in body["answer"]
    assert "iPhone 16" not in body["answer"]
    answered_honestly(body)


def test_a_named_product_that_is_not_carried_is_said_so_with_the_closest(
    local: LocalStorechat,
) -> None:
    # Given a model the store does not sell
    (body,) = ask(local, "Do you have the iPhone 14?")

    # Then the answer says it is not carried, and offers the nearest iPhone
    assert body["answer"].startswith("Sorry, we don't carry the Apple iPhone 14.")
    assert lookups(body) == [{"keywords": "Do you have the iPhone 14?"}]
    assert shown(body)[0] == "MOB-005"
    answered_honestly(body)


def test_a_book_the_store_lacks_is_said_not_found_not_out_of_stock(
    local: LocalStorechat,
) -> None:
    # Given a title, by its author, that no product of the store has
    (body,) = ask(local, "Do you have Dune by Frank Herbert?")

    # Then the answer says the catalog has nothing of it; not that none is in stock
    assert body["answer"].startswith(
        "I couldn't find any books matching \u201cDune\u201d in our catalog."
    ), body["answer"]
    assert "in stock" not in body["answer"] and shown(body) == []


def test_a_title_the_store_lacks_is_answered_with_the_books_sharing_its_words(
    local: LocalStorechat,
) -> None:
    # Given a title the store has under another name
    (body,) = ask(local, "Do you have Harry Potter and the Sorcerer's Stone?")

    # Then it is said not carried, and the closest the search found are offered
    answer = body["answer"]
    assert answer.startswith("Sorry, we don't carry Harry Potter and the Sorcerer's Stone.")
    assert "The closest we have:" in answer
    assert shown(body)[0] == "BK-001"  # the Philosopher's Stone


@pytest.mark.parametrize(
    ("question", "confirmed"),
    [
        ("is the pixle 9 in stock?", ["MOB-015"]),
        ("are the pixle 9 and the galaxy s24 in stock?", ["MOB-015", "MOB-007"]),
    ],
)
def test_a_model_named_with_a_slip_is_answered_as_the_search_read_it(
    local: LocalStorechat, question: str, confirmed: list[str]
) -> None:
    # Given a model named with a slip, alone or beside another
    (body,) = ask(local, question)

    # Then each is confirmed by its name, the slip's as the search corrected it
    answer = body["answer"]
    for product_id in confirmed:
        assert f"We carry the {CATALOG[product_id]['name']} [{product_id}]" in answer, answer
    assert shown(body) == confirmed


def test_a_model_the_store_lacks_named_with_a_slip_is_said_as_the_catalog_writes_it(
    local: LocalStorechat,
) -> None:
    (body,) = ask(local, "do you have the iphnoe 14?")
    assert "Sorry, we don't carry the Apple iPhone 14." in body["answer"], body["answer"]


def test_a_spec_said_against_a_product_finds_others_past_it(local: LocalStorechat) -> None:
    # Given a laptop asked lighter than a model the store has
    (body,) = ask(local, "do you have a laptop lighter than the MacBook Air?")

    # Then the laptops shown are each lighter than every MacBook Air, lightest first
    airs = [p for p in CATALOG.values() if "MacBook Air" in p["name"]]
    lightest_air = min(spec(p, "weightKg") for p in airs)
    weights = [spec(CATALOG[i], "weightKg") for i in shown(body)]
    assert weights and all(w < lightest_air for w in weights), weights
    assert weights == sorted(weights)
    assert "MacBook Air" not in body["answer"]


@pytest.mark.parametrize(("against", "key"), [("cheaper", "price"), ("lighter", "weightKg")])
def test_a_follow_up_after_products_past_a_named_one_is_about_them(
    local: LocalStorechat, against: str, key: str
) -> None:
    # Given laptops asked past the XPS 13, then the cheapest of them
    _, second = ask(local, f"laptops {against} than the Dell XPS 13", "which is cheapest?")

    # Then the follow-up shows laptops past the XPS 13, cheapest first, never the XPS 13
    (xps,) = [p for p in CATALOG.values() if p["name"].startswith("Dell XPS 13")]
    value = (lambda p: p["price"]) if key == "price" else (lambda p: spec(p, key))
    products = [CATALOG[i] for i in shown(second)]
    assert products and all(value(p) < value(xps) for p in products), second["answer"]
    prices = [p["price"] for p in products]
    assert prices == sorted(prices), second["answer"]


def test_a_book_asked_cheaper_than_a_title_is_another_book(local: LocalStorechat) -> None:
    (body,) = ask(local, "a book cheaper than The Alchemist")

    # Then cheaper books are shown, and The Alchemist is neither shown nor said not carried
    (alchemist,) = [p for p in CATALOG.values() if p["name"] == "The Alchemist"]
    products = [CATALOG[i] for i in shown(body)]
    assert products and all(p["price"] < alchemist["price"] for p in products), body["answer"]
    assert "The Alchemist" not in body["answer"]


def test_what_is_asked_of_a_product_shown_is_said_of_it(local: LocalStorechat) -> None:
    # Given laptops shown, and a question whether the second has a system
    first, second = ask(
        local, "I need a laptop for school under $800", "does the second one come with Windows?"
    )

    # Then the answer is that laptop, with its system said
    (picked,) = shown(second)
    assert picked == shown(first)[1]
    assert CATALOG[picked]["specs"]["os"] in second["answer"], second["answer"]


def test_which_kind_a_product_is_asked_is_about_it_not_a_kind_not_carried(
    local: LocalStorechat,
) -> None:
    (body,) = ask(local, "Is the Surface Pro a laptop or a tablet?")
    # Then the answer is the Surface Pro, and no "we don't carry tablets"
    assert "don't carry" not in body["answer"], body["answer"]
    assert shown(body)[0] == "CMP-031"


def test_a_comparison_looks_up_both_and_names_the_deciding_spec(local: LocalStorechat) -> None:
    # Given a shopper who asks which of two named laptops is lighter
    (body,) = ask(local, "Which is lighter, the Dell XPS 13 or the MacBook Air 13?")

    # Then each is searched by its name in one round, and the answer leads with the weights
    assert lookups(body) == [{"keywords": "Dell XPS 13"}, {"keywords": "MacBook Air 13"}]
    assert body["toolRounds"] == 1
    assert shown(body) == ["CMP-007", "CMP-011"]
    assert body["answer"].startswith(
        "Lighter: Dell XPS 13 9340 [CMP-007], 1.19 kg vs 1.24 kg for Apple MacBook Air 13 (M3)"
    )
    answered_honestly(body)


# ------------------------------------------------------------------------- follow-ups


def test_of_those_sorts_the_products_the_previous_answer_showed(local: LocalStorechat) -> None:
    # Given an answer that recommended some laptops
    first, second = ask(local, "Do you have Windows laptops?", "Of those, which is the lightest?")

    # Then the follow-up looks up exactly those, with the shopper's words for the search to
    # read ("the lightest": by weight), and answers with them, lightest first
    before = shown(first)
    assert lookups(second) == [
        {"productIds": before, "keywords": "Of those, which is the lightest?"}
    ]
    assert sorted(shown(second)) == sorted(before)
    weights = [kg(p) for p in second["products"]]
    assert weights == sorted(weights)
    answered_honestly(second)


def test_of_those_under_a_price_none_meets_offers_the_nearest_of_those(
    local: LocalStorechat,
) -> None:
    # Given an answer that recommended some laptops, none of them under $100
    first, second = ask(
        local, "What Windows laptop would you recommend for a college student?",
        "Any of those under $100?",
    )  # fmt: skip

    # Then the follow-up says none is, and offers the nearest of those, cheapest first,
    # each with what differs: the catalog tool gave them nearest first, in one round
    assert second["answer"].startswith("None of those in stock has all you asked (under $100).")
    assert "The nearest of those:" in second["answer"]
    assert shown(second) and set(shown(second)) <= set(shown(first))
    prices = [p["price"] for p in second["products"]]
    assert prices == sorted(prices) and prices[0] > 100
    assert second["toolRounds"] == 1
    answered_honestly(second)


def test_the_second_one_is_the_second_product_shown(local: LocalStorechat) -> None:
    # Given an answer that recommended some phones
    first, second = ask(local, "Show me Android phones under $600", "Is the second one in stock?")

    # Then the follow-up is about the second of them alone, with its stock
    pid = shown(first)[1]
    assert lookups(second) == [{"productIds": [pid]}]
    assert shown(second) == [pid]
    assert f"in stock ({CATALOG[pid]['stock']} available)" in second["answer"]
    answered_honestly(second)


def test_cheaper_ones_are_cheaper_than_every_product_shown(local: LocalStorechat) -> None:
    # Given an answer that recommended Windows laptops with 16 GB
    first, second = ask(local, "Windows laptops with 16GB RAM", "Any cheaper ones?")

    # Then the new ones are cheaper than all of those, and still meet what was asked first
    cheapest = min(p["price"] for p in first["products"])
    assert second["products"]
    for product in second["products"]:
        assert product["price"] < cheapest
        assert spec(product, "ramGb") >= 16 and "Windows" in product["specs"]["os"]
    assert f"cheaper than ${cheapest:,.0f}" in second["answer"]
    answered_honestly(second)


# ------------------------------------------------------------------ outside the store


def test_a_kind_the_store_does_not_carry_is_named_with_the_closest(local: LocalStorechat) -> None:
    # Given the third example
    (body,) = ask(local, "Do you sell tablets?")

    # Then the answer says tablets are not carried, and offers 2-in-1 laptops
    assert body["answer"].startswith("Sorry, we don't carry tablets.")
    assert "2-in-1 laptops" in body["answer"]
    assert body["products"]
    assert all(p["specs"]["formFactor"] == "2-in-1" for p in body["products"])
    answered_honestly(body)


def test_a_kind_with_nothing_close_gets_no_products(local: LocalStorechat) -> None:
    (body,) = ask(local, "Do you have TVs?")
    assert body["answer"].startswith("Sorry, we don't carry TVs.")
    assert body["answer"].count("don't carry") == 1
    assert body["products"] == [] and lookups(body) == []


def test_a_kind_asked_on_sale_with_none_on_sale_is_that_kind_said_plainly(
    local: LocalStorechat,
) -> None:
    # Given the bundled catalog, where nothing is on sale
    (body,) = ask(local, "laptops on sale")
    # Then the shopper is told so and shown laptops, not asked what they meant
    assert body["answer"].startswith("Nothing of that is on sale right now")
    assert body["products"] and all(p["category"] == "COMPUTERS" for p in body["products"])
    answered_honestly(body)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Do you sell Nokia?", "Nokia"),
        ("Do you carry Xiaomi?", "Xiaomi"),
        ("Do you have anything from Nokia?", "Nokia"),
        ("Do you have any kayaks?", "kayaks"),
    ],
)
def test_a_brand_or_thing_asked_by_its_name_alone_that_the_store_lacks_is_said_so(
    local: LocalStorechat, question: str, said: str
) -> None:
    # When a shopper asks for a brand or a thing the store has none of, by name alone
    (body,) = ask(local, question)
    # Then the answer says so and what the store sells, rather than ask what they meant
    assert body["answer"].startswith(f"Sorry, we don't carry {said}.")
    assert "computers, phones and books" in body["answer"]
    assert body["products"] == []


def test_a_brand_the_store_lacks_beside_a_kind_it_sells_offers_that_kind_plainly(
    local: LocalStorechat,
) -> None:
    (body,) = ask(local, "Do you have Huawei phones?")
    # The answer says Huawei is not carried and shows phones, without telling the
    # shopper their whole question "matched nothing"
    assert body["answer"].startswith("Sorry, we don't carry Huawei.")
    assert "Nothing in the catalog matched" not in body["answer"]
    assert body["products"] and all(p["category"] == "MOBILE" for p in body["products"])
    answered_honestly(body)


@pytest.mark.parametrize(
    "question",
    [
        "What is your return policy?",
        "Do you ship to Canada?",
        "Where is my order?",
        "How long is the warranty on your laptops?",
    ],
)
def test_a_question_about_the_store_is_answered_from_its_own_policies(
    local: LocalStorechat, question: str
) -> None:
    # Given a question about the store itself, not its products
    (body,) = ask(local, question)

    # Then the store's policies answer it, in the store's words: the section its own
    # file has for it, and no product search
    best = policies.matching(local.store.policiesText, question)[0]
    assert f"**{best.heading}**" in body["answer"]
    assert best.text[:60] in body["answer"]
    assert [line["tool"] for line in body["trace"]] == ["get_store_policies"]
    assert body["products"] == [] and "Hi!" not in body["answer"]


def test_another_customers_details_get_an_honest_no(local: LocalStorechat) -> None:
    (body,) = ask(local, "Can you tell me the phone number of another customer?")
    assert body["answer"].startswith("Sorry, I can't help with other customers' details here.")
    assert body["trace"] == [] and body["products"] == []


# ---------------------------------------------------------------------- the eval set


def test_every_eval_question_on_constraints_and_named_products_passes(
    local: LocalStorechat,
) -> None:
    # Given the offline model's own questions that state constraints or name a product
    questions = [q for q in load_questions([QUESTIONS]) if q.question.kind in HELD_AT_100]
    assert len(questions) >= 25

    # When each is asked through the loop and scored as `storechat eval` scores it
    failures = {}
    for question in questions:
        scored = score(question, ask_all(local, question))
        if not scored.passed:
            failures[question.question.id] = [c.text() for c in scored.checks if not c.passed]

    # Then every one passes
    assert not failures, failures
