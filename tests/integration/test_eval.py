"""``storechat eval`` through the real loop: the offline model holds its floor.

The whole question set (every ``evals/*.jsonl``) runs with the offline model, and each
rate of ``evals/offline_floor.json`` must still be reached. The floor is what the
offline model scored when it was set, rounded down: a regression fails here, an
improvement is free (raise the floor to keep it). The book tool reads a canned Open
Library built from the catalog's own books, and the reviews tool has no key, so the run
needs no network and scores the same everywhere.
"""

from __future__ import annotations

import io
import json
import re
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from bench.loopback import serving
from shared.catalog_data import load_catalog
from storechat.cli import main
from storechat.evaluate import report
from storechat.evaluate.checks import SCORES
from storechat.evaluate.compare import below_floor, floor_of
from storechat.evaluate.pricing import pricing_for
from storechat.evaluate.questions import QUESTIONS_DIR, default_question_files, load_questions
from storechat.evaluate.run import evaluate
from storechat.local import LocalStorechat

FLOOR = QUESTIONS_DIR / "offline_floor.json"
_IGNORED = {"the", "a", "an", "of", "and", "by", "book", "books", "novel", "about"}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.casefold())) - _IGNORED


def _open_library_docs(query: str) -> list[dict[str, Any]]:
    """The catalog's books whose title and author hold every word of ``query``."""
    wanted = _words(query)
    if not wanted:
        return []
    docs = []
    for book in load_catalog():
        specs = book["specs"]
        if book["category"] == "BOOKS" and wanted <= _words(f"{book['name']} {specs['author']}"):
            docs.append(
                {
                    "key": f"/works/{book['productId']}",
                    "title": book["name"],
                    "author_name": [specs["author"]],
                    "first_publish_year": specs["year"],
                    "number_of_pages_median": specs["pages"],
                    "isbn": [specs["isbn"]],
                    "subject": [specs["genre"]],
                }
            )
    return docs[:3]


@contextmanager
def canned_open_library() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urllib.parse.urlparse(self.path)
            query = urllib.parse.parse_qs(url.query).get("q", [""])[0]
            docs = _open_library_docs(query) if url.path == "/search.json" else []
            body = json.dumps({"numFound": len(docs), "docs": docs}).encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return None

    with serving(Handler) as url:
        yield url


def offline_env(open_library: str) -> dict[str, str]:
    # Blank keys are "not configured": a developer's own Brave key must not reach the run.
    return {
        "OPENLIBRARY_BASE_URL": open_library,
        "BRAVE_API_KEY": "",
        "BRAVE_API_KEY_SECRET_ARN": "",
    }


@pytest.fixture(scope="module")
def offline_run() -> list[dict[str, Any]]:
    questions = load_questions(default_question_files())
    with (
        canned_open_library() as open_library,
        LocalStorechat(model="offline", env=offline_env(open_library)) as local,
    ):
        results = evaluate(local, questions, pricing_for("offline"), io.StringIO())
    return [r.as_json() for r in results]


def test_the_offline_model_holds_its_floor(offline_run: list[dict[str, Any]]) -> None:
    # Given the floor the offline model set
    floor = json.loads(FLOOR.read_text(encoding="utf-8"))
    # When the whole question set runs again
    totals = report.totals(offline_run)
    # Then no rate falls below it
    problems = below_floor(totals, floor)
    assert not problems, (
        "the offline model scores below its floor:\n  "
        + "\n  ".join(problems)
        + "\nIf the drop is intended, the floor it scores now is:\n"
        + json.dumps(floor_of(totals), indent=2)
    )


def test_every_question_ran_and_was_scored(offline_run: list[dict[str, Any]]) -> None:
    assert len(offline_run) == len(load_questions(default_question_files()))
    for q in offline_run:
        assert not any("execution" in f for f in q["failures"]), (q["id"], q["failures"])
        assert q["scores"]["citations"] is not None
        assert q["modelCalls"] >= 1 and q["usage"]["inputTokens"] > 0
        assert q["costUsd"] is not None and q["costUsd"] > 0


def test_the_floor_names_every_score_and_the_kinds_of_the_set() -> None:
    floor = json.loads(FLOOR.read_text(encoding="utf-8"))
    kinds = {q.question.kind for q in load_questions(default_question_files())}
    assert set(floor["scores"]) == set(SCORES)
    assert set(floor["kinds"]) <= kinds


def test_eval_writes_the_reports_and_compares_two_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a small question file: one the offline model answers, one nobody can
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    questions = tmp_path / "q.jsonl"
    lines = [
        {
            "id": "android",
            "kind": "single",
            "turns": ["Can you recommend an Android phone?"],
            "expect": {"category": "MOBILE", "os": "Android", "minProducts": 1},
        },
        {
            "id": "unknown-product",
            "kind": "named-product",
            "turns": ["Tell me about the XYZ-000."],
            "expect": {"productIds": ["XYZ-000"]},  # no catalog holds it: fails every time
        },
    ]
    questions.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    first, second = tmp_path / "first", tmp_path / "second"

    # When it runs twice, the second time compared with the first
    assert main(["eval", "--questions", str(questions), "--out", str(first)]) == 0
    progress = capsys.readouterr().err
    assert (
        main(
            [
                "eval",
                *("--questions", str(questions), "--out", str(second)),
                *("--compare", str(first / "report.json")),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out

    # Then progress showed a line per question, and both reports were written
    assert "[1/2] ✓ android" in progress
    assert "[2/2] ✗ unknown-product" in progress and "XYZ-000 not shown" in progress
    saved = json.loads((second / "report.json").read_text(encoding="utf-8"))
    assert saved["totals"]["questions"] == 2 and saved["totals"]["passed"] == 1
    assert saved["comparison"]["better"] == [] and saved["comparison"]["worse"] == []
    markdown = (second / "report.md").read_text(encoding="utf-8")
    assert "| android | single | pass |" in markdown
    assert "## Compared with the earlier run" in markdown
    assert "1 of 2 questions pass" in out and "worse: none" in out
