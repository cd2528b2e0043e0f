"""The turns as the state machine's ``SaveTurn`` wrote them, with what the feedback route
added: read from a deployed stack's sessions table, or from a local ``sessions.json``.

An item holds the turn (``turn``: the question, the answer, the outcome and the products
shown), the page's turn id, what its catalog searches asked for and found (``insight``,
``shared.api.contract.Demand``), and what the shopper did about it (a rating, the products
clicked and added to the cart; ``record_feedback.schema``). An item this reader cannot
make sense of (another version's, damaged) is counted and skipped, never fatal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from record_feedback.schema import (
    EVENT_ATTRIBUTES,
    FEEDBACK_ATTRIBUTE,
    INSIGHT_ATTRIBUTE,
    TURN_ID_ATTRIBUTE,
)

Item = dict[str, Any]


@dataclass(frozen=True)
class Search:
    """One catalog search of a turn: its input, how many products matched, what it had to
    drop to find any, and the words and brand the catalog does not know."""

    input: dict[str, Any]
    found: int
    relaxed: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()

    @property
    def found_nothing(self) -> bool:
        """Nothing matched what was asked: no product, or only once words were dropped."""
        return self.found == 0 or bool(self.relaxed)

    @property
    def words(self) -> str:
        """What the search was for, as the tool was asked: its words, then its filters."""
        fields = dict(self.input)
        keywords = fields.pop("keywords", None)
        parts = [str(keywords)] if keywords else []
        parts += [f"{k}={v}" for k, v in sorted(fields.items()) if k not in ("limit", "offset")]
        return ", ".join(parts) or "everything"


@dataclass(frozen=True)
class Rating:
    rating: str
    comment: str | None = None


@dataclass(frozen=True)
class Turn:
    session_id: str
    at: datetime
    execution: str
    """The execution's name (the API request id): find it in the console by it."""
    question: str
    answer: str
    outcome: str
    shown: tuple[str, ...] = ()
    turn_id: str | None = None
    fallback_reason: str | None = None
    searches: tuple[Search, ...] = ()
    rating: Rating | None = None
    clicked: tuple[str, ...] = ()
    added_to_cart: tuple[str, ...] = ()


@dataclass
class Read:
    turns: list[Turn] = field(default_factory=list)
    unreadable: int = 0
    """Items that are not turns this reader understands."""


def _text(item: Item, name: str) -> str | None:
    value = item.get(name)
    return value.get("S") if isinstance(value, dict) and isinstance(value.get("S"), str) else None


def _set(item: Item, name: str) -> tuple[str, ...]:
    value = item.get(name)
    found = value.get("SS") if isinstance(value, dict) else None
    return tuple(sorted(str(v) for v in found)) if isinstance(found, list) else ()


def _searches(insight: Any) -> tuple[Search, ...]:
    if not isinstance(insight, dict) or not isinstance(insight.get("searches"), list):
        return ()
    return tuple(
        Search(
            input=dict(s["input"]) if isinstance(s.get("input"), dict) else {},
            found=int(s.get("found") or 0),
            relaxed=tuple(str(r) for r in s.get("relaxed") or ()),
            unknown=tuple(str(u) for u in s.get("unknown") or ()),
        )
        for s in insight["searches"]
        if isinstance(s, dict)
    )


def turn_of(item: Item) -> Turn:
    """The turn an item holds; raises ValueError (or KeyError, TypeError) if it is none."""
    started, _, execution = str(_text(item, "turnKey")).partition("#")
    turn = json.loads(_text(item, "turn") or "")
    insight = json.loads(_text(item, INSIGHT_ATTRIBUTE) or "{}")
    rated = json.loads(_text(item, FEEDBACK_ATTRIBUTE) or "null")
    at = datetime.fromisoformat(started)
    return Turn(
        session_id=str(_text(item, "sessionId")),
        at=at if at.tzinfo else at.replace(tzinfo=UTC),
        execution=execution,
        question=str(turn["user"]),
        answer=str(turn.get("assistant") or ""),
        outcome=str(turn.get("outcome") or "answered"),
        shown=tuple(str(p) for p in turn.get("productIds") or ()),
        turn_id=_text(item, TURN_ID_ATTRIBUTE),
        fallback_reason=insight.get("fallbackReason") if isinstance(insight, dict) else None,
        searches=_searches(insight),
        rating=Rating(str(rated["rating"]), rated.get("comment")) if rated else None,
        clicked=_set(item, EVENT_ATTRIBUTES["click"]),
        added_to_cart=_set(item, EVENT_ATTRIBUTES["add_to_cart"]),
    )


def read_items(items: Iterable[Item]) -> Read:
    read = Read()
    for item in items:
        try:
            read.turns.append(turn_of(item))
        except (ValueError, KeyError, TypeError, AttributeError):
            read.unreadable += 1
    read.turns.sort(key=lambda t: t.at)
    return read


def local_items(path: Path) -> list[Item]:
    """The items of a local ``sessions.json`` (``storechat.local.table_files``); none when
    there is no such file yet."""
    if not path.exists():
        return []
    items = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(items, list):
        raise ValueError(f"{path} is not a list of DynamoDB items")
    return [item for item in items if isinstance(item, dict)]


def table_items(dynamodb: Any, table: str) -> Iterator[Item]:
    """Every item of a deployed sessions table (a scan: the report reads each turn once)."""
    for page in dynamodb.get_paginator("scan").paginate(TableName=table):
        yield from page.get("Items", [])
