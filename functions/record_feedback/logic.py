"""Record a shopper's rating of an answer, or a click on one of its products, with the turn.

The turn is the sessions table's item that the state machine's ``SaveTurn`` wrote: it is
found by the session the request names and the page's turn id (``turnId``), so a
session can rate and report clicks only on its own answers, and an expired or unknown
turn is 404 alike. A rating replaces the turn's earlier one (``feedback``); a click adds
the product to the turn's set of clicked (or added to cart) products, once however many
times it is clicked. Everything stays in the turn's item, under its TTL.

:func:`record` answers the HTTP request (status and JSON body) for the deployed function
and ``storechat serve`` alike; :class:`SessionTurns` is the table, behind a small adapter.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from record_feedback.schema import (
    EVENT_ATTRIBUTES,
    FEEDBACK_ATTRIBUTE,
    TURN_ID_ATTRIBUTE,
    ClickFeedback,
    Feedback,
    RatingFeedback,
    parse_feedback,
)
from shared.api.query import RequestRejected
from shared.api.vocabulary import INVALID_REQUEST, NOT_FOUND, UNAVAILABLE
from shared.trace.steps import MALFORMED_TURN_ID, TURN_ID_PATTERN

_TURN_ID = re.compile(TURN_ID_PATTERN)
NOT_THIS_SESSIONS = "This answer is not one of this conversation's, or it has expired."
Key = dict[str, Any]


class FeedbackUnavailable(Exception):
    """The sessions table could not be read or written."""


class SessionTurns:
    """The sessions table's turns, read and updated by key with one DynamoDB client."""

    def __init__(self, client: Any, table: str, *, clock: Callable[[], float] = time.time) -> None:
        self._client = client
        self._table = table
        self._clock = clock

    def key_of(self, session_id: str, turn_id: str) -> Key | None:
        """The key of ``session_id``'s live turn ``turn_id``, or None."""
        query = {
            "TableName": self._table,
            "KeyConditionExpression": "sessionId = :s",
            "FilterExpression": "#turn = :t AND expiresAt > :now",
            "ExpressionAttributeNames": {"#turn": TURN_ID_ATTRIBUTE},
            "ExpressionAttributeValues": {
                ":s": {"S": session_id},
                ":t": {"S": turn_id},
                ":now": {"N": str(int(self._clock()))},
            },
            "ProjectionExpression": "sessionId, turnKey",
        }
        try:
            for page in self._client.get_paginator("query").paginate(**query):
                for item in page.get("Items", []):
                    return {"sessionId": item["sessionId"], "turnKey": item["turnKey"]}
        except (ClientError, BotoCoreError) as exc:
            raise FeedbackUnavailable(str(exc)) from exc
        return None

    def update(self, key: Key, expression: str, names: dict[str, str], values: Key) -> bool:
        """Apply ``expression`` to the turn at ``key``; False when it is gone meanwhile."""
        try:
            self._client.update_item(
                TableName=self._table,
                Key=key,
                UpdateExpression=expression,
                ConditionExpression="attribute_exists(turnKey)",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise FeedbackUnavailable(str(exc)) from exc
        except BotoCoreError as exc:
            raise FeedbackUnavailable(str(exc)) from exc
        return True


def _apply(turns: SessionTurns, key: Key, feedback: Feedback, now: float) -> bool:
    if isinstance(feedback, RatingFeedback):
        stored = {"rating": feedback.rating, "comment": feedback.comment, "at": int(now)}
        return turns.update(
            key,
            "SET #f = :f",
            {"#f": FEEDBACK_ATTRIBUTE},
            {":f": {"S": json.dumps(stored, ensure_ascii=False)}},
        )
    assert isinstance(feedback, ClickFeedback)
    return turns.update(
        key,
        "ADD #e :p",
        {"#e": EVENT_ATTRIBUTES[feedback.event]},
        {":p": {"SS": [feedback.productId]}},
    )


def record(
    turns: SessionTurns, turn_id: str, raw: bytes | str, *, clock: Callable[[], float] = time.time
) -> tuple[HTTPStatus, dict[str, Any]]:
    """``POST /query/{turn_id}/feedback`` with body ``raw``: the status and JSON body.

    200 ``{"turnId", "recorded"}``; 400 ``invalid_request`` saying which rule a body
    breaks; 404 ``not_found`` for a turn that is not this session's (or has expired);
    502 ``unavailable`` when the table cannot be reached.
    """
    if not _TURN_ID.match(turn_id):
        return HTTPStatus.BAD_REQUEST, INVALID_REQUEST.body(MALFORMED_TURN_ID)
    try:
        feedback = parse_feedback(raw)
    except RequestRejected as exc:
        return HTTPStatus.BAD_REQUEST, INVALID_REQUEST.body(str(exc))
    try:
        key = turns.key_of(feedback.sessionId, turn_id)
        if key is None or not _apply(turns, key, feedback, clock()):
            return HTTPStatus.NOT_FOUND, NOT_FOUND.body(NOT_THIS_SESSIONS)
    except FeedbackUnavailable:
        return HTTPStatus.BAD_GATEWAY, UNAVAILABLE.body()
    recorded = "rating" if isinstance(feedback, RatingFeedback) else feedback.event
    return HTTPStatus.OK, {"turnId": turn_id, "recorded": recorded}
