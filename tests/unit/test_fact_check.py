"""Facts in the model's answer, checked against the ledger records of the products they cite."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.facts import TRACE_STEP, Correction, check_facts
from compose_response.logic import MAX_CORRECTIONS, ComposeInput, compose
from shared.products.catalog_data import load_catalog
from shared.products.ledger import products_of

CATALOG = {p["productId"]: p for p in load_catalog()}
LEDGER = {record.productId: record for record in products_of(CATALOG.values())}
HP_14 = "CMP-023"  # $349.00, 8 GB RAM, 256 GB, 1.4 kg, 10 h, 14", Windows 11 Home, 52 in stock


def check(answer: str, *ids: str) -> tuple[str, list[Correction]]:
    """The answer checked against a ledger holding ``ids`` (every catalog product if none)."""
    ledger = {pid: LEDGER[pid] for pid in ids} if ids else LEDGER
    return check_facts(answer, ledger)


def said_and_record(corrections: list[Correction]) -> list[tuple[str, str, str, str]]:
    return [(c.productId, c.field, c.said, c.record) for c in corrections]


def body(answer: str, *ids: str) -> dict[str, Any]:
    products = [CATALOG[pid] for pid in ids]
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=products)
    ).model_dump()


# -- the example ------------------------------------------------------------------------


def test_a_wrong_weight_and_price_of_a_real_product_are_corrected_from_its_record() -> None:
    # Given the model's answer about the HP 14, whose record says 1.4 kg and $349
    answer = "The HP 14 [CMP-023] weighs 1.1 kg and costs $299."

    # When the response is built
    out = body(answer, HP_14)

    # Then the answer states the record's values, in the units the model used
    assert out["answer"] == "The HP 14 [CMP-023] weighs 1.4 kg and costs $349."
    # And each correction says what the model said and what the record says
    assert [
        (c["productId"], c["field"], c["said"], c["record"], c["text"]) for c in out["corrections"]
    ] == [
        (HP_14, "weightKg", "1.1 kg", "1.4 kg", "1.4 kg"),
        (HP_14, "price", "$299", "$349.00", "$349"),
    ]
    # And each says where its corrected text is, for the page to mark
    for c in out["corrections"]:
        assert out["answer"][c["start"] : c["start"] + len(c["text"])] == c["text"]
    # And the trace lists them in one line
    assert out["trace"][-1]["tool"] == TRACE_STEP
    assert "said '1.1 kg', catalog 1.4 kg" in out["trace"][-1]["summary"]
    assert [p["productId"] for p in out["products"]] == [HP_14]


def test_an_answer_with_only_true_facts_has_no_corrections_and_no_trace_line() -> None:
    out = body("The HP 14 [CMP-023] weighs 1.4 kg and costs $349.", HP_14)
    assert out["corrections"] == [] and out["trace"] == []
    assert out["answer"] == "The HP 14 [CMP-023] weighs 1.4 kg and costs $349."


# -- every field --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "corrected", "field", "record"),
    [
        ("[CMP-023] costs $299.", "[CMP-023] costs $349.", "price", "$349.00"),
        ("[CMP-023] has 16 GB RAM.", "[CMP-023] has 8 GB RAM.", "ramGb", "8 GB"),
        ("[CMP-023] has a 512 GB SSD.", "[CMP-023] has a 256 GB SSD.", "storageGb", "256 GB"),
        ("[CMP-001] has 2 TB of storage.", "[CMP-001] has 1 TB of storage.", "storageGb", "1 TB"),
        ("[CMP-023] weighs 1.1 kg.", "[CMP-023] weighs 1.4 kg.", "weightKg", "1.4 kg"),
        (
            "[CMP-023] has a 15-hour battery.",
            "[CMP-023] has a 10-hour battery.",
            "batteryHours",
            "10 h",
        ),
        (
            "[MOB-001] has a 4,000 mAh battery.",
            "[MOB-001] has a 3,561 mAh battery.",
            "batteryMah",
            "3,561 mAh",
        ),
        (
            "[CMP-023] has a 15.6-inch screen.",
            "[CMP-023] has a 14-inch screen.",
            "screenInches",
            "14 inches",
        ),
        ("[MOB-001] has a 12 MP camera.", "[MOB-001] has a 48 MP camera.", "cameraMp", "48 MP"),
        ("[MOB-001] weighs 200 g.", "[MOB-001] weighs 170 g.", "weightG", "170 g"),
        (
            "[CMP-023] runs macOS.",
            "[CMP-023] runs Windows 11 Home.",
            "os",
            "Windows 11 Home",
        ),
        (
            "[CMP-023] comes with Windows 11 Pro.",
            "[CMP-023] comes with Windows 11 Home.",
            "os",
            "Windows 11 Home",
        ),
        (
            "Animal Farm [BK-011] by Aldous Huxley is short.",
            "Animal Farm [BK-011] by George Orwell is short.",
            "author",
            "George Orwell",
        ),
        (
            "Jane Eyre [BK-013] by Emily Brontë is a classic.",
            "Jane Eyre [BK-013] by Charlotte Brontë is a classic.",
            "author",
            "Charlotte Brontë",
        ),
        (
            "Animal Farm [BK-011] was published in 1946.",
            "Animal Farm [BK-011] was published in 1945.",
            "year",
            "1945",
        ),
        (
            "Animal Farm [BK-011] has 400 pages.",
            "Animal Farm [BK-011] has 112 pages.",
            "pages",
            "112 pages",
        ),
    ],
)
def test_each_checkable_field_is_corrected_from_the_record(
    answer: str, corrected: str, field: str, record: str
) -> None:
    text, corrections = check(answer)
    assert text == corrected
    assert [(c.field, c.record, c.dropped) for c in corrections] == [(field, record, False)]


@pytest.mark.parametrize(
    ("answer", "record"),
    [
        ("The iMac [CMP-014] is in stock and ships today.", "out of stock"),
        ("The HP 14 [CMP-023] is out of stock right now.", "in stock (52)"),
        ("Das iMac [CMP-014] ist vorrätig.", "out of stock"),
        ("iMac [CMP-014] は在庫ありです。", "out of stock"),
    ],
)
def test_a_wrong_stock_claim_cannot_be_reworded_so_its_sentence_is_removed(
    answer: str, record: str
) -> None:
    # Given an answer whose first sentence gets stock wrong, then a sentence without facts
    text, corrections = check(answer + " Ask me anything else.")
    # Then that sentence is gone, and the correction says it was removed
    assert text == "Ask me anything else."
    assert [(c.field, c.record, c.dropped, c.text, c.start) for c in corrections] == [
        ("stock", record, True, None, None)
    ]


def test_a_removed_sentence_takes_its_product_card_with_it() -> None:
    out = body("The iMac [CMP-014] is in stock. The HP 14 [CMP-023] is too.", "CMP-014", HP_14)
    assert out["answer"] == "The HP 14 [CMP-023] is too."
    assert [p["productId"] for p in out["products"]] == [HP_14]
    assert out["corrections"][0]["dropped"] is True


def test_a_wrong_bullet_is_removed_whole() -> None:
    text, _ = check("Options:\n- iMac [CMP-014]: in stock. Great screen.\n- HP 14 [CMP-023]: $349")
    assert text == "Options:\n- HP 14 [CMP-023]: $349"


# -- the same fact in other units and words -------------------------------------------------------


@pytest.mark.parametrize(
    "fact",
    [
        "$349",
        "$349.00",
        "349 dollars",
        "US$349",
        "USD 349",
        "$350",
        "1.4 kg",
        "1400 g",
        "1,400 g",
        "3.1 lb",
        "about 1.5 kg",
        "14-inch",
        '14"',
        "14 inches",
        "8 GB RAM",
        "256GB SSD",
        "0.25 TB SSD",
        "10 hours of battery life",
        "Windows 11",
        "Windows",
        "in stock",
    ],
)
def test_a_true_fact_in_any_unit_is_left_alone(fact: str) -> None:
    answer = f"The HP 14 [CMP-023]: {fact}."
    assert check(answer) == (answer, [])


@pytest.mark.parametrize(
    ("fact", "corrected"),
    [
        ("299 dollars", "349 dollars"),
        ("$299.99", "$349.00"),
        ("1100 g", "1400 g"),
        ("2.5 lb", "3.1 lb"),
        ("13-inch", "14-inch"),
        ("12 Zoll", "14 Zoll"),
        ("12インチ", "14インチ"),
        ("about 2 kg", "about 1.4 kg"),
    ],
)
def test_a_wrong_fact_is_rewritten_in_the_unit_the_model_used(fact: str, corrected: str) -> None:
    text, corrections = check(f"The HP 14 [CMP-023]: {fact}.")
    assert text == f"The HP 14 [CMP-023]: {corrected}."
    assert [c.said for c in corrections] == [fact.removeprefix("about ")]


def test_a_screen_size_may_be_its_class() -> None:
    # A 15.6-inch laptop is a "15-inch" one in the shops, and a 16-inch one rounded.
    for fact in ("15-inch", "16-inch", "15.6-inch"):
        answer = f"The Vivobook 15 [CMP-002] has a {fact} screen."
        assert check(answer) == (answer, [])


# -- which product a fact is about ----------------------------------------------------------------


def test_facts_in_a_sentence_citing_two_products_belong_to_the_product_they_describe() -> None:
    # Given one sentence with a wrong fact about each of two products
    answer = (
        "The HP 14 [CMP-023] weighs 1.1 kg, while the Dell Inspiron 14 [CMP-008] weighs 1.9 kg."
    )
    text, corrections = check(answer)
    # Then each is corrected from its own product's record
    assert text == (
        "The HP 14 [CMP-023] weighs 1.4 kg, while the Dell Inspiron 14 [CMP-008] weighs 1.54 kg."
    )
    assert said_and_record(corrections) == [
        (HP_14, "weightKg", "1.1 kg", "1.4 kg"),
        ("CMP-008", "weightKg", "1.9 kg", "1.54 kg"),
    ]


def test_a_fact_before_a_citation_and_in_brackets_after_it_belongs_to_it() -> None:
    text, _ = check(
        "The $299 HP 14 [CMP-023] (16 GB RAM, 1.1 kg) and the Dell [CMP-008] (8 GB RAM, $649)."
    )
    assert text == (
        "The $349 HP 14 [CMP-023] (8 GB RAM, 1.4 kg) and the Dell [CMP-008] (8 GB RAM, $649)."
    )


def test_a_fact_that_could_be_about_either_product_is_not_corrected() -> None:
    # "1.1 kg" sits in the one clause joining both products: unsure, so left alone.
    answer = "The 1.4 kg HP 14 [CMP-023] beats the 1.1 kg Dell [CMP-008]."
    assert check(answer) == (answer, [])


def test_a_fact_about_a_product_no_tool_returned_is_dropped_not_checked() -> None:
    # Given a sentence about a product the tools never returned, with a wrong weight
    out = body("The Zephyr [CMP-999] weighs 1.1 kg. The HP 14 [CMP-023] costs $349.", HP_14)
    # Then the sentence goes with its citation, and nothing was "corrected" in it
    assert out["answer"] == "The HP 14 [CMP-023] costs $349."
    assert out["unverifiedCitations"] == ["CMP-999"] and out["corrections"] == []


def test_facts_only_the_record_can_check_are_checked() -> None:
    # A field the record does not have, or a sentence without a citation, is left alone.
    answer = "Animal Farm [BK-011] weighs 300 g. Laptops weigh 1.1 kg."
    assert check(answer) == (answer, [])


# -- numbers that are not the product's value ---------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "Your budget is $300, and the HP 14 [CMP-023] costs $349.",
        "The HP 14 [CMP-023] is under $400.",
        "The HP 14 [CMP-023] is $300 cheaper than the Dell [CMP-008].",
        "The HP 14 [CMP-023] weighs 200 g less than most.",
        "The HP 14 [CMP-023] doesn't weigh 1.1 kg, it weighs 1.4 kg.",
        "If you need 16 GB RAM, the HP 14 [CMP-023] is not for you.",
        "The HP 14 [CMP-023] costs $349 plus $9.99 shipping.",
        "The HP 14 [CMP-023] ships for $20.",
        "The HP 14 [CMP-023] plus shipping comes to $358.99.",
        "Laptops from $300-$400 include the HP 14 [CMP-023].",
        "The HP 14 [CMP-023] charges to 50% in 1 hour.",
        "The iPhone 16 [MOB-001] has a 48 MP main and a 12 MP ultra-wide camera.",
        "The iPhone 16 [MOB-001] has a 12 MP front camera.",
        "The RTX 4070 in the Alienware m16 R2 [CMP-009] has 8 GB of VRAM.",
        "Unlike Windows laptops, the MacBook Air 13 [CMP-011] runs macOS.",
        "The HP 14 [CMP-023] has 8GB/512GB.",
        "The HP 14 [CMP-023] has 8 GB RAM, expandable to 16 GB RAM.",
        "The HP 14 [CMP-023] costs $29/month over a year.",
        "Harry Potter [BK-001] was published in the US in 1998.",
        "The 2001 film of Harry Potter [BK-001] is fun.",
    ],
)
def test_a_number_that_is_not_the_products_value_is_left_alone(answer: str) -> None:
    assert check(answer) == (answer, [])


@pytest.mark.parametrize(
    "answer",
    [
        "The HP 14 [CMP-023] is a good pick even for macOS fans.",
        "The HP 14 [CMP-023] beats the Chrome OS laptops on price.",
        "The HP 14 [CMP-023] suits Android users who want a laptop.",
    ],
)
def test_an_operating_system_that_names_other_devices_is_not_the_products(answer: str) -> None:
    # Given an answer about the HP 14 (Windows 11 Home) that names another OS's devices
    # When its facts are checked
    # Then the sentence stays as written: the other OS is no claim about the HP 14
    assert check(answer, HP_14) == (answer, [])


# -- other languages ------------------------------------------------------------------------------


def test_a_german_answer_is_corrected_with_its_decimal_comma_and_its_euros_in_dollars() -> None:
    # Euros are not the store's currency (tests/unit/test_prices.py has the rule)
    text, corrections = check("Das HP 14 [CMP-023] wiegt 1,1 kg und kostet 299 €.")
    assert text == "Das HP 14 [CMP-023] wiegt 1,4 kg und kostet 349 $."
    assert said_and_record(corrections) == [
        (HP_14, "weightKg", "1,1 kg", "1.4 kg"),
        (HP_14, "price", "299 €", "$349.00"),
    ]


@pytest.mark.parametrize(
    ("answer", "now"),
    [
        (
            "The HP 14 [CMP-023] is $299 plus shipping.",
            "The HP 14 [CMP-023] is $349 plus shipping.",
        ),
        (
            "The HP 14 [CMP-023] is $299 before delivery.",
            "The HP 14 [CMP-023] is $349 before delivery.",
        ),
        ("The HP 14 [CMP-023] is $299 + shipping.", "The HP 14 [CMP-023] is $349 + shipping."),
        (
            "The HP 14 [CMP-023] before shipping is $299.",
            "The HP 14 [CMP-023] before shipping is $349.",
        ),
        (
            "The HP 14 [CMP-023] is $299 plus shipping of $9.99.",
            "The HP 14 [CMP-023] is $349 plus shipping of $9.99.",
        ),
        (
            "Das HP 14 [CMP-023] kostet 299 $ zzgl. Versand.",
            "Das HP 14 [CMP-023] kostet 349 $ zzgl. Versand.",
        ),
    ],
)
def test_a_price_said_with_shipping_left_out_is_the_products_and_is_checked(
    answer: str, now: str
) -> None:
    # Given a wrong price said "plus shipping": shipping is not the price, the product's is
    text, corrections = check(answer, HP_14)
    # Then the shopper reads the catalog's price, with the shipping left as said
    assert text == now
    assert said_and_record(corrections)[0][:2] == (HP_14, "price")


def test_a_german_answer_in_dollars_has_its_price_corrected() -> None:
    text, _ = check(
        "Das HP 14 [CMP-023] kostet 299 Dollar, hat 16 GB Arbeitsspeicher, eine 512-GB-SSD "
        "und einen Akku für bis zu 12 Stunden."
    )
    assert text == (
        "Das HP 14 [CMP-023] kostet 349 Dollar, hat 8 GB Arbeitsspeicher, eine 256-GB-SSD "
        "und einen Akku für bis zu 10 Stunden."
    )


def test_a_german_price_with_thousands_dots_is_read_and_written_that_way() -> None:
    text, _ = check("Das Alienware m16 R2 [CMP-009] kostet 1.899,00 $.")
    assert text == "Das Alienware m16 R2 [CMP-009] kostet 2.099,00 $."


def test_a_japanese_answer_is_corrected() -> None:
    text, corrections = check("HP 14 [CMP-023] の重さは1.1kgで、価格は299ドルです。")
    assert text == "HP 14 [CMP-023] の重さは1.4kgで、価格は349ドルです。"
    assert said_and_record(corrections) == [
        (HP_14, "weightKg", "1.1kg", "1.4 kg"),
        (HP_14, "price", "299ドル", "$349.00"),
    ]


def test_japanese_full_width_numbers_and_camera_pixels_are_read() -> None:
    text, _ = check("iPhone 16 [MOB-001] は１２００万画素のカメラで、重さは２００ｇです。")
    assert text == "iPhone 16 [MOB-001] は４８００万画素のカメラで、重さは１７０ｇです。"


# -- where the corrections are ---------------------------------------------------------------------


def test_each_correction_points_at_its_text_after_other_sentences_were_removed() -> None:
    out = body(
        "The iMac [CMP-014] is in stock.\n\n"
        "- HP 14 [CMP-023]: 1.1 kg, $299\n"
        "- Zephyr [X-999]: 1 kg",
        "CMP-014",
        HP_14,
    )
    assert out["answer"] == "- HP 14 [CMP-023]: 1.4 kg, $349"
    shown = [c for c in out["corrections"] if not c["dropped"]]
    assert [out["answer"][c["start"] :][: len(c["text"])] for c in shown] == ["1.4 kg", "$349"]


def test_a_correction_cut_off_with_a_long_answer_has_no_position() -> None:
    answer = "The HP 14 [CMP-023] is fine. " * 200 + "It [CMP-023] weighs 1.1 kg."
    out = compose(
        ComposeInput(sessionId="s-1", outcome="truncated", answer=answer, products=[CATALOG[HP_14]])
    ).model_dump()
    assert out["corrections"][0]["text"] == "1.4 kg" and out["corrections"][0]["start"] is None


def test_a_body_lists_a_bounded_number_of_corrections_but_corrects_every_fact() -> None:
    answer = "The HP 14 [CMP-023]: " + ", ".join(["$299"] * (MAX_CORRECTIONS + 10)) + "."
    out = body(answer, HP_14)
    assert "$299" not in out["answer"] and out["answer"].count("$349") == MAX_CORRECTIONS + 10
    assert len(out["corrections"]) == MAX_CORRECTIONS
    assert out["trace"][-1]["summary"].startswith(f"corrected {MAX_CORRECTIONS + 10} facts")


# -- the whole catalog ---------------------------------------------------------------------------


def _statement(product: dict[str, Any], scale: float) -> str:
    """A sentence stating a product's specs, each multiplied by ``scale``."""
    specs = product["specs"]
    parts = [
        f"The {product['brand']} [{product['productId']}] costs ${product['price'] * scale:,.2f}"
    ]
    if "ramGb" in specs:
        ram, storage = specs["ramGb"] * scale, specs["storageGb"] * scale
        parts.append(f"has {ram:g} GB RAM and {storage:g} GB of storage")
    if specs.get("screenInches"):
        parts.append(f"a {specs['screenInches'] * scale:g}-inch screen")
    if "weightKg" in specs:
        parts.append(f"weighs {specs['weightKg'] * scale:g} kg")
    if "weightG" in specs:
        parts.append(f"weighs {specs['weightG'] * scale:g} g")
    if "batteryHours" in specs:
        parts.append(f"and its battery lasts {specs['batteryHours'] * scale:g} hours")
    if "cameraMp" in specs:
        parts.append(f"a {specs['cameraMp'] * scale:g} MP camera")
    if "pages" in specs:
        parts.append(f"{specs['pages'] * scale:g} pages")
    return ", ".join(parts) + "."


@pytest.mark.parametrize("pid", sorted(CATALOG))
def test_every_product_stated_truly_is_left_alone_and_stated_wrongly_is_put_right(pid: str) -> None:
    product = CATALOG[pid]
    true = _statement(product, 1)
    assert check(true, pid) == (true, [])
    text, corrections = check(_statement(product, 2), pid)
    assert corrections and all(not c.dropped for c in corrections)
    assert check(text, pid) == (text, [])
