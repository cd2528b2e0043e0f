"""What the store carries, as the local loop's own search index lists it, and a misspelt
question answered from an imported catalog (issue 21).

A store owner imports products the bundled sample never had; the listing the local
catalog tool serves from shows their brands and specs at once (``LocalStorechat.listing``
and ``storechat catalog words``), and a shopper's misspelling of them is searched as
meant.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from storechat.cli import main
from storechat.local import LocalStorechat
from tests.integration.converse_fixtures import asks_for_tools, lookup, replies, write_replay

IMPORTED = [
    {"productId": "CMP-901", "name": "Framework Laptop 13", "brand": "Framework",
     "category": "COMPUTERS", "price": 1099.0, "stock": 7,
     "description": "A repairable 13.5-inch laptop whose ports and memory you swap yourself.",
     "specs": {"formFactor": "laptop", "os": "Ubuntu 24.04", "ramGb": 16, "storageGb": 512,
               "screenInches": 13.5, "weightKg": 1.3, "batteryHours": 11}},
    {"productId": "MOB-901", "name": "Motorola moto g power 5G", "brand": "Motorola",
     "category": "MOBILE", "price": 299.0, "stock": 12,
     "description": "A budget Android phone with a battery that lasts two days.",
     "specs": {"os": "Android", "ramGb": 8, "storageGb": 128, "screenInches": 6.7,
               "cameraMp": 50, "batteryMah": 5000}},
]  # fmt: skip


@pytest.fixture
def storechat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Any:
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def test_the_local_loop_lists_an_imported_catalogs_words() -> None:
    with LocalStorechat(catalog=[*load_catalog(), *IMPORTED]) as local:
        listing = local.listing()
        brands = listing.brands()
        systems = listing.operating_systems()
    assert brands["Framework"] == 1 and brands["Motorola"] == 1 and brands["Apple"] == 11
    assert systems["Ubuntu 24.04"] == 1
    assert listing.available


def test_catalog_words_shows_an_import_at_once(storechat: Any, tmp_path: Path) -> None:
    # Given a store owner's import of brands the sample never had
    path = tmp_path / "new.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in IMPORTED), encoding="utf-8")
    assert storechat("catalog", "import", str(path))[0] == 0

    # When they list the catalog's words, Then the new brands and systems are there
    code, out, _ = storechat("catalog", "words")
    assert code == 0
    assert "91 products: BOOKS 26, COMPUTERS 41, MOBILE 24" in out
    assert "brands: Apple 11, Samsung 10" in out and "and 5 more" in out  # 17 brands
    assert "Ubuntu 24.04 1" in out

    code, out, _ = storechat("catalog", "words", "brand")
    assert code == 0
    assert out.splitlines()[0].split() == ["11", "Apple"]
    assert ["1", "Framework"] in [line.split() for line in out.splitlines()]
    code, out, _ = storechat("catalog", "words", "brand", "--category", "computers")
    assert code == 0
    assert "Framework" in out and "Motorola" not in out

    code, out, _ = storechat("catalog", "words", "os", "--json")
    assert code == 0
    assert json.loads(out)["values"]["Ubuntu 24.04"] == 1


def test_catalog_words_names_the_fields_when_asked_for_one_it_lacks(storechat: Any) -> None:
    code, out, err = storechat("catalog", "words", "colour")
    assert code == 2 and out == ""
    assert "no values of 'colour'" in err and "author" in err and "ramGb" in err
    code, out, err = storechat("catalog", "words", "brand", "--category", "toys")
    assert code == 2 and out == ""
    assert "no category 'TOYS'; it has BOOKS, COMPUTERS, MOBILE" in err


def test_a_misspelt_search_finds_the_imported_product_and_the_trace_says_so(
    tmp_path: Path,
) -> None:
    # Given the Framework laptop imported, and a model that passes the shopper's words on
    # as they typed them (a real model does; the offline one drops words it does not know)
    script = [
        asks_for_tools(lookup("t1", keywords="framwork laptop")),
        replies("We have the Framework Laptop 13 [CMP-901]."),
    ]
    with LocalStorechat(
        model=write_replay(tmp_path, script),
        catalog=[*load_catalog(), *IMPORTED],
        search_first=False,  # the script's model goes first
    ) as local:
        result = local.ask("do you have a framwork laptop?")

    # Then the answer shows it, and the trace the page shows says how the word was read
    assert result.status == "SUCCEEDED" and result.body is not None, result.cause
    assert [p["productId"] for p in result.body["products"]] == ["CMP-901"]
    (line,) = [t for t in result.body["trace"] if t["tool"] == "lookup_inventory"]
    assert "read 'framwork' as 'framework'" in line["summary"]


def test_the_offline_model_knows_an_import_the_moment_it_is_imported(
    storechat: Any, tmp_path: Path
) -> None:
    # Given a store owner's import of brands the bundled catalog never had
    path = tmp_path / "new.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in IMPORTED), encoding="utf-8")
    assert storechat("catalog", "import", str(path))[0] == 0

    # When a shopper asks the offline model for them by brand
    code, framework, _ = storechat("ask", "do you have a Framework laptop?")
    assert code == 0
    code, motorola, _ = storechat("ask", "Motorola phone with a big battery")
    assert code == 0
    code, sony, _ = storechat("ask", "a Sony laptop")
    assert code == 0

    # Then it shows them, never saying the store does not carry them; a brand the catalog
    # still lacks is said to be missing
    assert "[CMP-901]" in framework and "don't carry" not in framework
    assert "[MOB-901]" in motorola and "don't carry" not in motorola
    assert "Sorry, we don't carry Sony." in sony and "We carry the Framework" not in sony
