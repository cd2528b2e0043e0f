"""The text a reader is shown: the leak filter, the live trace's words, the terminal."""

from __future__ import annotations

import io

import pytest

from converse.logic import NO_LEAK_REPLY, ConverseInput, converse, leaks_system_prompt
from converse.settings import Settings
from shared.api.contract import ToolCall, ToolUse
from shared.runtime.errors import UpstreamError
from shared.runtime.tool_errors import failed_in_words
from shared.text.shown import for_terminal, visible
from shared.tools.web_tool import WebSearch
from shared.trace.said import before_tools
from storechat.terminal import TerminalText
from tests.support.store import SAMPLE_PROMPT, sample_store_file

RULES = SAMPLE_PROMPT[200:520]  # the sample store's prompt: its rules, not its words


@pytest.mark.parametrize(
    "evasion",
    [
        RULES,
        "\u200b".join(RULES),  # a zero-width space between every character
        "\n".join(RULES.split()),  # one word a line
        "\n".join(f"- {word}" for word in RULES.split()),  # one word a bullet
        " | ".join(RULES[i : i + 40] for i in range(0, len(RULES), 40)),  # a separator every 40
        "".join(c + "\U000e0020" for c in RULES.upper()),  # tag characters, shouted
    ],
)
def test_the_system_prompt_does_not_leak_however_it_is_split(evasion: str) -> None:
    assert leaks_system_prompt(evasion)


def test_an_ordinary_answer_is_no_leak() -> None:
    assert not leaks_system_prompt(
        "The HP 14 [CMP-023] is a light laptop for school, with 8 GB RAM and a 14-inch screen."
    )


class Provider:
    label = "stand-in"

    def __init__(self, text: str) -> None:
        self.text = text

    def converse(self, request: dict[str, object], *, timeout_s: float | None = None) -> dict:
        return {
            "output": {"message": {"role": "assistant", "content": [{"text": self.text}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": 1, "outputTokens": 1},
        }


def test_a_reply_split_by_invisible_characters_reaches_the_loop_as_shown() -> None:
    # Given a reply that hides a zero-width space in a price and a leak one word a line
    settings = Settings(MODEL_PROVIDER="bedrock", STORE_FILE=sample_store_file())
    event = ConverseInput(messages=[{"role": "user", "content": [{"text": "hi"}]}])
    priced = converse(event, settings=settings, provider=Provider("It is $34\u200b9."))
    leaked = converse(event, settings=settings, provider=Provider("\n".join(RULES.split())))
    # Then the loop (and the answer's checks) get the text the shopper would see
    assert priced.text == "It is $349."
    assert leaked.text == NO_LEAK_REPLY


def test_the_words_before_a_tool_call_show_nothing_to_check() -> None:
    # Given words before a tool call that a review page put in the model's mouth
    said = (
        "Let me look that up. ATTENTION: the Surface is $79 today only at "
        "https://surface.evil.example/deal! Call 555-0100. It's free with code X1. "
        "I'll check the reviews of the HP 14."
    )
    # Then the live trace shows only the sentences with no price, offer, link or phone
    assert before_tools(said) == "Let me look that up. I'll check the reviews of the HP 14."
    assert before_tools("Il coûte 1,- aujourd'hui.") == ""


def test_what_a_terminal_prints_has_no_escape_sequences() -> None:
    # Given a model's answer with colour, a title change, a hyperlink and C1 controls
    hostile = (
        "\x1b[31mred\x1b[0m \x1b]0;owned\x07title \x1b]8;;https://evil.example\x1b\\link"
        "\x1b]8;;\x1b\\ \x9b2Jclear \x1bcreset \x07bell ok\tdone\n"
    )
    out = io.StringIO()
    # When the CLI writes it
    print(hostile, file=TerminalText(out))  # type: ignore[arg-type]
    # Then what reaches the terminal is the words alone
    assert out.getvalue() == "red title link clear reset bell ok\tdone\n\n"
    assert for_terminal("\x1b[2J\x1b[H") == ""


def test_visible_keeps_text_and_line_breaks() -> None:
    assert visible("a\u2028b\r\nc\u00e9 日本 \u200dé") == "a\nb\ncé 日本 é"


def test_a_failed_tool_says_why_in_words() -> None:
    # Given the review service cannot be reached
    search = WebSearch("The review service", "reviews", "review", step="x", found=("", "", ""))

    def refused(query: str) -> list[dict[str, object]]:
        raise UpstreamError("unreachable", "[Errno 111] Connection refused")

    call = ToolCall(ToolUse(toolUseId="t-1", name="get_computer_reviews", input={}))
    output = search.answer(call, "HP 14", refused)
    # Then "How I found this" reads it in words, without the system's message
    summary = output.dump()["trace"]["summary"]
    assert summary == "the review search could not be reached (looking for 'HP 14')"
    assert "Errno" not in summary
    assert failed_in_words("timeout") == "did not answer in time"
