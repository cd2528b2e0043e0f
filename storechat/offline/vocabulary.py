"""The shop's words: categories, brands, product lines, systems, uses and orders.

Each table is declared once here and read by both sides of the model: the
intent parser finds these words in a shopper's text, the answer writer puts
them back into sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from shared.catalog.categories import Category

COMPUTERS: Final[str] = Category.COMPUTERS
MOBILE: Final[str] = Category.MOBILE
BOOKS: Final[str] = Category.BOOKS

LOOKUP: Final = "lookup_inventory"
REVIEWS: Final = "get_computer_reviews"
BOOK_INFO: Final = "get_book_info"

_I = re.IGNORECASE


def word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


_CATEGORY_RES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    (
        COMPUTERS,
        re.compile(
            r"\b(?:pcs?|laptops?|computers?|notebooks?|desktops?|macbooks?|imacs?|macs?|"
            r"mac mini|chromebooks?|ultrabooks?|gaming rigs?|workstations?|all-in-ones?|"
            r"towers?|galaxy books?\d*|surface (?:laptop|pro|book)|thinkpads?|zenbooks?|"
            r"vivobooks?|ideapads?)\b",
            _I,
        ),
    ),
    (
        MOBILE,
        re.compile(
            r"\b(?:(?:smart|cell|mobile )?phones?|smartphones?|mobiles?|iphones?|"
            r"galaxy [sazf]\d*\w*|pixel(?:\s?\d+\w*)?|handsets?|zenfones?)\b",
            _I,
        ),
    ),
    (
        BOOKS,
        re.compile(
            r"\b(?:books?|novels?|reading|read(?!\s+(?:that|about|reviews?|online))|authors?|"
            r"paperbacks?|hardcovers?|hardbacks?|e-?books?|fiction|non-?fiction|"
            r"biograph(?:y|ies)|memoirs?)\b",
            _I,
        ),
    ),
)
# Laptops whose names contain "book" must not read as a request for books.
_NOT_BOOKS = re.compile(r"\b(?:galaxy|surface|yoga|chrome|mac|zen|vivo)\s*book\w*", _I)

# brandId exactly as the catalog spells it, and the categories each brand sells.
_BRANDS: Final[tuple[tuple[str, str, frozenset[str]], ...]] = (
    ("ASUS", r"asus", frozenset({COMPUTERS, MOBILE})),
    ("Dell", r"dell", frozenset({COMPUTERS})),
    ("Apple", r"apple", frozenset({COMPUTERS, MOBILE})),
    ("Lenovo", r"lenovo", frozenset({COMPUTERS})),
    ("HP", r"hp", frozenset({COMPUTERS})),
    ("Samsung", r"samsung", frozenset({COMPUTERS, MOBILE})),
    ("Microsoft", r"microsoft", frozenset({COMPUTERS})),
    ("Acer", r"acer", frozenset({COMPUTERS})),
    ("Razer", r"razer", frozenset({COMPUTERS})),
    ("MSI", r"msi", frozenset({COMPUTERS})),
    ("Penguin Books", r"penguin(?: books)?", frozenset({BOOKS})),
    ("HarperCollins", r"harper ?collins", frozenset({BOOKS})),
    ("Bloomsbury", r"bloomsbury", frozenset({BOOKS})),
    ("Google", r"google", frozenset({COMPUTERS, MOBILE})),
    ("OnePlus", r"one ?plus", frozenset({MOBILE})),
)
_BRAND_RES: Final = tuple(
    (brand, re.compile(rf"\b{pattern}\b", _I)) for brand, pattern, _ in _BRANDS
)
BRAND_CATEGORIES: Final = {brand: cats for brand, _, cats in _BRANDS}
PUBLISHERS: Final = frozenset(b for b, cats in BRAND_CATEGORIES.items() if cats == {BOOKS})

# Product lines: a line word followed by a model token names a specific product.
LINES: Final[dict[str, tuple[str | None, str]]] = {
    "xps": ("Dell", COMPUTERS),
    "inspiron": ("Dell", COMPUTERS),
    "latitude": ("Dell", COMPUTERS),
    "alienware": ("Dell", COMPUTERS),
    "zenbook": ("ASUS", COMPUTERS),
    "vivobook": ("ASUS", COMPUTERS),
    "rog": ("ASUS", COMPUTERS),
    "tuf": ("ASUS", COMPUTERS),
    "zephyrus": ("ASUS", COMPUTERS),
    "zenfone": ("ASUS", MOBILE),
    "macbook": ("Apple", COMPUTERS),
    "imac": ("Apple", COMPUTERS),
    "mac": ("Apple", COMPUTERS),
    "iphone": ("Apple", MOBILE),
    "thinkpad": ("Lenovo", COMPUTERS),
    "ideapad": ("Lenovo", COMPUTERS),
    "ideacentre": ("Lenovo", COMPUTERS),
    "legion": ("Lenovo", COMPUTERS),
    "spectre": ("HP", COMPUTERS),
    "envy": ("HP", COMPUTERS),
    "pavilion": ("HP", COMPUTERS),
    "victus": ("HP", COMPUTERS),
    "omen": ("HP", COMPUTERS),
    "elitebook": ("HP", COMPUTERS),
    "surface": ("Microsoft", COMPUTERS),
    "aspire": ("Acer", COMPUTERS),
    "swift": ("Acer", COMPUTERS),
    "nitro": ("Acer", COMPUTERS),
    "predator": ("Acer", COMPUTERS),
    "blade": ("Razer", COMPUTERS),
    "katana": ("MSI", COMPUTERS),
    "stealth": ("MSI", COMPUTERS),
    "galaxy": ("Samsung", MOBILE),
    "pixel": ("Google", MOBILE),
    "nord": ("OnePlus", MOBILE),
    "chromebook": (None, COMPUTERS),
}

# Each system: what a shopper writes, the category it runs on, and how an answer spells it.
_SYSTEMS: Final[tuple[tuple[str, str, str, str], ...]] = (
    ("windows", r"\bwindows\b", COMPUTERS, "Windows"),
    ("macos", r"\b(?:mac ?os|os ?x|macs?|macbooks?|imacs?)\b", COMPUTERS, "macOS"),
    ("chromeos", r"\b(?:chrome ?os|chromebooks?)\b", COMPUTERS, "ChromeOS"),
    ("android", r"\bandroid\b", MOBILE, "Android"),
    ("ios", r"\b(?:ios|iphones?)\b", MOBILE, "iOS"),
)
_OS_RES: Final = tuple((name, re.compile(pattern, _I)) for name, pattern, _, _ in _SYSTEMS)
OS_CATEGORY: Final = {name: category for name, _, category, _ in _SYSTEMS}
OS_LABEL: Final = {name: label for name, _, _, label in _SYSTEMS}

# Each form a shopper can ask for by name: the word the catalog search reads as that
# form, the catalog's formFactor values, and how an answer names it.
_FORMS: Final[tuple[tuple[str, str, frozenset[str], str], ...]] = (
    (
        "laptop",
        r"\b(?:laptops?|notebooks?|ultrabooks?|2-in-1s?|convertibles?)\b",
        frozenset({"laptop", "2-in-1"}),
        "laptops",
    ),
    (
        "desktop",
        r"\b(?:desktops?|towers?|all-in-ones?|gaming rigs?|workstations?)\b",
        frozenset({"desktop", "all-in-one"}),
        "desktops",
    ),
)
_FORM_RES: Final = tuple((name, re.compile(pattern, _I)) for name, pattern, _, _ in _FORMS)
FORM_FACTORS: Final = {name: factors for name, _, factors, _ in _FORMS}
FORM_NOUN: Final = {name: noun for name, _, _, noun in _FORMS}

# Each use: what a shopper writes, and how an answer names it. Checked in this
# order: "a light laptop for school" is a student question, "photo editing" editing.
_USES: Final[tuple[tuple[str, str, str], ...]] = (
    (
        "student",
        r"\b(?:students?|school\w*|college|universit(?:y|ies)|uni|"
        r"stud(?:y|ies|ying)|homework)\b",
        "for a student",
    ),
    ("gaming", r"\b(?:gam(?:e|es|ing|er|ers))\b", "for gaming"),
    (
        "editing",
        r"\b(?:(?:video|photo) editing|edit(?:s|ing)? (?:\w+ )?(?:videos?|photos?|footage)|editing|"
        r"content creat\w*|creators?|rendering|3d|music production|graphic design)\b",
        "for video editing",
    ),
    (
        "photos",
        r"\b(?:photos?|photograph\w*|pictures?|selfies?|(?:good|great|best|better) cameras?)\b",
        "for photos",
    ),
    (
        "travel",
        r"\b(?:travel\w*|portable|light(?:weight)?|commut\w*|on the go)\b",
        "for travel",
    ),
    ("work", r"\b(?:work|business|office|professional|productivity)\b", "for work"),
)
USE_RES: Final = tuple((name, re.compile(pattern, _I)) for name, pattern, _ in _USES)
USE_PHRASE: Final = {name: phrase for name, _, phrase in _USES}

# Each order a shopper can ask for, and how an answer announces it.
_SORTS: Final[tuple[tuple[str, str, str], ...]] = (
    (
        "weight",
        r"\b(?:lightest|lighter|least heavy|weighs? (?:the )?least)\b",
        "lightest first",
    ),
    (
        "price",
        r"\b(?:cheapest|cheaper|least expensive|lowest price|most affordable)\b",
        "cheapest first",
    ),
    (
        "battery",
        r"\b(?:longest|longer|best|better|biggest|bigger|more) battery|battery life\b",
        "longest battery first",
    ),
    ("ram", r"\b(?:most|more) (?:ram|memory)\b", "most RAM first"),
    ("storage", r"\b(?:most|more|biggest) (?:storage|space)\b", "most storage first"),
    (
        "screen",
        r"\b(?:big|large|biggest|largest|bigger|larger) (?:screen|display)\b",
        "biggest screen first",
    ),
    ("camera", r"\b(?:best|better|good|great) cameras?\b", "best camera first"),
    (
        "performance",
        r"\b(?:fastest|faster|most powerful|more powerful|"
        r"best performance)\b",
        "most powerful first",
    ),
)
SORT_RES: Final = tuple((name, re.compile(pattern, _I)) for name, pattern, _ in _SORTS)
SORT_PHRASE: Final = {name: phrase for name, _, phrase in _SORTS}

_GENRES: Final = (
    "fantasy",
    "science fiction",
    "sci-fi",
    "mystery",
    "thriller",
    "romance",
    "horror",
    "classic",
    "classics",
    "dystopian",
    "crime",
    "poetry",
    "biography",
    "memoir",
    "history",
    "historical fiction",
    "young adult",
    "children's",
    "philosophy",
    "literary fiction",
)
# The catalog says "Classic fiction"; a plural keyword would not match it.
GENRE_KEYWORD: Final = {"classics": "classic", "sci-fi": "science fiction"}
GENRE_RE = re.compile(r"\b(" + "|".join(re.escape(g) for g in _GENRES) + r")\b", _I)


def categories_in(text: str) -> list[str]:
    masked = _NOT_BOOKS.sub(" laptop ", text)
    return [cat for cat, pattern in _CATEGORY_RES if pattern.search(masked)]


def forms_in(text: str) -> list[str]:
    return [name for name, pattern in _FORM_RES if pattern.search(text)]


def brands_in(text: str) -> list[str]:
    return [brand for brand, pattern in _BRAND_RES if pattern.search(text)]


def systems_in(text: str) -> list[str]:
    return [name for name, pattern in _OS_RES if pattern.search(text)]


def brand_named(word: str) -> str | None:
    return next((brand for brand, pattern in _BRAND_RES if pattern.fullmatch(word)), None)


def first_match(patterns: tuple[tuple[str, re.Pattern[str]], ...], text: str) -> str | None:
    return next((name for name, pattern in patterns if pattern.search(text)), None)
