"""The live trace through the whole loop on moto: what each step says, who may read it, and
that a step that cannot be written costs the shopper nothing."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from shared.api.vocabulary import INVALID_REQUEST
from shared.trace import steps
from storechat.local import LocalStorechat
from storechat.local.runner import STEPS_TABLE
from storechat.server import make_server, running
from tests.integration.converse_fixtures import (
    asks_for_tools,
    lookup,
    replies,
    tool_use,
    write_replay,
)

TURN = "5f0c8a3e9b2d4c6a8e1f0a2b3c4d5e6f"


def _steps(local: LocalStorechat, turn: str = TURN) -> list[dict[str, Any]]:
    body = local.steps(turn)
    assert body is not None
    found: list[dict[str, Any]] = json.loads(body)["steps"]
    return found


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_turn_shows_its_search_its_reading_and_its_check_in_the_shoppers_words(
    tmp_path: Path,
) -> None:
    # Given a model that says a word, asks for the catalog, then answers citing a laptop
    replay = write_replay(
        tmp_path,
        [
            asks_for_tools(
                lookup("t1", category="COMPUTERS", keywords="gaming laptops", maxPrice=1500),
                lookup("t2", productIds=["CMP-003"]),
                text="Let me look that up.",
            ),
            replies("The ASUS Vivobook Go 14 [CMP-003] is a good pick."),
        ],
    )
    with LocalStorechat(model=replay, search_first=False) as local:
        # When the shopper asks, with the page's turn id
        result = local.ask("A gaming laptop under $1,500?", turn_id=TURN)
        shown = _steps(local)

    # Then the trace reads, in order, as the shopper would say it
    assert result.body is not None and result.body["outcome"] == "answered"
    # (the search's count is the one the model was told)
    matches = result.body["trace"][0]["summary"].split(" ", 1)[0]
    assert [(s["kind"], s["line"], s.get("outcome"), s["status"]) for s in shown] == [
        ("said", "Let me look that up.", None, "done"),
        (
            "tool",
            "Searching the catalog for gaming laptops under $1,500",
            f"{matches} found",
            "done",
        ),
        ("tool", "Looking up CMP-003 in the catalog", "1 found", "done"),
        ("think", "Reading what I found", None, "done"),
        ("check", "Checking 1 product in the answer against the catalog", "all match", "done"),
    ]
    # And no step holds more than that: no tool output, no prompt, no other field
    assert all(set(s) <= {"step", "kind", "line", "outcome", "status", "at"} for s in shown)


def test_a_failing_and_a_timed_out_tool_say_so_in_their_lines(tmp_path: Path) -> None:
    # Given a catalog tool that crashes and a reviews tool that never answers in time
    def crashes(event: dict[str, Any], context: Any) -> Any:
        raise RuntimeError("boom")

    def hangs(event: dict[str, Any], context: Any) -> Any:
        time.sleep(6)
        raise RuntimeError("too late")

    replay = write_replay(
        tmp_path,
        [
            asks_for_tools(
                lookup(category="COMPUTERS"),
                tool_use("t2", "get_computer_reviews", {"query": "Dell XPS 13"}),
                tool_use("t3", "order_pizza", {}),
            ),
            replies("Sorry, I could not look that up right now."),
        ],
    )
    overrides = {"lookup_inventory": crashes, "get_computer_reviews": hangs}
    with LocalStorechat(model=replay, overrides=overrides, search_first=False) as local:
        # When the shopper asks
        result = local.ask("Laptops, and reviews of the Dell XPS 13?", turn_id=TURN)
        shown = {s["line"]: s for s in _steps(local) if s["kind"] == "tool"}

    # Then the turn is answered, and each line says how its tool ended
    assert result.body is not None and result.body["outcome"] == "answered"
    crashed = shown["Searching the catalog for computers"]
    timed_out = shown["Reading reviews of the Dell XPS 13"]
    unknown = shown["Asking for a tool I don't have (order_pizza)"]
    assert (crashed["status"], crashed["outcome"]) == ("failed", "failed")
    assert (timed_out["status"], timed_out["outcome"]) == ("failed", "did not answer in time")
    assert (unknown["status"], unknown["outcome"]) == ("failed", "no such tool")


def test_steps_that_cannot_be_written_cost_the_shopper_nothing(tmp_path: Path) -> None:
    # Given a steps table that is gone (every write of a step fails, the state machine's too)
    replay = write_replay(
        tmp_path,
        [
            asks_for_tools(lookup(category="COMPUTERS"), tool_use("t2", "no_such_tool", {})),
            replies("The ASUS Vivobook Go 14 [CMP-003] is a good pick."),
        ],
    )
    with LocalStorechat(model=replay, search_first=False) as local:
        local._dynamodb.delete_table(TableName=STEPS_TABLE)
        started = time.perf_counter()
        # When the shopper asks
        result = local.ask("A laptop?", turn_id=TURN)
        took = time.perf_counter() - started

    # Then the answer is the same as ever, with its products and its saved turn
    assert result.status == "SUCCEEDED" and result.body is not None
    assert result.body["outcome"] == "answered"
    assert [p["productId"] for p in result.body["products"]] == ["CMP-003"]
    assert result.body["historySaved"] is True
    # (a write gives up fast: the whole turn is far inside its first retry's wait)
    assert took < 10


def test_only_a_live_well_formed_turn_id_reads_steps(tmp_path: Path) -> None:
    replay = write_replay(tmp_path, [asks_for_tools(lookup()), replies("Here [CMP-003].")])
    with (
        LocalStorechat(model=replay, search_first=False) as local,
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        local.ask("A laptop?", turn_id=TURN)
        # Given a step of another turn that has expired but is still in the table
        expired = steps.Turn(turnId="e" * 32, expiresAt=int(time.time()) - 1)
        local._dynamodb.put_item(
            TableName=STEPS_TABLE,
            Item=steps.item(expired, steps.step(steps.tool_key(1, 0), "tool", "old", "done")),
        )
        base = f"{server.url}query"

        # The holder of the id reads its steps
        status, body = _get(f"{base}/{TURN}/steps")
        assert status == 200 and len(body["steps"]) >= 2
        # A wrong id, an expired one and one not used yet all read the same empty list
        for other in ("0" * 32, "e" * 32, "a1" * 16):
            assert _get(f"{base}/{other}/steps") == (200, {"steps": []})
        # A malformed one reads nothing and is told why
        for bad in ("TURN", TURN.upper(), TURN + "0", "%22%7D", ""):
            assert _get(f"{base}/{bad}/steps") == (
                400,
                INVALID_REQUEST.body(steps.MALFORMED_TURN_ID),
            )


@pytest.mark.parametrize("bad", ["../x", "A" * 32, "0" * 31, 17])
def test_a_question_with_a_malformed_turn_id_is_refused(tmp_path: Path, bad: Any) -> None:
    with (
        LocalStorechat() as local,
        running(make_server(local, "127.0.0.1", 0)) as server,
    ):
        body = json.dumps({"message": "hi", "turnId": bad}).encode()
        request = urllib.request.Request(f"{server.url}query", data=body, method="POST")
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("accepted")
        except urllib.error.HTTPError as error:
            assert error.code == 400
            message = json.loads(error.read())["message"]
    assert message.startswith("turnId:")
