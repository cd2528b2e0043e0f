"""Reading and checking a catalog file, and writing it to a stack's table: what a store
owner sees when a row is wrong, and what DynamoDB's throttling does (nothing lost)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from pydantic import ValidationError

from infra import names
from shared.products.catalog_data import load_catalog
from shared.products.product import Product, ProductDeletion, validate_row
from storechat.catalog.errors import CatalogFileError, StackNotReady, StoreUnavailable
from storechat.catalog.own_format import spec_value
from storechat.catalog.progress import Progress
from storechat.catalog.rows import BadRow, ValidRow, detect_format, read_rows
from storechat.catalog.stack import (
    BATCH_SIZE,
    CATALOG_TABLE_OUTPUT,
    StackCatalog,
    catalog_table_name,
    from_item,
    to_item,
)

REGION = "us-east-1"
TABLE = "storechat-catalog-test"

LAPTOP: dict[str, Any] = {
    "productId": "CMP-900",
    "name": "Acme Student Laptop 14",
    "brand": "Acer",
    "category": "COMPUTERS",
    "price": 149.0,
    "description": "A light 14-inch Windows laptop for school.",
    "stock": 12,
    "specs": {"os": "Windows 11 Home", "ramGb": 8, "weightKg": 1.3, "ports": ["USB-C", "HDMI"]},
}


@pytest.fixture(autouse=True)
def _fake_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("AWS_PROFILE", raising=False)


def _jsonl(tmp_path: Path, *lines: str, name: str = "products.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _problems(rows: Iterator[ValidRow | BadRow]) -> list[str]:
    return [str(problem) for row in rows if isinstance(row, BadRow) for problem in row.problems]


# -- the product record ---------------------------------------------------------------------


def test_every_bundled_product_is_a_valid_record_and_reads_back_the_same() -> None:
    # Given the bundled sample, When each product is validated, Then none is refused and
    # none is changed: the sample is what an export of a fresh store looks like.
    for product in load_catalog():
        assert Product.model_validate(product, strict=True).model_dump() == product


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        ({"category": "TOYS"}, "category", "'BOOKS', 'COMPUTERS' or 'MOBILE'"),
        ({"price": 1.999}, "price", "at most 2 decimal places"),
        ({"price": -1.0}, "price", "greater than or equal to 0"),
        ({"stock": 1.5}, "stock", "valid integer"),
        ({"stock": "3"}, "stock", "valid integer"),
        ({"productId": "has\u200bspace"}, "productId", "control or invisible"),
        ({"productId": "tab\there"}, "productId", "control or invisible"),
        ({"productId": "x" * 256}, "productId", "at most 255"),
        ({"name": "Laptop\u202e"}, "name", "control or invisible"),
        ({"specs": {"ramGb": None}}, "specs.ramGb", "text, a number, true/false"),
        ({"specs": {"ram gb": 8}}, "specs.ram gb", "a spec name is a letter"),
        ({"colour": "red"}, "colour", "Extra inputs"),
        ({"imageUrl": "javascript:alert(1)"}, "imageUrl", "an http:// or https:// web address"),
        ({"imageUrl": "https://cdn.example.com/a b.jpg"}, "imageUrl", "web address"),
        ({"imageUrl": "https://x.example/" + "a" * 2000}, "imageUrl", "at most 2000"),
    ],
)
def test_a_bad_field_is_named_with_a_reason(change: dict[str, Any], field: str, says: str) -> None:
    # Given a product with one bad field, When it is validated, Then the error names it.
    with pytest.raises(ValidationError) as caught:
        validate_row({**LAPTOP, **change})
    errors = {
        ".".join(str(p) for p in e["loc"] if p != "[key]"): e["msg"] for e in caught.value.errors()
    }
    assert says in errors[field]


def test_a_picture_is_kept_and_a_product_without_one_is_written_as_before() -> None:
    # Given two products, one with a picture, When each is validated and written back,
    # Then the picture's address is kept as given, and the other has no imageUrl at all.
    url = "https://cdn.shopify.com/s/files/1/0612/files/zenbook.jpg?v=1723456789"
    with_picture = validate_row({**LAPTOP, "imageUrl": url})
    assert with_picture.model_dump()["imageUrl"] == url
    assert "imageUrl" not in validate_row(LAPTOP).model_dump()


def test_lowercase_category_is_the_same_category() -> None:
    product = validate_row({**LAPTOP, "category": " computers "})
    assert isinstance(product, Product) and product.category == "COMPUTERS"


@pytest.mark.parametrize("flag", [True, "true", "YES", "1"])
def test_a_row_whose_deleted_is_true_is_a_deletion_whatever_else_it_holds(flag: Any) -> None:
    row = validate_row({"productId": "CMP-001", "deleted": flag, "price": "not read"}, strict=False)
    assert row == ProductDeletion(productId="CMP-001")


@pytest.mark.parametrize("flag", [False, "false", "no", "0", ""])
def test_a_row_whose_deleted_is_false_is_a_product(flag: Any) -> None:
    assert isinstance(validate_row({**LAPTOP, "deleted": flag}, strict=False), Product)


def test_a_deleted_that_is_neither_true_nor_false_is_refused() -> None:
    with pytest.raises(ValidationError, match="deleted must be true or false"):
        validate_row({"productId": "CMP-001", "deleted": "maybe"})


# -- reading files --------------------------------------------------------------------------


def test_the_format_comes_from_the_extension_or_from_format() -> None:
    assert detect_format(Path("a.jsonl")) == "jsonl"
    assert detect_format(Path("a.NDJSON")) == "jsonl"
    assert detect_format(Path("a.csv")) == "csv"
    assert detect_format(Path("a.txt"), "csv") == "csv"
    with pytest.raises(CatalogFileError, match=r"--format jsonl\|csv"):
        detect_format(Path("catalog.json"))


def test_jsonl_rows_keep_their_line_numbers_across_blank_lines(tmp_path: Path) -> None:
    # Given a file with a blank line, a broken line and a list where a product belongs,
    # When it is read, Then each problem carries the line the user sees in an editor.
    path = _jsonl(
        tmp_path,
        json.dumps(LAPTOP),
        "",
        '{"productId": "CMP-901",',
        "[1, 2]",
        json.dumps({"productId": "BK-001", "deleted": True}),
    )
    rows = list(read_rows(path, "jsonl"))
    assert [row.line for row in rows] == [1, 3, 4, 5]
    assert _problems(iter(rows)) == [
        "line 3: not valid JSON (Expecting property name enclosed in double quotes, column 25)",
        "line 4: each line must be one JSON object (a product)",
    ]
    assert isinstance(rows[3], ValidRow) and rows[3].row == ProductDeletion(productId="BK-001")


def test_every_problem_of_a_row_is_reported_not_only_the_first(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, json.dumps({**LAPTOP, "price": 1.999, "stock": -1, "name": ""}))
    assert _problems(read_rows(path, "jsonl")) == [
        "line 1, name: String should have at least 1 character",
        "line 1, price: must have at most 2 decimal places",
        "line 1, stock: Input should be greater than or equal to 0",
    ]


def test_a_product_id_twice_in_one_file_points_at_its_first_line(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, json.dumps(LAPTOP), json.dumps({**LAPTOP, "stock": 1}))
    assert _problems(read_rows(path, "jsonl")) == [
        "line 2, productId: CMP-900 is already on line 1"
    ]


def test_a_missing_field_is_required(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, json.dumps({k: v for k, v in LAPTOP.items() if k != "brand"}))
    assert _problems(read_rows(path, "jsonl")) == ["line 1, brand: is required"]


CSV_HEADER = (
    "productId,name,brand,category,price,stock,description,"
    "spec.os,spec.ramGb,spec.fiveG,spec.isbn,spec.screenInches,spec.colors,deleted\n"
)


def test_csv_spec_columns_become_typed_specs(tmp_path: Path) -> None:
    # Given a CSV row with spec.<key> columns, When it is read, Then numbers, true/false
    # and lists are typed, an ISBN stays text and an empty cell is no spec at all.
    path = tmp_path / "products.csv"
    path.write_text(
        CSV_HEADER
        + 'MOB-900,Fairphone 5,Fairphone,MOBILE,699.00,5,"Repairable,\nwith a long warranty.",'
        'Android,8,TRUE,,6.46,"[""black"", ""sky blue""]",\n'
        "BK-900,A Book,Penguin Books,BOOKS,9.99,3,A novel.,,,,9780141036144,,,\n",
        encoding="utf-8",
    )
    rows = list(read_rows(path, "csv"))
    assert [row.line for row in rows] == [2, 4]  # the first record spans lines 2 and 3
    phone, book = (row.row for row in rows if isinstance(row, ValidRow))
    assert isinstance(phone, Product) and isinstance(book, Product)
    assert phone.price == 699.0 and phone.stock == 5
    assert phone.description == "Repairable,\nwith a long warranty."
    assert phone.specs == {
        "os": "Android",
        "ramGb": 8,
        "fiveG": True,
        "screenInches": 6.46,
        "colors": ["black", "sky blue"],
    }
    assert book.specs == {"isbn": "9780141036144"}


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("16", 16),
        ("-3", -3),
        ("0", 0),
        ("1.25", 1.25),
        ("false", False),
        ("0042", "0042"),
        ("9780141036144", "9780141036144"),
        ("1e3", "1e3"),
        ("Windows 11 Home", "Windows 11 Home"),
        ('["a"]', ["a"]),
    ],
)
def test_a_csv_spec_cell_means_what_a_person_would_read(cell: str, value: Any) -> None:
    assert spec_value(cell) == value and type(spec_value(cell)) is type(value)


def test_a_csv_row_reports_its_spec_column_and_its_other_fields(tmp_path: Path) -> None:
    path = tmp_path / "products.csv"
    path.write_text(
        CSV_HEADER + "MOB-901,Bad,Fairphone,MOBILE,abc,1.5,x,,,,,,[1],\n", encoding="utf-8"
    )
    problems = _problems(read_rows(path, "csv"))
    assert problems[0] == 'line 2, spec.colors: a list must hold text only, such as ["a", "b"]'
    assert [p.split(":")[0] for p in problems[1:]] == ["line 2, price", "line 2, stock"]


def test_a_csv_deleted_column_deletes_and_needs_no_other_cells(tmp_path: Path) -> None:
    path = tmp_path / "gone.csv"
    path.write_text("productId,deleted\nBK-001,true\nBK-002,yes\n", encoding="utf-8")
    rows = [row.row for row in read_rows(path, "csv") if isinstance(row, ValidRow)]
    assert rows == [ProductDeletion(productId="BK-001"), ProductDeletion(productId="BK-002")]


@pytest.mark.parametrize(
    ("header", "says"),
    [
        ("productId,name,brand,category,prce,stock,description\n", "unknown column 'prce'"),
        ("productId,name,name,brand,category,price,stock,description\n", "'name' appears more"),
        ("name,brand,category,price,stock,description\n", "no productId column"),
        ("productId,name,category,price,stock,description\n", "no brand column"),
    ],
)
def test_a_bad_csv_header_stops_the_import_at_line_1(
    tmp_path: Path, header: str, says: str
) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(header, encoding="utf-8")
    with pytest.raises(CatalogFileError, match=f"line 1: .*{says}"):
        list(read_rows(path, "csv"))


def test_a_csv_row_with_more_cells_than_columns_is_bad(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("productId,deleted\nBK-001,true,extra\n", encoding="utf-8")
    assert _problems(read_rows(path, "csv")) == [
        "line 2: has 3 cells but the header names 2 columns"
    ]


# -- progress -------------------------------------------------------------------------------


def test_progress_in_a_log_is_a_line_every_step_and_a_last_figure() -> None:
    log = io.StringIO()
    progress = Progress("importing big.jsonl", 2_500, log, every=1_000)
    for _ in range(2_500):
        progress.advance()
    progress.finish()
    assert log.getvalue().splitlines() == [
        "importing big.jsonl: 1,000/2,500 rows (40%)",
        "importing big.jsonl: 2,000/2,500 rows (80%)",
        "importing big.jsonl: 2,500/2,500 rows (100%)",
    ]


def test_progress_on_a_terminal_rewrites_one_line() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    progress = Progress("importing", 5_000, screen)
    progress.advance(5_000)
    progress.finish()
    assert screen.getvalue().count("\n") == 1 and screen.getvalue().startswith("\r")
    assert screen.getvalue().endswith("5,000/5,000 rows (100%)\n")


def test_a_small_file_shows_no_progress() -> None:
    log = io.StringIO()
    progress = Progress("importing", 10, log)
    progress.advance(10)
    progress.finish()
    assert log.getvalue() == ""


# -- a deployed stack -----------------------------------------------------------------------


def test_the_stack_output_key_is_the_one_the_stack_declares() -> None:
    assert CATALOG_TABLE_OUTPUT == names.Outputs.CATALOG_TABLE_NAME


def test_numbers_go_to_dynamodb_as_decimal_and_come_back_as_numbers() -> None:
    item = to_item(LAPTOP)
    assert item["price"] == {"N": "149.0"} and item["specs"]["M"]["weightKg"] == {"N": "1.3"}
    assert from_item(item) == LAPTOP


def _stubbed(service: str) -> tuple[Any, Stubber]:
    client = boto3.client(service, region_name=REGION)
    return client, Stubber(client)


def test_the_catalog_table_is_read_from_the_stack_outputs() -> None:
    cloudformation, stub = _stubbed("cloudformation")
    stack = {
        "StackName": "Storechat-dev",
        "CreationTime": "2026-01-01",
        "StackStatus": "CREATE_COMPLETE",
    }
    outputs = [
        {"OutputKey": "ApiUrl", "OutputValue": "https://example.invalid"},
        {"OutputKey": CATALOG_TABLE_OUTPUT, "OutputValue": "Storechat-dev-Catalog-ABC"},
    ]
    stub.add_response("describe_stacks", {"Stacks": [{**stack, "Outputs": outputs}]})
    stub.add_response("describe_stacks", {"Stacks": [{**stack, "Outputs": outputs[:1]}]})
    stub.add_client_error(
        "describe_stacks", "ValidationError", "Stack with id Nope does not exist", 400
    )
    with stub:
        assert catalog_table_name(cloudformation, "Storechat-dev") == "Storechat-dev-Catalog-ABC"
        with pytest.raises(StackNotReady, match="no CatalogTableName output"):
            catalog_table_name(cloudformation, "Storechat-dev")
        with pytest.raises(StackNotReady, match="stack 'Nope' not found in us-east-1"):
            catalog_table_name(cloudformation, "Nope")


def _rows(count: int) -> list[Product]:
    return [Product.model_validate({**LAPTOP, "productId": f"CMP-{i:04d}"}) for i in range(count)]


def _puts(rows: list[Product]) -> list[dict[str, Any]]:
    return [{"PutRequest": {"Item": to_item(row.model_dump())}} for row in rows]


def _catalog(dynamodb: Any, pauses: list[float], **kwargs: Any) -> StackCatalog:
    return StackCatalog(dynamodb, TABLE, "Storechat-test", sleep=pauses.append, **kwargs)


def test_throttled_batches_are_sent_again_after_a_pause() -> None:
    # Given DynamoDB throttles the first two tries of a batch, When 30 rows are imported,
    # Then every row is written (two batches: 25 and 5) after two growing pauses.
    dynamodb, stub = _stubbed("dynamodb")
    rows = _rows(30)
    first = {"RequestItems": {TABLE: _puts(rows[:BATCH_SIZE])}}
    stub.add_client_error(
        "batch_write_item", "ProvisionedThroughputExceededException", "slow down", 400,
        expected_params=first,
    )  # fmt: skip
    stub.add_client_error(
        "batch_write_item", "ThrottlingException", "slow down", 400, expected_params=first
    )
    stub.add_response("batch_write_item", {"UnprocessedItems": {}}, first)
    stub.add_response("batch_write_item", {}, {"RequestItems": {TABLE: _puts(rows[BATCH_SIZE:])}})
    pauses: list[float] = []
    with stub:
        applied = _catalog(dynamodb, pauses).apply(rows, Progress("", None, io.StringIO()))
    stub.assert_no_pending_responses()
    assert (applied.written, applied.batches) == (30, 2)
    assert len(pauses) == 2 and 0.025 <= pauses[0] <= 0.05 <= pauses[1] <= 0.1


def test_unprocessed_items_are_sent_again_until_written() -> None:
    dynamodb, stub = _stubbed("dynamodb")
    rows = _rows(3)
    puts = _puts(rows)
    stub.add_response(
        "batch_write_item",
        {"UnprocessedItems": {TABLE: puts[1:]}},
        {"RequestItems": {TABLE: puts}},
    )
    stub.add_response(
        "batch_write_item",
        {"UnprocessedItems": {TABLE: puts[2:]}},
        {"RequestItems": {TABLE: puts[1:]}},
    )
    stub.add_response("batch_write_item", {}, {"RequestItems": {TABLE: puts[2:]}})
    pauses: list[float] = []
    with stub:
        applied = _catalog(dynamodb, pauses).apply(rows, Progress("", None, io.StringIO()))
    stub.assert_no_pending_responses()
    assert applied.written == 3 and len(pauses) == 2


def test_a_table_that_never_stops_throttling_fails_and_says_what_stays() -> None:
    # Given a first batch written and a second that DynamoDB keeps refusing, When the
    # import gives up, Then the user is told the first batch stays and a rerun is safe.
    dynamodb, stub = _stubbed("dynamodb")
    rows = _rows(BATCH_SIZE + 1)
    stub.add_response("batch_write_item", {})
    for _ in range(3):
        stub.add_client_error("batch_write_item", "ThrottlingException", "slow down", 400)
    pauses: list[float] = []
    with stub, pytest.raises(StoreUnavailable) as caught:
        _catalog(dynamodb, pauses, max_attempts=3).apply(rows, Progress("", None, io.StringIO()))
    assert "still throttling" in str(caught.value)
    assert "25 rows before this batch were written and stay" in str(caught.value)
    assert "importing the same file again is safe" in str(caught.value)
    assert caught.value.exit_code == 1


def test_a_refusal_that_is_not_throttling_is_not_retried() -> None:
    dynamodb, stub = _stubbed("dynamodb")
    stub.add_client_error("batch_write_item", "AccessDeniedException", "no", 400)
    pauses: list[float] = []
    with stub, pytest.raises(StoreUnavailable, match="AccessDenied"):
        _catalog(dynamodb, pauses).apply(_rows(1), Progress("", None, io.StringIO()))
    assert pauses == []


def test_a_deletion_row_becomes_a_delete_request() -> None:
    dynamodb, stub = _stubbed("dynamodb")
    delete = {"DeleteRequest": {"Key": {"productId": {"S": "BK-001"}}}}
    stub.add_response("batch_write_item", {}, {"RequestItems": {TABLE: [delete]}})
    with stub:
        applied = _catalog(dynamodb, []).apply(
            [ProductDeletion(productId="BK-001")], Progress("", None, io.StringIO())
        )
    assert (applied.deleted, applied.written) == (1, 0)
