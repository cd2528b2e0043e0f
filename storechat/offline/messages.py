"""Reading a Converse request: the shopper's texts, the tools on offer, the tool results."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from converse.conversation import content_blocks
from shared.products.table import shown_products
from shared.runtime.errors import FailureKind
from shared.text.sanitize import clean_text
from shared.tools.untrusted import unquoted
from storechat.offline.store import BOOK_INFO, LOOKUP, POLICIES, REVIEWS


def plain(value: Any, limit: int) -> str:
    """Text from a request or a tool, cleaned and cut to ``limit`` to quote in an answer."""
    # Square brackets would look like citations; a name is never one. A web tool's quote
    # marks are for the model, not for the shopper.
    text = clean_text(unquoted(str(value)), limit).replace("\n", " ")
    return text.replace("[", "(").replace("]", ")")


def last_top_pick(messages: list[dict[str, Any]], product_id: str | None = None) -> str | None:
    """The first product the latest answer recommended: what "it" most likely means; or
    the one it listed as ``product_id``, when the shopper names that one by its id."""
    cited = re.escape(product_id) if product_id else r"[^\[\]\n]+"
    number = r"\d+" if product_id else "1"
    listed = re.compile(rf"^{number}\.\s+(?P<name>[^\[\n]+?)\s+\[{cited}\]", re.MULTILINE)
    for message in reversed(messages):
        if message.get("role") != "assistant":
            continue
        for block in content_blocks(message):
            match = listed.search(str(block.get("text", "")))
            if match:
                # "HP 14 Laptop (14-ep0000)" searches better without the part number.
                return re.sub(r"\s*\([^)]*\)\s*$", "", match.group("name")) or None
    return None


@dataclass(frozen=True)
class ToolOutcome:
    """One toolResult, paired with the toolUse that asked for it."""

    tool_use_id: str
    name: str | None
    tool_input: dict[str, Any]
    data: dict[str, Any] | None
    failure: str | None
    """How the tool failed: its error ``kind`` (``timeout``), else ``tool_failed``."""
    brief: bool = False
    """An earlier round's result, which the loop shrinks to a summary and the ids it
    showed (``earlierResult``, ``productIds``): its products are no longer there."""

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The products the result lists, as the tool wrote them."""
        return [r for r in (self.data or {}).get("products") or [] if isinstance(r, dict)]

    @property
    def understood(self) -> dict[str, Any]:
        """What the catalog search read in the words it was given (``understood``)."""
        said = (self.data or {}).get("understood")
        return said if isinstance(said, dict) else {}

    @property
    def found_ids(self) -> list[str]:
        """The ids of the products the result showed (for a brief, the ids it kept)."""
        ids = [p.get("productId") for p in self.rows] or (self.data or {}).get("productIds") or []
        return [i for i in ids if isinstance(i, str)]

    @property
    def corrected(self) -> dict[str, str]:
        """The search's reading of a misspelt word of its keywords: ``{"samsng": "samsung"}``."""
        said = (self.data or {}).get("corrected")
        said = said if isinstance(said, dict) else {}
        return {str(k): v for k, v in said.items() if isinstance(v, str) and str(k).strip()}


def as_searched(text: str, corrected: dict[str, str]) -> str:
    """The shopper's ``text`` with each word the catalog search corrected ("samsng") written
    as it read it: the search is the one speller every model shares."""
    for wrong, right in corrected.items():

        def as_read(said: re.Match[str], right: str = right) -> str:
            return right.capitalize() if said[0][:1].isupper() else right

        word = rf"(?<![^\W_]){re.escape(wrong)}(?![^\W_])"
        text = re.sub(word, as_read, text, flags=re.IGNORECASE)
    return text


_EXPECTED_LIST: Final = {
    LOOKUP: "products",
    REVIEWS: "results",
    BOOK_INFO: "results",
    POLICIES: "sections",
}


def _json_payload(content: list[Any]) -> dict[str, Any] | None:
    for block in content:
        if isinstance(block, dict) and isinstance(block.get("json"), dict):
            return block["json"]
        if isinstance(block, dict) and isinstance(block.get("text"), str):
            # Some tools send JSON as text; anything else is not readable data.
            try:
                parsed = json.loads(block["text"])
            except ValueError:
                continue
            if isinstance(parsed, dict):
                return parsed
    return None


def read_rounds(messages: list[dict[str, Any]]) -> list[list[ToolOutcome]]:
    """The tool rounds since the shopper's latest message: each toolResult paired with
    the toolUse that asked for it, one list per round, oldest first."""
    uses: dict[str, dict[str, Any]] = {}
    rounds: list[list[ToolOutcome]] = []
    for message in messages:
        blocks = content_blocks(message)
        if message.get("role") == "assistant":
            for block in blocks:
                use = block.get("toolUse")
                if isinstance(use, dict) and isinstance(use.get("toolUseId"), str):
                    uses[use["toolUseId"]] = use
            continue
        results = [b["toolResult"] for b in blocks if isinstance(b.get("toolResult"), dict)]
        if not results:
            rounds = []  # a new message from the shopper: a new turn
            continue
        rounds.append([_paired(result, uses) for result in results])
    return rounds


def _paired(result: dict[str, Any], uses: dict[str, dict[str, Any]]) -> ToolOutcome:
    use_id = str(result.get("toolUseId", ""))
    use = uses.get(use_id) or {}
    name = use.get("name") if isinstance(use.get("name"), str) else None
    tool_input: dict[str, Any] = use["input"] if isinstance(use.get("input"), dict) else {}
    content = result.get("content")
    blocks: list[Any] = content if isinstance(content, list) else []
    if name not in _EXPECTED_LIST:
        return ToolOutcome(use_id, name, tool_input, None, FailureKind.UNKNOWN_TOOL)
    payload = _json_payload(blocks)
    # A tool may report failure in the status or only in its payload.
    if result.get("status") == "error" or (payload and isinstance(payload.get("error"), str)):
        # The error ``kind`` a tool reported (``timeout``), which the answer says to a shopper.
        kind = (payload or {}).get("kind")
        failure = kind.strip().lower() if isinstance(kind, str) and kind.strip() else None
        return ToolOutcome(use_id, name, tool_input, None, failure or FailureKind.TOOL_FAILED)
    if payload is not None and isinstance(payload.get("earlierResult"), str):
        ids = payload.get("productIds")
        brief = {"products": [], "productIds": ids if isinstance(ids, list) else []}
        return ToolOutcome(use_id, name, tool_input, brief, None, brief=True)
    if payload is not None and name == LOOKUP and isinstance(payload.get("products"), dict):
        # The catalog writes its products as a table; read here as one object each.
        payload = {**payload, "products": shown_products(payload["products"])}
        instead = payload.get("inStockInstead")
        if isinstance(instead, dict) and isinstance(instead.get("products"), dict):
            instead = {**instead, "products": shown_products(instead["products"])}
            payload["inStockInstead"] = instead
    if payload is None or not isinstance(payload.get(_EXPECTED_LIST[name]), list):
        return ToolOutcome(use_id, name, tool_input, None, FailureKind.MALFORMED)
    return ToolOutcome(use_id, name, tool_input, payload, None)


def ids_named(given: ToolOutcome | None) -> dict[str, str]:
    """The products a search of the shopper's words found named by their ids, by id."""
    named = (given.understood.get("named") if given else None) or []
    return {
        str(r["productId"]): str(r.get("name") or "")
        for r in (given.rows if given else [])
        if r.get("productId") and r.get("name") in named
    }
