"""The products a shopper names in their words, for every model: the one named comes
first, a model of a line the store carries that it lacks is said as not carried with the
nearest of its series first, and amounts, kinds and systems name no product."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.products.catalog_data import load_catalog
from shared.search import SearchIndex, SearchQuery, SearchResult, build_index
from shared.search.named import Named, named_in
from shared.search.words import numbers_in_words

CATALOG = load_catalog()
BY_ID = {p["productId"]: p for p in CATALOG}
NAMES = {p["productId"]: p["name"] for p in CATALOG}


def _open(products: list[dict[str, Any]], path: Path) -> SearchIndex:
    build_index(products, path)
    return SearchIndex.open(path)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = _open(CATALOG, tmp_path_factory.mktemp("named") / "catalog.sqlite")
    yield opened
    opened.close()


def search(index: SearchIndex, keywords: str, **fields: Any) -> SearchResult:
    return index.search(SearchQuery(keywords=keywords, limit=5, **fields))


def first_names(result: SearchResult, n: int) -> list[str]:
    return [hit.name for hit in result.products[:n]]


@pytest.mark.parametrize(
    ("words", "first"),
    [
        # The S24 has fewer words than the phone search ranks first for these words.
        ("compare the iPhone 15 and the Galaxy S24", ["Apple iPhone 15", "Samsung Galaxy S24"]),
        ("Samsung Galaxy S24 Ultra vs iPhone 16 Pro Max",
         ["Samsung Galaxy S24 Ultra", "Apple iPhone 16 Pro Max"]),
        ("is the OnePlus 12 any good?", ["OnePlus 12"]),
        ("Dell XPS 13 or MacBook Air 13", ["Dell XPS 13 9340", "Apple MacBook Air 13 (M3)"]),
        ("do you still have the razer blade 16", ["Razer Blade 16 (2024)"]),
        ("Do you have the ROG Phone 8 Pro?", ["ASUS ROG Phone 8 Pro"]),
        # A possessive ends the name, with either apostrophe.
        ("the Galaxy S24 Ultra\u2019s camera", ["Samsung Galaxy S24 Ultra"]),
        ("How many MP is the Galaxy S24 Ultra's camera?", ["Samsung Galaxy S24 Ultra"]),
        # A line and its qualifier, with no model token.
        ("Is the Surface Pro in stock?", ["Microsoft Surface Pro (11th Edition)"]),
        # A line of one product, which it names alone.
        ("Is the iMac in stock?", ["Apple iMac 24 (M3)"]),
        # The rest of the name goes on it, with its bracket; a kind after it is the kind's.
        ("How much is the ASUS Zenbook 14 OLED (UX3405)?", ["ASUS Zenbook 14 OLED (UX3405)"]),
        ("a Dell XPS 13 laptop for school", ["Dell XPS 13 9340"]),
        ("the Galaxy S24 Ultra phone", ["Samsung Galaxy S24 Ultra"]),
    ],
)  # fmt: skip
def test_the_products_named_come_first_in_the_order_named(
    index: SearchIndex, words: str, first: list[str]
) -> None:
    # When a shopper's words name products
    result = search(index, words)

    # Then those products come first, each the one with the fewest words besides its name
    assert first_names(result, len(first)) == first
    assert len(result.understood["named"]) == len(first)
    assert result.not_carried == []


@pytest.mark.parametrize(
    ("words", "lacked", "nearest"),
    [
        ("Do you have the iPhone 14?", "iPhone 14", "Apple iPhone 15"),
        ("Do you have the Pixel 7?", "Pixel 7", "Google Pixel 8a"),
        # A model's whole: the Pixel 8 is not the Pixel 8a, though the index splits "8a"
        ("Do you have the Pixel 8?", "Pixel 8", "Google Pixel 8a"),
        ("Do you have the Galaxy S23?", "Galaxy S23", "Samsung Galaxy S24"),
        # Every word of a model: the 15 Pro Max is not the 15.
        ("is the iPhone 15 Pro Max in stock", "iPhone 15 Pro Max", "Apple iPhone 16 Pro Max"),
        # Of its own line: not the Pixel 9 Pro, which has more of its other words.
        ("Surface Pro 9", "Surface Pro 9", "Microsoft Surface Pro (11th Edition)"),
        # The line's words before it are its own; the id cited is no name.
        (
            "Tell me about the Apple MacBook Ultra 20 [CMP-999]",
            "Apple MacBook Ultra 20",
            "Apple MacBook Air 15 (M3)",
        ),
    ],
)
def test_a_model_of_a_line_the_store_lacks_is_not_carried_with_its_nearest_first(
    index: SearchIndex, words: str, lacked: str, nearest: str
) -> None:
    # When the words name a model no product is, of a line the store carries
    result = search(index, words)

    # Then the result says it is not carried, and gives the nearest model of its series first
    assert result.not_carried == [lacked]
    assert first_names(result, 1) == [nearest]


@pytest.mark.parametrize(
    "words",
    [
        "Do you have the Pixel 7?",
        "Do you have the Galaxy S21?",
        "is the Dell XPS 17 in stock",
        "Is the Pixel 9 in stock?",
    ],
)
def test_a_model_named_alone_is_followed_only_by_products_of_its_kind(
    index: SearchIndex, words: str
) -> None:
    # When the words name one model and ask nothing else, whether the store has it or not
    result = index.search(SearchQuery(keywords=words, limit=10))
    # Then every product shown is of the first one's kind: no laptop whose name has a 7,
    # no Galaxy Book after the Galaxy phones
    kinds = {BY_ID[hit.productId]["category"] for hit in result.products}
    assert len(result.products) >= 3
    assert kinds == {BY_ID[result.products[0].productId]["category"]}
    assert result.count == len(result.products)


@pytest.mark.parametrize("words", ["Do you have Animal Farm?", "Is Animal Farm in stock?"])
def test_a_book_asked_for_by_its_title_alone_is_followed_by_books_only(
    index: SearchIndex, words: str
) -> None:
    # When a shopper asks for a book by its title ("animal" also stems the ROG Phone's
    # "AniMe Vision" panel)
    result = index.search(SearchQuery(keywords=words, limit=10))
    # Then the book comes first, and no phone follows it
    assert first_names(result, 1) == ["Animal Farm"]
    assert {BY_ID[hit.productId]["category"] for hit in result.products} == {"BOOKS"}
    assert result.count == len(result.products)


@pytest.mark.parametrize(
    ("words", "first"),
    [
        ("Do you have the Galaxy S24 Plus?", "Samsung Galaxy S24+"),
        ("Is the Galaxy S24+ in stock?", "Samsung Galaxy S24+"),
        ("galaxy s24 plus", "Samsung Galaxy S24+"),
        # Without the plus, the model without it
        ("Is the Galaxy S24 in stock?", "Samsung Galaxy S24"),
        # A name with the word itself
        ("is the iPhone 16 Plus in stock", "Apple iPhone 16 Plus"),
    ],
)
def test_a_plus_is_read_as_a_sign_or_a_word(index: SearchIndex, words: str, first: str) -> None:
    # When a shopper writes a model whose name ends in a plus sign, either way
    result = search(index, words)
    # Then that model comes first, and nothing is said not carried
    assert first_names(result, 1) == [first]
    assert result.not_carried == []


def test_a_model_of_a_name_the_catalog_has_no_word_of_is_not_carried_and_nothing_is_near(
    index: SearchIndex,
) -> None:
    result = search(index, "Do you have the Nokia 3310?")
    assert result.not_carried == ["Nokia 3310"]
    assert not any("nokia" in hit.name.casefold() for hit in result.products)


@pytest.mark.parametrize(
    ("words", "lacked"),
    [
        ("is the Xiaomi Redmi Note 13 in stock?", "Xiaomi Redmi Note 13"),
        ("do you have the Huawei MateBook 14?", "Huawei MateBook 14"),
        ("is the Honor Magic 6 Pro in stock?", "Honor Magic 6 Pro"),
    ],
)
def test_a_model_of_a_name_of_several_words_the_store_lacks_is_not_carried(
    index: SearchIndex, words: str, lacked: str
) -> None:
    # Given a store with no Xiaomi, Nothing or Honor, asked for a model by its whole name
    result = search(index, words)
    # Then that model is not carried, and no kind a word of its name asks for is searched:
    # "Magic" asks for no fantasy book here
    assert result.not_carried == [lacked]
    assert result.understood.get("category") != "BOOKS"
    if "Magic" in lacked:
        assert not any(hit.category == "BOOKS" for hit in result.products)


def test_nothing_is_near_a_name_the_catalog_has_no_word_of_by_its_number_alone(
    index: SearchIndex,
) -> None:
    # Given a store with no Xiaomi, whose 13-inch laptops have "13" in their names
    assert any(" 13 " in f" {name} " for name in NAMES.values())
    # When a shopper asks for the Xiaomi Redmi Note 13
    result = search(index, "is the Xiaomi Redmi Note 13 in stock?")
    # Then it is not carried, and no product is offered for sharing the number
    assert result.not_carried == ["Xiaomi Redmi Note 13"]
    assert first_names(result, 5) == []
    # But what else the words ask for the store has still comes
    both = search(index, "do you have the Huawei P60 or a Pixel?")
    assert both.not_carried == ["Huawei P60"]
    assert first_names(both, 5) and all("Pixel" in name for name in first_names(both, 5))
    camera = search(index, "do you have the Huawei P60? something with a good camera")
    assert camera.not_carried == ["Huawei P60"] and len(camera.products) == 5


@pytest.mark.parametrize(
    ("words", "author"),
    [
        ("any books by Stephen King?", "Stephen King"),
        ("anything by Brandon Sanderson", "Brandon Sanderson"),
    ],
)
def test_an_author_the_catalog_has_no_book_by_is_not_carried(
    index: SearchIndex, words: str, author: str
) -> None:
    assert search(index, words).not_carried == [author]


def test_an_author_the_catalog_has_is_carried(index: SearchIndex) -> None:
    result = search(index, "anything by Madeline Miller?")
    assert result.not_carried == []
    assert {hit.name for hit in result.products} == {"Circe", "The Song of Achilles"}


@pytest.mark.parametrize(
    ("words", "title"),
    [
        ("Do you sell Project Hail Mary?", "Project Hail Mary"),
        ("Do you have The Old Man and the Sea?", "The Old Man and the Sea"),
        # a word of it names phones ("Galaxy"), which are near no book
        ("Do you have The Hitchhiker's Guide to the Galaxy?",
         "The Hitchhiker's Guide to the Galaxy"),
        ("Do you have Dune by Frank Herbert?", "Dune"),
        # a word of it is near a word the search reads ("Prince": "price"), but its
        # other words are no product's: a title, not an order
        ("Do you have Le Petit Prince?", "Le Petit Prince"),
        ("Do you have The Little Prince?", "The Little Prince"),
        # its one word near a word that means nothing alone ("price"): a title
        ("Do you have The Prince?", "The Prince"),
        ("Do you have The Prince by Machiavelli?", "The Prince"),
    ],
)  # fmt: skip
def test_a_title_asked_for_that_no_product_has_is_not_carried_and_nothing_is_near(
    index: SearchIndex, words: str, title: str
) -> None:
    result = search(index, words)
    # Then the name is said not carried, first, and no product found for one of its
    # words is offered as near it ("Mary": Frankenstein, by Mary Shelley)
    assert result.not_carried[0] == title
    assert result.products == [] and result.count == 0


@pytest.mark.parametrize(
    ("words", "title"),
    [("Do you have The List?", "The List"), ("Do you have The Top Secret?", "The Top Secret")],
)
def test_a_title_of_words_of_asking_is_still_a_title(
    index: SearchIndex, words: str, title: str
) -> None:
    # "list" and "top" ask for all or the best of a kind ("list all laptops"), but a title
    # made of them is a title the store lacks, not the whole catalog
    result = search(index, words)
    assert result.not_carried == [title]
    assert result.products == []


@pytest.mark.parametrize(
    ("words", "title"),
    [
        ("Do you have Little Women?", "Little Women"),
        ("Do you have War and Peace?", "War and Peace"),
    ],
)
def test_a_title_not_carried_is_said_once_not_its_last_word_too(
    index: SearchIndex, words: str, title: str
) -> None:
    # "Little Women" is not carried; "Women" is no second name the shopper asked for
    assert search(index, words).not_carried == [title]


@pytest.mark.parametrize(
    ("words", "lacked"),
    [
        ("Is Dune in stock?", "Dune"),
        ("Have you got Dune?", "Dune"),
        ("can I buy Project Hail Mary here?", "Project Hail Mary"),
        ("Is Project Hail Mary in stock?", "Project Hail Mary"),
    ],
)
def test_a_name_asked_for_in_other_words_is_said_not_carried(
    index: SearchIndex, words: str, lacked: str
) -> None:
    # When a shopper asks for a book the store lacks as they would ask for any thing
    result = search(index, words)
    # Then it is said not carried, as "Do you have Dune?" was, and nothing found for one of
    # its words ("Mary": Frankenstein, by Mary Shelley) is offered instead
    assert result.not_carried == [lacked]
    assert result.products == []


@pytest.mark.parametrize(
    "words",
    [
        "Is The Alchemist in stock?",
        "I'm looking for Windows laptops",
        "Have you got any?",
        # a service or a feature asked about is the store's policies' or a product's
        "Can I get AppleCare?",
        "Is Express Delivery available?",
        "Is Financing available?",
        "Can I get Gift Wrapping?",
        "I'm looking for Gifts For Dad",
    ],
)
def test_what_the_store_has_asked_in_those_words_is_not_said_lacking(
    index: SearchIndex, words: str
) -> None:
    assert search(index, words).not_carried == []


@pytest.mark.parametrize(
    ("words", "lacked", "found"),
    [
        ("Do you have Dune and The Hobbit?", ["Dune"], ["The Hobbit"]),
        ("Do you have The Hobbit and Circe?", [], ["The Hobbit", "Circe"]),
        ("Do you have Dune, Circe or Piranesi?", ["Dune"], ["Circe", "Piranesi"]),
        ("Do you have Dune or Circe?", ["Dune"], ["Circe"]),
        # one title with "and" in it is one title, listed or not
        ("Do you have Pride and Prejudice?", [], ["Pride and Prejudice"]),
        ("Do you have Pride and Prejudice or Dune?", ["Dune"], ["Pride and Prejudice"]),
        ("Do you have Crime and Punishment or Frankenstein?", ["Crime and Punishment"],
         ["Frankenstein"]),
        # only the titles asked for, not a book found for one of their words
        ("Do you have Jane Eyre and Wuthering Heights?", [], ["Jane Eyre", "Wuthering Heights"]),
    ],
)  # fmt: skip
def test_titles_listed_beside_one_the_store_has_are_each_their_own(
    index: SearchIndex, words: str, lacked: list[str], found: list[str]
) -> None:
    # When a shopper asks for several books by title, some of which the store has
    result = search(index, words)
    # Then only the titles it lacks are said not carried, and those it has are shown
    assert result.not_carried == lacked
    assert sorted(h.name for h in result.products) == sorted(found)


@pytest.mark.parametrize("words", ["do you have 1984?", "1984", "Is 1984 in stock?"])
def test_a_title_the_catalog_writes_in_words_is_found_by_its_number(
    index: SearchIndex, words: str
) -> None:
    # "1984" is the title the catalog writes "Nineteen Eighty-Four": that book, alone
    result = search(index, words)
    assert [h.name for h in result.products] == ["Nineteen Eighty-Four"]


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("do you have 1984?", "do you have nineteen eighty four?"),
        ("20,000 Leagues Under the Sea", "twenty thousand Leagues Under the Sea"),
        ("100 Years of Solitude", "one hundred Years of Solitude"),
        # an amount, a size or a model's number is no number alone
        ("a laptop under $500 with 16GB and 1.5 kg", "a laptop under $500 with 16GB and 1.5 kg"),
    ],
)
def test_whole_numbers_are_written_in_words(text: str, spelled: str) -> None:
    assert numbers_in_words(text)[0] == spelled


def test_the_products_sharing_a_title_the_store_lacks_are_near_it(index: SearchIndex) -> None:
    result = search(index, "Do you have Harry Potter and the Cursed Child?")
    assert result.not_carried == ["Harry Potter and the Cursed Child"]
    assert result.products and all(h.name.startswith("Harry Potter") for h in result.products)


@pytest.mark.parametrize(
    "words",
    [
        "Do you have Circe?",
        "Do you stock The Hobbit by J.R.R. Tolkien?",
        "Do you have MacBook Air?",
        "Do you have Harry Poter and the Goblet of Fire?",  # a slip the search corrects
        # an author's name, or a title as a product's words have it
        "Do you have 1984 by George Orwell?",
        "Do you have any George Orwell?",
        "Do you have Madeline Miller?",
        "Do you have The Lord of the Rings?",
        # a kind, a brand's kind or an order, capitalised
        "Do you have Android Phones?",
        "Do you sell Samsung Phones?",
        "Do you sell Cheap Laptops?",
        # with a slip, beside a word the store has, or each word a slip: still corrected
        "Do you sell Samsung Phnoes?",
        "Do you sell Cheap Lpatops?",
        "Do you have Chep Andriod Phoens?",
    ],
)
def test_a_title_or_a_name_the_store_has_is_never_said_not_carried(
    index: SearchIndex, words: str
) -> None:
    result = search(index, words)
    assert result.not_carried == [] and result.products


def test_a_kind_asked_beside_a_product_named_is_searched_after_it(index: SearchIndex) -> None:
    # When the words name a phone and, beside it, ask for cheap phones of a line
    result = search(index, "Do you have the Pixel 9 and a cheap Android phone?")

    # Then the Pixel 9 comes first, then the cheapest Android phones, not the other Pixels
    assert result.understood["named"] == ["Pixel 9"]
    assert first_names(result, 1) == ["Google Pixel 9"]
    rest = result.products[1:]
    assert rest and all("Pixel 9" not in hit.name for hit in rest)
    prices = [hit.price for hit in rest]
    assert prices == sorted(prices) and all(hit.category == "MOBILE" for hit in rest)


@pytest.mark.parametrize(
    "words",
    [
        "Do you have the Pixel 9 and a cheap Android phone under $300?",
        # a brand with the kind, or the kind alone, with the budget
        "Do you have the Pixel 9 and a Samsung phone under $300?",
        "Do you have the Pixel 9 and a phone under $300?",
    ],
)
def test_a_limit_of_the_kind_asked_beside_a_product_named_is_that_kinds_alone(
    index: SearchIndex, words: str
) -> None:
    # When the words name a phone and, beside it, ask for phones under $300
    result = search(index, words)

    # Then the Pixel 9 ($799) is still shown first, and only the phones after it are
    # held to the budget
    assert first_names(result, 1) == ["Google Pixel 9"]
    rest = result.products[1:]
    assert rest and all(hit.price is not None and hit.price <= 300 for hit in rest)


@pytest.mark.parametrize(
    ("words", "named"),
    [
        # "plus" before another wish joins it to the model named
        ("I want the iPhone 15 plus a cheap laptop", ["iPhone 15"]),
        # "Plus" with its capital is the model's, whatever follows
        ("is the iPhone 16 Plus a good phone?", ["iPhone 16 Plus"]),
        ("Is the iPhone 15 Plus a good phone?", ["iPhone 15 Plus"]),
        # one it lacks, with nothing after, is said as asked
        ("Do you have the iPhone 15 Plus?", ["iPhone 15 Plus"]),
    ],
)
def test_plus_after_a_model_joins_another_wish_only_where_it_names_none(
    index: SearchIndex, words: str, named: list[str]
) -> None:
    result = search(index, words)
    assert result.understood["named"] == named
    assert result.not_carried == [n for n in named if n == "iPhone 15 Plus"]


def test_a_limit_said_of_the_product_named_still_holds_it(index: SearchIndex) -> None:
    # When the budget is said of the phone named, beside a kind asked
    result = search(index, "the iPhone 15 under $600 and a cheap Android phone")
    # Then the iPhone 15 ($699) is not shown as within it
    assert "Apple iPhone 15" not in [hit.name for hit in result.products]


@pytest.mark.parametrize(
    "words",
    [
        "is the Pixel 9 a cheap phone?",  # asks about it: the others of its name follow
        "Is the Pixel 9 in stock?",
    ],
)
def test_a_kind_said_of_a_product_named_asks_for_no_other_search(
    index: SearchIndex, words: str
) -> None:
    result = search(index, words)
    assert first_names(result, 2) == ["Google Pixel 9", "Google Pixel 9 Pro"]


def test_words_asking_for_two_kinds_search_the_first_and_say_the_other(
    index: SearchIndex,
) -> None:
    # When the words ask for a laptop and for a phone
    result = search(index, "I need a laptop and a phone for my son")

    # Then the laptops are searched, never "phone" as a word no laptop has, and the
    # phone's words are said for the model to search
    assert result.understood["category"] == "COMPUTERS"
    assert result.understood["alsoAsked"] == ["a phone for my son"]
    assert result.relaxed == [] and result.products


@pytest.mark.parametrize(
    ("words", "first", "also"),
    [
        ("the iPhone 15 and a laptop with 16GB RAM", "Apple iPhone 15", "a laptop with 16GB RAM"),
        # a book named by its title, with no kind's word
        ("Do you have Animal Farm and a cheap phone?", "Animal Farm", "a cheap phone"),
        ("I want Circe and a laptop for school", "Circe", "a laptop for school"),
        # with no limits of its own, the other kind is still a search of its own
        ("the MacBook Air 13 and a phone", "Apple MacBook Air 13 (M3)", "a phone"),
    ],
)
def test_a_product_named_beside_another_kind_is_searched_and_the_kind_said_apart(
    index: SearchIndex, words: str, first: str, also: str
) -> None:
    # When the words name a product and ask for another kind beside it
    result = search(index, words)

    # Then the product named comes first, held to no limit of the other kind, and the
    # other kind's words are said for the model to search
    assert first_names(result, 1) == [first]
    assert result.understood["alsoAsked"] == [also]
    assert result.relaxed == []


def test_a_line_and_its_qualifier_name_every_model_of_them_first(index: SearchIndex) -> None:
    # When the words name a line and a qualifier, and a kind besides
    result = search(index, "My daughter needs an iPhone and a MacBook Air for university.")

    # Then that is a name: every product of it comes first, and the other kind's words
    # are said for the model to search
    assert result.understood["named"] == ["MacBook Air"]
    assert result.understood["alsoAsked"] == ["My daughter needs an iPhone"]
    assert sorted(first_names(result, 2)) == [
        "Apple MacBook Air 13 (M3)",
        "Apple MacBook Air 15 (M3)",
    ]
    assert result.not_carried == []


@pytest.mark.parametrize(
    ("words", "named"),
    [
        ("Galaxy S24, S24+ or S24 Ultra?", ["Galaxy S24", "Galaxy S24+", "Galaxy S24 Ultra"]),
        ("iPhone 15 or 16?", ["iPhone 15", "iPhone 16"]),
        ("Pixel 8 or 8a", ["Pixel 8", "Pixel 8a"]),
        ("Is the iPhone 16 or 16 Pro lighter?", ["iPhone 16", "iPhone 16 Pro"]),
        ("iPhone 15, 16, 16 Plus", ["iPhone 15", "iPhone 16", "iPhone 16 Plus"]),
        # A number that is no model of the line: a quantity, a generation's own number
        ("an iPhone 15 and 2 cases", ["iPhone 15"]),
        ("I want the Pixel 9 and 2 screen protectors", ["Pixel 9"]),
        ("the iPhone 15 Pro, 2 units", ["iPhone 15 Pro"]),
    ],
)
def test_models_of_one_line_listed_after_its_name_are_each_named(
    index: SearchIndex, words: str, named: list[str]
) -> None:
    result = search(index, words)
    assert result.understood["named"] == named


@pytest.mark.parametrize(
    ("words", "named"),
    [
        # More than one of a model is that model
        ("do you have any iPhone 15s left?", ["iPhone 15"]),
        ("two Galaxy S24s for me and my wife", ["Galaxy S24"]),
        ("I'd like the iPhone 15 x2", ["iPhone 15"]),
        # Asking for it in the words owning one would use
        ("I'd like the iPhone 15 please", ["iPhone 15"]),
        ("should I upgrade to the iPhone 16 Pro?", ["iPhone 16 Pro"]),
        ("for my mum, the Galaxy A15 or the A35?", ["Galaxy A15", "Galaxy A35"]),
        ("my wife currently uses a Pixel 6 and wants the Pixel 9", ["Pixel 9"]),
        # Owned, said after the name; not a product seen or a budget after the question
        ("is the iPhone 12 I have still good, or should I get the iPhone 15?", ["iPhone 15"]),
        ("the Pixel 7 we've got is slow, is the Pixel 8a better?", ["Pixel 8a"]),
        ("Is the iPhone 15 I saw online in stock?", ["iPhone 15"]),
        ("Do you have the iPhone 15? I have $700", ["iPhone 15"]),
        # A comma ends a name both ways; "S" ends none
        (
            "compare the Dell XPS 13, MacBook Air 13 and Surface Laptop 6",
            ["Dell XPS 13", "MacBook Air 13", "Surface Laptop 6"],
        ),
        ("does the Galaxy S24 Ultra S Pen come in the box?", ["Galaxy S24 Ultra"]),
    ],
)
def test_a_model_is_read_as_asked_for_in_ordinary_words(
    index: SearchIndex, words: str, named: list[str]
) -> None:
    result = search(index, words)
    assert result.understood["named"] == named
    assert result.not_carried == []


@pytest.mark.parametrize(
    ("words", "named", "first"),
    [
        ("is the S24 in stock?", ["S24"], "Samsung Galaxy S24"),
        ("S24 Ultra price?", ["S24 Ultra"], "Samsung Galaxy S24 Ultra"),
        ("compare the S24 and the Pixel 8a", ["S24", "Pixel 8a"], "Samsung Galaxy S24"),
    ],
)
def test_a_model_said_by_its_token_alone_is_named(
    index: SearchIndex, words: str, named: list[str], first: str
) -> None:
    # Given a model said with no line before it, where a product's name has its token whole
    result = search(index, words)

    # Then it is named, and the product with the fewest words besides comes first
    assert result.understood["named"] == named
    assert result.products[0].name == first
    assert result.not_carried == []


@pytest.mark.parametrize(
    "words", ["a laptop with an M3 chip", "a phone with 5G", "the top 3 laptops"]
)
def test_a_part_or_a_count_is_no_model_said_alone(index: SearchIndex, words: str) -> None:
    assert "named" not in search(index, words).understood


def test_a_kinds_word_after_a_model_the_store_lacks_is_not_part_of_its_name(
    index: SearchIndex,
) -> None:
    result = search(index, "an HP 17 laptop for work")
    assert result.not_carried == ["HP 17"]


def test_a_generation_number_goes_on_the_name() -> None:
    # Given a catalog with the X1 Carbon's twelfth generation
    def has_name(phrase: str, *, books: bool = True, category: str | None = None) -> bool:
        return set(phrase.casefold().split()) <= {"thinkpad", "x1", "carbon", "gen", "12"}

    named = named_in("the ThinkPad X1 Carbon Gen 12", has_name, lambda w: False, lambda w: True)
    assert [n.said for n in named] == ["ThinkPad X1 Carbon Gen 12"]


def test_a_line_and_a_qualifier_no_name_has_is_no_name_and_not_said_lacking(
    index: SearchIndex,
) -> None:
    result = search(index, "a Pixel Fold")
    assert "named" not in result.understood and result.not_carried == []


def test_a_product_the_shopper_has_is_not_what_they_ask_for(index: SearchIndex) -> None:
    result = search(index, "I have a Pixel 6, should I get the Pixel 9?")
    assert result.understood["named"] == ["Pixel 9"] and result.not_carried == []
    assert first_names(result, 1) == ["Google Pixel 9"]


@pytest.mark.parametrize(
    "words",
    [
        "a laptop with 16GB RAM under $800",
        "Windows 11 laptop for school",
        "a 15-inch laptop",
        "a phone with a 5000 mAh battery",
        "Laptop 1000 Euro leicht",
        "Gewicht 1,2 kg, Akku 10 Stunden",
        "something for my 2 kids under 300",
        # Parts the catalog's specs have, quantities after a brand, the first word, years
        "a laptop with an Intel Core i7",
        "phone with Snapdragon 8 Gen 3",
        "Dell 20% off",
        "Apple 2 year warranty",
        "Give 3 laptop options",
        "Christmas 2024 gift phone",
        "Entre 300 y 500 euros",
        # A product the shopper has is no product asked for
        "My old iPhone 8 broke, what should I get?",
        "upgrading from a Galaxy S10",
        "is it better than the iPhone 14?",
        # A word of a line of another kind; capitalised words no name has, not after
        # "the" or "a", or with an ordinal
        "phone with Gorilla Glass Victus 2",
        "Laptop mit Grafikkarte RTX4060",
        "Phone for Mum 70th birthday",
        "laptop with WiFi 6E",
        # A line and a kind ask for the kind; a brand and a qualifier name no model
        "a Galaxy phone under 500",
        "a Surface Laptop for school",
        "an Apple Pro laptop",
        # A line's word that leads one name, followed by a qualifier, is the line's
        "Best Mac for a university student?",
        "what about a Mac?",
        "an HP 2-in-1 laptop",
        "a Yoga 2 in 1 laptop",
        # Games a laptop is to run, dates
        "a laptop that can run the Sims 4",
        "a gaming laptop for the Witcher 3 on high settings",
        "will it arrive by the Dec 20?",
        # A product the shopper or theirs has, or compares against, in their words
        "my wife currently uses a Pixel 6",
        "I bought the Pixel 7 last year and it broke",
        "what's a good alternative to the Galaxy S23?",
        "something similar to the OnePlus 11 under 600",
        # A share after a brand whose products are named by a number ("HP 14 Laptop")
        "HP 50% off",
    ],
)
def test_amounts_kinds_and_systems_name_no_product(index: SearchIndex, words: str) -> None:
    result = search(index, words)
    assert "named" not in result.understood
    assert result.not_carried == []


def test_words_that_also_put_a_limit_keep_the_order_it_gives_and_say_the_names(
    index: SearchIndex,
) -> None:
    # When the words name a product and a price it does not meet
    result = search(index, "is the iPhone 15 under $600?")

    # Then the limit holds for it too: the limit's products stand, and the name is said
    assert result.understood["named"] == ["iPhone 15"]
    assert all(hit.price is not None and hit.price <= 600 for hit in result.products)

    # And one that meets the limit comes first
    met = search(index, "Is the Galaxy S24 Ultra 256GB in stock?")
    assert first_names(met, 1) == ["Samsung Galaxy S24 Ultra"]


def test_a_sold_out_product_named_with_in_stock_only_is_neither_first_nor_not_carried(
    index: SearchIndex,
) -> None:
    # Given the Razer Blade 16, sold out
    blade = next(p for p in CATALOG if p["name"] == "Razer Blade 16 (2024)")
    assert blade["stock"] == 0

    # When a search in stock only names it
    result = search(index, "the Razer Blade 16", inStockOnly=True)

    # Then the tool's own filter stands, and the store still carries it
    assert blade["productId"] not in result.product_ids
    assert result.not_carried == []


def test_a_store_of_its_own_names_its_own_models(tmp_path: Path) -> None:
    # Given a store's own catalog, with its own line and all-digit SKUs
    def product(pid: str, name: str, stock: int = 5) -> dict[str, Any]:
        return {
            "productId": pid, "name": name, "brand": "Acme", "category": "MOBILE",
            "price": 300.0, "stock": stock, "description": "A phone.", "specs": {},
        }  # fmt: skip

    index = _open(
        [product("100200", "Acme Rocket 5"), product("100201", "Acme Rocket 7"),
         product("100202", "Acme Rocket 7 Max"), product("100203", "Acme Comet 2")],
        tmp_path / "own.sqlite",
    )  # fmt: skip
    try:
        # When a shopper asks for a model it has, and one it lacks
        has = search(index, "is the rocket 7 in stock")
        lacks = search(index, "Do you have the Rocket 6?")
    finally:
        index.close()

    # Then the one it has comes first, and the one it lacks is not carried, nearest first
    assert first_names(has, 1) == ["Acme Rocket 7"] and has.not_carried == []
    assert lacks.not_carried == ["Rocket 6"]
    assert first_names(lacks, 2) in (
        ["Acme Rocket 5", "Acme Rocket 7"],
        ["Acme Rocket 7", "Acme Rocket 5"],
    )


def test_a_brand_that_is_its_own_line_and_a_number_of_an_unknown_name_are_models(
    tmp_path: Path,
) -> None:
    # Given a store whose phones are named by their brand and a number, and no Pixel
    def phone(pid: str, name: str) -> dict[str, Any]:
        return {
            "productId": pid, "name": name, "brand": "Zephone", "category": "MOBILE",
            "price": 500.0, "stock": 4, "description": "A repairable phone.", "specs": {},
        }  # fmt: skip

    index = _open([phone("Z5", "Zephone 5"), phone("Z4", "Zephone 4")], tmp_path / "z.sqlite")
    try:
        lacked = search(index, "Do you have the Zephone 3?")
        pixel = search(index, "Do you sell the Pixel 9?")
        top = search(index, "the Top 3 phones")
    finally:
        index.close()

    # Then the brand's number it lacks is not carried, its nearest first
    assert lacked.not_carried == ["Zephone 3"]
    assert first_names(lacked, 1) == ["Zephone 4"]
    # And a one-digit model of a name no product has is not carried, where it ends the question
    assert pixel.not_carried == ["Pixel 9"]
    # But a number before a kind names nothing
    assert "named" not in top.understood and top.not_carried == []


def test_a_name_of_words_the_search_reads_otherwise_is_the_stores_product(
    tmp_path: Path,
) -> None:
    # Given a store with a phone whose name has a genre's word ("magic") and the bundled books
    honor = _phone("HN-6P", "Honor Magic 6 Pro", "Honor")
    index = _open([*CATALOG, honor], tmp_path / "honor.sqlite")
    try:
        asked = search(index, "is the Honor Magic 6 Pro in stock?")
        two = search(index, "the Dell XPS 13 or the Honor Magic 6?")
        books = search(index, "any books about magic?")
    finally:
        index.close()

    # Then the phone is named and is the answer, not a fantasy book
    assert asked.understood["named"] == ["Honor Magic 6 Pro"]
    assert asked.product_ids == ["HN-6P"] and asked.understood["category"] == "MOBILE"
    assert first_names(two, 2) == ["Dell XPS 13 9340", "Honor Magic 6 Pro"]
    assert "category" not in two.understood
    # And the genre's word alone still asks for books
    assert books.understood["category"] == "BOOKS" and "HN-6P" not in books.product_ids


@pytest.mark.parametrize(
    ("words", "first"),
    [
        # a colour or a condition before a model the store has
        ("Is the Midnight MacBook Air 13 in stock?", "Apple MacBook Air 13 (M3)"),
        ("Is the Unlocked Galaxy S24 Ultra in stock?", "Samsung Galaxy S24 Ultra"),
        ("Do you have the Marble Gray Galaxy S24?", "Samsung Galaxy S24"),
        # a brand before a line the usual reading names whole
        ("is the Apple iPhone 16 Pro Max in stock?", "Apple iPhone 16 Pro Max"),
    ],
)
def test_capitalised_words_before_a_model_the_store_has_name_no_model_it_lacks(
    index: SearchIndex, words: str, first: str
) -> None:
    result = search(index, words)
    assert first_names(result, 1) == [first]
    assert result.not_carried == []


@pytest.mark.parametrize(
    "words", ["is the Spring Sale 3 for 2 still on?", "is the Cyber Monday 2 for 1 deal on?"]
)
def test_a_sales_name_with_a_number_is_no_model(index: SearchIndex, words: str) -> None:
    assert search(index, words).not_carried == []


def test_a_word_of_the_books_names_with_a_number_is_searched_not_said_not_carried(
    tmp_path: Path,
) -> None:
    # Given a store whose only Python book is not "Python 3"
    book = {
        "productId": "B1", "name": "Python Crash Course", "brand": "No Starch",
        "category": "BOOKS", "price": 30.0, "stock": 3, "description": "Learn Python.",
        "specs": {"author": "Eric Matthes"},
    }  # fmt: skip
    index = _open([book], tmp_path / "books.sqlite")
    try:
        result = search(index, "a Python 3 book")
    finally:
        index.close()

    # Then the book is found by its words, and nothing is said not carried
    assert result.not_carried == [] and result.product_ids == ["B1"]


def test_the_reading_alone_takes_only_what_the_catalog_has_a_name_for() -> None:
    # Given a catalog whose names have "Rocket 7" and the line "Rocket", and nothing else
    names = {"rocket 7", "rocket"}

    def has_name(phrase: str, *, books: bool = True, category: str | None = None) -> bool:
        return phrase.casefold() in names

    def is_brand(word: str) -> bool:
        return word.casefold() == "acme"

    def known(word: str) -> bool:
        return word.casefold() in {"rocket", "7", "acme", "core"}

    def read(text: str) -> list[Named]:
        return named_in(text, has_name, is_brand, known)

    # Then a model it has is carried, one of its line it lacks is not, and a capitalised
    # word it has no name for before a model token is a name it lacks
    assert read("the Rocket 7 or the Rocket 9") == [
        Named("Rocket 7", carried=True),
        Named("Rocket 9", carried=False),
    ]
    assert read("a Nokia 3310") == [Named("Nokia 3310", carried=False, line=False)]
    # but no amount, no brand's number, no word the catalog has, no name at the start
    assert read("under 700 dollars, 16 GB, the 2 of us") == []
    assert read("an Acme 2 pack, or a Core i9") == []
    assert read("Nokia 3310 please") == []


def _phone(pid: str, name: str, brand: str) -> dict[str, Any]:
    # A store's own export: no operating system listed
    return {
        "productId": pid, "name": name, "brand": brand, "category": "MOBILE",
        "price": 499.0, "stock": 5, "description": "A phone.", "specs": {},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("words", "lacked"),
    [
        ("Do you sell iPhones?", ["iPhones"]),
        ("a MacBook for school", ["MacBook"]),
        ("any Chromebooks?", ["Chromebooks"]),
        # A system is no line: phones whose records list none may run it
        ("a cheap android phone", []),
    ],
)
def test_a_line_the_search_reads_that_the_store_has_none_of_is_not_carried(
    tmp_path: Path, words: str, lacked: list[str]
) -> None:
    # Given a store without Apple or Chromebooks, whose records list no system
    own = [_phone("P1", "Fairphone 5", "Fairphone"), _phone("P2", "Nothing Phone (2a)", "Nothing")]
    laptop = _phone("L1", "Framework Laptop 13", "Framework")
    own.append({**laptop, "category": "COMPUTERS", "specs": {"formFactor": "laptop"}})
    opened = _open(own, tmp_path / "own.sqlite")
    try:
        result = search(opened, words)
    finally:
        opened.close()
    # Then a line it has none of is said not carried, as written, and the kind is shown
    assert result.not_carried == lacked
    assert result.products


@pytest.mark.parametrize(
    ("words", "author"),
    [
        ("do you have anything by Jane Austen?", "Jane Austen"),
        ("books by Jane Austen", "Jane Austen"),
        ("something by George Orwell", "George Orwell"),
    ],
)
def test_an_author_asked_for_gives_only_their_books(
    index: SearchIndex, words: str, author: str
) -> None:
    # "by Jane Austen" is hers: not Jane Eyre, whose title has her given name
    result = search(index, words)
    authors = {BY_ID[hit.productId]["specs"].get("author") for hit in result.products}
    assert authors == {author}, [hit.name for hit in result.products]
