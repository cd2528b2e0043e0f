"""``storechat insights`` on a generated week of turns: each figure printed, and ``--json``
the same figures; read locally from ``sessions.json`` and from a deployed stack's table."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from storechat import cli
from storechat.doctor.deployed import DeployedStack
from storechat.evaluate.questions import QuestionsInvalid, load_questions
from storechat.insights import command
from storechat.insights.command import run_insights
from storechat.settings import LocalSettings
from tests.support.week import Week, generate_week

NOW = datetime.now(UTC)


@pytest.fixture(scope="module")
def week() -> Week:
    return generate_week(NOW)


@pytest.fixture
def home(tmp_path: Path, week: Week) -> Path:
    (tmp_path / "sessions.json").write_text(json.dumps(week.items), encoding="utf-8")
    return tmp_path


def insights(home: Path, *argv: str) -> str:
    args = cli.build_parser(LocalSettings(home=home)).parse_args(["insights", *argv])
    out = io.StringIO()
    assert run_insights(args, out=out) == 0
    return out.getvalue()


def test_the_report_prints_each_figure_of_the_week(home: Path, week: Week) -> None:
    # When the store team reads the week's insights
    text = insights(home)
    lines = text.splitlines()
    # Then the questions, sessions and outcomes are the week's (older turns left out)
    assert (
        f"Questions      {sum(week.outcomes.values()):>6}  in {len(week.sessions)} session(s)"
        in lines
    )
    assert f"Answered       {week.outcomes['answered']:>6}" in lines
    assert (
        f"Fallback       {week.outcomes['fallback']:>6}  (deadline {week.outcomes['fallback']})"
        in lines
    )
    assert f"Refused        {week.outcomes['refused']:>6}" in lines
    # The searches that found nothing, and for what
    assert f"Searches that found nothing: {week.found_nothing} of {week.searches}, for:" in lines
    assert any(line.endswith("  garmin watch") for line in lines)
    # What was asked for that the catalog does not carry, with how often
    assert f"  {week.not_carried['Nokia']:>4}  Nokia" in lines
    assert f"  {week.not_carried['garmin']:>4}  garmin" in lines
    # The questions asked most, each with its count, the most asked first
    start = lines.index("Questions asked most:")
    rows = lines[start + 1 : start + 1 + len(week.questions)]
    assert rows == [
        f"  {n:>4}  {q}"
        for q, n in sorted(week.questions.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    ]
    # The ratings, and each answer rated down with its comment and its execution
    assert f"Rated helpful: {week.rated['up']}, not helpful: {week.rated['down']}" in lines
    for _question, comment, execution in week.down:
        assert f"      execution: {execution}" in lines
        if comment:
            assert f"      comment: {comment}" in lines
    # The products shown, clicked and added to the cart most
    for title, counts in (
        ("Products shown most:", week.shown),
        ("Products clicked most:", week.clicked),
        ("Products added to cart most:", week.added),
    ):
        start = lines.index(title)
        count, product = lines[start + 1].split()
        assert int(count) == max(counts.values()) == counts[product]


def test_json_holds_the_same_figures(home: Path, week: Week) -> None:
    report = json.loads(insights(home, "--json"))
    text = insights(home)
    assert report["questions"] == sum(week.outcomes.values())
    assert report["sessions"] == len(week.sessions)
    assert report["outcomes"] == {
        "answered": week.outcomes["answered"],
        "fallback": week.outcomes["fallback"],
        "refused": week.outcomes["refused"],
        "truncated": 0,
    }
    assert report["searchesFoundNothing"] == week.found_nothing
    assert {e["text"]: e["count"] for e in report["notCarried"]} == dict(week.not_carried)
    assert report["ratings"] == {"up": week.rated["up"], "down": week.rated["down"]}
    assert sorted(e["execution"] for e in report["ratedDown"]) == sorted(d[2] for d in week.down)
    assert {e["productId"]: e["count"] for e in report["products"]["clicked"]} == dict(week.clicked)
    assert {e["productId"]: e["count"] for e in report["products"]["addedToCart"]} == dict(
        week.added
    )
    # and the text says each of them
    for entry in report["foundNothingFor"] + report["topQuestions"]:
        assert f"  {entry['count']:>4}  {entry['text']}" in text


def test_rated_down_answers_become_eval_questions_that_load(home: Path, week: Week) -> None:
    target = home / "heldout" / "from-shoppers.jsonl"
    insights(home, "--as-eval", str(target))
    # Until the team writes what a right answer is, the eval refuses them, saying so
    with pytest.raises(QuestionsInvalid) as refused:
        load_questions([target])
    assert len(refused.value.problems) == len(week.down)
    assert "expect: write what a right answer satisfies" in refused.value.problems[0]
    # Once written, each loads with its question, what was shown and the comment
    written = [
        {**json.loads(line), "expect": {"minProducts": 1}}
        for line in target.read_text(encoding="utf-8").splitlines()
    ]
    target.write_text("\n".join(json.dumps(q) for q in written) + "\n", encoding="utf-8")
    loaded = load_questions([target])
    assert len(loaded) == len(week.down)
    comments = {q.question.note for q in loaded}
    for question, comment, _ in week.down:
        assert any(q.question.turns == [question] for q in loaded)
        assert (comment or "rated not helpful, without a comment") in comments
    # Run again, nothing is written twice
    insights(home, "--as-eval", str(target))
    assert len(load_questions([target])) == len(week.down)


def test_a_deployed_stacks_turns_are_read_from_its_table(
    week: Week, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        dynamodb.create_table(
            TableName="sessions",
            KeySchema=[
                {"AttributeName": "sessionId", "KeyType": "HASH"},
                {"AttributeName": "turnKey", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "sessionId", "AttributeType": "S"},
                {"AttributeName": "turnKey", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        for item in week.items:
            dynamodb.put_item(TableName="sessions", Item=item)
        # The stack's outputs as storechat doctor reads them (tested there)
        outputs = {
            command.Output.SESSIONS_TABLE_NAME: "sessions",
            command.Output.STATE_MACHINE_ARN: (
                "arn:aws:states:us-east-1:123456789012:stateMachine:loop"
            ),
        }

        def connect(stack: str, **_: Any) -> DeployedStack:
            return DeployedStack(
                stack,
                "us-east-1",
                outputs,
                lambda service, region=None: boto3.client(service, region_name="us-east-1"),
            )

        monkeypatch.setattr(command, "connect", connect)
        report = json.loads(insights(tmp_path, "--stack", "Storechat-prod", "--json"))
    assert report["questions"] == sum(week.outcomes.values())
    assert report["source"] == "stack Storechat-prod, table sessions"
    down = report["ratedDown"]
    assert len(down) == len(week.down)
    assert all("us-east-1.console.aws.amazon.com/states" in d["console"] for d in down)


def test_a_damaged_sessions_file_is_a_clear_error(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "sessions.json").write_text("{not json", encoding="utf-8")
    args = cli.build_parser(LocalSettings(home=tmp_path)).parse_args(["insights"])
    assert run_insights(args, out=io.StringIO()) == 1
    assert "error: cannot read the turns" in capsys.readouterr().err
