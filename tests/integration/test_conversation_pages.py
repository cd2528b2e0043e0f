"""More than four products when the shopper asks for many: a real model's larger page and
its next page, through the whole loop in replay and wire modes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from shared.products.table import shown_products
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies
from tests.integration.two_modes import MODES, Mode, converse, shown, tool_use_id

GAMING = {"category": "COMPUTERS", "keywords": "gaming laptop"}
# The bundled catalog's nine gaming laptops, as the search ranks them (16 GB and more first)
FIRST_PAGE = ["CMP-024", "CMP-005", "CMP-004", "CMP-034", "CMP-009", "CMP-018"]
SECOND_PAGE = ["CMP-036", "CMP-038", "CMP-037"]

COMPARISON = (
    "Here are all nine of our gaming laptops, from entry level to high end:\n\n"
    "- **Acer Nitro V 15** [CMP-034]: RTX 4050, 2.1 kg, $799\n"
    "- **HP Victus 15** [CMP-024]: RTX 4050, 2.29 kg, $849\n"
    "- **ASUS TUF Gaming A15** [CMP-005]: RTX 4060, 2.2 kg, $1,099\n"
    "- **MSI Katana 15** [CMP-038]: RTX 4060, 2.25 kg, $1,099\n"
    "- **Lenovo Legion 5i** [CMP-018]: RTX 4060, 2.4 kg, $1,399\n"
    "- **ASUS ROG Zephyrus G14** [CMP-004]: RTX 4070, 1.5 kg, $1,999\n"
    "- **Alienware m16 R2** [CMP-009]: RTX 4070, 2.61 kg, $2,099\n"
    "- **Razer Blade 14** [CMP-036]: RTX 4070, 1.84 kg, $2,399\n"
    "- **Razer Blade 16** [CMP-037]: RTX 4080, 2.45 kg, $2,999 (out of stock)\n\n"
    "For most people the TUF Gaming A15 [CMP-005] is the best value."
)


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """What the model read from the tools in the last message of a request."""
    results = [
        block["toolResult"]["content"][0]["json"]
        for block in request["messages"][-1]["content"]
        if "toolResult" in block
    ]
    # The catalog's products are a table (shared.products.table): one object each here.
    return [
        {**r, "products": shown_products(r["products"])} if "products" in r else r for r in results
    ]


@pytest.mark.parametrize("mode", MODES)
def test_compare_all_gaming_laptops_pages_through_and_shows_every_card(
    mode: Mode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a model that asks for a page of six, then for the next page, then compares all
    script = [
        asks_for_tools(
            lookup(tool_use_id("page-1"), **GAMING, limit=6),
            text="I'll pull up our gaming laptops.",
        ),
        asks_for_tools(
            lookup(tool_use_id("page-2"), **GAMING, limit=6, offset=6),
            text="There are three more; let me get them too.",
        ),
        replies(COMPARISON),
    ]

    # When the shopper asks to compare them all
    conversation = converse(
        mode,
        tmp_path,
        monkeypatch,
        script,
        ["Compare all your gaming laptops"],
        search_first=False,  # the script's model goes first
    )

    # Then the model read six products and where the next page starts, then the other three
    first, second = (tool_results(r)[0] for r in conversation.model_requests[1:3])
    assert [p["productId"] for p in first["products"]] == FIRST_PAGE
    assert first["count"] == 9 and first["nextOffset"] == 6
    assert all("summary" not in p for p in first["products"])
    assert [p["productId"] for p in second["products"]] == SECOND_PAGE
    assert second["offset"] == 6 and "nextOffset" not in second
    # And the shopper sees all nine cards, in the order of the answer, with nothing corrected
    (body,) = conversation.bodies
    assert body["outcome"] == "answered" and body["toolRounds"] == 2
    assert sorted(shown(body)) == sorted(FIRST_PAGE + SECOND_PAGE)
    assert shown(body)[:3] == ["CMP-034", "CMP-024", "CMP-005"]
    assert body["corrections"] == [] and body["unverifiedCitations"] == []
