"""Questions about the store itself, answered from its own policies, through the whole
loop: with the offline model and with a replayed one; and the store's name, contact and
links where the shopper reads them."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from converse.handler import use_provider
from converse.scripted import ScriptedModel
from shared.products.catalog_data import load_catalog
from shared.store.settings import StoreFile
from storechat.local import LocalStorechat
from storechat.printing import print_answer
from tests.integration.converse_fixtures import asks_for_tools, replies, tool_use, write_replay
from tests.support.store import store_file

# A store of its own words, nothing like the sample's.
POLICIES = """\
# Kundenservice at Haus & Heim

## Returns
Send anything back within 14 days of delivery with the return slip in the parcel.
Refunds reach your account within 3 working days.

## Delivery
We deliver in Germany and Austria in 1 to 2 working days.

## Order status
Your order's status and its parcel tracking are at https://hausundheim.example/account/orders.
"""


@pytest.fixture
def store(tmp_path: Path) -> StoreFile:
    return store_file(
        tmp_path,
        POLICIES,
        name="Haus & Heim",
        url="https://hausundheim.example",
        contact="service@hausundheim.example",
        assistant={"name": "Heimhilfe"},
    )


def tools_used(body: dict[str, object]) -> list[str]:
    return [line["tool"] for line in body["trace"]]  # type: ignore[index,union-attr]


def test_the_offline_model_answers_a_return_question_from_the_stores_policies(
    store: StoreFile,
) -> None:
    with LocalStorechat(store=store) as local:
        body = local.ask("What is your return policy?").body
    assert body is not None
    # The store's own words, from its policies, and no product search
    assert "within 14 days of delivery" in body["answer"]
    assert "Haus & Heim" in body["answer"]
    assert tools_used(body) == ["get_store_policies"]
    assert body["products"] == []


def test_where_is_my_order_gets_the_order_status_link_never_a_product_search(
    store: StoreFile,
) -> None:
    with LocalStorechat(store=store) as local:
        body = local.ask("where is my order?").body
    assert body is not None
    assert "https://hausundheim.example/account/orders" in body["answer"]
    assert "lookup_inventory" not in tools_used(body)
    assert tools_used(body) == ["get_store_policies"]


def test_a_replayed_model_reads_the_sections_and_the_contact_and_answers_with_them(
    store: StoreFile, tmp_path: Path
) -> None:
    # Given a model that asks the policies tool, then answers from what it read
    script = [
        asks_for_tools(
            tool_use("p1", "get_store_policies", {"question": "What is your return policy?"})
        ),
        replies("You can send anything back within 14 days of delivery."),
    ]
    model = write_replay(tmp_path, script)
    with LocalStorechat(model=model, store=store) as local:
        recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
        use_provider(recording)
        body = local.ask("What is your return policy?").body
    assert body is not None and body["answer"].startswith("You can send anything back")
    # Then the model was told the store's name, its policies' headings and its contact
    system = recording.requests[0]["system"][0]["text"]
    assert "Haus & Heim" in system and "service@hausundheim.example" in system
    assert "Returns; Delivery; Order status" in system
    assert "Better Store" not in system
    # And it read the returns section, in the store's words, with the contact
    told = recording.requests[1]["messages"][-1]["content"][0]["toolResult"]["content"][0]["json"]
    assert told["sections"][0]["heading"] == "Returns"
    assert "14 days of delivery" in told["sections"][0]["text"]
    assert told["contact"] == "service@hausundheim.example"


def test_what_the_policies_do_not_say_is_not_known_and_the_contact_is_given(
    store: StoreFile, tmp_path: Path
) -> None:
    script = [
        asks_for_tools(
            tool_use("p1", "get_store_policies", {"question": "Is there a loyalty card?"})
        ),
        replies("I don't know; please write to service@hausundheim.example."),
    ]
    model = write_replay(tmp_path, script)
    with LocalStorechat(model=model, store=store) as local:
        recording = ScriptedModel.from_file(Path(model.removeprefix("replay:")))
        use_provider(recording)
        body = local.ask("Is there a loyalty card?").body
    told = recording.requests[1]["messages"][-1]["content"][0]["toolResult"]["content"][0]["json"]
    assert told["sections"] == [] and "do not know" in told["note"]
    assert body is not None and "service@hausundheim.example" in body["answer"]


def test_the_offline_model_says_it_does_not_know_what_the_policies_do_not_say(
    store: StoreFile,
) -> None:
    with LocalStorechat(store=store) as local:
        body = local.ask("Do you accept payment with PayPal?").body
    assert body is not None
    assert "don't know" in body["answer"] and "service@hausundheim.example" in body["answer"]
    assert tools_used(body) == ["get_store_policies"]


def test_cards_link_to_the_stores_pages_and_add_to_its_cart(tmp_path: Path) -> None:
    # Given a Shopify store whose catalog carries each product's page and variant id,
    # one laptop sold out and one a product whose variant Shopify's CSV did not give
    store = store_file(tmp_path, url="https://hausundheim.example", platform="shopify")
    catalog = [p for p in load_catalog() if p["category"] == "COMPUTERS"][:3]
    for n, product in enumerate(catalog):
        product["url"] = f"/products/p-{n}"
        product["platformVariantId"] = str(40_000 + n)
        product["stock"] = 5
    in_stock, sold_out, no_variant = (p["productId"] for p in catalog)
    catalog[1]["stock"] = 0
    del catalog[2]["platformVariantId"]
    # When a model shows all three
    ids = [in_stock, sold_out, no_variant]
    script = [
        asks_for_tools(tool_use("t1", "lookup_inventory", {"productIds": ids})),
        replies(" ".join(f"[{i}]" for i in ids)),
    ]
    with LocalStorechat(
        model=write_replay(tmp_path, script), store=store, catalog=catalog
    ) as local:
        result = local.ask("Show me these laptops")
    body = result.body
    assert body is not None
    cards = {p["productId"]: p for p in body["products"]}
    # Then every card links to its page on the storefront
    assert [cards[i]["url"] for i in ids] == [
        f"https://hausundheim.example/products/p-{n}" for n in range(3)
    ]
    # And only the one in stock with a known variant can be added to the cart
    assert cards[in_stock]["cartUrl"] == "https://hausundheim.example/cart/add?id=40000&quantity=1"
    assert "cartUrl" not in cards[sold_out] and "cartUrl" not in cards[no_variant]
    # And `storechat ask` prints the same links the page shows
    printed = io.StringIO()
    print_answer(result, "replay", printed)
    assert (
        "add to cart: https://hausundheim.example/cart/add?id=40000&quantity=1"
        in printed.getvalue()
    )
    assert printed.getvalue().count("add to cart:") == 1
