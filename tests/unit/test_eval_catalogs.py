"""The catalog a question file is answered from: the run's own, plus its companion's import."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from storechat.cli import main
from storechat.evaluate import command
from storechat.evaluate.catalogs import CatalogInvalid, served_catalogs
from storechat.evaluate.questions import load_questions

SAMPLE = len(load_catalog())
PHONE = {
    "productId": "MOTO-G5G-2024",
    "name": "Motorola moto g 5G (2024)",
    "brand": "Motorola",
    "category": "MOBILE",
    "price": 199.99,
    "stock": 40,
    "description": "An affordable 5G phone with a 5000 mAh battery.",
    "specs": {"os": "Android 14", "batteryMah": 5000},
}


def jsonl(path: Path, *rows: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def question(qid: str) -> dict[str, Any]:
    return {"id": qid, "kind": "imported", "turns": ["Any Motorola phones?"], "expect": {}}


def test_a_file_with_a_companion_is_answered_from_the_run_catalog_and_its_import(
    tmp_path: Path,
) -> None:
    # Given a development file, and a held-out file with a catalog.jsonl beside it that
    # adds a phone and deletes a sample product
    own = jsonl(tmp_path / "evals" / "own.jsonl", question("own"))
    held = jsonl(tmp_path / "evals" / "heldout" / "q.jsonl", question("held"), question("more"))
    jsonl(held.parent / "catalog.jsonl", PHONE, {"productId": "CMP-001", "deleted": True})
    questions = load_questions([held, own])
    # When the catalogs are served for them (nothing imported into the home yet)
    served = served_catalogs(questions, tmp_path / "home")
    # Then the run's own comes first with the development question, the import after it
    mine, imported = served
    assert (mine.companion, mine.positions, len(mine.products)) == (None, (2,), SAMPLE)
    assert imported.companion == held.parent / "catalog.jsonl"
    assert imported.positions == (0, 1)
    ids = {p["productId"] for p in imported.products}
    assert "MOTO-G5G-2024" in ids and "CMP-001" not in ids
    assert len(imported.products) == SAMPLE
    assert "catalog.jsonl (1 added, 1 deleted)" in imported.label
    assert "the bundled sample" in imported.label
    # And the home's own catalog was not touched
    assert not (tmp_path / "home").exists()


def test_the_import_goes_on_top_of_the_catalog_the_home_holds(tmp_path: Path) -> None:
    # Given a home whose local catalog holds one product only
    home = tmp_path / "home"
    jsonl(home / "catalog.jsonl", {**PHONE, "productId": "OWN-1", "name": "Own phone 1"})
    before = (home / "catalog.jsonl").read_text(encoding="utf-8")
    held = jsonl(tmp_path / "heldout" / "q.jsonl", question("held"))
    jsonl(held.parent / "catalog.jsonl", PHONE)
    # When the held-out file's catalog is served
    (served,) = served_catalogs(load_questions([held]), home)
    # Then it holds the home's product and the imported one, and the home is unchanged
    assert sorted(p["productId"] for p in served.products) == ["MOTO-G5G-2024", "OWN-1"]
    assert served.label.startswith(f"the local catalog ({home / 'catalog.jsonl'}) and ")
    assert (home / "catalog.jsonl").read_text(encoding="utf-8") == before


def test_a_csv_companion_is_read_as_the_catalog_import_reads_it(tmp_path: Path) -> None:
    held = jsonl(tmp_path / "heldout" / "q.jsonl", question("held"))
    (held.parent / "catalog.csv").write_text(
        "productId,name,brand,category,price,stock,description,spec.batteryMah\n"
        "NOTHING-PHONE-2A,Nothing Phone (2a),Nothing,MOBILE,349,18,Glyph lights.,5000\n",
        encoding="utf-8",
    )
    (served,) = served_catalogs(load_questions([held]), tmp_path / "home")
    (phone,) = [p for p in served.products if p["brand"] == "Nothing"]
    assert phone["specs"] == {"batteryMah": 5000} and phone["price"] == 349


def test_every_bad_row_of_a_companion_is_named_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a companion with a bad price on line 2 and a line that is not JSON
    held = jsonl(tmp_path / "heldout" / "q.jsonl", question("held"))
    companion = held.parent / "catalog.jsonl"
    companion.write_text(
        json.dumps(PHONE) + "\n" + json.dumps({**PHONE, "productId": "X-2", "price": 1.999}) + "\n"
        "{oops\n",
        encoding="utf-8",
    )
    # When its catalog is served
    with pytest.raises(CatalogInvalid) as caught:
        served_catalogs(load_questions([held]), tmp_path / "home")
    # Then each fault is named by file, line and field
    assert len(caught.value.problems) == 2
    assert (
        "catalog.jsonl: line 2, price: must have at most 2 decimal places"
        in (caught.value.problems[0])
    )
    assert "catalog.jsonl: line 3: not valid JSON" in caught.value.problems[1]

    # And `storechat eval` refuses to run with exit code 2, before starting anything
    class MustNotRun:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise AssertionError("a question ran although its catalog is malformed")

    monkeypatch.setattr(command, "LocalStorechat", MustNotRun)
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    out = tmp_path / "out"
    assert main(["eval", "--questions", str(held), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "price: must have at most 2 decimal places" in err
    assert "nothing was run: fix the catalog file first" in err
    assert not out.exists()
