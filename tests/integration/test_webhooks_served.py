"""The platforms' webhooks through ``storechat serve``: signed deliveries change what
shoppers are told; forged, replayed, late and malformed ones change nothing."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from storechat.local import LocalStorechat
from storechat.local.webhooks import LocalWebhooks
from storechat.server import make_server, running
from tests.support.platform_payloads import (
    body_of,
    shopify_headers,
    shopify_product,
    woocommerce_headers,
    woocommerce_product,
)

SHOPIFY_SECRET = "test-shopify-secret"
WOO_SECRET = "test-woo-secret"
SAMPLE = {p["productId"]: p for p in load_catalog()}


@dataclass
class Served:
    local: LocalStorechat
    port: int
    home: Path

    def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def ask(self, question: str) -> dict[str, Any]:
        status, body = self.post(
            "/query",
            json.dumps({"message": question}).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 200, body
        return dict(body)

    def card(self, question: str, product_id: str) -> dict[str, Any] | None:
        return next(
            (p for p in self.ask(question)["products"] if p["productId"] == product_id), None
        )

    def catalog_file(self) -> dict[str, dict[str, Any]]:
        path = self.home / "catalog.jsonl"
        if not path.is_file():
            return {}
        lines = path.read_text(encoding="utf-8").splitlines()
        return {p["productId"]: p for p in map(json.loads, lines)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    home = tmp_path_factory.mktemp("home")
    with (
        LocalStorechat(
            data_dir=home,
            webhook_secrets={"shopify": SHOPIFY_SECRET, "woocommerce": WOO_SECRET},
            store_url="https://shop.example.com",
            # The catalog tool looks for a new snapshot on every call, not every 30 s.
            env={"CATALOG_INDEX_CHECK_S": "0"},
        ) as local,
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        yield Served(local, int(server.server_address[1]), home)


def _shopify(served: Served, payload: dict[str, Any], delivery: str, **kw: str) -> tuple[int, Any]:
    body = body_of(payload)
    return served.post(
        "/webhooks/shopify", body, shopify_headers(SHOPIFY_SECRET, body, delivery=delivery, **kw)
    )


def test_a_signed_shopify_update_changes_the_price_the_next_answer_shows(served: Served) -> None:
    # Given a laptop of the store, and a shopper who sees its price
    product = SAMPLE["CMP-001"]
    question = f"How much is the {product['name']}?"
    assert served.card(question, "CMP-001")["price"] == product["price"]

    # When Shopify sends the product with a sale price, signed with the webhook's secret
    payload = shopify_product(
        8001,
        "CMP-001",
        title=product["name"],
        handle="asus-zenbook-14",
        price="849.00",
        compare_at="999.00",
        stock=3,
    )
    status, body = _shopify(served, payload, "price-1")

    # Then it is written, and the shopper's next question shows the new price on sale
    assert (status, body["status"], body["written"]) == (200, "written", ["CMP-001"])
    card = served.card(question, "CMP-001")
    assert card is not None
    assert (card["price"], card["compareAtPrice"], card["stock"]) == (849, 999, 3)
    assert card["url"] == "https://shop.example.com/products/asus-zenbook-14?variant=80011"
    assert card["platformProductId"] == "8001"
    # And the local catalog file keeps it for the next serve
    assert served.catalog_file()["CMP-001"]["price"] == 849


def test_a_forged_webhook_is_refused_with_401_and_changes_nothing(served: Served) -> None:
    # Given a phone and its price
    product = SAMPLE["MOB-001"]
    question = f"How much is the {product['name']}?"
    before = served.card(question, "MOB-001")
    assert before is not None

    # When a delivery signed with another secret claims it costs $1
    body = body_of(shopify_product(8002, "MOB-001", title=product["name"], price="1.00"))
    forged = shopify_headers("not-the-secret", body, delivery="forged-1")
    status, answer = served.post("/webhooks/shopify", body, forged)
    # and one without a signature at all
    unsigned = {k: v for k, v in forged.items() if k != "X-Shopify-Hmac-Sha256"}
    unsigned_status, _ = served.post("/webhooks/shopify", body, unsigned)

    # Then both are refused with 401 JSON, and the shopper still sees the real price
    assert (status, unsigned_status) == (401, 401)
    assert answer["error"] == "unauthorized"
    assert "nothing was written" in answer["message"]
    assert served.card(question, "MOB-001") == before
    assert "MOB-001" not in served.catalog_file() or served.catalog_file()["MOB-001"] == product


def test_a_replayed_delivery_writes_once(served: Served) -> None:
    # Given a delivery that set a price, then a newer change to another price
    product = SAMPLE["CMP-002"]
    question = f"How much is the {product['name']}?"
    first = shopify_product(
        8003, "CMP-002", title=product["name"], price="500.00", updated_at="2026-12-01T10:00:00Z"
    )
    assert _shopify(served, first, "replay-1")[1]["status"] == "written"
    newer = shopify_product(
        8003, "CMP-002", title=product["name"], price="480.00", updated_at="2026-12-01T11:00:00Z"
    )
    assert _shopify(served, newer, "replay-2")[1]["status"] == "written"

    # When the first delivery arrives again (same X-Shopify-Webhook-Id)
    status, body = _shopify(served, first, "replay-1")

    # Then it is answered 200 as a duplicate, and the price stays the newer one
    assert (status, body["status"]) == (200, "duplicate")
    assert served.card(question, "CMP-002")["price"] == 480


def test_an_update_older_than_the_catalog_is_ignored(served: Served) -> None:
    # Given the catalog holds a product's change of 11:00
    product = SAMPLE["CMP-003"]
    question = f"How much is the {product['name']}?"
    newer = shopify_product(
        8004, "CMP-003", title=product["name"], price="700.00", updated_at="2026-12-01T11:00:00Z"
    )
    assert _shopify(served, newer, "order-2")[1]["status"] == "written"

    # When the change of 10:00 arrives after it (Shopify does not deliver in order)
    older = shopify_product(
        8004, "CMP-003", title=product["name"], price="650.00", updated_at="2026-12-01T10:00:00Z"
    )
    status, body = _shopify(served, older, "order-1")

    # Then it is answered 200 stale, and the shopper sees the newer price
    assert (status, body["status"]) == (200, "stale")
    assert served.card(question, "CMP-003")["price"] == 700


def test_a_deleted_product_leaves_the_answers(served: Served) -> None:
    # Given a phone the store sells through Shopify, which a shopper is shown
    product = SAMPLE["MOB-002"]
    question = f"How much is the {product['name']}?"
    payload = shopify_product(
        8005, "MOB-002", title=product["name"], price="300.00", product_type="Smartphones"
    )
    assert _shopify(served, payload, "delete-0")[1]["status"] == "written"
    assert served.card(question, "MOB-002") is not None

    # When the store deletes it
    status, body = _shopify(served, {"id": 8005}, "delete-1", topic="products/delete")

    # Then its row is deleted, and no answer shows it
    assert (status, body["deleted"]) == (200, ["MOB-002"])
    assert served.card(question, "MOB-002") is None
    assert "MOB-002" not in served.catalog_file()

    # And a late update of it cannot bring it back
    late = _shopify(served, payload, "delete-2")
    assert late[1]["status"] == "stale"
    assert served.card(question, "MOB-002") is None


def test_a_new_product_created_in_shopify_is_found_by_shoppers(served: Served) -> None:
    # When Shopify sends a product the catalog does not hold
    payload = shopify_product(8006, "ZEP-LAPTOP-14", title="Zephyr Aero 14", price="1,199.00")
    payload["variants"][0]["price"] = "1199.00"
    status, body = _shopify(served, payload, "create-1", topic="products/create")

    # Then a shopper asking for it is shown it, with its price, once the catalog tool has
    # the new search snapshot (it loads one it finds after the answer it was found for,
    # as deployed)
    assert (status, body["written"]) == (200, ["ZEP-LAPTOP-14"])
    card = None
    for _ in range(20):
        card = served.card("Do you have the Zephyr Aero 14?", "ZEP-LAPTOP-14")
        if card is not None:
            break
        time.sleep(0.2)
    assert card is not None
    assert card["price"] == 1199


def test_a_malformed_body_gets_400_json_and_writes_nothing(served: Served) -> None:
    before = served.catalog_file()
    for raw in (b"not json", b"[1, 2]", body_of({"title": "no id"}), body_of({"id": {"x": 1}})):
        status, body = served.post(
            "/webhooks/shopify", raw, shopify_headers(SHOPIFY_SECRET, raw, delivery="bad")
        )
        assert status == 400, raw
        assert body["error"] == "invalid_request"
        assert body["message"].startswith("not a shopify product")
    assert served.catalog_file() == before


def test_a_woocommerce_sale_shows_on_the_card_and_its_ping_is_answered(served: Served) -> None:
    # Given WooCommerce's ping when the webhook is created (unsigned, a form body)
    status, body = served.post(
        "/webhooks/woocommerce",
        b"webhook_id=17",
        {"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert (status, body["status"]) == (200, "ping")

    # When a simple product goes on sale
    product = SAMPLE["MOB-003"]
    payload = woocommerce_product(
        9001, "MOB-003", name=product["name"], regular="600.00", sale="550.00", stock=4
    )
    raw = body_of(payload)
    status, body = served.post(
        "/webhooks/woocommerce", raw, woocommerce_headers(WOO_SECRET, raw, delivery="w-sale")
    )

    # Then the shopper sees the sale price, the price before it, and the product's page
    assert (status, body["written"]) == (200, ["MOB-003"])
    card = served.card(f"How much is the {product['name']}?", "MOB-003")
    assert card is not None
    assert (card["price"], card["compareAtPrice"], card["stock"]) == (550, 600, 4)
    assert card["url"] == payload["permalink"]


def test_a_platform_without_a_secret_is_not_served() -> None:
    # Given webhooks started without WOOCOMMERCE_WEBHOOK_SECRET (moto is process-wide, so
    # a second served system cannot run beside the module's: its router alone)
    webhooks = LocalWebhooks(None, None, secrets={"shopify": SHOPIFY_SECRET})

    # When a WooCommerce delivery arrives
    answer = webhooks.receive("woocommerce", {}, b"{}")

    # Then its route answers 404 with the variable to set
    assert answer.status == 404
    assert "WOOCOMMERCE_WEBHOOK_SECRET" in answer.body["message"]
