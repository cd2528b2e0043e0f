"""What the shopper reads when a real model's answer mixes real and invented products, or
states prices in its own notation: through the whole loop, in replay and wire modes.

The replies are written as Claude writes them on Bedrock: Markdown, ``[productId]``
citations, toolUse ids such as ``tooluse_…``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.converse_fixtures import asks_for_tools, lookup, replies
from tests.integration.two_modes import MODES, Mode, converse, shown, tool_use_id

TUF, LEGION = "CMP-005", "CMP-018"  # $1,099 and $1,399 in the bundled catalog

MIXED_ANSWER = (
    "Here are my picks for gaming under $1,500:\n\n"
    "- **ASUS TUF Gaming A15** [CMP-005]: RTX 4060 graphics for $1,099.\n"
    "- **Lenovo Legion 5i** [CMP-018], or the **Legion Pro 7i** [CMP-777] if you can stretch.\n\n"
    "If you want something thinner, I'd pick one of these:\n\n"
    "- **Razer Blade 14 Lite** [CMP-901]\n"
    "- **ASUS ROG Flow X13** [CMP-902]\n\n"
    "The TUF [CMP-005] and the Legion [CMP-018] both ship today."
)


@pytest.mark.parametrize("mode", MODES)
def test_an_answer_mixing_real_and_invented_products_keeps_the_real_ones(
    mode: Mode, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a model that looks two gaming laptops up, then answers with them and with
    # three products no tool returned: one in a clause after a real one, two in a list
    script = [
        asks_for_tools(
            lookup(tool_use_id("gaming"), productIds=[TUF, LEGION]),
            text="I'll look up our gaming laptops.",
        ),
        replies(MIXED_ANSWER),
    ]

    # When a shopper asks
    (body,) = converse(mode, tmp_path, monkeypatch, script, ["a gaming laptop under $1500"]).bodies

    # Then the shopper reads both real products, without the invented clause, and no
    # line announces the list that went
    assert body["outcome"] == "answered"
    assert body["answer"] == (
        "Here are my picks for gaming under $1,500:\n\n"
        "- **ASUS TUF Gaming A15** [CMP-005]: RTX 4060 graphics for $1,099.\n"
        "- **Lenovo Legion 5i** [CMP-018].\n\n"
        "The TUF [CMP-005] and the Legion [CMP-018] both ship today."
    )
    # And sees both real products' cards, and the note that some were left out
    assert shown(body) == [TUF, LEGION]
    assert body["unverifiedCitations"] == ["CMP-777", "CMP-901", "CMP-902"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("question", "answer", "corrected", "store"),
    [
        (
            "Ist der Laptop günstig?",
            "Ja: das **Dell XPS 13** [CMP-007] kostet 1.199,00 € und wiegt nur 1,19 kg.",
            "Ja: das **Dell XPS 13** [CMP-007] kostet 1.299,00 $ und wiegt nur 1,19 kg.",
            "USD",
        ),
        (
            "Combien coûte-t-il ?",
            "Le **Dell XPS 13** [CMP-007] coûte 1 299 €, livraison comprise.",
            "Le **Dell XPS 13** [CMP-007] coûte 1 299 $, livraison comprise.",
            "USD",
        ),
        (
            "How much is it?",
            "The **Dell XPS 13** [CMP-007] is $1,299 and weighs 1.19 kg.",
            "The **Dell XPS 13** [CMP-007] is €1,299 and weighs 1.19 kg.",
            "EUR",
        ),
    ],
    ids=["german", "french", "euro-store"],
)
def test_a_price_in_another_notation_reaches_the_shopper_as_the_catalogs(
    mode: Mode,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    question: str,
    answer: str,
    corrected: str,
    store: str,
) -> None:
    # Given a store whose prices are in ``store``, and a model that quotes the Dell XPS 13
    # (1,299 in the catalog) in another currency's notation
    script = [
        asks_for_tools(lookup(tool_use_id(question), productIds=["CMP-007"]), text=None),
        replies(answer),
    ]

    # When the shopper asks
    conversation = converse(
        mode, tmp_path, monkeypatch, script, [question], env={"STORE_CURRENCY": store}
    )

    # Then they read the catalog's price in the store's currency, and the card is shown
    (body,) = conversation.bodies
    assert body["answer"] == corrected
    assert shown(body) == ["CMP-007"]
    assert {c["field"] for c in body["corrections"]} == {"price"}
