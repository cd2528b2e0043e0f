"""What a spec is to the store: the shapes of :data:`shared.catalog.specs.SPECS`' rows.

No AWS and no search imports: the Converse function reads the table for the tool spec.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from shared.catalog.categories import Category


@dataclass(frozen=True)
class Facet:
    """A quantity the search keeps as a number in one unit."""

    unit: str
    """Its unit as the search names it (``gb``, ``kg``, ``h``); empty for a plain number."""
    written: str
    """The unit as the index's text writes it ("GB", "hours"); empty for a plain number."""
    low: float
    high: float
    """Values outside [low, high] are typos or placeholders, not specs."""
    units: Mapping[str, float] = field(default_factory=dict)
    """Every way a value writes the unit, with the factor to :attr:`unit` ("tb": 1024)."""
    keys: Mapping[str, str] = field(default_factory=dict)
    """Other spec keys (lower case, letters and digits only) that mean it, with the unit
    a bare number under that key is in: ``{"storagetb": "tb"}``. The spec's own key
    means it too, in :attr:`unit`."""
    words: tuple[str, ...] = ()
    """Words that make any other key mean it ("memory" in "System Memory")."""


@dataclass(frozen=True)
class Bound:
    """A filter of the catalog tool on the spec: ``minRamGb``."""

    name: str
    at_least: bool
    description: str
    """What the model reads in the tool spec (on every call: short)."""
    step: str
    """How the live trace says it: "with at least {} GB RAM" (``{}`` is the value)."""
    eval_unit: str
    """How the eval's checks name the value: "GB RAM"."""


@dataclass(frozen=True)
class Sort:
    """A ``sortBy`` of the catalog tool. A second spec with the same sort name orders
    what the first leaves tied (phones have no battery hours, so then their mAh)."""

    name: str
    biggest_first: bool
    step: str
    """How the live trace says it: "most RAM first"."""
    said: str = ""
    """How a shopper asks for the order, as a regular expression over English words
    ("most RAM", "heaviest"); other languages reach it through the search's reading of
    them as English (``shared.text.languages``)."""
    reverse: Sort | None = None
    """The same spec the other way ("least RAM first"): its own ``sortBy``."""

    def both(self) -> tuple[Sort, ...]:
        """This order and its reverse, when it has one."""
        return (self,) if self.reverse is None else (self, self.reverse)


@dataclass(frozen=True)
class FactUnit:
    """How an answer writes the spec's unit, for a quantity the fact check reads with no
    rules of its own (a price, data, a weight and a camera have theirs)."""

    name: str
    """The unit a corrected value is written with ("h", "mAh")."""
    pattern: str
    """Every spelling, as a regular expression, in the languages the check reads."""
    decimals: int
    """Decimals a rewritten value gets at most."""
    fractional: bool
    """Whether "1,400" is one point four rather than fourteen hundred."""
    plausible: tuple[float, float]
    """A number outside this range is not this quantity."""


@dataclass(frozen=True)
class Fact:
    """The answer is checked for the spec (``compose_response.facts``)."""

    kind: str
    """What the check reads in the answer: a quantity's kind (``data``, ``weight``,
    ``hours``, ...) or a word claim's (``os``, ``author``, ``year``). Specs of one kind
    are tried in table order; a record's first that has a value is compared."""
    shown: str = ""
    """What follows the number when the check says the record's value (" kg")."""
    role: str | None = None
    """For data: the memory the answer's words name ("ram", "storage")."""
    absolute: float = 0.0
    relative: float = 0.0
    """How far the answer may be off: the larger of the two, the second of the record."""
    unit: FactUnit | None = None
    grouped: bool = False
    """The record's value is said with thousands separators ("5,000 mAh")."""
    also: Mapping[str, str] = field(default_factory=dict)
    """Other keys a record may hold the fact under, each with its :attr:`shown`."""


PhraseWay = Literal["least", "most", "class"]


@dataclass(frozen=True)
class Phrase:
    """How a shopper puts a number on the spec in a search's words ("16GB RAM", "under
    1.5 kg"): a regular expression over the lower-cased words, whose first group is the
    number and whose second, when there is one, its unit (one of the facet's units)."""

    pattern: str
    way: PhraseWay = "least"
    """The bound the number sets: the spec's least or its most, or both around it as a
    size class ("a 15-inch laptop" is 15 up to 15.99)."""


@dataclass(frozen=True)
class Kind:
    """One value of a spec that says what kind of product something is ("laptop")."""

    value: str
    """As a record holds it, and as the catalog tool's filter takes it."""
    category: Category
    plural: str
    """How the live trace names such products ("laptops")."""
    words: tuple[str, ...]
    """How shoppers and store platforms name it, in English and singular (plurals are
    folded): the search reads them in a shopper's words, the import in a platform's
    category or product type ("Laptops", "Notebook Computers")."""
    includes: tuple[str, ...] = ()
    """Other kinds a search for this one finds: a 2-in-1 is also a laptop."""
    indexed: str = ""
    """Words the search index adds to every product of this kind, so that "notebook" finds
    a laptop whose text never says it."""
    also_named: tuple[str, ...] = ()
    """Names only a platform's category gives it ("Chromebooks"): read by the import,
    while a shopper's word for them means more than the kind (a Chromebook, not any
    laptop)."""


@dataclass(frozen=True)
class Kinds:
    """The spec says what kind of product it is: the catalog tool filters on it, the search
    reads it in a shopper's words, an import in a platform's category or type."""

    description: str
    """What the model reads for the tool's filter (short: it is read on every call)."""
    values: tuple[Kind, ...]


ChipFormat = Literal["text", "number", "count", "storage", "flag", "weight"]


@dataclass(frozen=True)
class Chip:
    """The spec on a product card of one category."""

    category: Category
    place: int
    """Position among the category's chips (a card shows the first seven it has)."""
    label: str = "{}"
    """The chip's text; ``{}`` is the value formatted as :attr:`format` says."""
    format: ChipFormat = "text"
    """``number`` as written, ``count`` with thousands separators, ``storage`` in GB or TB,
    ``weight`` rounded, in the store's unit (kg or lb), ``flag``: the label alone, when the
    value is true."""


@dataclass(frozen=True)
class Spec:
    """One spec the store knows by name (``key``). What it is to each reader:

    * ``facet``: the search keeps it as a number in one unit (a column of its index), with
      the other keys and the units catalogs write it in ("RAM (GB)", "1 TB", "1400 g");
    * ``bounds``: the catalog tool's filter fields on it (``minRamGb``), with the words the
      model reads and the live trace says, and the unit the eval names it in;
    * ``sort``: the catalog tool's ``sortBy`` value that orders by it;
    * ``fact``: the answer is checked for it (``compose_response``), and how a wrong value is
      recognised and written back;
    * ``chips``: where and how a product card shows it (published to the page);
    * ``names``: the option and attribute names a store's export gives it;
    * ``kinds``: its values say what kind of product it is (a laptop, a desktop), which
      the catalog tool filters on, a shopper's words ask for and a platform's category
      names.
    """

    key: str
    label: str
    """What the spec is, in a few words ("RAM", "battery life")."""
    facet: Facet | None = None
    bounds: tuple[Bound, ...] = ()
    sort: Sort | None = None
    fact: Fact | None = None
    chips: tuple[Chip, ...] = ()
    names: tuple[str, ...] = ()
    """Option and attribute names in a store's export that mean it ("Memory")."""
    phrases: tuple[Phrase, ...] = ()
    """How a search's words put a number on it, read in the table's order."""
    kinds: Kinds | None = None
    talk: tuple[str, ...] = ()
    """Words a shopper uses about the spec itself ("weighs", "on one charge", "display"):
    once a search reads an order or a limit on it, they are said, not words to find in a
    description ("the smallest display" is the smallest screen, not a product that says
    "display")."""

    @property
    def column(self) -> str:
        """The search index's column for its facet: ``ramGb`` -> ``ram_gb``."""
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", self.key).lower()
