"""What the model reads from one tool never exceeds MAX_RESULT_BYTES of UTF-8 JSON."""

from __future__ import annotations

from typing import Any

import pytest

from shared.api.contract import MAX_RESULT_BYTES, ToolUse, fit_for_model, result_size, tool_output


@pytest.mark.parametrize(
    "text",
    [
        "€" * 50_000,  # three bytes each
        "😀" * 50_000,  # four bytes each
        "書" * 10_000 + "a" * 10_000,
        '"\\' * 20_000,  # escaped again when the payload is cut and re-encoded
    ],
    ids=["euro", "emoji", "mixed", "quotes-and-backslashes"],
)
def test_a_huge_non_ascii_string_is_cut_to_the_byte_budget(text: str) -> None:
    # Given a tool result that is one enormous string, not a list to trim
    payload: dict[str, Any] = {"description": text}
    # When it is fitted for the model
    fitted = fit_for_model(payload)
    # Then it fits in MAX_RESULT_BYTES of UTF-8 JSON, as a readable prefix
    assert result_size(fitted) <= MAX_RESULT_BYTES
    assert set(fitted) == {"truncated"} and len(fitted["truncated"]) > 100
    assert fitted["truncated"].startswith('{"description": "')


def test_the_result_a_model_gets_fits_even_from_a_hostile_source() -> None:
    # Given a tool whose upstream returned a megabyte of emoji
    use = ToolUse(tool_use_id="t1", name="get_book_info", input={})
    # When the tool's result is assembled
    out = tool_output(
        use, status="success", for_model={"title": "😀" * 250_000}, summary="book", ms=1
    )
    # Then the block the model reads is within the budget
    assert result_size(out.tool_result["content"][0]["json"]) <= MAX_RESULT_BYTES


def test_lists_are_trimmed_before_anything_is_truncated() -> None:
    payload = {"products": [{"name": "€" * 100} for _ in range(100)]}
    fitted = fit_for_model(payload)
    assert result_size(fitted) <= MAX_RESULT_BYTES
    assert fitted["trimmed"] == 100 - len(fitted["products"]) and fitted["products"]
