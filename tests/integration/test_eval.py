"""``storechat eval`` through the real loop: the offline model holds its floors.

The whole question set runs with the offline model: the development set (every
``evals/*.jsonl``) and the held-out set (``evals/heldout/``, on the bundled catalog with
``evals/heldout/catalog.jsonl`` imported). Each set's rates in
``evals/offline_floor.json`` must still be reached. A floor is what the offline model
scored when it was set, rounded down: a regression fails here, an improvement is free
(raise the floor to keep it). The book tool reads a canned Open Library built from the
served catalogs' own books, and the reviews tool has no key, so the run needs no
network and scores the same everywhere.
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
from storechat.cli import main
from storechat.evaluate import command, report
from storechat.evaluate.catalogs import ServedCatalog, served_catalogs
from storechat.evaluate.checks import SCORES
from storechat.evaluate.compare import below_floors, floors_of
from storechat.evaluate.pricing import pricing_for
from storechat.evaluate.questions import (
    QUESTIONS_DIR,
    default_question_files,
    load_questions,
)
from storechat.evaluate.run import evaluate
from storechat.local import LocalStorechat

FLOOR = QUESTIONS_DIR / "offline_floor.json"
_IGNORED = {"the", "a", "an", "of", "and", "by", "book", "books", "novel", "about"}


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.casefold())) - _IGNORED


def _open_library_docs(query: str, books: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``books`` whose title and author hold every word of ``query``."""
    wanted = _words(query)
    if not wanted:
        return []
    docs = []
    for book in books:
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
def canned_open_library(catalogs: list[ServedCatalog]) -> Iterator[str]:
    books = list(
        {
            p["productId"]: p for c in catalogs for p in c.products if p["category"] == "BOOKS"
        }.values()
    )

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urllib.parse.urlparse(self.path)
            query = urllib.parse.parse_qs(url.query).get("q", [""])[0]
            docs = _open_library_docs(query, books) if url.path == "/search.json" else []
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
def offline_run(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    questions = load_questions(default_question_files())
    served = served_catalogs(questions, tmp_path_factory.mktemp("home"))
    with canned_open_library(served) as open_library:

        def open_system(catalog: ServedCatalog) -> LocalStorechat:
            # The floors are the assistant's as it ships: the catalog searched first on
            # the shopper's words, the offline model answering from that search.
            return LocalStorechat(
                model="offline",
                catalog=catalog.products,
                env=offline_env(open_library),
                search_first=True,
            )

        results = evaluate(open_system, questions, served, pricing_for("offline"), io.StringIO())
    return [r.as_json() for r in results]


def test_the_offline_model_holds_its_floor_on_each_set(offline_run: list[dict[str, Any]]) -> None:
    # Given the floors the offline model set, one per set
    floors = json.loads(FLOOR.read_text(encoding="utf-8"))
    # When the whole question set runs again
    sets = report.by_set(offline_run)
    # Then no rate of either set falls below its floor
    problems = below_floors(sets, floors)
    assert not problems, (
        "the offline model scores below its floor:\n  "
        + "\n  ".join(problems)
        + "\nThe questions that failed, each with what it answered:\n"
        + "\n".join(_failed(offline_run))
        + "\nIf the drop is intended, the floors it scores now are:\n"
        + json.dumps(floors_of(sets), indent=2)
    )


def _failed(run: list[dict[str, Any]]) -> list[str]:
    """Each failed question's set, id, failures, tools and answer: what a drop needs."""
    return [
        f"  {q['set']} {q['id']}: {q['failures']} (tools {q['tools']}, outcome "
        f"{q['outcome']}, {q['fallbackReason']})\n    answered: {q['answer']!r}"
        for q in run
        if not q["passed"]
    ]


def test_every_question_ran_and_was_scored(offline_run: list[dict[str, Any]]) -> None:
    questions = load_questions(default_question_files())
    assert len(offline_run) == len(questions)
    assert {q["set"] for q in offline_run} == {q.set for q in questions}
    for q in offline_run:
        assert not any("execution" in f for f in q["failures"]), (q["id"], q["failures"])
        assert q["scores"]["citations"] is not None
        assert q["modelCalls"] >= 1 and q["usage"]["inputTokens"] > 0
        assert q["costUsd"] is not None and q["costUsd"] > 0


def test_the_floor_names_every_set_every_score_and_the_kinds_of_each_set() -> None:
    floors = json.loads(FLOOR.read_text(encoding="utf-8"))["sets"]
    questions = load_questions(default_question_files())
    assert set(floors) == {q.set for q in questions}
    for name, floor in floors.items():
        kinds = {q.question.kind for q in questions if q.set == name}
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


def test_eval_reports_a_held_out_set_apart_answered_from_its_imported_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a development question, and a held-out folder whose catalog.csv imports a phone
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    development = tmp_path / "q.jsonl"
    android = {
        "id": "android",
        "kind": "single",
        "turns": ["Can you recommend an Android phone?"],
        "expect": {"category": "MOBILE", "os": "Android", "minProducts": 1},
    }
    development.write_text(json.dumps(android) + "\n", encoding="utf-8")
    held_out = tmp_path / "heldout"
    held_out.mkdir()
    motorola = {**android, "id": "motorola", "kind": "imported", "turns": ["Motorola phones?"]}
    (held_out / "questions.jsonl").write_text(json.dumps(motorola) + "\n", encoding="utf-8")
    (held_out / "catalog.csv").write_text(
        "productId,name,brand,category,price,stock,description,spec.os,spec.batteryMah\n"
        "MOTO-G5G-2024,Motorola moto g 5G (2024),Motorola,MOBILE,199.99,40,"
        "An affordable 5G phone.,Android 14,5000\n",
        encoding="utf-8",
    )
    seeded: list[set[str]] = []

    class Recording(LocalStorechat):
        def __init__(self, **kwargs: Any) -> None:
            seeded.append({p["productId"] for p in kwargs["catalog"]})
            super().__init__(**kwargs)

    monkeypatch.setattr(command, "LocalStorechat", Recording)

    # When both files are evaluated, the held-out one first on the command line
    questions = ["--questions", str(held_out / "questions.jsonl"), "--questions", str(development)]
    assert main(["eval", *questions, "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()

    # Then each set ran on a system of its own catalog: the imported phone only in the second
    assert len(seeded) == 2
    assert "MOTO-G5G-2024" not in seeded[0] and seeded[1] == seeded[0] | {"MOTO-G5G-2024"}
    assert "2 questions (1 development, 1 heldout)" in captured.err
    # And the reports show each set apart, in the order of the files
    saved = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert [q["id"] for q in saved["questions"]] == ["motorola", "android"]
    assert list(saved["sets"]) == ["development", "heldout"]
    assert saved["sets"]["heldout"]["totals"]["questions"] == 1
    assert saved["sets"]["heldout"]["catalogs"] == [
        f"the bundled sample and {held_out / 'catalog.csv'} (1 added), 90 products"
    ]
    markdown = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "## heldout: questions that judge a model" in markdown
    assert "development: " in captured.out and "heldout: " in captured.out
