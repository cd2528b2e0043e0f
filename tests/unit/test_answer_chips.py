"""A processor or graphics chip said of a product is its record's ("Core i9-13900H" of a
Core Ultra 7 155H is corrected in place), as its operating system is."""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_under_heading import HP, IMAC, XPS

LAPTOPS: list[dict[str, Any]] = [
    {
        **XPS,
        "specs": {**XPS["specs"], "cpu": "Intel Core Ultra 7 155H", "gpu": "Intel Arc Graphics"},
    },
    {
        **IMAC,
        "specs": {**IMAC["specs"], "cpu": "Apple M3 (8-core CPU)", "gpu": "Apple M3 8-core GPU"},
    },
    {**HP, "specs": {**HP["specs"], "cpu": "Intel Core i3-1215U", "gpu": "Intel UHD Graphics"}},
    {
        "productId": "MOB-001",
        "name": "Samsung Galaxy S24",
        "brand": "Samsung",
        "category": "MOBILE",
        "price": 799.0,
        "stock": 3,
        "specs": {"chip": "Snapdragon 8 Gen 3 for Galaxy"},
    },
    {
        "productId": "MOB-002",
        "name": "Apple iPhone 16 Pro",
        "brand": "Apple",
        "category": "MOBILE",
        "price": 999.0,
        "stock": 4,
        "specs": {"chip": "Apple A18 Pro"},
    },
    {
        "productId": "CMP-030",
        "name": "ASUS ROG Strix G16",
        "brand": "ASUS",
        "category": "COMPUTERS",
        "price": 1599.0,
        "stock": 2,
        "specs": {"cpu": "Intel Core i7-13650HX", "gpu": "NVIDIA GeForce RTX 4060 Laptop GPU"},
    },
]


def shown(answer: str) -> ResponseBody:
    return compose(
        ComposeInput(sessionId="s-1", outcome="answered", answer=answer, products=LAPTOPS)
    )


@pytest.mark.parametrize(
    ("said", "now"),
    [
        (
            "The Dell XPS 13 [CMP-005] has a Core i9-13900H and an RTX 4050.",
            "The Dell XPS 13 [CMP-005] has a Core Ultra 7 155H and an Arc Graphics.",
        ),
        # the article made to fit, the generation and model number with it, "graphics" once
        ("The Apple iMac 24 [CMP-014] has a Core i7.", "The Apple iMac 24 [CMP-014] has an M3."),
        ("The HP 14 [CMP-023] has a 13th-gen Core i5.", "The HP 14 [CMP-023] has a Core i3-1215U."),
        ("The HP 14 [CMP-023] has Iris Xe graphics.", "The HP 14 [CMP-023] has UHD graphics."),
        # a model number with no "Core" before it; the base chip of a variant's
        (
            "The ASUS ROG Strix G16 [CMP-030] has an i9-14900HX.",
            "The ASUS ROG Strix G16 [CMP-030] has a Core i7-13650HX.",
        ),
        (
            "The Apple iPhone 16 Pro [MOB-002] has the A18 chip.",
            "The Apple iPhone 16 Pro [MOB-002] has the A18 Pro chip.",
        ),
        # under its heading, in a table
        (
            "### Dell XPS 13 [CMP-005]\n- Processor: Core i9-13900H\n- Graphics: RTX 4050",
            "### Dell XPS 13 [CMP-005]\n- Processor: Core Ultra 7 155H\n- Graphics: Arc Graphics",
        ),
        (
            "The Apple iMac 24 [CMP-014] has the M3 Pro chip.",
            "The Apple iMac 24 [CMP-014] has the M3 chip.",
        ),
        (
            "The HP 14 [CMP-023] (Core i5-1335U, 8 GB RAM) is cheap.",
            "The HP 14 [CMP-023] (Core i3-1215U, 8 GB RAM) is cheap.",
        ),
        (
            "The ASUS ROG Strix G16 [CMP-030] pairs a Ryzen 9 with an RTX 4070.",
            "The ASUS ROG Strix G16 [CMP-030] pairs a Core i7-13650HX with a GeForce RTX 4060.",
        ),
        (
            "The Samsung Galaxy S24 [MOB-001] runs on a Tensor G4.",
            "The Samsung Galaxy S24 [MOB-001] runs on a Snapdragon 8 Gen 3 for Galaxy.",
        ),
    ],
)
def test_a_wrong_chip_is_corrected_in_place(said: str, now: str) -> None:
    # Given a product said to have a processor or graphics chip its record does not list
    body = shown(said)
    # Then the shopper reads the record's chip, marked as corrected
    assert body.answer == now
    assert body.corrections and all(c.field in ("cpu", "gpu", "chip") for c in body.corrections)


@pytest.mark.parametrize(
    "answer",
    [
        # the record's, said in part
        "The Dell XPS 13 [CMP-005] runs a Core Ultra 7 with Arc graphics.",
        "The Apple iMac 24 [CMP-014] has the M3 chip.",
        "The HP 14 [CMP-023] has an Intel Core i3.",
        "The ASUS ROG Strix G16 [CMP-030] has an RTX 4060 and a Core i7.",
        "The Samsung Galaxy S24 [MOB-001] runs on a Snapdragon 8 Gen 3.",
        "The Apple iPhone 16 Pro [MOB-002] has the A18 Pro chip.",
        "The ASUS ROG Strix G16 [CMP-030] has an i7-13650HX.",
        "The HP 14 [CMP-023] has a 12th Gen Intel Core i3-1215U.",
        # advice, another product's, a comparison, an upgrade, what it lacks
        "The HP 14 [CMP-023] is fine for browsing, but for gaming you'd want at least a Core i5.",
        "The Dell XPS 13 [CMP-005] is a Windows alternative to the MacBook Air M3.",
        "The Dell XPS 13 [CMP-005] outperforms the HP's Core i3.",
        "The HP 14 [CMP-023] is configurable with a Core i7.",
        "The Dell XPS 13 [CMP-005] lacks an RTX 4060.",
        "Der Apple iMac 24 [CMP-014] ist etwa so schnell wie ein M2 Pro.",
        # an M.2 drive is no chip
        "The Dell XPS 13 [CMP-005] has a 512 GB M2 SSD.",
        # another product's, or chips in general
        "The HP 14 [CMP-023] has a Core i3, slower than the Core i7 in most laptops.",
        "The Apple iMac 24 [CMP-014] is faster than the M1 model it replaces.",
        "Unlike laptops with an RTX 4090, the Dell XPS 13 [CMP-005] stays quiet.",
    ],
)
def test_a_chip_the_record_has_or_not_the_products_own_stays(answer: str) -> None:
    # Given a chip that is the record's, or not said to be the product's own
    body = shown(answer)
    # Then the answer stays as written
    assert body.answer == answer
    assert body.corrections == []
