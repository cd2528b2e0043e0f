"""A GB amount said of a product with no word for which memory ("the HP 14 with 16 GB").

The check read such an amount as RAM or storage only when a word said which ("16 GB of
RAM", "a 1 TB SSD"); with none it was left alone unless it matched neither. So "The hp 14
with 16 GB costs $449." became "The hp 14 with 16 GB costs $349.": the price corrected,
the false 16 GB kept, and the shopper read that the HP 14 with 16 GB costs $349. An
amount wrong for both that is clearly one of them (at least 4 times nearer by ratio) is
now read as that one and corrected, whether the product is named or cited. What stays:
an amount right for either, one said of another product, a version, a limit or a wish
("also comes in 512 GB", "up to 64 GB", "you asked for 16 GB"), and one about as near
to both.
"""

from __future__ import annotations

from typing import Any

import pytest

from compose_response.logic import ComposeInput, compose

HP14: dict[str, Any] = {
    "productId": "CMP-023",
    "name": "HP 14 Laptop (14-ep0000)",
    "brand": "HP",
    "category": "COMPUTERS",
    "price": 349.0,
    "stock": 52,
    "specs": {
        "formFactor": "laptop",
        "os": "Windows 11 Home",
        "ramGb": 8,
        "storageGb": 256,
        "screenInches": 14.0,
        "weightKg": 1.4,
    },
}
IPHONE: dict[str, Any] = {
    "productId": "MOB-001",
    "name": "Apple iPhone 16",
    "brand": "Apple",
    "category": "MOBILE",
    "price": 799.0,
    "stock": 20,
    "specs": {"ramGb": 8, "storageGb": 128, "screenInches": 6.1},
}
NO_STORAGE: dict[str, Any] = {
    "productId": "CMP-050",
    "name": "Acme Cloudbook 14",
    "brand": "Acme",
    "category": "COMPUTERS",
    "price": 299.0,
    "stock": 5,
    "specs": {"formFactor": "laptop", "ramGb": 8},
}


def _shopper_reads(answer: str, *products: dict[str, Any]) -> str:
    event = ComposeInput.model_validate(
        {"sessionId": "s", "outcome": "answered", "answer": answer, "products": list(products)}
    )
    return compose(event).model_dump()["answer"]


@pytest.mark.parametrize(
    ("answer", "reads"),
    [
        # named in lower case, no citation: the RAM is corrected with the price
        ("The hp 14 with 16 GB costs $449.", "The hp 14 with 8 GB costs $349."),
        ("The HP 14 Laptop with 16 GB costs $449.", "The HP 14 Laptop with 8 GB costs $349."),
        # cited: the same
        (
            "The HP 14 Laptop [CMP-023] with 16 GB costs $449.",
            "The HP 14 Laptop [CMP-023] with 8 GB costs $349.",
        ),
        ("The HP 14 has 16GB.", "The HP 14 has 8GB."),
        # far nearer its storage than its RAM: the storage
        ("The HP 14 Laptop has 1 TB.", "The HP 14 Laptop has 256 GB."),
        ("The iPhone 16 with 64 GB costs $799.", "The iPhone 16 with 128 GB costs $799."),
    ],
)
def test_a_plain_gb_amount_wrong_for_both_is_corrected(answer: str, reads: str) -> None:
    assert _shopper_reads(answer, HP14, IPHONE) == reads


@pytest.mark.parametrize(
    "answer",
    [
        # right for one of them
        "The hp 14 with 8 GB costs $349.",
        "The HP 14 Laptop has 256 GB.",
        # what the shopper asked for, quoted back
        "You asked for 16 GB; the HP 14 Laptop has 8 GB of RAM.",
        "You wanted 16 GB, and the HP 14 Laptop costs $349.",
        # a limit, a version, an upgrade
        "The HP 14 Laptop supports up to 16 GB.",
        "The HP 14 Laptop is also available with 16 GB.",
        "The iPhone 16 also comes in 512 GB.",
        "The HP 14 Laptop has less than 16 GB.",
        # a card or drive it takes, not its own memory
        "The HP 14 Laptop has a 16 GB microSD slot.",
        "The HP 14 Laptop takes a 1 TB USB stick.",
        # a comparison with other laptops
        "The HP 14 Laptop has less memory than 16 GB laptops.",
        # about as near to both: too unclear to correct
        "The HP 14 Laptop has 48 GB.",
    ],
)
def test_a_plain_gb_amount_that_is_no_wrong_spec_stays(answer: str) -> None:
    assert _shopper_reads(answer, HP14, IPHONE) == answer


def test_a_plain_gb_amount_of_another_product_stays() -> None:
    answer = "The HP 14 Laptop [CMP-023] costs $349; the MacBook Air has 16 GB."
    assert _shopper_reads(answer, HP14) == answer


def test_a_plain_gb_amount_of_a_record_without_both_memories_stays() -> None:
    # the record says nothing of storage: 512 GB may be its SSD
    answer = "The Acme Cloudbook 14 [CMP-050] with 512 GB costs $299."
    assert _shopper_reads(answer, NO_STORAGE) == answer


def test_a_plain_gb_amount_in_another_clause_after_a_named_product_stays() -> None:
    answer = "The hp 14 costs $349, while the Dell XPS 13 has 16 GB."
    assert _shopper_reads(answer, HP14) == answer


def test_a_plain_gb_amount_before_the_citation_in_its_clause_is_corrected() -> None:
    assert _shopper_reads("The 16 GB HP 14 Laptop [CMP-023] is $349.", HP14) == (
        "The 8 GB HP 14 Laptop [CMP-023] is $349."
    )


def test_a_plain_gb_amount_a_clause_before_the_citation_stays() -> None:
    answer = "With 16 GB, the HP 14 Laptop [CMP-023] is $349."
    assert _shopper_reads(answer, HP14) == answer


def test_two_plain_gb_amounts_paired_by_a_slash_stay() -> None:
    # "8GB/512GB" names neither memory: which is which is the answer's to say
    answer = "The HP 14 Laptop [CMP-023] has 8GB/512GB."
    assert _shopper_reads(answer, HP14) == answer
