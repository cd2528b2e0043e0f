"""Files a store's tools really write: semicolons, other encodings, prices no product has."""

from __future__ import annotations

from pathlib import Path

import pytest

from storechat.catalog.errors import CatalogFileError
from storechat.catalog.rows import BadRow, ReadOptions, ValidRow, read_rows
from storechat.catalog.textfile import is_empty

HEADER = "productId,name,brand,category,price,stock,description"


def test_a_semicolon_delimited_csv_is_read_with_its_decimal_commas(tmp_path: Path) -> None:
    # Given a spreadsheet saved where the comma is the decimal mark, When it is read,
    # Then its columns and its numbers are what the owner typed.
    path = tmp_path / "produkte.csv"
    path.write_text(
        f"{HEADER.replace(',', ';')};spec.screenInches\n"
        'MOB-901;Fairphone 5;Fairphone;MOBILE;699,00;5;"Repairable; 6,46"" screen";6,46\n',
        encoding="utf-8",
    )
    (row,) = read_rows(path, "csv")
    assert isinstance(row, ValidRow)
    assert row.row.model_dump() == {
        "productId": "MOB-901",
        "name": "Fairphone 5",
        "brand": "Fairphone",
        "category": "MOBILE",
        "price": 699.0,
        "description": 'Repairable; 6,46" screen',
        "stock": 5,
        "specs": {"screenInches": 6.46},
    }


def test_a_file_that_is_not_utf8_names_the_line_and_how_to_save_it(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes(f"{HEADER}\nBK-900,Café,Gallimard,BOOKS,9.50,3,Un roman\n".encode("cp1252"))
    with pytest.raises(CatalogFileError) as caught:
        list(read_rows(path, "csv"))
    assert str(caught.value) == (
        f"{path}, line 2 is not UTF-8 text (byte 0xe9 at column 11): save the file as UTF-8 "
        "(in a spreadsheet: Save As, then 'CSV UTF-8'; in an editor: encoding UTF-8) and "
        "import it again"
    )


def test_the_same_holds_for_json_lines_and_platform_exports(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"productId": "BK-1"}\n{"name": "Caf\xe9"}\n')
    with pytest.raises(CatalogFileError, match=r"line 2 is not UTF-8 text"):
        list(read_rows(path, "jsonl"))
    path = tmp_path / "x.csv"
    path.write_bytes(b"Handle,Title,Variant Price\ncafe,Caf\xe9,1\n")
    with pytest.raises(CatalogFileError, match=r"line 2 is not UTF-8 text"):
        list(read_rows(path, "shopify"))


def test_a_price_above_the_ceiling_is_an_invalid_row(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text(
        f"{HEADER}\nCMP-1,Laptop,Acer,COMPUTERS,99999999999.99,1,x\n"
        "CMP-2,Workstation,Dell,COMPUTERS,99999.99,1,x\n",
        encoding="utf-8",
    )
    rows = list(read_rows(path, "csv"))
    assert isinstance(rows[0], BadRow) and isinstance(rows[1], ValidRow)
    assert [str(p) for p in rows[0].problems] == [
        "line 2, price: $99,999,999,999.99 is above the highest price a product may have "
        "($100,000.00; --max-price sets it)"
    ]
    lower = list(read_rows(path, "csv", ReadOptions(max_price=50_000)))
    assert all(isinstance(row, BadRow) for row in lower)


def test_a_header_only_file_has_rows_to_check_and_whitespace_is_empty(tmp_path: Path) -> None:
    blank = tmp_path / "blank.csv"
    blank.write_text("\n  \n", encoding="utf-8")
    header = tmp_path / "header.csv"
    header.write_text(f"\n{HEADER}\n", encoding="utf-8")
    assert is_empty(blank) and not is_empty(header)
    assert list(read_rows(header, "csv")) == []


def test_a_platform_export_given_as_plain_csv_is_named(tmp_path: Path) -> None:
    path = tmp_path / "products_export.csv"
    path.write_text("Handle,Title,Body (HTML)\nx,y,z\n", encoding="utf-8")
    with pytest.raises(CatalogFileError, match=r"looks like a Shopify product export.*--format"):
        list(read_rows(path, "csv"))
