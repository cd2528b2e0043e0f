"""Follow-ups answered from the conversation, through the whole loop in replay and wire modes.

Real models often answer "is it light?" from what they already said, citing the same
``[productId]`` without calling a tool again. The replies are written as Claude writes
them on Bedrock.
"""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest

from storechat.local.runner import CATALOG_TABLE, REGION
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies
from tests.integration.two_modes import MODES, Mode, converse, shown, tool_use_id

THINKPAD = "CMP-016"  # Lenovo ThinkPad E14 Gen 5: $879 in the bundled catalog, 1.41 kg
HP_14 = "CMP-023"


def set_price(product_id: str, price: int) -> None:
    """A price change in the catalog table between two turns, as the store would make it."""
    boto3.client("dynamodb", region_name=REGION).update_item(
        TableName=CATALOG_TABLE,
        Key={"productId": {"S": product_id}},
        UpdateExpression="SET price = :p",
        ExpressionAttributeValues={":p": {"N": str(price)}},
    )


FIRST_TURN = [
    asks_for_tools(
        lookup(tool_use_id("thinkpad"), brandId="Lenovo", keywords="ThinkPad business laptop"),
        text="Let me check our ThinkPads.",
    ),
    replies(
        "The **Lenovo ThinkPad E14 Gen 5** [CMP-016] is a solid business laptop: "
        "a 14-inch screen, 16 GB of RAM and Windows 11 Pro, for $879."
    ),
]


@pytest.mark.parametrize("mode", MODES)
def test_a_follow_up_answered_from_memory_shows_the_product_with_todays_price(
    mode: Mode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a first turn in which a tool returned the ThinkPad and the model recommended it
    # And a model that answers the follow-up from memory, without a tool, with the old price
    # and a product no tool ever returned
    script = [
        *FIRST_TURN,
        replies(
            "Yes, it's fairly light: the ThinkPad E14 Gen 5 [CMP-016] weighs 1.41 kg and "
            "still costs $879. The ThinkPad X1 Carbon [CMP-777] is even lighter."
        ),
    ]

    # When the store lowers its price between the turns, and the shopper asks "is it light?"
    conversation = converse(
        mode,
        tmp_path,
        monkeypatch,
        script,
        ["Do you have a ThinkPad?", "is it light?"],
        between=lambda _: set_price(THINKPAD, 829),
    )

    # Then the follow-up keeps the ThinkPad, with today's price in the text and on its card
    first, second = conversation.bodies
    assert shown(first) == [THINKPAD]
    assert second["outcome"] == "answered" and second["toolRounds"] == 0
    assert second["answer"] == (
        "Yes, it's fairly light: the ThinkPad E14 Gen 5 [CMP-016] weighs 1.41 kg and "
        "still costs $829."
    )
    assert shown(second) == [THINKPAD]
    assert second["products"][0]["price"] == 829
    assert [(c["field"], c["said"]) for c in second["corrections"]] == [("price", "$879")]
    # And the product no tool returned is gone with its sentence
    assert second["unverifiedCitations"] == ["CMP-777"]


@pytest.mark.parametrize("mode", MODES)
def test_an_id_the_shopper_typed_or_the_model_only_wrote_is_not_a_finding(
    mode: Mode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a first turn in which the shopper names the HP 14 by its id, but the tool
    # returned only the ThinkPad
    script = [
        *FIRST_TURN,
        replies("The HP 14 [CMP-023] is cheaper. The ThinkPad [CMP-016] is sturdier."),
    ]

    # When the model cites both in the follow-up without a tool
    _, second = converse(
        mode,
        tmp_path,
        monkeypatch,
        script,
        ["Is there a ThinkPad? I also saw [CMP-023].", "which one is better?"],
    ).bodies

    # Then only the product a tool returned stays
    assert second["answer"] == "The ThinkPad [CMP-016] is sturdier."
    assert shown(second) == [THINKPAD] and second["unverifiedCitations"] == [HP_14]


@pytest.mark.parametrize("mode", MODES)
def test_a_turn_outside_the_history_budget_no_longer_vouches_for_its_products(
    mode: Mode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a session whose model reads only the latest turn (HistoryTurns 1): the ThinkPad
    # was shown two turns ago, a phone since
    script = [
        *FIRST_TURN,
        asks_for_tools(lookup(tool_use_id("phone"), productIds=["MOB-007"]), text=None),
        replies("The **Samsung Galaxy S24** [MOB-007] has a great camera."),
        replies("The ThinkPad [CMP-016] is still a fine pick. The Galaxy S24 [MOB-007] too."),
    ]

    # When a third answer cites both
    *_, third = converse(
        mode,
        tmp_path,
        monkeypatch,
        script,
        ["a ThinkPad?", "and a phone?", "remind me?"],
        tuning={"HistoryTurns": 1},
    ).bodies

    # Then only the product of the turn the model still reads is vouched for
    assert third["answer"] == "The Galaxy S24 [MOB-007] too."
    assert shown(third) == ["MOB-007"] and third["unverifiedCitations"] == [THINKPAD]
