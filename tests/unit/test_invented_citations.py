"""A sentence that cites a real and an invented product keeps what can be kept.

Real products here are in the ledger; ``CMP-999`` and ``CMP-998`` are products no tool
returned. The shopper reads the answer as these tests assert it.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, cited_products, compose
from shared.products.ledger import products_of

REAL = ["CMP-023", "CMP-040", "CMP-050", "CMP-008", "CMP-002"]
RECORDS: list[dict[str, Any]] = [{"productId": pid, "name": pid} for pid in REAL]
LEDGER = products_of(RECORDS)


def shopper_reads(answer: str) -> str:
    text, _, _ = cited_products(answer, LEDGER)
    return text


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        (
            "I'd suggest the ROG Strix [CMP-040] or the Legion 5 [CMP-999].",
            "I'd suggest the ROG Strix [CMP-040].",
        ),
        (
            "The HP 14 [CMP-023] weighs 1.4 kg, and the Dell [CMP-998] weighs 1.5 kg.",
            "The HP 14 [CMP-023] weighs 1.4 kg.",
        ),
        (
            "The HP 14 [CMP-023] costs $1,299, the Zephyr [CMP-999] $1,099.",
            "The HP 14 [CMP-023] costs $1,299.",
        ),
        (
            "The ROG [CMP-040], the Legion [CMP-999] and the Omen [CMP-050] all have RTX graphics.",
            "The ROG [CMP-040] and the Omen [CMP-050] all have RTX graphics.",
        ),
        (
            "The ROG [CMP-040], the Legion [CMP-999], and the Omen [CMP-050] have RTX graphics.",
            "The ROG [CMP-040] and the Omen [CMP-050] have RTX graphics.",
        ),
        (
            "Good picks: the ROG [CMP-040], the Omen [CMP-050], and the Legion [CMP-999].",
            "Good picks: the ROG [CMP-040] and the Omen [CMP-050].",
        ),
        (
            "Consider the HP [CMP-023], the Dell [CMP-008], the Acer [CMP-002] or the Blaze "
            "[CMP-998].",
            "Consider the HP [CMP-023], the Dell [CMP-008] or the Acer [CMP-002].",
        ),
        (
            "The Zephyr [CMP-999] is the lightest; the HP 14 [CMP-023] is the cheapest.",
            "The HP 14 [CMP-023] is the cheapest.",
        ),
        (
            "The HP 14 [CMP-023] is the cheapest; the Zephyr [CMP-999] is the lightest.",
            "The HP 14 [CMP-023] is the cheapest.",
        ),
        (
            "The HP 14 [CMP-023] (or the lighter Zephyr [CMP-999]) suits school.",
            "The HP 14 [CMP-023] suits school.",
        ),
        (
            "I'd choose the HP 14 [CMP-023] for school and the Dell [CMP-998] for gaming.",
            "I'd choose the HP 14 [CMP-023] for school.",
        ),
        (
            "- **Legion 5i** [CMP-008], or the **Legion Pro 7i** [CMP-777] if you can stretch.",
            "- **Legion 5i** [CMP-008].",
        ),
        (
            "The HP 14 [CMP-023], like the Dell [CMP-998], weighs 1.4 kg.",
            "The HP 14 [CMP-023] weighs 1.4 kg.",
        ),
    ],
)
def test_the_invented_products_clause_goes_and_the_real_one_stays(answer: str, kept: str) -> None:
    # Given a sentence that cites a real product and, after a clause boundary, an invented one
    # When the response is built
    # Then the shopper still reads the sentence about the real product
    assert shopper_reads(answer) == kept


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        (
            "Ich empfehle das HP 14 [CMP-023] oder das Zephyr Book [CMP-999].",
            "Ich empfehle das HP 14 [CMP-023].",
        ),
        (
            "Das HP 14 [CMP-023] wiegt 1,4 kg, das Zephyr [CMP-999] nur 1,1 kg.",
            "Das HP 14 [CMP-023] wiegt 1,4 kg.",
        ),
        (
            "Je recommande le HP 14 [CMP-023] ou le Zephyr Book [CMP-999].",
            "Je recommande le HP 14 [CMP-023].",
        ),
        (
            "Le HP 14 [CMP-023] pèse 1,4 kg et le Zephyr [CMP-999] pèse 1,1 kg.",
            "Le HP 14 [CMP-023] pèse 1,4 kg.",
        ),
        (
            "HP 14 [CMP-023]、Zephyr [CMP-999]、Dell [CMP-008]がおすすめです。",
            "HP 14 [CMP-023]、Dell [CMP-008]がおすすめです。",
        ),
    ],
    ids=["de-or", "de-comma", "fr-or", "fr-and", "ja-list"],
)
def test_clauses_are_found_in_other_languages(answer: str, kept: str) -> None:
    assert shopper_reads(answer) == kept


@pytest.mark.parametrize(
    "answer",
    [
        # The two share what follows: "are both good" was said of the invented one too.
        "The HP 14 [CMP-023] and the Dell [CMP-998] are good for school.",
        "Both the HP 14 [CMP-023] and the Dell [CMP-998] run Windows.",
        "Choose between the HP 14 [CMP-023] and the Zephyr [CMP-999].",
        # The invented one first: what stands before it may be the sentence's verb.
        "The Legion [CMP-999] or the ROG [CMP-040] would do.",
        "For school, I'd pick the Zephyr [CMP-999] or the HP 14 [CMP-023].",
        # The two in one clause, no boundary between them.
        "The HP 14 [CMP-023] is cheaper than the Zephyr [CMP-999].",
        "HP 14 [CMP-023]とZephyr [CMP-999]がおすすめです。",
        # An aside that names both.
        "Great value (the HP 14 [CMP-023] beats the Zephyr [CMP-999]).",
    ],
)
def test_without_a_clause_to_cut_the_whole_sentence_goes(answer: str) -> None:
    # Given a sentence whose words about the real product depend on the invented one
    # When the response is built
    # Then the sentence goes whole, the real product's card with it: nothing half-true stays
    text, products, unknown = cited_products(answer + " Ask me about prices.", LEDGER)
    assert text == "Ask me about prices."
    assert products == [] and unknown


def test_a_mixed_bullet_keeps_its_real_product_and_an_invented_bullet_goes() -> None:
    text, products, unknown = cited_products(
        "Options:\n- The HP 14 [CMP-023] or the Zephyr [CMP-999]\n- The Blaze [CMP-998]: light",
        LEDGER,
    )
    assert text == "Options:\n- The HP 14 [CMP-023]"
    assert [p.productId for p in products] == ["CMP-023"]
    assert unknown == ["CMP-999", "CMP-998"]


@pytest.mark.parametrize(
    ("answer", "kept"),
    [
        (
            "I'd pick one of these:\n- Zephyr Book [CMP-999]\n- Blaze 15 [CMP-998]\n\n"
            "All of our laptops ship free.",
            "All of our laptops ship free.",
        ),
        (
            "I found two. I'd pick one of these:\n\n1. Zephyr Book [CMP-999]\n\n2. Blaze [CMP-998]",
            "I found two.",
        ),
        (
            "My picks:\n\nFor school:\n- Zephyr [CMP-999]\n- Blaze [CMP-998]\n\nFor gaming:\n"
            "- ROG Strix [CMP-040]",
            "My picks:\n\nFor gaming:\n- ROG Strix [CMP-040]",
        ),
        (
            "Here are my picks:\n\n**For school:**\n- Zephyr [CMP-999]\n\n### For gaming\n"
            "- Blaze [CMP-998]\n\nAsk me for more.",
            "Ask me for more.",
        ),
        ("Ma sélection :\n- Zephyr [CMP-999]\n\nBonne journée !", "Bonne journée !"),
        ("おすすめは次のとおりです\uff1a\n・Zephyr [CMP-999]\n- Blaze [CMP-998]", ""),
        (
            "Meine Empfehlung:\nDas Zephyr [CMP-999] ist leicht.\n\nDas HP 14 [CMP-023] ist "
            "günstig.",
            "Das HP 14 [CMP-023] ist günstig.",
        ),
    ],
    ids=["list", "numbered", "nested", "markdown", "french", "japanese", "paragraph"],
)
def test_no_line_announces_a_list_that_is_no_longer_there(answer: str, kept: str) -> None:
    # Given an answer that announces a list (or a paragraph) of invented products
    # When the response is built
    # Then the announcement goes with what it announced
    assert shopper_reads(answer) == kept


def test_an_announced_list_that_keeps_an_item_keeps_its_announcement() -> None:
    answer = "I'd pick one of these:\n\n- Zephyr Book [CMP-999]\n- HP 14 [CMP-023]"
    assert shopper_reads(answer) == "I'd pick one of these:\n\n- HP 14 [CMP-023]"


def test_a_list_emptied_by_the_fact_check_loses_its_announcement_too() -> None:
    # Given the sold-out iMac said to be in stock, alone in an announced list
    from shared.products.catalog_data import load_catalog

    imac = next(p for p in load_catalog() if p["productId"] == "CMP-014")
    event = ComposeInput(
        sessionId="s-1",
        outcome="answered",
        answer="In stock today:\n- The iMac 24 [CMP-014] is in stock.\n\nAsk me for more.",
        products=[imac],
    )
    # When the response is built
    body = compose(event)
    # Then the list and its announcement are gone, and the rest stays
    assert body.answer == "Ask me for more."
    assert [(c.field, c.dropped) for c in body.corrections] == [("stock", True)]
