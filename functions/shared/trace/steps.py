"""The live trace: what a running turn is doing, step by step, readable by its turn id.

``POST /query`` returns the answer; while it runs, each step of the turn is written
where it happens to the steps table, one item per step under the turn's id, and
``GET /query/{turnId}/steps`` reads them back (API Gateway straight from DynamoDB
deployed, the dev server locally, with the same query and the same body):

* the Converse function writes the model's own words before a tool call, a line for
  each tool it asks for, and "Reading what I found" while it reads their results;
* each tool writes how its search ended ("… 12 found");
* the state machine writes the line of a tool that failed, timed out or does not exist;
* the response builder writes its check of the answer against the catalog.

A step holds no more than the trace already shows the shopper: the tool's input in
words, a count, a status. Steps expire after ``StepTtlSeconds`` and are filtered on
read, because TTL deletes lazily; a wrong, expired or not yet written turn id reads
``{"steps": []}``, so no answer tells which of them it was.

Names here are shared by the writers, the state machine (its literals are held to
them by a test), the dev server and ``infra/trace.py``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.text.sanitize import clean_text

TURN_ID_PATTERN = r"^[0-9a-f]{32}$"
"""128 random bits in hex, made by the page (``crypto.getRandomValues``) for each question."""
_TURN_ID = re.compile(TURN_ID_PATTERN)

POLL_INTERVAL_MS = 500
"""How often the page reads the steps while it waits (web/steps.js holds the same number)."""

# The steps table: one item per step.
PARTITION_KEY = "turnId"
SORT_KEY = "step"
SHOWN_ATTRIBUTE = "shown"
"""The step as the page reads it: the JSON of :class:`Step`, so a read returns it as written."""
TTL_ATTRIBUTE = "expiresAt"

MAX_LINE_CHARS = 200
MAX_OUTCOME_CHARS = 80
NO_TURN = "-"
"""The key a malformed turn id is read as: no item has it."""

Kind = Literal["said", "tool", "think", "check"]
"""``said``: the model's own words before a tool call; ``tool``: a tool call;
``think``: the model reading what the tools found; ``check``: the answer checked."""
Status = Literal["running", "done", "failed"]


class Step(BaseModel):
    """One line of the live trace, as the page shows it."""

    model_config = ConfigDict(extra="forbid")

    step: Annotated[str, Field(min_length=1, max_length=16, description="Sorts in turn order")]
    kind: Kind
    line: Annotated[str, Field(min_length=1, max_length=MAX_LINE_CHARS)]
    outcome: Annotated[str | None, Field(max_length=MAX_OUTCOME_CHARS)] = None
    status: Status
    at: Annotated[int, Field(ge=0, description="When this happened, epoch milliseconds")]


class Turn(BaseModel):
    """Where a turn's steps go: the state machine passes it to every writer."""

    turnId: Annotated[str, Field(pattern=TURN_ID_PATTERN)]
    expiresAt: Annotated[int, Field(gt=0, description="Epoch seconds; the item's TTL")]

    @classmethod
    def of(cls, value: Any) -> Turn | None:
        """The turn an event names, or None (nothing is written for it)."""
        try:
            return cls.model_validate(value)
        except ValidationError:
            return None


class ToolStep(BaseModel):
    """A tool call's line, made when the model asks for it and handed to the tool; without
    ``line`` (the state machine's own catalog search), the tool words its call itself."""

    key: str
    line: str | None = None


# -- keys: the order of a turn's steps -------------------------------------------------------


def said_key(round: int) -> str:
    """What the model wrote before asking for round ``round``'s tools."""
    return f"r{round:02d}.a"


def tool_key(round: int, index: int) -> str:
    return f"r{round:02d}.t{index:02d}"


def reading_key(round: int) -> str:
    """The model reading round ``round``'s results: after that round's tools."""
    return f"r{round:02d}.z"


CHECK_KEY = "s.check"
"""The answer checked against the catalog: after every round."""


def now_ms() -> int:
    return int(time.time() * 1000)


def step(key: str, kind: Kind, line: str, status: Status, outcome: str | None = None) -> Step:
    """A step happening now, its words cleaned and capped."""
    return Step(
        step=key,
        kind=kind,
        line=clean_text(line.replace("\n", " "), MAX_LINE_CHARS) or "…",
        outcome=clean_text(outcome, MAX_OUTCOME_CHARS) if outcome else None,
        status=status,
        at=now_ms(),
    )


def item(turn: Turn, shown: Step) -> dict[str, dict[str, str]]:
    """The steps table's item for ``shown`` (DynamoDB's wire format)."""
    return {
        PARTITION_KEY: {"S": turn.turnId},
        SORT_KEY: {"S": shown.step},
        SHOWN_ATTRIBUTE: {"S": shown.model_dump_json(exclude_none=True)},
        TTL_ATTRIBUTE: {"N": str(turn.expiresAt)},
    }


# -- reading: one query and one body, for the dev server and the deployed route ---------------


def valid_turn_id(value: str) -> bool:
    return bool(_TURN_ID.match(value))


def steps_query(table: str, turn_id: str, now_s: int) -> dict[str, Any]:
    """The Query that reads a turn's live steps, in order; infra/trace.py renders the same
    request as API Gateway's mapping template. Expired items are filtered out (TTL deletes
    lazily), and a strongly consistent read sees a step as soon as it is written."""
    return {
        "TableName": table,
        "ConsistentRead": True,
        "KeyConditionExpression": f"{PARTITION_KEY} = :turn",
        "FilterExpression": f"{TTL_ATTRIBUTE} > :now",
        "ExpressionAttributeValues": {":turn": {"S": turn_id}, ":now": {"N": str(now_s)}},
        "ProjectionExpression": SHOWN_ATTRIBUTE,
    }


def steps_body(items: Sequence[Mapping[str, Any]]) -> str:
    """The route's 200 body: each item's step as written, in key order."""
    return '{"steps": [' + ", ".join(str(i[SHOWN_ATTRIBUTE]["S"]) for i in items) + "]}"


def read_steps(dynamodb: Any, table: str, turn_id: str, now_s: int | None = None) -> str | None:
    """``GET /query/{turnId}/steps``'s body, or None for a malformed id (a 400)."""
    if not valid_turn_id(turn_id):
        return None
    now = int(time.time()) if now_s is None else now_s
    response = dynamodb.query(**steps_query(table, turn_id, now))
    return steps_body(response.get("Items") or [])


MALFORMED_TURN_ID = "turnId: not a valid turn id (32 lowercase hexadecimal characters)"
