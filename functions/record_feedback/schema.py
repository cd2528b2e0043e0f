"""What ``POST /query/{turnId}/feedback`` accepts: a rating of an answer, or a click on
one of its products. One declaration for the deployed function and ``storechat serve``.

```
{"sessionId": "...", "rating": "down", "comment": "I asked for a phone"}
{"sessionId": "...", "event": "add_to_cart", "productId": "MOB-012"}
```

A rating is ``up`` or ``down`` with an optional comment of at most
:data:`MAX_COMMENT_CHARS` characters (the page offers it with "Not helpful"); an event
is a click on a product's card or on its "Add to cart", naming the product. Nothing
else: no personal data has a field, an unknown field is refused, and the e-mail
addresses and phone or card numbers a comment holds are removed before it is kept.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from shared.api.query import SESSION_ID_PATTERN, RequestRejected, describe_validation
from shared.products.product import ProductId
from shared.text.sanitize import clean_text

MAX_COMMENT_CHARS = 500
MAX_FEEDBACK_BYTES = 4_096
"""Larger bodies are refused before they are parsed: a comment fits many times over."""

Rating = Literal["up", "down"]
Event = Literal["click", "add_to_cart"]

# Where a turn's item (the sessions table, written by the state machine's SaveTurn)
# keeps what this route records, and what it is found by; storechat insights reads them.
TURN_ID_ATTRIBUTE = "turnId"
INSIGHT_ATTRIBUTE = "insight"
"""What the turn's catalog searches asked for and found (``shared.api.contract.Demand``)."""
FEEDBACK_ATTRIBUTE = "feedback"
"""The rating, as JSON: ``{"rating", "comment", "at"}``; a later rating replaces it."""
EVENT_ATTRIBUTES: dict[Event, str] = {"click": "clicked", "add_to_cart": "addedToCart"}
"""Each event's string set of product ids: a product counts once per turn."""


class _FromSession(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    sessionId: Annotated[str, Field(pattern=SESSION_ID_PATTERN)]
    """The session the answer was given in: only it may rate the answer."""


# What a shopper may type about themselves in a comment, kept out of the table as the
# conversation log masks it (infra/loop.py, MASKED_DATA): e-mail addresses, and runs of
# seven or more digits (phone and card numbers; no product's reasonable words are one).
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_LONG_NUMBER = re.compile(r"\+?\d(?:[\s().-]*\d){6,}")
REMOVED = "[removed]"


def without_contact_details(text: str) -> str:
    return _LONG_NUMBER.sub(REMOVED, _EMAIL.sub(REMOVED, text))


class RatingFeedback(_FromSession):
    rating: Rating
    comment: Annotated[str | None, Field(max_length=MAX_COMMENT_CHARS)] = None

    @field_validator("comment")
    @classmethod
    def _readable(cls, value: str | None) -> str | None:
        if value is None:
            return None
        # Invisible and control characters go; a comment of nothing else is no comment.
        return without_contact_details(clean_text(value, MAX_COMMENT_CHARS)) or None


class ClickFeedback(_FromSession):
    event: Event
    productId: ProductId


Feedback = RatingFeedback | ClickFeedback


def parse_feedback(raw: bytes | str) -> Feedback:
    """Validate a raw body, or raise :class:`~shared.api.query.RequestRejected` saying why."""
    if len(raw) > MAX_FEEDBACK_BYTES:
        raise RequestRejected(f"request body is larger than {MAX_FEEDBACK_BYTES} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestRejected("request body is not valid JSON") from exc
    if not isinstance(data, dict):
        raise RequestRejected("request body must be a JSON object")
    if "rating" in data and "event" in data:
        raise RequestRejected("send either a rating or an event, not both")
    if "rating" not in data and "event" not in data:
        raise RequestRejected("rating or event: required")
    model: type[Feedback] = RatingFeedback if "rating" in data else ClickFeedback
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestRejected(describe_validation(exc)) from exc
