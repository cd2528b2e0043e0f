"""The period's figures, from its turns: one dict, which the text report and ``--json``
both print, so the two cannot say different things.

Unmet demand is the search's own reading of the shopper's words (``shared.api.contract.Demand``,
recorded as each search ran): the searches that found nothing (no product, or only once
they dropped words), and the words and brands the catalog does not know. Questions are
counted as written, folded for case and spacing, so "Cheap laptop?" and "cheap laptop"
are one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from storechat.insights.turns import Turn

TOP = 10
"""How many of each list the report shows."""
CONSOLE_URL = (
    "https://{region}.console.aws.amazon.com/states/home?region={region}#/statemachines/view/{arn}"
)


def in_period(turns: Iterable[Turn], days: int, now: datetime) -> list[Turn]:
    since = now - timedelta(days=days)
    return [turn for turn in turns if since <= turn.at <= now]


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip("?!. ").casefold()


def _most(counts: Counter[str], spelled: dict[str, Counter[str]], top: int) -> list[dict[str, Any]]:
    """The ``top`` most counted, each as most often written."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    return [{"text": spelled[key].most_common(1)[0][0], "count": n} for key, n in ranked]


def _counted(values: Iterable[str], top: int) -> list[dict[str, Any]]:
    counts: Counter[str] = Counter()
    spelled: dict[str, Counter[str]] = {}
    for value in values:
        key = _fold(value)
        if key:
            counts[key] += 1
            spelled.setdefault(key, Counter())[value.strip()] += 1
    return _most(counts, spelled, top)


def _products(ids: Iterable[str], top: int) -> list[dict[str, Any]]:
    return [{"productId": pid, "count": n} for pid, n in Counter(ids).most_common(top)]


def figures(
    turns: Sequence[Turn],
    *,
    days: int,
    now: datetime,
    console: tuple[str, str] | None = None,
    top: int = TOP,
) -> dict[str, Any]:
    """Every figure of the report for ``turns`` (already those of the period).

    ``console`` is ``(region, state machine ARN)`` of a deployed stack: each answer rated
    down then links to where its execution is found (by its name).
    """
    outcomes = Counter(turn.outcome for turn in turns)
    searches = [search for turn in turns for search in turn.searches]
    empty = [search for search in searches if search.found_nothing]
    down = [turn for turn in turns if turn.rating and turn.rating.rating == "down"]
    ratings = Counter(turn.rating.rating for turn in turns if turn.rating)
    return {
        "period": {
            "days": days,
            "from": (now - timedelta(days=days)).isoformat(),
            "to": now.isoformat(),
        },
        "questions": len(turns),
        "sessions": len({turn.session_id for turn in turns}),
        "outcomes": {
            "answered": outcomes["answered"],
            "fallback": outcomes["fallback"],
            "refused": outcomes["refused"],
            "truncated": outcomes["truncated"],
        },
        "fallbackReasons": dict(
            Counter(t.fallback_reason for t in turns if t.fallback_reason).most_common()
        ),
        "searches": len(searches),
        "searchesFoundNothing": len(empty),
        "foundNothingFor": _counted((search.words for search in empty), top),
        "notCarried": _counted((word for s in searches for word in s.unknown), top),
        "topQuestions": _counted((turn.question for turn in turns), top),
        "ratings": {"up": ratings["up"], "down": ratings["down"]},
        "ratedDown": [
            {
                "question": turn.question,
                "answer": turn.answer,
                "comment": turn.rating.comment if turn.rating else None,
                "shown": list(turn.shown),
                "at": turn.at.isoformat(),
                "execution": turn.execution,
                "console": CONSOLE_URL.format(region=console[0], arn=console[1])
                if console
                else None,
                "turnId": turn.turn_id,
            }
            for turn in sorted(down, key=lambda t: t.at, reverse=True)
        ],
        "products": {
            "shown": _products((p for t in turns for p in t.shown), top),
            "clicked": _products((p for t in turns for p in t.clicked), top),
            "addedToCart": _products((p for t in turns for p in t.added_to_cart), top),
        },
    }
