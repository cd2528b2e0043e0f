"""POST /query/{turnId}/feedback through the dev server: ratings and clicks kept with the
turn, under the route's rules (the deployed function answers from the same code)."""

from __future__ import annotations

import http.client
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from record_feedback.schema import EVENT_ATTRIBUTES, FEEDBACK_ATTRIBUTE, MAX_COMMENT_CHARS
from storechat.local import LocalStorechat
from storechat.local.runner import REGION, SESSIONS_TABLE
from storechat.server import make_server, running
from tests.support.searched import searched_as


@dataclass
class Answered:
    session_id: str
    turn_id: str
    product_ids: list[str]


@dataclass
class Served:
    local: LocalStorechat
    host: str
    port: int

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        raw = body if isinstance(body, bytes | str) else json.dumps(body)
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request(
                "POST",
                path,
                body=raw,
                headers={"Content-Type": "application/json", **(headers or {})},
            )
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    def ask(self, message: str) -> Answered:
        turn_id = uuid.uuid4().hex
        status, body = self.post("/query", {"message": message, "turnId": turn_id})
        assert status == 200, body
        return Answered(body["sessionId"], turn_id, [p["productId"] for p in body["products"]])

    def feedback(self, turn_id: str, body: Any) -> tuple[int, Any]:
        return self.post(f"/query/{turn_id}/feedback", body)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    # (the offline model going first: the turn's search is its own, with the brand it read)
    with (
        LocalStorechat(search_first=False) as local,
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        host, port = server.server_address[:2]
        yield Served(local, str(host), int(port))


@pytest.fixture(scope="module")
def answered(served: Served) -> Answered:
    answer = served.ask("cheap Samsung phone")
    assert answer.product_ids, "the sample catalog has Samsung phones"
    return answer


def stored_turn(answer: Answered) -> dict[str, Any]:
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    items = dynamodb.query(
        TableName=SESSIONS_TABLE,
        KeyConditionExpression="sessionId = :s",
        ExpressionAttributeValues={":s": {"S": answer.session_id}},
    )["Items"]
    return next(item for item in items if item["turnId"]["S"] == answer.turn_id)


def test_a_rating_with_a_comment_is_kept_with_the_turn(served: Served, answered: Answered) -> None:
    # When the shopper rates the answer "Not helpful" with a comment
    status, body = served.feedback(
        answered.turn_id,
        {"sessionId": answered.session_id, "rating": "down", "comment": "I wanted the S24"},
    )
    # Then it is recorded, and the turn holds the rating and the comment
    assert (status, body) == (200, {"turnId": answered.turn_id, "recorded": "rating"})
    kept = json.loads(stored_turn(answered)[FEEDBACK_ATTRIBUTE]["S"])
    assert (kept["rating"], kept["comment"]) == ("down", "I wanted the S24")


def test_contact_details_in_a_comment_are_not_kept(served: Served, answered: Answered) -> None:
    # When a comment holds an e-mail address and a phone number
    comment = "call me on +44 20 7946 0958 or mail jo.bloggs@example.co.uk, the S24 please"
    status, _ = served.feedback(
        answered.turn_id, {"sessionId": answered.session_id, "rating": "down", "comment": comment}
    )
    # Then the comment is kept without them
    assert status == 200
    kept = json.loads(stored_turn(answered)[FEEDBACK_ATTRIBUTE]["S"])["comment"]
    assert kept == "call me on [removed] or mail [removed], the S24 please"


def test_a_second_rating_replaces_the_first(served: Served, answered: Answered) -> None:
    # Given a rating "down" with a comment
    served.feedback(
        answered.turn_id, {"sessionId": answered.session_id, "rating": "down", "comment": "no"}
    )
    # When the shopper changes their mind
    status, _ = served.feedback(
        answered.turn_id, {"sessionId": answered.session_id, "rating": "up"}
    )
    # Then the turn has one rating, the later one, without the earlier comment
    assert status == 200
    kept = json.loads(stored_turn(answered)[FEEDBACK_ATTRIBUTE]["S"])
    assert (kept["rating"], kept["comment"]) == ("up", None)


def test_another_sessions_turn_cannot_be_rated(served: Served, answered: Answered) -> None:
    # Given a turn of another conversation
    other = served.ask("a book by Ursula K. Le Guin")
    # When this session sends a rating of it
    status, body = served.feedback(
        other.turn_id, {"sessionId": answered.session_id, "rating": "down"}
    )
    # Then it is 404 with a JSON error, and the other turn keeps no rating
    assert status == 404
    assert body["error"] == "not_found"
    assert "not one of this conversation's" in body["message"]
    assert FEEDBACK_ATTRIBUTE not in stored_turn(other)


def test_a_comment_of_501_characters_is_refused_and_nothing_is_kept(served: Served) -> None:
    answer = served.ask("a light laptop")
    # When the comment is one character too long
    status, body = served.feedback(
        answer.turn_id,
        {
            "sessionId": answer.session_id,
            "rating": "down",
            "comment": "x" * (MAX_COMMENT_CHARS + 1),
        },
    )
    # Then the shopper's client reads why, and the turn holds no rating
    assert status == 400
    assert body == {
        "error": "invalid_request",
        "message": f"comment: at most {MAX_COMMENT_CHARS} characters",
    }
    assert FEEDBACK_ATTRIBUTE not in stored_turn(answer)


SESSION = object()
"""Stands for the answer's own session id in the cases below."""


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("{not json", "request body is not valid JSON"),
        ("[1, 2]", "request body must be a JSON object"),
        ({"rating": "down"}, "sessionId: required"),
        ({"sessionId": SESSION, "rating": "meh"}, "rating: Input should be 'up' or 'down'"),
        (
            {"sessionId": SESSION, "event": "hover", "productId": "MOB-001"},
            "event: Input should be 'click' or 'add_to_cart'",
        ),
        ({"sessionId": SESSION, "event": "click"}, "productId: required"),
        (
            {"sessionId": SESSION, "rating": "up", "event": "click"},
            "send either a rating or an event, not both",
        ),
        ({"sessionId": SESSION, "rating": "up", "email": "a@b.c"}, "email: unknown field"),
    ],
)
def test_a_body_that_breaks_the_rules_gets_a_400_saying_which(
    served: Served, answered: Answered, raw: Any, says: str
) -> None:
    if isinstance(raw, dict):
        raw = {k: answered.session_id if v is SESSION else v for k, v in raw.items()}
    # When the body is posted
    status, answer = served.feedback(answered.turn_id, raw)
    # Then it is 400 with the rule it breaks
    assert status == 400
    assert answer["error"] == "invalid_request"
    assert says in answer["message"]


def test_a_malformed_turn_id_is_400(served: Served, answered: Answered) -> None:
    status, body = served.feedback("not-a-turn", {"sessionId": answered.session_id, "rating": "up"})
    assert status == 400
    assert "turnId: not a valid turn id" in body["message"]


def test_clicks_and_add_to_cart_count_each_product_once_per_turn(
    served: Served, answered: Answered
) -> None:
    first = answered.product_ids[0]
    # When the shopper clicks a card twice and adds it to the cart
    for event in ("click", "click", "add_to_cart"):
        status, body = served.feedback(
            answered.turn_id,
            {"sessionId": answered.session_id, "event": event, "productId": first},
        )
        assert (status, body["recorded"]) == (200, event)
    # Then the turn lists the product once as clicked and once as added to the cart
    turn = stored_turn(answered)
    assert turn[EVENT_ATTRIBUTES["click"]]["SS"] == [first]
    assert turn[EVENT_ATTRIBUTES["add_to_cart"]]["SS"] == [first]


def test_a_page_of_another_origin_is_refused(served: Served, answered: Answered) -> None:
    status, body = served.post(
        f"/query/{answered.turn_id}/feedback",
        {"sessionId": answered.session_id, "rating": "up"},
        {"Origin": "https://elsewhere.example"},
    )
    assert (status, body["error"]) == (403, "origin_not_allowed")


def test_the_turn_keeps_what_its_searches_asked_for_and_found(
    served: Served, answered: Answered
) -> None:
    # The state machine's SaveTurn: the catalog search's demand, beside the turn
    insight = json.loads(stored_turn(answered)["insight"]["S"])
    (search,) = insight["searches"]
    assert search["input"] == {"keywords": "cheap Samsung phone"}
    assert "samsung" in searched_as(search["input"])["searched"]
    assert search["found"] >= len(answered.product_ids)
    assert (search["relaxed"], search["unknown"]) == ([], [])
    assert insight["fallbackReason"] is None
