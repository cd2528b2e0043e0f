"""A store's own export names a book's author and genre its own way ("Writer", "Book
Genre"): asked for such a book out of stock, the shopper is offered the same author's
books in stock, else the same genre's, not told that nothing close is in stock. A book
shop's export that files the genre only in its category path ("Books > Fiction > Science
Fiction") is read the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storechat.cli import main
from storechat.local import LocalStorechat
from tests.integration.test_named_book_out_of_stock import asked, book


def exported(pid: str, title: str, author: str, genre: str, stock: int, about: str) -> Any:
    """A book as a store's export writes it: its own spec names."""
    record = book(pid, title, author, genre, stock, about)
    return record | {"specs": {"Writer": author, "Book Genre": genre, "Binding": "Paperback"}}


HAIL_MARY = exported(
    "BK-950", "Project Hail Mary", "Andy Weir", "Science Fiction", 0,
    "A lone astronaut wakes on a ship with no memory and must save Earth.",
)  # fmt: skip
SAME_GENRE = exported(
    "BK-951", "The Long Way to a Small, Angry Planet", "Becky Chambers", "Science Fiction", 9,
    "A tunnelling crew travels the galaxy together.",
)  # fmt: skip
SAME_AUTHOR = exported(
    "BK-952", "The Martian", "Andy Weir", "Science Fiction", 4,
    "An astronaut stranded on Mars grows potatoes to survive.",
)  # fmt: skip
OTHER_GENRE = exported(
    "BK-953", "Gardening Through the Year", "Ruth Hale", "Home and Garden", 7,
    "Month by month, what to sow and prune.",
)  # fmt: skip


def test_the_same_genre_in_stock_is_offered_for_an_exported_book() -> None:
    # Given a store's own books: Project Hail Mary sold out, another science fiction
    # book and a gardening book in stock
    with LocalStorechat(catalog=[HAIL_MARY, SAME_GENRE, OTHER_GENRE], search_first=False) as local:
        # When a shopper asks for it by its title
        text, shown, _ = asked(local, "Do you have Project Hail Mary?")

    # Then it is out of stock, and the science fiction book is offered, not "nothing"
    assert text.startswith("We carry Project Hail Mary [BK-950]: out of stock right now")
    assert "Nothing close to it is in stock" not in text
    # (its export names the genre "Book Genre": the heading has no empty "()" for it)
    assert "The nearest we have in stock, in the same genre:\n1. " in text
    assert shown == ["BK-950", "BK-951"]


def test_the_same_author_in_stock_comes_first_for_an_exported_book() -> None:
    # Given the same, and Andy Weir's other book in stock
    catalog = [HAIL_MARY, SAME_GENRE, OTHER_GENRE, SAME_AUTHOR]
    with LocalStorechat(catalog=catalog, search_first=False) as local:
        text, shown, _ = asked(local, "Do you have Project Hail Mary?")

    # Then his book is offered, by the same author
    assert "The nearest we have in stock, by the same author:\n1. The Martian [BK-952]" in text
    assert shown == ["BK-950", "BK-952"]


# A book shop's WooCommerce export: the genre is only in each book's category path.
WOO_EXPORT = """\
ID,Type,SKU,"GTIN, UPC, EAN, or ISBN",Name,Published,Visibility in catalog,Description,\
In stock?,Stock,Regular price,Categories,Tags,Brands,Attribute 1 name,Attribute 1 value(s)
280,simple,DUNE-PB,9780441172719,Dune,1,visible,<p>Frank Herbert&#39;s masterpiece.</p>,\
1,30,10.99,"Books, Books > Fiction, Books > Fiction > Science Fiction",classic,,Author,Frank Herbert
300,simple,FOOD-LAB,9780393081084,The Food Lab,1,visible,<p>A cookbook.</p>,1,4,49.95,\
Books > Cooking,cookbook,,Author,J. Kenji López-Alt
310,simple,NEUROMANCER-PB,9780441569595,Neuromancer,1,visible,\
<p>William Gibson&rsquo;s cyberpunk classic.</p>,0,0,9.99,Books > Fiction > Science Fiction,\
cyberpunk,,Author,William Gibson
"""


@pytest.mark.parametrize("search_first", ["1", "0"])
def test_a_book_shops_export_files_the_genre_that_finds_the_nearest_in_stock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any, search_first: str
) -> None:
    # Given a book shop that imports its own WooCommerce export, with no Genre attribute:
    # Neuromancer sold out, Dune in stock, both under "Books > Fiction > Science Fiction"
    monkeypatch.setenv("STORECHAT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("STORECHAT_SEARCH_FIRST", search_first)
    export = tmp_path / "woo.csv"
    export.write_text(WOO_EXPORT, encoding="utf-8")
    flags = ["--replace", "--allow-shrink", "--store-url", "https://books.example"]
    assert main(["catalog", "import", str(export), "--format", "woocommerce", *flags]) == 0
    capsys.readouterr()

    # When a shopper asks for Neuromancer
    assert main(["ask", "Is Neuromancer in stock?"]) == 0
    out = capsys.readouterr().out

    # Then it is out of stock, and Dune is offered in the same genre, not "nothing close"
    assert "We carry Neuromancer [NEUROMANCER-PB]: out of stock right now" in out
    assert "Nothing close to it is in stock" not in out
    assert "The nearest we have in stock, in the same genre (Science Fiction):\n1. Dune" in out
    assert "FOOD-LAB" not in out  # a cookbook is no science fiction
