"""The specs a store writes only in a product's title or description are read at import:
a Shopify store that puts "16GB RAM, 1.41 kg" in its description was answered "no laptop
with 16 GB RAM" and "none of them lists its weight"."""

from __future__ import annotations

import pytest

from shared.platform.said_specs import said_specs, with_said_specs


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        (
            "6.5-inch phone with a 50 MP camera, 128 GB storage and a 5000 mAh battery.",
            {"screenInches": 6.5, "cameraMp": 50, "storageGb": 128, "batteryMah": 5000},
        ),
        (
            "ThinkPad E14 with 16GB RAM, 512GB SSD, 14-inch screen, 1.41 kg, 9 hours battery.",
            {"ramGb": 16, "storageGb": 512, "screenInches": 14, "weightKg": 1.41,
             "batteryHours": 9},
        ),
        # a model's number, an amount tied to no spec: nothing
        ("Lenovo ThinkPad E14 Gen 5", {}),
        ("Charges to 50% in 30 minutes.", {}),
        # a bare GB amount is no RAM, nor graphics memory; RAM said as such is
        ("iPhone 13 mini - 64GB", {}),
        ("RTX 4060 8GB GDDR6, 16GB DDR5 RAM, 1TB SSD", {"ramGb": 16, "storageGb": 1024}),
        # what an accessory fits, or what comes with a product, is not its own
        ("Protective sleeve that fits 13-16 inch laptops.", {}),
        ("Includes 3 months of Apple TV+ and 50GB iCloud", {}),
        # what comes with it said in a clause of its own leaves the others the product's
        (
            "10.9-inch tablet, 6 GB RAM, 128 GB storage, IP68, S Pen included.",
            {"screenInches": 10.9, "ramGb": 6, "storageGb": 128},
        ),
        ("16GB RAM laptop. Includes a 1TB external drive.", {"ramGb": 16}),
        # nor what is listed after the word, to the sentence's end
        ("Includes: keyboard, mouse, 512GB storage drive", {}),
        ("Gaming bundle: includes 2TB external HDD, 27-inch monitor, 32GB RAM upgrade", {}),
        (
            "14-inch laptop, 8GB RAM, 256GB SSD. Bundle includes 1TB external SSD, 2 x 16GB RAM",
            {"screenInches": 14, "ramGb": 8, "storageGb": 256},
        ),
        ("Kit includes: 50MP lens attachment, 10000mAh power pack", {}),
        # a clause in the middle says only what it says
        (
            "16GB RAM, 1TB SSD, bundled with a Microsoft 365 trial, 14-inch OLED, 1.2 kg",
            {"ramGb": 16, "storageGb": 1024, "screenInches": 14, "weightKg": 1.2},
        ),
        (
            "Key features including 16GB RAM, 512GB SSD and a 14-inch display.",
            {"ramGb": 16, "storageGb": 512, "screenInches": 14},
        ),
        # a decimal comma, a thousands separator, the main camera after the selfie one
        ("Poids : 1,41 kg", {"weightKg": 1.41}),
        ("Akku 5.000 mAh", {"batteryMah": 5000}),
        ("Selfie camera 32MP, rear camera 108MP", {"cameraMp": 108}),
    ],
)  # fmt: skip
def test_the_specs_a_text_states_are_read_as_the_search_reads_them(
    text: str, specs: dict[str, float]
) -> None:
    assert said_specs(text) == specs


def test_a_spec_the_store_set_is_never_replaced_and_the_cap_holds() -> None:
    # Given a product whose option says 256 GB and whose description says 128 GB and 8 GB RAM
    data = {
        "name": "Pixel 8a - 256 GB",
        "description": "A 6.1-inch phone with 128 GB storage and 8 GB RAM.",
        "specs": {"storageGb": 256},
    }

    # When the description's specs are added, with room for two specs in all
    added = with_said_specs(data, max_specs=2)

    # Then the option's storage stands, and only as many as fit are added
    assert data["specs"]["storageGb"] == 256
    assert added == ["screenInches"] and len(data["specs"]) == 2
