"""Every spec the store knows by name, declared once in :data:`SPECS`.

A product's ``specs`` may hold any key; the ones declared here mean something to the
store beyond their text, as their :class:`~shared.catalog.spec.Spec` says.

What each reader takes from the table (the tool's fields, the search's facets and
sorts, the fact check, the chips, the eval's bounds) is in :mod:`shared.catalog.derive`.
No AWS and no search imports: the Converse function reads it.
"""

from __future__ import annotations

from typing import Final

from shared.catalog.categories import Category
from shared.catalog.spec import Bound, Chip, Facet, Fact, FactUnit, Kind, Kinds, Phrase, Sort, Spec

_DATA: Final = {"tb": 1024.0, "gb": 1.0, "mb": 1 / 1024}
_KG: Final = {
    "kg": 1.0, "kgs": 1.0, "g": 0.001, "gram": 0.001, "grams": 0.001,
    "lb": 0.45359237, "lbs": 0.45359237, "pounds": 0.45359237, "oz": 0.028349523,
}  # fmt: skip
_C, _M, _B = Category.COMPUTERS, Category.MOBILE, Category.BOOKS

RAM_GB: Final = Spec(
    "ramGb",
    "RAM",
    Facet("gb", "GB", 0.5, 4096, _DATA, {"memorygb": "gb"}, ("ram", "memory")),
    (Bound("minRamGb", True, "Least memory (RAM), GB", "with at least {} GB RAM", "GB RAM"),),
    Sort(
        "ram",
        True,
        "most RAM first",
        r"\b(?:most|more|biggest|largest) (?:ram|memory)\b",
        Sort(
            "ram_asc",
            False,
            "least RAM first",
            r"\b(?:least|less|fewest|smallest) (?:ram|memory)\b",
        ),
    ),
    Fact("data", role="ram"),
    (Chip(_C, 3, "{} GB RAM", "number"),),
    ("RAM", "Memory", "RAM Memory", "RAM Size", "System Memory", "RAM (GB)"),
    (Phrase(r"\b(\d+(?:\.\d+)?)\s*gb\s*(?:of\s+)?(?:ram|memory)\b"),),
    talk=("ram", "memory"),
)
STORAGE_GB: Final = Spec(
    "storageGb",
    "storage",
    Facet(
        "gb",
        "GB",
        1,
        1_000_000,
        _DATA,
        {"storagetb": "tb", "ssdgb": "gb"},
        ("storage", "ssd"),
    ),
    (
        Bound(
            "minStorageGb", True, "Least storage, GB", "with at least {} GB storage", "GB storage"
        ),
    ),
    Sort(
        "storage",
        True,
        "most storage first",
        r"\b(?:most|more|biggest|largest) (?:storage|space)\b",
        Sort(
            "storage_asc",
            False,
            "least storage first",
            r"\b(?:least|less|smallest|lowest) (?:storage|space)\b",
        ),
    ),
    Fact("data", role="storage"),
    (Chip(_C, 4, "{} storage", "storage"), Chip(_M, 3, "{}", "storage")),
    (
        "Storage",
        "Storage Capacity",
        "Capacity",
        "Internal Storage",
        "SSD",
        "SSD Capacity",
        "Hard Drive Capacity",
        "Storage (GB)",
    ),
    (Phrase(r"\b(\d+(?:\.\d+)?)\s*(tb|gb)\s*(?:of\s+)?(?:storage|ssd|space|drive|disk)\b"),),
    talk=("storage", "space", "ssd", "drive"),
)
WEIGHT_KG: Final = Spec(
    "weightKg",
    "weight",
    Facet(
        "kg",
        "kg",
        0.01,
        200,
        _KG,
        {"weightg": "g", "weightgrams": "g", "weightlb": "lb", "weightlbs": "lb", "weightoz": "oz"},
        ("weight",),
    ),
    (Bound("maxWeightKg", False, "Heaviest weight, kg", "weighing at most {} kg", "kg"),),
    Sort(
        "weight",
        False,
        "lightest first",
        r"\b(?:lightest|lighter|least heavy|weighs? (?:the )?least|(?:least|lowest) weight)\b",
        Sort(
            "weight_desc",
            True,
            "heaviest first",
            r"\b(?:heaviest|heavier|most heavy|weighs? (?:the )?most)\b",
        ),
    ),
    Fact("weight", " kg", also={"weightG": " g"}),
    (Chip(_C, 6, "{}", "weight"),),
    ("Weight", "Product Weight"),
    (
        Phrase(
            r"\b(?:under|below|less than|lighter than|at most|max(?:imum)?)\s*(\d+(?:\.\d+)?)\s*"
            r"(kg|kilos?|kilograms?|g|grams?|lbs?|pounds)\b",
            "most",
        ),
    ),
    talk=("weight", "weighs", "weigh", "weighing", "heavy", "light"),
)
BATTERY_HOURS: Final = Spec(
    "batteryHours",
    "battery life",
    Facet(
        "h",
        "hours",
        0.5,
        200,
        {"h": 1.0, "hr": 1.0, "hrs": 1.0, "hour": 1.0, "hours": 1.0},
        {"batterylife": "h"},
        ("battery",),
    ),
    (
        Bound(
            "minBatteryHours",
            True,
            "Least battery life, hours (laptops)",
            "with {}+ hours of battery",
            "h battery",
        ),
    ),
    Sort(
        "battery",
        True,
        "longest battery first",
        r"\b(?:longest|longer|best|better|good|great|biggest|bigger|largest|most|more) "
        r"battery|battery life\b|\b(?:lasts? (?:the )?longest|longest[- ]lasting)\b",
        Sort(
            "battery_asc",
            False,
            "shortest battery first",
            r"\b(?:shortest|shorter|worst|weakest|smallest|least) battery\b",
        ),
    ),
    Fact(
        "hours",
        " h",
        absolute=0.5,
        unit=FactUnit(
            "h", r"hours?|hrs?|h|Stunden|Std\.?|時間|小时|小時|heures?|horas?", 1, True, (0.5, 200)
        ),
    ),
    (Chip(_C, 7, "{} h battery", "number"),),
    ("Battery Life",),
    (
        Phrase(
            r"\b(\d+(?:\.\d+)?)\s*\+?\s*-?\s*(?:hours?|hrs?|h)\b\s*(?:of\s+)?battery(?:\s+life)?\b"
        ),
        Phrase(
            r"\bbattery(?:\s+life)?\s*(?:of\s+)?(?:at least\s+|over\s+|more than\s+)?"
            r"(\d+(?:\.\d+)?)\s*\+?\s*(?:hours?|hrs?|h)\b"
        ),
    ),
    talk=("battery", "life", "lasts", "last", "long", "charge", "one", "single"),
)
BATTERY_MAH: Final = Spec(
    "batteryMah",
    "battery capacity",
    Facet(
        "mah",
        "mAh",
        100,
        50_000,
        {"mah": 1.0, "ah": 1000.0},
        {"batterycapacity": "mah"},
        ("battery",),
    ),
    (
        Bound(
            "minBatteryMah",
            True,
            "Least battery capacity, mAh (phones)",
            "with a {}+ mAh battery",
            "mAh battery",
        ),
    ),
    BATTERY_HOURS.sort,  # the same sortBy: it orders what battery hours leave tied
    Fact(
        "mah",
        " mAh",
        relative=0.01,
        unit=FactUnit("mAh", r"mAh|mah|MAH", 0, False, (100, 100_000)),
        grouped=True,
    ),
    (Chip(_M, 6, "{} mAh", "count"),),
    ("Battery Capacity", "Battery"),
    talk=("battery", "capacity", "charge"),
)
SCREEN_INCHES: Final = Spec(
    "screenInches",
    "screen size",
    Facet(
        "in",
        "inch",
        1,
        150,
        {"in": 1.0, "inch": 1.0, "inches": 1.0, '"': 1.0, "″": 1.0, "cm": 1 / 2.54},
        {"screensize": "in", "displayinches": "in", "displaysize": "in"},
        ("screen", "display"),
    ),
    (
        Bound(
            "minScreenInches",
            True,
            "Smallest screen, inches",
            "with a {}″ screen or larger",
            "inch screen",
        ),
        Bound(
            "maxScreenInches",
            False,
            "Largest screen, inches",
            "with a {}″ screen or smaller",
            "inch screen",
        ),
    ),
    Sort(
        "screen",
        True,
        "biggest screen first",
        r"\b(?:big|large|biggest|largest|bigger|larger) (?:screen|display)\b",
        Sort(
            "screen_asc",
            False,
            "smallest screen first",
            # Bare "the smallest phone" is its screen; "the smallest battery" is read before.
            r"\b(?:small|smallest|smaller|tiniest) (?:screen|display)\b|\b(?:smallest|tiniest)\b",
        ),
    ),
    Fact(
        "inches",
        " inches",
        unit=FactUnit("inch", r"inch(?:es)?|Zoll|Zöller|pouces?|インチ|英寸|型", 2, True, (1, 120)),
    ),
    (Chip(_C, 5, "{}″ screen", "number"), Chip(_M, 4, "{}″ screen", "number")),
    ("Screen Size", "Display Size", "Screen", "Display"),
    (Phrase(r"\b(\d{1,2}(?:\.\d)?)\s*-?\s*(?:inch(?:es)?\b|\"|″)", "class"),),
    talk=("screen", "display", "small", "big", "large", "size"),
)
CAMERA_MP: Final = Spec(
    "cameraMp",
    "camera",
    Facet(
        "mp",
        "MP",
        0.1,
        1000,
        {"mp": 1.0, "megapixel": 1.0, "megapixels": 1.0},
        {"maincameramp": "mp"},
        ("camera",),
    ),
    (
        Bound(
            "minCameraMp",
            True,
            "Least main camera, megapixels",
            "with a {} MP camera or better",
            "MP camera",
        ),
    ),
    Sort(
        "camera",
        True,
        "best camera first",
        r"\b(?:best|better|good|great|top) (?:\w+ )?cameras?\b|\b(?:most|more) (?:megapixels|mp)\b",
        Sort(
            "camera_asc",
            False,
            "fewest megapixels first",
            r"\b(?:worst|weakest) (?:\w+ )?cameras?\b|\b(?:fewest|least) megapixels\b",
        ),
    ),
    Fact("mp", " MP"),
    (Chip(_M, 5, "{} MP camera", "number"),),
    ("Camera", "Main Camera", "Rear Camera", "Camera Resolution"),
    (Phrase(r"\b(\d+(?:\.\d+)?)\s*(?:mp|megapixels?)\b"),),
    talk=("camera", "photo", "photos", "picture", "pictures", "megapixel"),
)
YEAR: Final = Spec(
    "year",
    "year",
    Facet("", "", 1400, 2200, {}, {"releaseyear": ""}),
    (
        Bound(
            "minYear", True, "Released or published in this year or later", "from {:.0f} on", "year"
        ),
    ),
    Sort(
        "newest",
        True,
        "newest first",
        r"\b(?:newest|latest model|most recent)\b",
        Sort("oldest", False, "oldest first", r"\b(?:oldest|earliest|least recent)\b"),
    ),
    Fact("year"),
    (Chip(_B, 2),),
    ("Year", "Publication Year", "Release Year", "Year Published"),
)
OS: Final = Spec(
    "os",
    "operating system",
    fact=Fact("os"),
    chips=(Chip(_C, 1), Chip(_M, 1)),
    names=("Operating System", "OS", "Platform"),
)
CPU: Final = Spec(
    "cpu",
    "processor",
    fact=Fact("processor"),
    chips=(Chip(_C, 2),),
    names=("Processor", "CPU", "Processor Type"),
)
CHIP: Final = Spec(
    "chip", "chip", fact=Fact("processor"), chips=(Chip(_M, 2),), names=("Chip", "Chipset")
)
GPU: Final = Spec(
    "gpu", "graphics", fact=Fact("graphics"), names=("Graphics", "GPU", "Graphics Card")
)
FIVE_G: Final = Spec("fiveG", "5G", chips=(Chip(_M, 7, "5G", "flag"),))
FORM_FACTOR: Final = Spec(
    "formFactor",
    "form factor",
    names=("Form Factor",),
    kinds=Kinds("Kind of computer", (
        Kind("laptop", _C, "laptops", ("laptop", "notebook", "ultrabook", "laptop computer",
             "notebook computer", "laptop pc"), ("2-in-1",), "laptop notebook",
             ("chromebook", "ultrabook", "macbook")),
        Kind("2-in-1", _C, "2-in-1s", ("2-in-1", "2 in 1", "two in one", "convertible",
             "convertible laptop", "2-in-1 laptop", "2-in-1 computer", "detachable"), (),
             "2-in-1 convertible laptop tablet"),
        Kind("desktop", _C, "desktops", ("desktop", "tower", "desktop computer", "desktop pc",
             "mini pc", "tower computer"), ("all-in-one",), "desktop tower",
             ("desktop pcs", "mini pcs", "small form factor pcs")),
        Kind("all-in-one", _C, "all-in-ones", ("all-in-one", "all in one", "aio",
             "all-in-one computer", "all-in-one pc"), (), "all-in-one desktop", ("imac",)),
        Kind("tablet", _C, "tablets", ("tablet", "tablet computer", "tablet pc"), ("2-in-1",),
             "tablet"),
    )),
)  # fmt: skip
AUTHOR: Final = Spec(
    "author",
    "author",
    fact=Fact("author"),
    chips=(Chip(_B, 1),),
    names=("Author", "Authors", "Writer", "Book Author"),
)
GENRE: Final = Spec("genre", "genre", chips=(Chip(_B, 5),), names=("Genre", "Book Genre"))
FORMAT: Final = Spec(
    "format", "format", chips=(Chip(_B, 4),), names=("Format", "Book Format", "Binding", "Cover")
)
ISBN: Final = Spec("isbn", "ISBN", names=("ISBN", "ISBN-13", "ISBN-10"))
PAGES: Final = Spec(
    "pages",
    "page count",
    fact=Fact(
        "pages",
        " pages",
        relative=0.01,
        unit=FactUnit("pages", r"pages?|pp\.?|Seiten|ページ|頁|页", 0, False, (1, 20_000)),
    ),
    chips=(Chip(_B, 3, "{} pages", "count"),),
    names=("Pages", "Page Count", "Number of Pages"),
)
COLOR: Final = Spec("color", "color", names=("Color", "Colour", "Finish"))

SPECS: tuple[Spec, ...] = (
    RAM_GB,
    STORAGE_GB,
    WEIGHT_KG,
    BATTERY_HOURS,
    BATTERY_MAH,
    SCREEN_INCHES,
    CAMERA_MP,
    YEAR,
    OS,
    CPU,
    CHIP,
    GPU,
    FIVE_G,
    FORM_FACTOR,
    AUTHOR,
    GENRE,
    FORMAT,
    ISBN,
    PAGES,
    COLOR,
)
"""Every spec the store knows, in the order the tool's fields and the search's facets
list them. Add a spec here and nowhere else (docs/architecture.md, "Add a spec")."""


PRICE_SORT: Final = Sort(
    "price",
    False,
    "cheapest first",
    r"\b(?:cheapest|cheaper|least expensive|lowest price|most affordable)\b",
    Sort(
        "price_desc",
        True,
        "priciest first",
        r"\b(?:most expensive|priciest|dearest|most costly|highest[- ]priced|"
        r"top[- ]of[- ]the[- ]line|most premium)\b",
    ),
)
"""The sort on the price, which is no spec, both ways: first of every ``sortBy``."""
