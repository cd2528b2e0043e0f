"""The question file: what it accepts, and how a bad one is refused before anything runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest

from storechat.cli import main
from storechat.evaluate import command
from storechat.evaluate.checks import BOUNDS
from storechat.evaluate.questions import (
    Expect,
    QuestionsInvalid,
    RankedField,
    default_question_files,
    load_questions,
)

GOOD = {
    "id": "android-phone",
    "kind": "single",
    "turns": ["Can you recommend an Android phone?"],
    "expect": {"category": "MOBILE", "os": "Android", "maxPrice": 500, "minProducts": 1},
}


def write(tmp_path: Path, *lines: Any, name: str = "q.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(
        "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
        encoding="utf-8",
    )
    return path


def problems(*paths: Path) -> list[str]:
    with pytest.raises(QuestionsInvalid) as caught:
        load_questions(paths)
    return caught.value.problems


def with_(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


def test_a_valid_file_loads_with_where_each_question_was_written(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, "", with_(id="second", turns=["Phones?", "Under $300."]))
    loaded = load_questions([path])
    assert [q.question.id for q in loaded] == ["android-phone", "second"]
    assert [q.line for q in loaded] == [1, 3]  # the blank line is skipped, not renumbered
    assert loaded[0].question.expect.maxPrice == 500.0
    assert loaded[1].question.turns == ["Phones?", "Under $300."]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"id": "x", "kind": "single",', "line 1, json: not valid JSON"),
        ("[1, 2]", "line 1, json: a question is a JSON object"),
        (with_(colour="red"), "line 1, colour: unknown field"),
        (with_(expect={"maxPrise": 500}), "line 1, expect.maxPrise: unknown field"),
        (with_(expect={"maxPrice": "500"}), "line 1, expect.maxPrice: Input should be a valid"),
        (with_(expect={"inStock": 1}), "line 1, expect.inStock: Input should be a valid boolean"),
        (with_(expect={"category": "TOYS"}), "line 1, expect.category: Input should be"),
        (with_(kind="chit-chat"), "line 1, kind: Input should be"),
        (with_(id="Not A Slug"), "line 1, id: String should match pattern"),
        (with_(turns=[]), "line 1, turns: List should have at least 1 item"),
        (with_(turns=["ok", "   "]), "line 1, turns.1: must not be empty"),
        (with_(turns=["bell\u0007"]), "line 1, turns.0: must not contain control characters"),
        ({k: v for k, v in GOOD.items() if k != "expect"}, "line 1, expect: required"),
        (with_(expect={"toolsCalled": ["search_web"]}), "line 1, expect.toolsCalled: unknown tool"),
        (with_(expect={"minPrice": 900, "maxPrice": 500}), "line 1, expect.minPrice: is above"),
        (
            with_(expect={"toolsCalled": ["get_book_info"], "toolsNotCalled": ["get_book_info"]}),
            "line 1, expect.toolsNotCalled: get_book_info is also in toolsCalled",
        ),
        (with_(expect={"noProducts": True, "minProducts": 1}), "line 1, expect.noProducts:"),
        (
            with_(expect={"productIdsFrom": "previous"}),
            'line 1, expect.productIdsFrom: "previous" needs at least two turns',
        ),
        (with_(expect={"firstMost": "colour"}), "line 1, expect.firstMost: Input should be"),
        (
            with_(expect={"firstMost": "price", "firstLeast": "price"}),
            "line 1, expect.firstLeast: the first product cannot be both",
        ),
        (
            with_(expect={"firstLeast": "price", "noProducts": True}),
            "line 1, expect.noProducts: contradicts firstMost or firstLeast",
        ),
        (with_(expect={"specIncludes": {}}), "line 1, expect.specIncludes: Dictionary should"),
        (with_(expect={"specIncludes": {"gpu": 4070}}), "line 1, expect.specIncludes.gpu:"),
        (with_(expect={"asks": "yes"}), "line 1, expect.asks: Input should be a valid boolean"),
    ],
)
def test_a_bad_line_is_refused_with_its_line_and_field(
    tmp_path: Path, line: Any, says: str
) -> None:
    found = problems(write(tmp_path, line))
    assert any(says in p for p in found), found
    assert all("q.jsonl: line 1, " in p for p in found)


def test_every_bad_line_is_listed_not_only_the_first(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD, with_(id="b", kind="?"), "nope", with_(id="d", extra=1))
    found = problems(path)
    assert [p.split(",")[0].rsplit(" ", 1)[-1] for p in found] == ["2", "3", "4"]


def test_an_id_is_unique_across_every_file(tmp_path: Path) -> None:
    first = write(tmp_path, GOOD, name="a.jsonl")
    second = write(tmp_path, with_(id="other"), GOOD, name="b.jsonl")
    found = problems(first, second)
    assert len(found) == 1
    assert "b.jsonl: line 2, id: 'android-phone' is already used at " in found[0]
    assert "a.jsonl:1" in found[0]


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    assert problems(write(tmp_path, "")) == ["no questions: the files hold none"]


def test_every_numeric_expectation_has_a_bound_and_a_product_field() -> None:
    numeric = {
        name
        for name, info in Expect.model_fields.items()
        if "float" in str(info.annotation) and name not in ("minProducts", "maxProducts")
    }
    assert numeric == set(BOUNDS)


def test_a_superlative_ranks_by_exactly_the_fields_the_bounds_read() -> None:
    assert set(get_args(RankedField)) == {bound.spec for bound in BOUNDS.values()}


def test_the_default_files_are_the_development_set_then_the_held_out_set(tmp_path: Path) -> None:
    # Given a question directory with a held-out folder and a companion catalog in it
    write(tmp_path, GOOD, name="b.jsonl")
    write(tmp_path, with_(id="a"), name="a.jsonl")
    held_out = tmp_path / "heldout"
    held_out.mkdir()
    write(held_out, with_(id="h"), name="questions.jsonl")
    write(held_out, {"productId": "X-1"}, name="catalog.jsonl")
    # When the default files are listed and loaded
    files = default_question_files(tmp_path)
    loaded = load_questions(files)
    # Then the catalog is not read as questions, and each question knows its set
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "a.jsonl",
        "b.jsonl",
        "heldout/questions.jsonl",
    ]
    assert [(q.question.id, q.set) for q in loaded] == [
        ("a", "development"),
        ("android-phone", "development"),
        ("h", "heldout"),
    ]


def test_the_repository_question_set_loads_and_covers_every_kind_it_promises() -> None:
    loaded = load_questions(default_question_files())
    ours = [q.question for q in loaded if q.path.name == "shopper_questions.jsonl"]
    assert len(ours) >= 60
    kinds = {q.kind for q in ours}
    assert kinds >= {
        "single",
        "multi-intent",
        "follow-up",
        "budget",
        "brand",
        "use",
        "book",
        "unanswerable",
        "outside-store",
        "store-policy",
        "hostile",
    }
    assert any(len(q.turns) == 3 for q in ours)


class _MustNotRun:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("a question ran although the file is malformed")


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("{not json", "line 2, json"),
        (with_(id="b", expect={"colour": "red"}), "line 2, expect.colour: unknown field"),
        (with_(id="b", expect={"maxPrice": "cheap"}), "line 2, expect.maxPrice:"),
        (GOOD, "line 2, id: 'android-phone' is already used"),
    ],
)
def test_eval_refuses_a_malformed_file_with_exit_2_and_runs_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    line: Any,
    field: str,
) -> None:
    monkeypatch.setattr(command, "LocalStorechat", _MustNotRun)
    path = write(tmp_path, GOOD, line)
    out = tmp_path / "out"
    assert main(["eval", "--questions", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert field in err
    assert "nothing was run" in err
    assert not out.exists()


def test_eval_refuses_a_compare_file_that_is_not_a_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(command, "LocalStorechat", _MustNotRun)
    old = tmp_path / "old.json"
    old.write_text('{"questions": []}', encoding="utf-8")
    path = write(tmp_path, GOOD)
    assert main(["eval", "--questions", str(path), "--compare", str(old)]) == 2
    assert "not a storechat eval report" in capsys.readouterr().err


def test_eval_refuses_a_questions_file_that_does_not_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(command, "LocalStorechat", _MustNotRun)
    assert main(["eval", "--questions", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl: cannot be read" in capsys.readouterr().err
