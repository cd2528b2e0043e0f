"""A local system gives its handlers their environment without touching the process's."""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import boto3
import pytest

from converse.settings import get_settings as converse_settings
from lookup_inventory.settings import get_settings as catalog_settings
from shared.config.environment import environ
from shared.runtime.observability import logger, metrics
from storechat.local import LocalStorechat
from storechat.local.runner import CATALOG_TABLE, REGION, SESSIONS_TABLE
from storechat.offline import OFFLINE_MODEL_ID
from tests.integration.converse_fixtures import replies, write_replay

QUESTION = "What Windows PC do you have which is best for a high school student?"

RUNNER_KEYS = (
    "MODEL_PROVIDER",
    "MODEL_ID",
    "CATALOG_TABLE_NAME",
    "AWS_DEFAULT_REGION",
    "AWS_REGION",
)
"""Variables the local runner used to write into ``os.environ`` (and every POWERTOOLS_*)."""


def _runner_keys_in_os_environ() -> dict[str, str | None]:
    seen: dict[str, str | None] = {key: os.environ.get(key) for key in RUNNER_KEYS}
    seen.update({k: v for k, v in os.environ.items() if k.startswith("POWERTOOLS_")})
    return seen


def test_the_process_environment_is_the_same_before_during_and_after_a_run() -> None:
    # Given what the process environment holds before a local system starts
    before = _runner_keys_in_os_environ()
    seen_by_handler: list[tuple[dict[str, str | None], dict[str, str]]] = []

    def catalog_tool(event: dict[str, Any], context: Any) -> Any:
        from lookup_inventory.handler import lambda_handler

        seen_by_handler.append(
            (
                _runner_keys_in_os_environ(),
                {key: environ()[key] for key in ("MODEL_PROVIDER", "CATALOG_TABLE_NAME")},
            )
        )
        return lambda_handler(event, context)

    # When it answers a question that calls the catalog tool
    with LocalStorechat(overrides={"lookup_inventory": catalog_tool}) as local:
        during = _runner_keys_in_os_environ()
        result = local.ask(QUESTION)
        settings = catalog_settings()
    after = _runner_keys_in_os_environ()

    # Then the question was answered with products from the catalog
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    assert result.body["outcome"] == "answered" and result.body["products"]
    assert seen_by_handler, "the catalog tool was not called"
    handler_os_environ, handler_environ = seen_by_handler[0]
    # And the process environment never changed: not in the handler's thread, not in this one
    assert handler_os_environ == before
    assert during == before
    assert after == before
    # And yet the handler read the system's variables, and the catalog client its region
    assert handler_environ == {"MODEL_PROVIDER": "offline", "CATALOG_TABLE_NAME": CATALOG_TABLE}
    assert settings.region == REGION


def test_two_systems_in_sequence_each_use_their_own_model(tmp_path: Path) -> None:
    # Given an offline system, then one that replays a recorded reply
    recorded = "Recorded answer: the replay model was used."
    replay = write_replay(tmp_path, [replies(recorded)])
    models: list[tuple[str, str]] = []

    def converse(event: dict[str, Any], context: Any) -> Any:
        from converse.handler import lambda_handler

        settings = converse_settings()
        models.append((settings.provider, settings.model_id))
        return lambda_handler(event, context)

    # When each answers the same question
    with LocalStorechat(model="offline", overrides={"converse": converse}) as local:
        offline = local.ask(QUESTION)
    with LocalStorechat(model=replay, overrides={"converse": converse}) as local:
        replayed = local.ask(QUESTION)

    # Then the first answered with the offline model and the second with the recording
    assert offline.body is not None and replayed.body is not None
    assert offline.body["outcome"] == replayed.body["outcome"] == "answered"
    assert offline.body["answer"].startswith("Our Windows computers")
    assert replayed.body["answer"] == recorded
    assert models[0] == ("offline", OFFLINE_MODEL_ID)
    assert models[-1] == (replay, "storechat.replay")
    # And outside a system, handlers read the process environment again
    assert environ() is os.environ


def test_metrics_stay_off_stdout_and_shared_objects_are_given_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given the shared Logger and Metrics as the process has them
    level, namespace = logger.log_level, metrics.namespace

    # When a local system answers with its own log level
    with LocalStorechat(log_level="ERROR") as local:
        assert logger.log_level == logging.ERROR and metrics.namespace == "Storechat"
        result = local.ask(QUESTION)

    # Then nothing but the test's own output reached stdout, no metric is left behind
    assert result.status == "SUCCEEDED"
    assert capsys.readouterr().out == ""
    assert not metrics.metric_set
    # And the Logger and Metrics are as they were
    assert (logger.log_level, metrics.namespace) == (level, namespace)


def test_saved_sessions_that_expired_are_not_loaded(tmp_path: Path) -> None:
    # Given a sessions file with one live turn and one expired turn
    def turn(session: str, expires: float) -> dict[str, Any]:
        return {
            "sessionId": {"S": session},
            "turnKey": {"S": "0001"},
            "expiresAt": {"N": str(int(expires))},
        }

    now = time.time()
    (tmp_path / "sessions.json").write_text(
        json.dumps([turn("live", now + 3600), turn("expired", now - 1)]), encoding="utf-8"
    )

    # When a local system starts from it
    with LocalStorechat(data_dir=tmp_path, catalog=[]):
        items = boto3.client("dynamodb", region_name=REGION).scan(TableName=SESSIONS_TABLE)

    # Then only the live turn is in the sessions table
    assert [item["sessionId"]["S"] for item in items["Items"]] == ["live"]


@pytest.mark.parametrize("text", ["[{", '{"not": "a list"}', '[{"expiresAt": "soon"}]'])
def test_a_damaged_sessions_file_is_reported_and_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    # Given a sessions file that is not what the runner writes
    path = tmp_path / "sessions.json"
    path.write_text(text, encoding="utf-8")

    # When a local system starts from it and answers
    with LocalStorechat(data_dir=tmp_path) as local:
        result = local.ask("hello")

    # Then the question is answered, the damage is reported on stderr, not stdout
    assert result.status == "SUCCEEDED"
    captured = capsys.readouterr()
    assert f"warning: ignoring unreadable {path}" in captured.err
    assert captured.out == ""
    # And the file now holds this turn, written whole
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(saved, list) and saved
    assert not list(tmp_path.glob("*.tmp"))
