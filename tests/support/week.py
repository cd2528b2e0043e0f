"""A generated week of turns, as the sessions table holds them: what ``SaveTurn`` writes
(``turn``, ``turnId``, ``insight``) and what the feedback route adds (a rating, the
products clicked and added to the cart). Random but seeded, and counted as it is made,
so a test knows each figure the report must print without reading the report's code."""

from __future__ import annotations

import json
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

QUESTIONS = (
    ("cheap Samsung phone", {"brandId": "Samsung", "category": "MOBILE"}, 8, [], []),
    ("a light laptop for travel", {"keywords": "light laptop travel"}, 12, [], []),
    (
        "Do you have Nokia phones?",
        {"brandId": "Nokia", "category": "MOBILE"},
        23,
        ["keywords"],
        ["Nokia"],
    ),
    ("a Garmin watch", {"keywords": "garmin watch"}, 0, ["keywords"], ["garmin"]),
    ("books by Ursula K. Le Guin", {"keywords": "Ursula Le Guin"}, 3, [], []),
)
OUTCOMES = ("answered", "answered", "answered", "fallback", "refused")
PRODUCTS = ("MOB-012", "MOB-011", "CMP-007", "CMP-008", "BK-003")


@dataclass
class Week:
    items: list[dict[str, Any]] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)
    outcomes: Counter[str] = field(default_factory=Counter)
    questions: Counter[str] = field(default_factory=Counter)
    not_carried: Counter[str] = field(default_factory=Counter)
    found_nothing: int = 0
    searches: int = 0
    rated: Counter[str] = field(default_factory=Counter)
    down: list[tuple[str, str, str]] = field(default_factory=list)
    """(question, comment, execution) of each answer rated down."""
    shown: Counter[str] = field(default_factory=Counter)
    clicked: Counter[str] = field(default_factory=Counter)
    added: Counter[str] = field(default_factory=Counter)
    old_items: int = 0
    """Turns older than the week: the report leaves them out."""


def generate_week(now: datetime, *, turns: int = 60, seed: int = 7) -> Week:
    rng = random.Random(seed)
    week = Week()
    session_ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(turns // 3)]
    for n in range(turns + 3):
        old = n >= turns  # three turns from before the week
        at = (
            now - timedelta(days=8 + n - turns)
            if old
            else now - timedelta(seconds=rng.randrange(1, 7 * 86_400 - 60))
        )
        session = rng.choice(session_ids)
        question, search, found, relaxed, unknown = rng.choice(QUESTIONS)
        outcome = rng.choice(OUTCOMES)
        shown = rng.sample(PRODUCTS, rng.randrange(0, 3)) if outcome == "answered" else []
        turn_id = f"{rng.getrandbits(128):032x}"
        execution = f"{rng.getrandbits(128):032x}"
        item: dict[str, Any] = {
            "sessionId": {"S": session},
            "turnKey": {"S": f"{at.isoformat()}#{execution}"},
            "expiresAt": {"N": str(int(at.timestamp()) + 7 * 86_400)},
            "turn": {
                "S": json.dumps(
                    {
                        "user": question,
                        "assistant": f"answer {n}",
                        "outcome": outcome,
                        "productIds": shown,
                    }
                )
            },
            "turnId": {"S": turn_id},
            "insight": {
                "S": json.dumps(
                    {
                        "fallbackReason": "deadline" if outcome == "fallback" else None,
                        "searches": [
                            {
                                "input": search,
                                "found": found,
                                "relaxed": relaxed,
                                "unknown": unknown,
                            }
                        ],
                    }
                )
            },
        }
        rating = rng.choice((None, None, "up", "down"))
        comment = f"I wanted something else ({n})" if rating == "down" and n % 2 else None
        if rating:
            item["feedback"] = {"S": json.dumps({"rating": rating, "comment": comment, "at": 0})}
        clicked = shown[:1] if shown and rng.random() < 0.5 else []
        added = clicked if clicked and rng.random() < 0.5 else []
        if clicked:
            item["clicked"] = {"SS": clicked}
        if added:
            item["addedToCart"] = {"SS": added}
        week.items.append(item)
        if old:
            week.old_items += 1
            continue
        week.sessions.add(session)
        week.outcomes[outcome] += 1
        week.questions[question] += 1
        week.searches += 1
        week.found_nothing += bool(found == 0 or relaxed)
        week.not_carried.update(unknown)
        if rating:
            week.rated[rating] += 1
        if rating == "down":
            week.down.append((question, comment or "", execution))
        week.shown.update(shown)
        week.clicked.update(clicked)
        week.added.update(added)
    return week
