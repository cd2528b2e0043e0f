"""``storechat catalog`` as a store owner runs it: on the local store, then on a stack.

The local store lives in a temporary ``$STORECHAT_HOME``; a deployed stack is moto's
DynamoDB behind a CloudFormation ``describe_stacks`` answer that names the table.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.catalog_gen import synthetic_catalog
from shared.products.catalog_data import load_catalog
from tests.support.catalog_cli import STACK, TABLE, home, stack, storechat

SAMPLE = len(load_catalog())
__all__ = ["home", "stack", "storechat"]  # fixtures the tests below use


def _product(product_id: str, **changes: Any) -> dict[str, Any]:
    return {
        "productId": product_id,
        "name": "Acme Student Laptop 14",
        "brand": "Acer",
        "category": "COMPUTERS",
        "price": 149.0,
        "description": "A light 14-inch Windows laptop for school.",
        "stock": 12,
        "specs": {
            "formFactor": "laptop",
            "os": "Windows 11 Home",
            "ramGb": 8,
            "storageGb": 256,
            "weightKg": 1.3,
            "batteryHours": 10.0,
        },
        **changes,
    }


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _stats(storechat: Any, *target: str) -> dict[str, Any]:
    run = storechat("catalog", "stats", "--json", *target)
    assert run.code == 0, run.err
    stats: dict[str, Any] = json.loads(run.out)
    return stats


def _exported(storechat: Any, *target: str) -> list[dict[str, Any]]:
    run = storechat("catalog", "export", *target)
    assert run.code == 0, run.err
    return [json.loads(line) for line in run.out.splitlines()]


# -- the local store ------------------------------------------------------------------------


def test_a_jsonl_import_adds_products_that_stats_and_export_show(
    storechat: Any, tmp_path: Path
) -> None:
    # Given a JSON Lines file of two new products, When the owner imports it,
    # Then they read "2 added", and stats and export show both next to the sample.
    new = [_product("CMP-900"), _product("MOB-900", category="MOBILE", name="Fairphone 5")]
    run = storechat("catalog", "import", str(_jsonl(tmp_path / "new.jsonl", new)))
    assert run.code == 0, run.err
    assert "imported 2 rows into the local catalog" in run.out and "2 added" in run.out
    assert _stats(storechat)["products"] == SAMPLE + 2
    assert _exported(storechat)[-2:] == new


def test_a_csv_import_reads_spec_columns_as_typed_specs(storechat: Any, tmp_path: Path) -> None:
    # Given a spreadsheet saved as CSV, When it is imported, Then the export shows the
    # specs as numbers, true/false and text, as the bundled catalog writes them.
    path = tmp_path / "phones.csv"
    path.write_text(
        "productId,name,brand,category,price,stock,description,"
        "spec.os,spec.storageGb,spec.fiveG,spec.screenInches\n"
        "MOB-900,Fairphone 5,Fairphone,MOBILE,699.00,5,A repairable phone.,Android,256,true,6.46\n",
        encoding="utf-8",
    )
    run = storechat("catalog", "import", str(path))
    assert run.code == 0, run.err
    assert _exported(storechat)[-1] == {
        "productId": "MOB-900",
        "name": "Fairphone 5",
        "brand": "Fairphone",
        "category": "MOBILE",
        "price": 699.0,
        "description": "A repairable phone.",
        "stock": 5,
        "specs": {"os": "Android", "storageGb": 256, "fiveG": True, "screenInches": 6.46},
    }


def _bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps(_product("CMP-901"))
        + "\n"
        + json.dumps(_product("CMP-902", price=-5.0))
        + "\n\n"
        + json.dumps(_product("CMP-903", category="TOYS", stock=1.5))
        + "\n"
        + '{"productId": "CMP-904"\n',
        encoding="utf-8",
    )
    return path


def test_a_file_with_bad_rows_exits_2_names_each_row_and_field_and_writes_nothing(
    storechat: Any, tmp_path: Path, home: Path
) -> None:
    # Given an imported catalog and a file with three bad rows among good ones,
    # When the owner imports it, Then the import exits 2, stderr names each bad row by
    # line number and field, and the catalog file is byte for byte what it was.
    assert (
        storechat(
            "catalog", "import", str(_jsonl(tmp_path / "a.jsonl", [_product("CMP-900")]))
        ).code
        == 0
    )
    before = (home / "catalog.jsonl").read_bytes()

    run = storechat("catalog", "import", str(_bad_file(tmp_path)))

    assert run.code == 2
    assert "line 2, price: Input should be greater than or equal to 0" in run.err
    assert "line 4, category: Input should be 'BOOKS', 'COMPUTERS' or 'MOBILE'" in run.err
    assert "line 4, stock: Input should be a valid integer" in run.err
    assert "line 5: not valid JSON" in run.err
    assert "has 3 rows that cannot be imported (above); nothing was imported" in run.err
    assert "--skip-invalid to import the other 1 row" in run.err
    assert run.out == ""
    assert (home / "catalog.jsonl").read_bytes() == before


def test_a_bad_first_import_leaves_the_bundled_sample_in_use(
    storechat: Any, tmp_path: Path, home: Path
) -> None:
    assert storechat("catalog", "import", str(_bad_file(tmp_path))).code == 2
    assert not (home / "catalog.jsonl").exists()
    assert _stats(storechat)["products"] == SAMPLE


def test_skip_invalid_imports_the_good_rows_and_reports_the_rest(
    storechat: Any, tmp_path: Path
) -> None:
    # Given the same file, When imported with --skip-invalid, Then the good row is in,
    # each bad row is reported as skipped, and the command succeeds.
    run = storechat("catalog", "import", str(_bad_file(tmp_path)), "--skip-invalid")
    assert run.code == 0
    assert "1 added" in run.out
    assert "skipped line 2, price:" in run.err and "skipped line 4, category:" in run.err
    assert "skipped line 5: not valid JSON" in run.err
    assert "skipped 3 rows that cannot be imported" in run.err
    assert [p["productId"] for p in _exported(storechat)][-1] == "CMP-901"


def test_importing_the_same_file_twice_changes_nothing(
    storechat: Any, tmp_path: Path, home: Path
) -> None:
    # Given a file imported once, When it is imported again, Then the owner reads
    # "unchanged" and the catalog file is not even rewritten.
    path = _jsonl(tmp_path / "new.jsonl", [_product("CMP-900"), _product("CMP-001", stock=0)])
    first = storechat("catalog", "import", str(path))
    assert "1 added, 1 updated" in first.out
    store = home / "catalog.jsonl"
    before = (store.read_bytes(), store.stat().st_mtime_ns)

    again = storechat("catalog", "import", str(path))

    assert again.code == 0 and "2 unchanged" in again.out
    assert (store.read_bytes(), store.stat().st_mtime_ns) == before


def test_a_deletion_row_deletes_the_product(storechat: Any, tmp_path: Path) -> None:
    # Given a JSON Lines deletion and a CSV deletion, When imported, Then both products
    # are gone from stats and export, and a repeat says they are already gone.
    jsonl = _jsonl(tmp_path / "gone.jsonl", [{"productId": "BK-001", "deleted": True}])
    csv = tmp_path / "gone.csv"
    csv.write_text("productId,deleted\nBK-002,true\n", encoding="utf-8")
    assert "1 deleted" in storechat("catalog", "import", str(jsonl)).out
    assert "1 deleted" in storechat("catalog", "import", str(csv)).out

    assert _stats(storechat)["categories"]["BOOKS"] == 24
    assert not {"BK-001", "BK-002"} & {p["productId"] for p in _exported(storechat)}
    assert "1 already gone" in storechat("catalog", "import", str(jsonl)).out


def test_export_then_import_gives_back_the_same_catalog(storechat: Any, tmp_path: Path) -> None:
    # Given an imported catalog exported to a file, When the store is reset and the file
    # imported, Then a second export is identical to the first, byte for byte.
    new = [_product("CMP-900", specs={"ports": ["USB-C", "HDMI"], "touch": False})]
    assert storechat("catalog", "import", str(_jsonl(tmp_path / "new.jsonl", new))).code == 0
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    exported = storechat("catalog", "export", str(first))
    assert exported.code == 0 and f"exported {SAMPLE + 1} products" in exported.out

    assert storechat("catalog", "reset", "--yes").code == 0
    assert storechat("catalog", "import", str(first)).code == 0
    assert storechat("catalog", "export", str(second)).code == 0

    assert second.read_bytes() == first.read_bytes()


def test_stats_json_has_the_total_and_a_count_per_category(storechat: Any, tmp_path: Path) -> None:
    assert _stats(storechat) == {
        "products": SAMPLE,
        "categories": {"BOOKS": 26, "COMPUTERS": 40, "MOBILE": 23},
    }
    text = storechat("catalog", "stats").out
    assert text.startswith(f"{SAMPLE} products in the bundled sample")


def test_reset_asks_for_yes_then_goes_back_to_the_bundled_sample(
    storechat: Any, tmp_path: Path, home: Path
) -> None:
    # Given an imported catalog, When the owner resets without --yes, Then nothing is
    # lost and they are told how to go ahead, as on a stack; with --yes the sample is back.
    assert (
        storechat(
            "catalog", "import", str(_jsonl(tmp_path / "n.jsonl", [_product("CMP-900")]))
        ).code
        == 0
    )
    refused = storechat("catalog", "reset")
    assert refused.code == 2 and "run it again with --yes" in refused.err
    assert _stats(storechat)["products"] == SAMPLE + 1

    run = storechat("catalog", "reset", "--yes")
    assert run.code == 0 and "use the bundled sample again" in run.out
    assert not (home / "catalog.jsonl").exists()
    assert _stats(storechat)["products"] == SAMPLE
    assert "nothing to reset" in storechat("catalog", "reset").out


def test_a_file_that_is_not_there_or_not_a_catalog_exits_2(storechat: Any, tmp_path: Path) -> None:
    assert "no such file" in storechat("catalog", "import", str(tmp_path / "x.jsonl")).err
    (tmp_path / "catalog.json").write_text("[]", encoding="utf-8")
    run = storechat("catalog", "import", str(tmp_path / "catalog.json"))
    assert run.code == 2 and "cannot tell the format" in run.err


def test_ask_answers_from_the_imported_catalog(storechat: Any, tmp_path: Path) -> None:
    # Given a laptop that exists only in the owner's import, the cheapest Windows laptop
    # in the store, When a shopper asks for the cheapest Windows laptop, Then it is the
    # first product in the answer.
    path = _jsonl(tmp_path / "new.jsonl", [_product("CMP-900", price=99.0)])
    assert storechat("catalog", "import", str(path)).code == 0

    run = storechat("ask", "What is the cheapest Windows laptop you have?", "--json")

    assert run.code == 0, run.err
    body = json.loads(run.out)
    assert body["products"][0]["productId"] == "CMP-900"
    assert "Acme Student Laptop 14" in body["answer"]


def test_a_damaged_local_catalog_is_reported_not_ignored(storechat: Any, home: Path) -> None:
    # Given a catalog file edited by hand into an invalid state, When the shopper asks,
    # Then the command stops with the line at fault and how to recover.
    home.mkdir(parents=True)
    (home / "catalog.jsonl").write_text(json.dumps(_product("CMP-900", price="cheap")) + "\n")
    run = storechat("ask", "Any laptops?")
    assert run.code == 2
    assert "catalog.jsonl is damaged at line 1 (price: Input should be a valid number)" in run.err
    assert "storechat catalog reset --yes" in run.err


# -- a deployed stack -----------------------------------------------------------------------


def test_the_same_commands_work_on_a_deployed_stack(
    storechat: Any, stack: list[str], tmp_path: Path, home: Path
) -> None:
    # Given a deployed stack's empty catalog table, When the owner imports, deletes,
    # exports and counts with --stack, Then each command works on that table and the
    # local store is left alone.
    new = [_product("CMP-900"), _product("MOB-900", category="MOBILE")]
    run = storechat("catalog", "import", str(_jsonl(tmp_path / "new.jsonl", new)), *stack)
    assert run.code == 0, run.err
    assert f"into stack {STACK} (table {TABLE}): 2 written in 1 batch" in run.out

    gone = _jsonl(tmp_path / "gone.jsonl", [{"productId": "MOB-900", "deleted": True}])
    assert "1 deleted" in storechat("catalog", "import", str(gone), *stack).out

    assert _exported(storechat, *stack) == [new[0]]
    assert _stats(storechat, *stack) == {
        "products": 1,
        "categories": {"BOOKS": 0, "COMPUTERS": 1, "MOBILE": 0},
    }
    assert not home.exists()


def test_resetting_a_stack_needs_yes_and_then_restores_the_sample(
    storechat: Any, stack: list[str], tmp_path: Path
) -> None:
    assert (
        storechat(
            "catalog", "import", str(_jsonl(tmp_path / "n.jsonl", [_product("CMP-900")])), *stack
        ).code
        == 0
    )

    refused = storechat("catalog", "reset", *stack)
    assert refused.code == 2 and "run it again with --yes" in refused.err
    assert _stats(storechat, *stack)["products"] == 1

    done = storechat("catalog", "reset", "--yes", *stack)
    assert done.code == 0
    assert f"{SAMPLE} products written, 1 others deleted" in done.out
    assert _stats(storechat, *stack)["products"] == SAMPLE


def test_a_10000_row_file_imports_into_a_stack_with_progress_in_batches(
    storechat: Any, stack: list[str], tmp_path: Path
) -> None:
    # Given a 10,000-product file, When it is imported into a stack, Then stderr shows
    # the check and the write advancing, the write goes in batches of 25, and the
    # table then holds every product.
    path = _jsonl(tmp_path / "big.jsonl", synthetic_catalog(10_000))

    run = storechat("catalog", "import", str(path), *stack)

    assert run.code == 0, run.err
    assert "checking big.jsonl: 5,000 rows" in run.err
    assert "checking big.jsonl: 10,000 rows" in run.err
    assert "importing big.jsonl: 5,000/10,000 rows (50%)" in run.err
    assert "importing big.jsonl: 10,000/10,000 rows (100%)" in run.err
    assert "10,000 written in 400 batches" in run.out
    assert _stats(storechat, *stack)["products"] == 10_000
