"""The amounts in a shopper's words, read once for every model: the search's reading.

The search first runs on the shopper's own words, whatever the model, so an amount it
misreads is a wrong filter for every model: a screen "under 14 inches" read as a 14-inch
class hides the 13-inch laptops asked for, and "under 1300 grams" read as a price gives
laptops of any weight under $1,300.
"""

from __future__ import annotations

import pytest

from shared.search.words import parse


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        # A direction word before or after the amount decides its way
        ("phones with a screen of at least 6.7 inches", {"minScreenInches": 6.7}),
        ("a laptop with a screen under 14 inches", {"maxScreenInches": 14}),
        ("a phone with a screen of 6.1 inches or less", {"maxScreenInches": 6.1}),
        ("laptop with a display of 16 inches or more", {"minScreenInches": 16}),
        ("a laptop >= 16gb ram", {"minRamGb": 16}),
        ("laptop 2 kg or less", {"maxWeightKg": 2}),
        ("laptop with 12+ hours battery life", {"minBatteryHours": 12}),
        # With none, the spec's own way: a size class, a least, a most
        ("a 15-inch laptop", {"minScreenInches": 15, "maxScreenInches": 15.99}),
        ("15.6 inch laptop", {"minScreenInches": 15.55, "maxScreenInches": 15.65}),
        ("laptop with 16GB RAM", {"minRamGb": 16}),
        ("laptop under 1.3 kg", {"maxWeightKg": 1.3}),
        # The ways a conversation writes an amount that the specs' phrases do not
        ("laptop with RAM: 32GB", {"minRamGb": 32}),
        ("laptop with storage 1TB", {"minStorageGb": 1024}),
        ("phone with a battery of at least 4500 mah", {"minBatteryMah": 4500}),
        ("phone with at least 48 megapixels", {"minCameraMp": 48}),
        # An amount with nothing but its unit: storage in hundreds of GB, memory in tens
        ("laptop with 2 TB", {"minStorageGb": 2048}),
        ("phone with 256 GB", {"minStorageGb": 256}),
        ("laptop with 16 GB", {"minRamGb": 16}),
        ("iPhone 15 with 128GB", {"minStorageGb": 128}),
        # A weight is read before a price can take its number; a network is no weight
        ("laptop that weighs under 1300 grams", {"maxWeightKg": 1.3}),
        ("a phone under 200 grams", {"maxWeightKg": 0.2}),
        ("laptop lighter than 3 lbs", {"maxWeightKg": 1.361}),
        ("5G phone under $400", {"maxPrice": 400}),
        # Prices, with the words that say which way
        ("my budget is 700", {"maxPrice": 700}),
        ("I can spend up to 1200", {"maxPrice": 1200}),
        ("laptop from $500", {"minPrice": 500}),
        ("laptop between 500 and 800", {"minPrice": 500, "maxPrice": 800}),
        ("laptop around $800", {"maxPrice": 920}),
        ("laptop no more than 1k", {"maxPrice": 1000}),
        ("laptop with 16GB RAM and 1TB SSD under $1,500",
         {"minRamGb": 16, "minStorageGb": 1024, "maxPrice": 1500}),
        # A number with a unit that is no price is not one
        ("book with at least 300 pages", {}),
        ("XPS 13 laptop", {}),
        ("books from 2023", {}),
    ],
)  # fmt: skip
def test_the_search_reads_each_amount_with_its_way(words: str, limits: dict[str, float]) -> None:
    assert parse(words).limits == limits


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        # German, French and Spanish write a thousand with a dot or a space, and a decimal
        # with a comma
        ("Ich brauche einen Laptop, der weniger als 1,3 kg wiegt und höchstens 1.200 Dollar "
         "kostet.", {"maxWeightKg": 1.3, "maxPrice": 1200}),
        ("Je cherche un ordinateur portable pour jouer à moins de 1 000 dollars.",
         {"maxPrice": 1000}),
        ("un portable à moins de 1 200 €", {"maxPrice": 1200}),
        # A space between numbers that are not money stays one
        ("Busco un iPhone 15 128 GB por menos de 900 dólares",
         {"minStorageGb": 128, "maxPrice": 900}),
        # And in English a comma is a thousand, a dot a decimal
        ("laptop under $1,300 and 1.5 kg", {"maxPrice": 1300, "maxWeightKg": 1.5}),
    ],
)  # fmt: skip
def test_numbers_are_read_as_the_shoppers_language_writes_them(
    words: str, limits: dict[str, float]
) -> None:
    assert parse(words).limits == limits


@pytest.mark.parametrize(
    ("words", "max_price"),
    [
        ("a phone for less than four hundred dollars", 400),
        ("laptop under a thousand", 1000),
        ("two grand for a gaming laptop", 2000),
        ("under twenty-five hundred", 2500),
        ("a budget of fifteen hundred", 1500),
        ("a laptop under 2 grand", 2000),  # digits and slang
        ("a laptop under 1.5 grand", 1500),
        ("a phone under 1 thousand", 1000),
    ],
)
def test_a_price_said_in_words_is_read(words: str, max_price: float) -> None:
    assert parse(words).max_price == max_price


@pytest.mark.parametrize(
    "words", ["One Hundred Years of Solitude", "a thousand splendid suns", "one hundred photos"]
)
def test_number_words_that_are_no_price_stay_words(words: str) -> None:
    said = parse(words)
    assert said.max_price is None and said.min_price is None
    assert "hundred" in said.plain or "thousand" in said.plain


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("a laptop, nothing over $500", {"maxPrice": 500}),
        ("a laptop not over $800", {"maxPrice": 800}),
        ("a phone not under $500", {"minPrice": 500}),
        ("a phone, nothing under $500", {"minPrice": 500}),
        ("a laptop no less than $800", {"minPrice": 800}),
        ("a laptop not cheaper than $800", {"minPrice": 800}),
        ("a laptop no bigger than 14 inches", {"maxScreenInches": 14}),
        ("a laptop no heavier than 1.5 kg", {"maxWeightKg": 1.5}),
        ("a laptop, nothing over 2 kg", {"maxWeightKg": 2}),
    ],
)  # fmt: skip
def test_a_limit_said_with_a_negation_is_read_its_way(words: str, limits: dict[str, float]) -> None:
    # A "not" or "nothing" before a limit's word turns it: "nothing over $500" is at most
    said = parse(words)
    assert said.limits == limits, words
    assert said.sort is None, words  # "no heavier than" is no order heaviest first


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("a laptop that isn't over $1000", {"maxPrice": 1000}),
        ("a phone that doesn't cost more than $500", {"maxPrice": 500}),
        ("a laptop that doesn\u2019t go over $800", {"maxPrice": 800}),
        ("a phone, I don't want to spend more than $700", {"maxPrice": 700}),
        ("I can't spend more than $600 on a laptop", {"maxPrice": 600}),
        ("a phone that won't cost over $400", {"maxPrice": 400}),
        ("a laptop, it shouldn't be over $900", {"maxPrice": 900}),
        ("I'm not looking to spend over $600 on a phone", {"maxPrice": 600}),
        ("I don't want anything over $500, a phone", {"maxPrice": 500}),
        ("a laptop that is not going much over $700", {"maxPrice": 700}),
        ("a laptop that isn't under $1000", {"minPrice": 1000}),
        ("a laptop that isn't heavier than 1.4 kg", {"maxWeightKg": 1.4}),
        ("a laptop that doesn't weigh more than 1.3 kg", {"maxWeightKg": 1.3}),
        ("a laptop that doesn't have less than 16GB RAM", {"minRamGb": 16}),
    ],
)  # fmt: skip
def test_a_limit_a_sentence_negates_is_read_its_way(words: str, limits: dict[str, float]) -> None:
    # "isn't over $1,000" is at most $1,000: a shopper who writes it gets nothing dearer
    said = parse(words)
    assert said.limits == limits, words
    assert said.sort is None, words


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("isn't there a laptop under $500?", {"maxPrice": 500}),
        ("don't you have a phone under $300?", {"maxPrice": 300}),
        ("is there nothing under $300? a laptop", {"maxPrice": 300}),
        ("have you got nothing below $250?", {"maxPrice": 250}),
        ("a laptop not for gaming, under $800", {"maxPrice": 800}),
    ],
)  # fmt: skip
def test_a_question_with_a_negation_keeps_its_limit(words: str, limits: dict[str, float]) -> None:
    # "isn't there one under $500?" asks for what is under $500: the negation asks, it does
    # not turn the limit
    assert parse(words).limits == limits, words


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("a laptop, $500 or more", {"minPrice": 500}),
        ("a laptop, $500 or less", {"maxPrice": 500}),
        ("a laptop 1000+", {"minPrice": 1000}),
        ("a laptop for $800 and up", {"minPrice": 800}),
        ("a phone, 500 tops", {"maxPrice": 500}),
        ("a phone 400 or under", {"maxPrice": 400}),
        ("a laptop at 700 at most", {"maxPrice": 700}),
        ("a laptop, 800$", {"maxPrice": 800}),
        ("a laptop, 800 $ max", {"maxPrice": 800}),
        ("a phone for 400€", {"maxPrice": 400}),
        ("a laptop 15 $800", {"maxPrice": 800}),  # the sign is the next amount's
    ],
)  # fmt: skip
def test_a_price_with_its_direction_after_it_is_read(words: str, limits: dict[str, float]) -> None:
    # "$500 or more" is at least $500, not under it; "400€" is money, as "€400" is
    assert parse(words).limits == limits, words


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("a laptop with 16 gigs of ram", {"minRamGb": 16}),
        ("a phone with at least 256 gigs", {"minStorageGb": 256}),
        ("a phone, 128 gig", {"minStorageGb": 128}),
        ("a laptop with 512 gigabytes of storage", {"minStorageGb": 512}),
        ("a laptop with a 1 terabyte ssd", {"minStorageGb": 1024}),
    ],
)  # fmt: skip
def test_gigabytes_said_in_words_are_read(words: str, limits: dict[str, float]) -> None:
    # "256 gigs" is storage, never a price of $256
    assert parse(words).limits == limits, words


@pytest.mark.parametrize(
    "words",
    [
        "the Pixel 9 or cheaper",
        "an iPhone 14 or above",
        "iphone 16 max",
        "galaxy s24 ultra 512 max",
        "a gaming laptop with an RTX 4060 or higher",
        "a 4K or higher display laptop",
        "a laptop 16 or more GB of RAM",
        "a phone with 5000 or more mAh",
        "a book for ages 12 and up",
        "a novel with 400 or more pages",
        "a book with 1000+ reviews",
        "phone 256 or more",
        "Android 14 or higher",
    ],
)
def test_a_number_with_a_direction_after_it_that_is_no_budget_is_no_price(words: str) -> None:
    # A model's, a version's, a count's or a size's number is no price: "iPhone 14 and up"
    # never asks for phones of at least $14
    said = parse(words)
    assert said.min_price is None and said.max_price is None, words


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("a laptop between 500€ and 800€", {"minPrice": 500, "maxPrice": 800}),
        ("500$-800$ laptop", {"minPrice": 500, "maxPrice": 800}),
        ("from 500$ to 800$ a laptop", {"minPrice": 500, "maxPrice": 800}),
    ],
)  # fmt: skip
def test_a_range_with_its_currency_after_each_amount_is_read(
    words: str, limits: dict[str, float]
) -> None:
    assert parse(words).limits == limits, words


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("I've got nothing over $500 to spend on a phone", {"maxPrice": 500}),
        ("there's nothing over $500 I can afford, so a cheap laptop", {"maxPrice": 500}),
        ("isn't anything cheaper than $300?", {"maxPrice": 300}),
        # what the shopper had is no limit turned: left as it was read
        ("my last laptop didn't cost more than $500 and it broke", {"minPrice": 500}),
    ],
)  # fmt: skip
def test_a_statement_or_a_question_around_a_negation_is_read_as_meant(
    words: str, limits: dict[str, float]
) -> None:
    # "I've got nothing over $500 to spend" is at most $500; "isn't anything cheaper than
    # $300?" asks for what is under $300
    assert parse(words).limits == limits, words


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("laptop 600-900", {"minPrice": 600, "maxPrice": 900}),
        ("phone 300 to 600", {"minPrice": 300, "maxPrice": 600}),
        ("phone 400-600 dollars", {"minPrice": 400, "maxPrice": 600}),
        ("laptop between 600 & 900", {"minPrice": 600, "maxPrice": 900}),
        ("laptop from 600 up to 900", {"minPrice": 600, "maxPrice": 900}),
        ("Laptop zwischen 500 und 800 Euro", {"minPrice": 500, "maxPrice": 800}),
        ("portátil entre 500 y 800", {"minPrice": 500, "maxPrice": 800}),
        ("ordinateur entre 600 et 900", {"minPrice": 600, "maxPrice": 900}),
        ("laptop less then 500", {"maxPrice": 500}),
        ("laptop cheaper then 600", {"maxPrice": 600}),
    ],
)  # fmt: skip
def test_a_budget_s_range_with_no_currency_is_read(words: str, limits: dict[str, float]) -> None:
    # "laptop 600-900" used to read no price at all, "phone 400-600 dollars" only the top
    assert parse(words).limits == limits, words


@pytest.mark.parametrize(
    "words",
    [
        "iphone 15 to 16",
        "a book for ages 8 to 12",
        "books 8 to 12",  # ages or dollars: not read as either
        "pixel 8-9",
        "a 2-in-1 laptop",
        "laptops 2019-2023",
        "books from 1990 to 2000",
        "a gaming laptop with a 3060-4060",
        "a laptop 13-15",
        "phone 128-256",  # storage sizes
        "libros para niños entre 8 y 12 años",
        "books for kids between 8 and 12",
        "Harry Potter et la chambre des secrets",
    ],
)
def test_numbers_of_models_or_ages_in_a_range_are_no_price(words: str) -> None:
    said = parse(words)
    assert said.min_price is None and said.max_price is None, words


@pytest.mark.parametrize(
    "words",
    [
        "laptop with less than 16gb ram",
        "laptop max 8gb ram",
        "phone with less than 256gb",
        "I don't need more than 8GB of RAM",
        "under 1TB",
    ],
)
def test_a_most_of_a_spec_the_tool_bounds_only_from_below_is_not_turned(words: str) -> None:
    # "less than 16GB RAM" used to ask for at least 16GB: the tool takes no most of memory
    # or storage, so none is read
    assert parse(words).limits == {}, words


def test_the_max_of_a_pro_max_is_no_limit() -> None:
    assert parse("iPhone 16 Pro Max 256GB").limits == {"minStorageGb": 256}
    assert parse("iphone 16 pro max 256").limits == {}


@pytest.mark.parametrize(
    ("words", "limits"),
    [
        ("laptop 16gb ram max $1000", {"minRamGb": 16, "maxPrice": 1000}),
        ("a laptop with 16gb ram max budget 1000", {"minRamGb": 16, "maxPrice": 1000}),
        ("macbook pro max 2000", {"maxPrice": 2000}),
        ("dont show me the ones over 1000", {"maxPrice": 1000}),
    ],
)  # fmt: skip
def test_max_after_a_spec_is_the_budget_s_when_a_number_follows(
    words: str, limits: dict[str, float]
) -> None:
    # "16gb ram max $1000": at least 16 GB, at most $1,000
    assert parse(words).limits == limits, words
