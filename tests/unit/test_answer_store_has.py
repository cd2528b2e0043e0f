"""A product no tool returned, said to be the store's ("We also carry the Dell XPS 14", a
list under "Also worth a look in our store:"), is a product the shopper would look for and
not find: it goes, as it does when a price or stock is said of it."""

from __future__ import annotations

import pytest

from compose_response.logic import ComposeInput, ResponseBody, compose
from tests.unit.test_answer_under_heading import HP, IMAC, XPS


def shown(answer: str) -> ResponseBody:
    event = ComposeInput(
        sessionId="s-1", outcome="answered", answer=answer, products=[XPS, IMAC, HP]
    )
    return compose(event)


@pytest.mark.parametrize(
    ("said", "now"),
    [
        (
            "The Dell XPS 13 [CMP-005] is light. We also carry the Dell XPS 14 (9440).",
            "The Dell XPS 13 [CMP-005] is light.",
        ),
        (
            "The Dell XPS 13 [CMP-005] is light. The HP Spectre x360 14 is available here too.",
            "The Dell XPS 13 [CMP-005] is light.",
        ),
        (
            "The HP 14 [CMP-023] is $349. We've also got the Dell XPS 14.",
            "The HP 14 [CMP-023] is $349.",
        ),
        (
            "The HP 14 [CMP-023] is $349. Our lineup also includes the Dell XPS 14.",
            "The HP 14 [CMP-023] is $349.",
        ),
        (
            "The HP 14 [CMP-023] is $349. The Dell XPS 14 is also on our shelves.",
            "The HP 14 [CMP-023] is $349.",
        ),
        # a list the line before says is the store's: it goes, and the line with it
        (
            "The Dell XPS 13 [CMP-005] is light.\n\nAlso worth a look in our store:\n"
            "- Dell XPS 14 (9440)\n- HP Spectre x360 14",
            "The Dell XPS 13 [CMP-005] is light.",
        ),
        # a model of a brand no tool returned, whoever makes it
        (
            "The HP 14 [CMP-023] is $349.\n\nAlso worth a look in our store:\n"
            "- Lenovo Yoga Slim 7\n- Samsung Galaxy Book4 Pro",
            "The HP 14 [CMP-023] is $349.",
        ),
        (
            "The Dell XPS 13 [CMP-005] is light. We also carry the iPhone 15 Pro.",
            "The Dell XPS 13 [CMP-005] is light.",
        ),
        (
            "The Dell XPS 13 [CMP-005] is light. The Galaxy S24 FE is in our store too.",
            "The Dell XPS 13 [CMP-005] is light.",
        ),
        # said to be had, with a kind's word or a part after it
        (
            "The HP 14 [CMP-023] is $349. Our store also has the Lenovo Yoga Slim 7 on sale.",
            "The HP 14 [CMP-023] is $349.",
        ),
        (
            "The HP 14 [CMP-023] is $349. We also carry laptops including the ThinkPad X1 Carbon"
            " Gen 12.",
            "The HP 14 [CMP-023] is $349.",
        ),
        (
            "The HP 14 [CMP-023] is $349. We also carry the Galaxy S24 Ultra phone.",
            "The HP 14 [CMP-023] is $349.",
        ),
        (
            "The HP 14 [CMP-023] is $349. We also carry the Pixel 9 Pro featuring Tensor G4.",
            "The HP 14 [CMP-023] is $349.",
        ),
        # a variant of a product returned is another product
        (
            "The HP 14 [CMP-023] is $349. We also carry the Dell XPS 13 Plus.",
            "The HP 14 [CMP-023] is $349.",
        ),
    ],
)
def test_a_product_no_tool_returned_said_to_be_the_stores_goes(said: str, now: str) -> None:
    # Given an answer that says the store has a model no tool returned
    body = shown(said)
    # Then the shopper does not read it
    assert body.answer == now


@pytest.mark.parametrize(
    "said",
    [
        # said to be found, listed, stocked or sold by the store
        "In our store you'll also find the Dell Inspiron 14 Plus.",
        "You can also find the Dell Inspiron 14 Plus in our store.",
        "Also in stock: the Lenovo Yoga Slim 7.",
        "Our catalog also lists the Xiaomi 14 Ultra.",
        "The Xiaomi 14 Ultra is also available from our store.",
        "Consider the Xiaomi 14 Ultra, also sold here.",
        # put before the shopper, and said to be the store's
        "Check out the Lenovo Yoga Slim 7, which we also carry.",
        "You might also like the Xiaomi 14 Ultra, available in our store.",
        "Also available: the Lenovo IdeaPad Slim 3.",
    ],
)
def test_a_product_no_tool_returned_said_otherwise_to_be_the_stores_goes(said: str) -> None:
    # Given an answer that offers, in other words, a model no tool returned
    body = shown(f"The HP 14 [CMP-023] is $349. {said}")
    # Then the shopper reads only the sentence about the product the catalog returned
    assert body.answer == "The HP 14 [CMP-023] is $349."


@pytest.mark.parametrize(
    "answer",
    [
        # denied
        "We don't carry the Dell XPS 14 (9440), but the Dell XPS 13 [CMP-005] is close.",
        "The Dell XPS 14 (9440) is not in our store; the Dell XPS 13 [CMP-005] is.",
        # a product the tools returned
        "We also carry the Dell XPS 13 [CMP-005] in silver.",
        # a line of products, a brand or a system, not a model
        "The HP 14 [CMP-023] is cheap. We also carry other Dell XPS models.",
        "The HP 14 [CMP-023] is cheap. We also have Windows 11 laptops from Dell.",
        "The HP 14 [CMP-023] is cheap. We also carry laptops with Core i7 chips and Wi-Fi 7.",
        # a part or a system of products, said with a number, is no model
        "The HP 14 [CMP-023] is cheap. We also carry laptops with M3 Pro chips.",
        "The HP 14 [CMP-023] is cheap. We also carry phones with the Google Tensor G4 chip.",
        "The HP 14 [CMP-023] is cheap. We also carry phones running One UI 6.",
        "The HP 14 [CMP-023] is cheap. We also carry MIL-STD 810H rugged laptops.",
        "The HP 14 [CMP-023] is cheap.\n\nAlso worth a look in our store:\n- Gen 4 NVMe SSDs",
        # a product the tools returned, named in words, not cited
        "The HP 14 [CMP-023] is cheap. We also carry the Dell XPS 13 in silver.",
        "The HP 14 [CMP-023] is cheap. Our store also has the Apple iMac 24 in blue.",
        # a model named without saying the store has it
        "The Dell XPS 13 [CMP-005] is lighter than the Dell XPS 14 (9440) was.",
        # a denial said otherwise, a question, an offer, a condition, a report of a search
        "The HP 14 [CMP-023] is $349. The HP Spectre x360 14 is a great laptop, but it isn't"
        " something we currently have in our store.",
        "The HP 14 [CMP-023] is $349. We don't seem to carry the Dell XPS 14 in our store.",
        "The HP 14 [CMP-023] is $349. Neither the Dell XPS 14 nor the HP Spectre x360 14 is"
        " in our store.",
        "I searched for the HP Spectre x360 14 in our catalog but it did not come up. The HP 14"
        " [CMP-023] is $349.",
        "The HP 14 [CMP-023] is $349. Is the Dell XPS 14 in our store? I couldn't confirm that.",
        "The HP 14 [CMP-023] is $349. Want me to check whether we have the Dell XPS 14?",
        "The HP 14 [CMP-023] is $349. If the Dell XPS 14 comes back in our store, I'll tell you.",
        # a list not said to be the store's
        "The Dell XPS 13 [CMP-005] is light.\n\nReviewers compared it with:\n- Dell XPS 14 (9440)",
        # parts and systems before a kind's word; reviewers' words; a pointer to reviews
        "The HP 14 [CMP-023] is cheap. We also carry Snapdragon 8 Gen 3 phones.",
        "The HP 14 [CMP-023] is cheap. We also carry AMD Ryzen 7 laptops and Apple M3 laptops.",
        "The HP 14 [CMP-023] is cheap. Reviewers consider the Galaxy S24 Ultra the best.",
        "The HP 14 [CMP-023] is cheap. Many reviewers recommend the Pixel 8 Pro for photos.",
        "The HP 14 [CMP-023] is cheap. You can find the Galaxy S24 Ultra reviews online.",
        "The HP 14 [CMP-023] is cheap. Check out reviews of the Galaxy S24 Ultra for more.",
        "The HP 14 [CMP-023] is cheap. You might also like the Dell XPS 13 in silver.",
        # a chip, a system or software put forward is no model of the store's
        "The HP 14 [CMP-023] is cheap. We also carry Apple M3 Pro laptops and M4 laptops.",
        "The HP 14 [CMP-023] is cheap. We also carry Google Tensor G4 phones.",
        "The HP 14 [CMP-023] is cheap. We also carry One UI 7 phones.",
        "The HP 14 [CMP-023] is cheap. I'd suggest Microsoft 365 for the office apps.",
        "The HP 14 [CMP-023] is cheap. I'd recommend the M3 Pro chip for video work.",
        "The HP 14 [CMP-023] is cheap. I'd recommend the iPhone 15's USB-C cable.",
        "The HP 14 [CMP-023] is cheap. You might also like the Pixel 8's camera software.",
        "The HP 14 [CMP-023] is cheap. I would recommend checking the iPhone 15 compatibility.",
        # advice that names software or a chip, which no shopper takes for a product of
        # the store's (an accessory or a book put forward is one: it goes, below)
        "The HP 14 [CMP-023] is cheap. I'd go for an M3 Pro.",
        "The HP 14 [CMP-023] is cheap. Consider Microsoft 365 Family.",
        "The HP 14 [CMP-023] is cheap. Consider One UI 7 for its features.",
        # stock or a store said of someone else's, a review site
        "The HP 14 [CMP-023] is cheap. Apple keeps the iPhone 15 in stock at its own stores.",
        "The HP 14 [CMP-023] is cheap. Reviews on our site mention the Pixel 8 Pro as a rival.",
    ],
)
def test_what_does_not_say_the_store_has_an_unreturned_model_stays(answer: str) -> None:
    # Given an answer that says no model the tools did not return is the store's
    body = shown(answer)
    # Then it reaches the shopper as the model wrote it
    assert body.answer == answer


@pytest.mark.parametrize(
    "said",
    [
        "You might also like the Dell XPS 14.",
        "Consider the XPS 16.",
        "I'd recommend the iMac 27 for a bigger screen.",
        "Try the HP 17 instead.",
        "You might also like the XPS 15, which is bigger.",
        "Also consider the XPS 16.",
        "Consider the new XPS 16.",
        "Another option is the XPS 16.",
        "A good alternative is the iMac 27.",
        "You'll love the XPS 16.",
        "My pick is the XPS 16.",
    ],
)
def test_a_model_of_a_returned_series_put_forward_goes(said: str) -> None:
    # Given an answer that puts before the shopper, with no word that the store has it, a
    # model none of the tools returned of a series they returned others of (the XPS 13,
    # the iMac 24, the HP 14)
    body = shown(f"The HP 14 [CMP-023] is $349. {said}")
    # Then the shopper reads only the sentence about the product the catalog returned:
    # beside the store's, it reads as one more of them
    assert body.answer == "The HP 14 [CMP-023] is $349."


@pytest.mark.parametrize(
    "said",
    [
        # a subject or a part of the model, not the model
        "Check out reviews of the XPS 14 for more.",
        "You can find the XPS 14 reviews online.",
        "I'd recommend the XPS 14's charger.",
        # advice against it, a denial that the store has it, another seller
        "I wouldn't recommend the XPS 16 for you.",
        "You might also like the XPS 16, but we don't carry it.",
        "Consider the Xiaomi 14 Ultra, though it isn't something we sell.",
        "You might also like the Xiaomi 14 Ultra from another retailer.",
        # a question the shopper may have asked, a choice said by reviewers
        "Is the Xiaomi 14 Ultra worth it?",
        "Reviewers say the Xiaomi 14 Ultra is a great choice for photos.",
        # the model the tools returned, written another way
        "You might also like the Dell XPS 13 in silver.",
        "Consider the HP 14 Laptop 256GB.",
        "Consider the HP 14 Laptop (14 ep0000).",
    ],
)
def test_advice_that_puts_no_unreturned_model_forward_stays(said: str) -> None:
    answer = f"The HP 14 [CMP-023] is $349. {said}"
    assert shown(answer).answer == answer


@pytest.mark.parametrize(
    "said",
    ["We also carry XPS 16 laptops.", "We also stock iMac 27 desktops in every colour."],
)
def test_a_model_of_a_returned_series_said_before_a_kind_and_the_stores_goes(said: str) -> None:
    # Given a model said with no article before a kind's word ("XPS 16 laptops"), of a
    # series the tools returned others of, and said to be the store's
    body = shown(f"The HP 14 [CMP-023] is $349. {said}")
    # Then it goes as "We also carry the XPS 16" does (chips and systems said so stay:
    # "We also carry Apple M3 Pro laptops", above)
    assert body.answer == "The HP 14 [CMP-023] is $349."


PIXEL_9 = {
    **XPS,
    "productId": "MOB-015",
    "name": "Google Pixel 9",
    "brand": "Google",
    "category": "MOBILE",
    "price": 799.0,
    "specs": {"ramGb": 12, "os": "Android 14"},
}
PIXEL_9_PRO = {**PIXEL_9, "productId": "MOB-016", "name": "Google Pixel 9 Pro", "price": 999.0}
GALAXY_S24 = {
    **PIXEL_9,
    "productId": "MOB-007",
    "name": "Samsung Galaxy S24",
    "brand": "Samsung",
    "price": 799.0,
}


def shown_phones(answer: str) -> ResponseBody:
    event = ComposeInput(
        sessionId="s-1",
        outcome="answered",
        answer=answer,
        products=[PIXEL_9, PIXEL_9_PRO, GALAXY_S24],
    )
    return compose(event)


@pytest.mark.parametrize(
    "said",
    [
        "consider the xps 16.",
        "You might also like the xps 16, which is bigger.",
        "Try the hp 17 instead.",
        "we also carry the dell xps 14.",
        "We also carry xps 16 laptops.",
        "I'd recommend the imac 27 for a bigger screen.",
    ],
)
def test_a_model_of_a_returned_series_written_in_lower_case_goes(said: str) -> None:
    # Given a model of a series the tools returned others of, written in lower case (the
    # series' words and a model's number), put forward or said to be the store's
    body = shown(f"The HP 14 [CMP-023] is $349. {said}")
    # Then the shopper reads only the sentence about the product the catalog returned
    # (before, the name went unread and the sentence stood)
    assert body.answer == "The HP 14 [CMP-023] is $349."


@pytest.mark.parametrize(
    "said",
    [
        "consider the galaxy s25 ultra.",
        "Consider the samsung galaxy s25+ too.",
        "we also carry the pixel 10 pro xl.",
        "You might also like the google pixel 10.",
    ],
)
def test_a_phone_of_a_returned_series_written_in_lower_case_goes(said: str) -> None:
    # Given a search that returned the Pixel 9, the Pixel 9 Pro and the Galaxy S24, and an
    # answer that puts a later one of their series forward in lower case
    body = shown_phones(f"The Google Pixel 9 [MOB-015] is $799. {said}")
    # Then the shopper reads only the sentence about the Pixel 9
    assert body.answer == "The Google Pixel 9 [MOB-015] is $799."


@pytest.mark.parametrize(
    "said",
    [
        # a model the tools returned, in lower case
        "consider the xps 13 in silver.",
        "Try the hp 14 instead.",
        "we also carry the imac 24 in blue.",
        # a size, an amount, a count, a system: no model's number
        "consider a 14 inch screen.",
        "consider the hp 14-inch size for travel.",
        "We also carry the 2 of them in black.",
        "We also have windows 11 laptops.",
        "You might also like 16 gb of ram.",
        # a release of software: a dotted number is no model's
        "If you code, consider python 3.12 on it.",
        "you could also get ios 18.1 on it.",
        # a part of a model, a denial
        "I'd recommend the xps 16's charger.",
        "we don't carry the xps 16.",
    ],
)
def test_lower_case_words_that_put_no_unreturned_model_forward_stay(said: str) -> None:
    answer = f"The HP 14 [CMP-023] is $349. {said}"
    assert shown(answer).answer == answer


@pytest.mark.parametrize(
    "said",
    [
        "consider the pixel 9 pro if photos matter.",
        "we also carry the galaxy s24 in violet.",
        "You might also like pixel 9 cases.",
        "Both the pixel 9 and the pixel 9 pro get 7 years of updates.",
    ],
)
def test_lower_case_phones_the_tools_returned_and_accessories_stay(said: str) -> None:
    answer = f"The Google Pixel 9 [MOB-015] is $799. {said}"
    assert shown_phones(answer).answer == answer


@pytest.mark.parametrize(
    "said",
    [
        "How about the XPS 16?",
        "What about the HP 17?",
        "Why not the XPS 16?",
        "Why not go for the iMac 27 instead?",
        "Have you considered the XPS 16?",
        "Would you consider the xps 16?",
        "May I suggest the HP 17?",
    ],
)
def test_a_model_of_a_returned_series_put_forward_as_a_question_goes(said: str) -> None:
    # Given an answer that puts forward, as a question, a model of a series the tools
    # returned others of and not it
    body = shown(f"The HP 14 [CMP-023] is $349. {said}")
    # Then it goes as "Consider the XPS 16." does (before, a question was kept)
    assert body.answer == "The HP 14 [CMP-023] is $349."


def test_a_phone_of_a_returned_series_asked_forward_goes() -> None:
    body = shown_phones(
        "The Google Pixel 9 [MOB-015] is $799. Have you considered the Pixel 10 Pro XL?"
        " How about the Galaxy S25 Ultra?"
    )
    assert body.answer == "The Google Pixel 9 [MOB-015] is $799."


@pytest.mark.parametrize(
    "said",
    [
        # a question about the shopper's words, a need, a returned product
        "How about the battery?",
        "What about storage: is 256 GB enough?",
        "Have you considered how much you want to spend?",
        "Why not tell me your budget?",
        "What about the HP 14 [CMP-023]?",
        "How about the Dell XPS 13 [CMP-005]? It is lighter.",
        "Why not the HP 14? It costs far less.",
        "Have you considered the iMac 24 [CMP-014]?",
        "Would you consider a bigger screen?",
        # a part, a comparison, a denial
        "What about the XPS 16's charger?",
        "What about the XPS 16 vs the XPS 13 [CMP-005]?",
        "How about the XPS 16? We don't carry it, sadly.",
    ],
)
def test_a_question_that_puts_no_unreturned_model_forward_stays(said: str) -> None:
    answer = f"The HP 14 [CMP-023] is $349. {said}"
    assert shown(answer).answer == answer


@pytest.mark.parametrize(
    ("said", "now"),
    [
        (
            "The Dell XPS 13 [CMP-005] is light; its successor, the XPS 13 9350, is in stock.",
            "",
        ),
        ("The Dell XPS 13 [CMP-005] is light, but the newer XPS 16 replaces it.", ""),
        ("The Dell XPS 13 [CMP-005] is light. The newer XPS 16 replaces it.", "light"),
        ("The newer XPS 16 replaces the Dell XPS 13 [CMP-005].", ""),
        ("The Dell XPS 13 [CMP-005] has been replaced by the XPS 14.", ""),
        ("The XPS 14 is the successor to the Dell XPS 13 [CMP-005] and ships today.", ""),
        ("The Dell XPS 13 [CMP-005] is light, and we also carry its successor, the XPS 14.", ""),
        ("The Dell XPS 13 [CMP-005] is light, but consider its successor, the xps 14.", ""),
    ],
)
def test_a_later_model_of_a_returned_product_said_to_be_had_goes(said: str, now: str) -> None:
    # Given an answer that names a model no tool returned as the successor of one they did
    # (the XPS 13), and says it can be had, is the store's, takes its place or puts it
    # forward
    body = shown(f"The HP 14 [CMP-023] is $349. {said}")
    # Then the shopper reads none of it (before, a sentence citing the XPS 13 stood, its
    # stock taken for the XPS 13's): only what stands apart of it stays
    kept = " The Dell XPS 13 [CMP-005] is light." if now else ""
    assert body.answer == f"The HP 14 [CMP-023] is $349.{kept}"


@pytest.mark.parametrize(
    "said",
    [
        # the returned product is the later one, or the claim is its
        "The Dell XPS 13 [CMP-005] is the successor to the XPS 13 9315.",
        "The Dell XPS 13 [CMP-005] replaces last year's XPS 13 9315 and is in stock.",
        "The Dell XPS 13 [CMP-005], the successor to the XPS 13 9315, is available for $1,299.",
        "The Dell XPS 13 [CMP-005] is the newest XPS we carry, and it is in stock.",
        "Reviewers say the newer XPS 14 is better, but the Dell XPS 13 [CMP-005] is in stock.",
        "Compared with the XPS 13 9315, its successor, the Dell XPS 13 [CMP-005], is lighter.",
        # a denial, a condition, a model yet to come, news with no claim that it is had
        "Its successor, the XPS 13 9350, isn't in our store yet.",
        "If you'd rather wait, its successor, the XPS 14, is expected soon.",
        "The Dell XPS 13 [CMP-005] is in stock, though its successor has been announced.",
        "Dell has since replaced it with the XPS 14 elsewhere, but we don't sell that one.",
        # a newer part, not a model
        "The Dell XPS 13 [CMP-005] has the newer Wi-Fi 7 and is in stock.",
    ],
)
def test_a_successor_not_said_to_be_had_stays(said: str) -> None:
    answer = f"The HP 14 [CMP-023] is $349. {said}"
    assert shown(answer).answer == answer


def test_a_later_phone_of_a_returned_product_said_in_stock_goes() -> None:
    body = shown_phones(
        "The Google Pixel 9 [MOB-015] is $799. The Google Pixel 9 [MOB-015]'s successor, the"
        " Pixel 10, is in stock."
    )
    assert body.answer == "The Google Pixel 9 [MOB-015] is $799."


@pytest.mark.parametrize(
    "said",
    [
        "The hp 14 laptop is $349 and in stock.",
        "What about the hp 14 for school? It is only $349.",
        "the hp 14 is $349.",
        "At $349, the hp 14 is the cheapest option.",
        "The dell xps 13 is $1,299 and in stock.",
        "Is the xps 13 worth $1,299 for you?",
    ],
)
def test_a_returned_laptops_price_beside_its_name_in_lower_case_stays(said: str) -> None:
    # Given an answer, with no citation, that gives a returned product's price beside its
    # name written in lower case (the HP 14 Laptop at $349 was returned)
    body = shown(said)
    # Then the shopper reads it whole, as with "The HP 14 is $349."
    assert body.answer == said


@pytest.mark.parametrize(
    "said",
    ["the pixel 9 is $799.", "the pixel 9 pro is $999.", "The google pixel 9 pro is $999."],
)
def test_a_returned_phones_price_beside_its_name_in_lower_case_stays(said: str) -> None:
    assert shown_phones(said).answer == said


@pytest.mark.parametrize(
    ("said", "now"),
    [
        ("the hp 17 is $199.", None),
        ("The HP 14 [CMP-023] is $349. the hp 17 is $349.", "The HP 14 [CMP-023] is $349."),
    ],
)
def test_a_price_beside_a_lower_case_name_no_tool_returned_goes(said: str, now: str | None) -> None:
    # Given a price said of a model of a returned series that no tool returned, in lower case
    body = shown(said)
    # Then the shopper does not read it (alone, the answer says nothing can be vouched for)
    assert "17" not in body.answer
    if now is not None:
        assert body.answer == now


def test_a_lower_case_variant_no_tool_returned_is_not_read_as_the_returned_model() -> None:
    # Given "galaxy s24 ultra" at the Galaxy S24's price (only the Galaxy S24 was returned)
    body = shown_phones("The Google Pixel 9 [MOB-015] is $799. the galaxy s24 ultra is $799.")
    # Then the shopper does not read the Ultra's price, as with "the Galaxy S24 Ultra"
    assert body.answer == "The Google Pixel 9 [MOB-015] is $799."


@pytest.mark.parametrize(
    "said",
    [
        "the pixel 11 is in stock.",
        "the galaxy s25 ultra ships today.",
        "the galaxy s25 is available now.",
        "The Pixel 11 is in stock.",
    ],
)
def test_a_model_of_a_returned_series_said_to_be_had_in_lower_case_goes(said: str) -> None:
    # Given a model no tool returned, of a series they did, said with no citation to be had
    body = shown_phones(f"The Google Pixel 9 [MOB-015] is $799. {said}")
    # Then the shopper reads only the sentence about the returned phone
    assert body.answer == "The Google Pixel 9 [MOB-015] is $799."


@pytest.mark.parametrize(
    "said",
    [
        "the pixel 9 pro is in stock.",
        "The galaxy s24 ships today.",
        "the pixel 11 is not in our store.",
        "The pixel 9 is a 6.3 inch phone.",
    ],
)
def test_a_returned_phone_or_no_stock_claim_in_lower_case_stays(said: str) -> None:
    answer = f"The Google Pixel 9 [MOB-015] is $799. {said}"
    assert shown_phones(answer).answer == answer


@pytest.mark.parametrize(
    "said",
    [
        "The Google Pixel 9 [MOB-015] is the successor to the Pixel 8a and costs $799.",
        "The Google Pixel 9 [MOB-015] is the successor of the pixel 8a and costs $799.",
        "The Google Pixel 9 [MOB-015] succeeds the Pixel 8 and is in stock at $799.",
        "The Google Pixel 9 [MOB-015] replaces the Pixel 8 and is $799.",
        "The Google Pixel 9 [MOB-015] follows the Pixel 8a and costs $799.",
        "The Google Pixel 9 [MOB-015] is newer than the Pixel 8a and costs $799.",
        "The Google Pixel 9 [MOB-015] is an upgrade over the Pixel 8 and costs $799.",
        "The Google Pixel 9 [MOB-015] is an upgrade from the galaxy s23, and costs $799.",
    ],
)
def test_a_returned_phones_price_after_the_model_it_follows_stays(said: str) -> None:
    # Given a returned phone's price said after the earlier model it succeeds (the model
    # after "successor to", "succeeds", "replaces", "follows", "newer than", "an upgrade
    # over/from" is the older one, not one said to cost $799)
    body = shown_phones(said)
    # Then the shopper reads it whole (before, the whole answer became "Sorry, I couldn't
    # find a product I can vouch for. Could you rephrase?")
    assert body.answer == said


@pytest.mark.parametrize(
    "denial",
    [
        "We don't carry it.",
        "It's not in our catalog.",
        "Sadly, we don't stock it.",
        "It is not sold here.",
        "It isn't in stock here.",
        "We don't have it in stock.",
    ],
)
@pytest.mark.parametrize(
    "asked", ["How about the pixel 9 pro xl?", "How about the Pixel 10 Pro XL?"]
)
def test_a_model_put_forward_then_denied_in_the_next_sentence_stays(
    asked: str, denial: str
) -> None:
    # Given a model put forward whose very next sentence says the store hasn't it
    answer = f"The Google Pixel 9 [MOB-015] is $799. {asked} {denial}"
    # Then both stay, as a denial in the same sentence does (before, the question went
    # and the shopper read "The Google Pixel 9 [MOB-015] is $799. We don't carry it."; and
    # "It isn't in stock here." was read as the Pixel 9's stock and cut, leaving the
    # question alone)
    body = shown_phones(answer)
    assert body.answer == answer
    assert body.corrections == []


@pytest.mark.parametrize(
    "said",
    [
        "Consider the Pixel 10 Pro XL. It is in stock.",
        "Its successor, the Pixel 11, is in stock. It costs $999.",
        "We also carry the Pixel 10 Pro XL. We have it in black.",
    ],
)
def test_a_sentence_pointing_back_at_a_removed_model_goes_with_it(said: str) -> None:
    # Given a sentence that goes and the next one that opens by pointing back at its model
    body = shown_phones(f"The Google Pixel 9 [MOB-015] is $799. {said}")
    # Then both go (before, the shopper read "The Google Pixel 9 [MOB-015] is $799. It is
    # in stock.", said of the Pixel 9)
    assert body.answer == "The Google Pixel 9 [MOB-015] is $799."


def test_a_sentence_pointing_back_at_a_kept_one_stays() -> None:
    answer = "The Google Pixel 9 [MOB-015] is $799. It is in stock. We have it in black."
    assert shown_phones(answer).answer == answer


def shown_pixels(answer: str, *more: dict[str, object]) -> ResponseBody:
    """The answer after a session whose tools returned the Pixel 9 and the Pixel 9 Pro only
    (and ``more``): no Samsung, no Apple."""
    event = ComposeInput(
        sessionId="s-1",
        outcome="answered",
        answer=answer,
        products=[PIXEL_9, PIXEL_9_PRO, *more],
    )
    return compose(event)


PIXEL_SAID = "The Google Pixel 9 [MOB-015] is $799."


@pytest.mark.parametrize(
    "said",
    [
        # a model of a series the tools returned none of, whoever makes it
        "Consider the Galaxy S25 Ultra too.",
        "You might also like the Xiaomi 14 Ultra.",
        "How about the iPhone 16 Pro?",
        "Consider a Galaxy Tab S9.",
        # an accessory or a book put forward is one the shopper would look for here too
        "Consider the Apple Pencil 2.",
        "Try AirPods Pro 2.",
        "You might also like Fahrenheit 451.",
        # put forward on a condition of the shopper's: still put forward
        "If you want the best zoom, consider the Galaxy S25 Ultra.",
        "If you need more power, how about the Galaxy S25 Ultra?",
        # with other words that put it forward
        "Get the Galaxy S25 Ultra.",
        "For zoom, pick up the Galaxy S25 Ultra.",
        "Also worth a look: the Galaxy S25 Ultra.",
        "Other options: the Galaxy S25 Ultra and the iPhone 16 Pro.",
        "The Galaxy S25 Ultra is a great choice.",
        "Alternatively, the Galaxy S25 Ultra is worth a look.",
        "The Galaxy S25 Ultra would suit you better.",
        # named after a product the tools returned, in one breath
        "You might also like the Pixel 9 Pro [MOB-016] or the Galaxy S25 Ultra.",
        "Consider the Pixel 9 Pro, the Galaxy S25 Ultra and the iPhone 16 Pro.",
        # a negation that denies nothing of the store's
        "Consider the Galaxy S25 Ultra, you won't regret it.",
        "We don't sell cases, but consider the Galaxy S25 Ultra.",
        # no model's number, but a maker whose products the tools returned, and a model's word
        "You might also like the Google Pixel Buds Pro.",
    ],
)
def test_a_model_no_tool_returned_put_forward_goes_whoever_makes_it(said: str) -> None:
    # Given a session whose tools returned Pixels only, and an answer that puts before the
    # shopper a product none of them returned, of a series they returned none of either
    body = shown_pixels(f"{PIXEL_SAID} {said}")
    # Then the shopper reads only the sentence about the Pixel 9 (before, a model of a
    # series the session never searched stayed: "Consider the Galaxy S25 Ultra" after a
    # search for Pixels)
    assert body.answer == PIXEL_SAID


@pytest.mark.parametrize(
    "said",
    [
        # what no shopper takes for a product: systems, ports, sizes, chips, software
        "Windows 11 is a great choice for school.",
        "It runs Android 15 and charges over USB-C.",
        "Consider a 14 inch screen.",
        "I'd go for a phone with the Tensor G4.",
        "Consider Microsoft 365 for the office apps.",
        # a model the tools returned, however written
        "Consider the Pixel 9 Pro if photos matter.",
        "You might also like the google pixel 9 pro.",
        # reported, asked, denied, or someone else's
        "Reviewers say the Galaxy S25 Ultra is a great choice for zoom.",
        "Is the Galaxy S25 Ultra worth it?",
        "Consider the Galaxy S25 Ultra, but we don't carry it.",
        "You could get the Galaxy S25 Ultra from another retailer.",
        "I wouldn't recommend the Galaxy S25 Ultra for you.",
        "Reviewers compare it with the Galaxy S25 Ultra.",
        "The Galaxy S25 Ultra has a bigger zoom, but we don't carry it.",
    ],
)
def test_words_that_put_no_unreturned_product_forward_stay(said: str) -> None:
    answer = f"{PIXEL_SAID} {said}"
    assert shown_pixels(answer).answer == answer


def test_a_title_or_an_accessory_a_returned_record_names_stays() -> None:
    # Given a returned book whose description names another title, and a returned phone
    # whose description names an accessory
    book = {
        **PIXEL_9,
        "productId": "BK-1",
        "name": "The Martian Chronicles",
        "brand": "Simon & Schuster",
        "category": "BOOKS",
        "price": 16.99,
        "specs": {"author": "Ray Bradbury"},
        "description": "Stories by the author of Fahrenheit 451.",
    }
    phone = {
        **PIXEL_9_PRO,
        "productId": "MOB-017",
        "name": "Google Pixel 9 Pro XL",
        "description": "Works with the Pixel Buds Pro 2 and the Pixel Stand 2.",
    }
    answer = (
        "The Martian Chronicles [BK-1] is $16.99. You might also like Fahrenheit 451. "
        "Consider the Pixel Stand 2 too."
    )
    # Then the shopper reads both: the store's own records name them
    assert shown_pixels(answer, book, phone).answer == answer


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("How about the Pixel 10 Pro XL? It isn't expensive.", ""),
        ("Consider the Galaxy S25 Ultra. It doesn't disappoint.", ""),
        ("How about the Galaxy S25 Ultra? It is out of stock.", ""),
        # a model named, then said to be had or priced by "It"
        ("The Galaxy S25 Ultra has the best zoom. It is in stock.", "has"),
        ("The Galaxy S25 Ultra has the best zoom.\n\nIt is in stock.", "has"),
        ("The Galaxy S25 Ultra has the best zoom. Ships today.", "has"),
        ("The Galaxy S25 Ultra has the best zoom. It costs $1,299.", "has"),
        ("The Galaxy S25 Ultra has the best zoom. It is a great choice.", "has"),
        ("Reviewers love the Galaxy S25 Ultra. We have it in black.", "love"),
    ],
)
def test_a_sentence_pointing_back_at_an_unreturned_model_is_read_as_its(
    said: str, kept: str
) -> None:
    # Given a model no tool returned, then a sentence that points back at it: one that
    # denies nothing after it is put forward, or one that says it can be had or costs so
    body = shown_pixels(f"{PIXEL_SAID} {said}")
    # Then that sentence goes (with the one putting it forward): before, "It is in stock"
    # was checked as the Pixel 9's, which is in stock, and reached the shopper after the
    # Galaxy's name; "It isn't expensive" kept the Pixel 10 Pro XL as if denied
    first = said.split(".")[0] + "." if kept else ""
    assert body.answer == f"{PIXEL_SAID} {first}".strip()


@pytest.mark.parametrize(
    "said",
    [
        "The Galaxy S25 Ultra has the best zoom. It isn't in stock here.",
        "The Galaxy S25 Ultra has the best zoom. We don't carry it.",
        "The Galaxy S25 Ultra has the best zoom. It has a 6.9 inch screen.",
    ],
)
def test_a_sentence_pointing_back_at_an_unreturned_model_that_claims_nothing_stays(
    said: str,
) -> None:
    answer = f"{PIXEL_SAID} {said}"
    body = shown_pixels(answer)
    # "It isn't in stock here" is the Galaxy's, not a wrong stock of the Pixel 9
    assert body.answer == answer
    assert body.corrections == []


def test_a_list_put_forward_loses_the_models_no_tool_returned() -> None:
    # Given a list that a line puts forward, of a returned Pixel and a Galaxy
    body = shown_pixels(
        f"{PIXEL_SAID}\n\nYou might also like:\n- Pixel 9 Pro [MOB-016]\n- Galaxy S25 Ultra"
    )
    # Then the Galaxy's bullet goes, the Pixel's stays
    assert body.answer == f"{PIXEL_SAID}\n\nYou might also like:\n- Pixel 9 Pro [MOB-016]"


PIXEL_9_PRO_XL = {**PIXEL_9_PRO, "productId": "MOB-017", "name": "Google Pixel 9 Pro XL"}


@pytest.mark.parametrize(
    ("said", "now"),
    [
        ("How about the Pixel 10 Pro XL? It isn't in stock here.", None),
        ("How about the Pixel 10 Pro XL? It isn't expensive.", ""),
        (
            "The Pixel 10 Pro XL has great zoom. It is in stock.",
            "The Pixel 10 Pro XL has great zoom.",
        ),
    ],
)
def test_a_model_whose_name_ends_as_a_returned_ones_does_is_no_returned_one(
    said: str, now: str | None
) -> None:
    # Given the Pixel 9 Pro XL among the products returned, and a Pixel 10 Pro XL named
    body = shown_pixels(f"{PIXEL_SAID} {said}", PIXEL_9_PRO_XL)
    # Then "Pro XL" is not read as the Pixel 9 Pro XL: no card of it, and "It" is the
    # Pixel 10 Pro XL's (before, the denial was read as the 9 Pro XL's stock and cut)
    assert body.answer == (f"{PIXEL_SAID} {said}" if now is None else f"{PIXEL_SAID} {now}".strip())
    assert [p.productId for p in body.products] == ["MOB-015"]


@pytest.mark.parametrize(
    "said",
    [
        "Battery life beats the iPhone 15 by about two hours. It is in stock and ships today.",
        "Battery life beats the iPhone 15 by about two hours. We have it in Obsidian.",
        "Unlike the Galaxy S24 Ultra, there's no stylus. It costs $799.",
        "Like the Pixel 8, it gets 7 years of updates. It is a great choice.",
        "If you're upgrading from a Pixel 6, it's a big jump. It's in stock now.",
        'A reviewer wrote: "I switched from a Galaxy S21 and love it." It costs $799.',
        "The Google Pixel 9 [MOB-015] and the Google Pixel 9 Pro [MOB-016] are both strong. "
        "Reviewers prefer both over the iPhone 16. They are in stock.",
    ],
)
def test_it_after_a_model_only_compared_with_is_the_cited_product(said: str) -> None:
    # Given a sentence that names a model no tool returned only to set the Pixel 9 against
    # it (beats, unlike, like, upgrading from, over) or in a reviewer's quoted words, then
    # "It" in the next sentence
    answer = f"{PIXEL_SAID} {said}"
    body = shown_pixels(answer)
    # Then the shopper reads every sentence: "It" is still the Pixel 9, which is in stock
    # at $799 (before, "It is in stock and ships today", "We have it in Obsidian", "It
    # costs $799" were read as the iPhone 15's, the Galaxy's, the Pixel 8's and cut)
    assert body.answer == answer
    assert body.corrections == []


@pytest.mark.parametrize(
    "said",
    [
        "Its Tensor G4 is a solid upgrade.",
        "Its Tensor G4 is a great choice for AI features.",
        "Their Tensor G4 is a solid upgrade.",
    ],
)
def test_a_chip_after_its_said_to_be_a_good_choice_stays(said: str) -> None:
    # Given the Pixel 9's chip, named after "Its", said to be a solid upgrade
    answer = f"{PIXEL_SAID} {said}"
    # Then it stays, as "The Tensor G4 is a solid upgrade." does (before, "Its Tensor G4"
    # was read as a model put forward and the sentence was cut)
    assert shown_pixels(answer).answer == answer


@pytest.mark.parametrize(
    "said",
    [
        # a model of a series no tool returned, put forward in lower case, whoever makes it
        "consider the galaxy s25 ultra.",
        "you could also get the pixel 10 pro.",
        "You could also get the Pixel 10 Pro.",
        "how about the iphone 16 pro?",
        "you might also like the xiaomi 14 ultra.",
        "Also worth a look: the oneplus 13r.",
        "consider the apple pencil 2.",
        "Consider the pixel buds pro 2 for music.",
        "the galaxy s25 ultra is a great choice.",
        # a known maker's accessory, in lower case
        "consider the apple pencil.",
        "you could also get the galaxy buds.",
    ],
)
def test_a_model_no_tool_returned_put_forward_in_lower_case_goes(said: str) -> None:
    # Given a session whose tools returned Pixel 9s only, and an answer that puts forward,
    # in lower case, a product none of them returned
    body = shown_pixels(f"{PIXEL_SAID} {said}")
    # Then the shopper reads only the sentence about the Pixel 9 (before, "consider the
    # galaxy s25 ultra." reached the shopper: a name in lower case was read only where
    # the tools had returned others of its series)
    assert body.answer == PIXEL_SAID


@pytest.mark.parametrize(
    "said",
    [
        # a maker the catalog or the tools know, and a word of a product: no model's number
        "Consider the Apple Pencil.",
        "how about the Kindle Paperwhite?",
        "Get the Apple Watch for workouts.",
        "You could also get the Galaxy Buds.",
        "I'd recommend the Sony WH-1000XM5 Headphones.",
        "Alternatively, the Samsung Galaxy Watch is a great choice.",
        "How about a Pixel Watch?",
        # a name that ends with a kind of product, whoever makes it
        "You might also like the Magic Keyboard.",
        "Consider the Surface Pen too.",
    ],
)
def test_a_product_with_no_models_number_put_forward_goes(said: str) -> None:
    # Given a session whose tools returned Pixel 9s only, and an answer that puts before
    # the shopper a product named with no model's number, which no tool returned
    body = shown_pixels(f"{PIXEL_SAID} {said}")
    # Then the shopper reads only the sentence about the Pixel 9 (before, "Consider the
    # Apple Pencil." stayed: only a name with a number or a model's word was read)
    assert body.answer == PIXEL_SAID


def test_a_product_with_no_models_number_put_forward_in_a_list_goes() -> None:
    body = shown_pixels(
        f"{PIXEL_SAID}\n\nYou might also like:\n- Pixel 9 Pro [MOB-016]\n- Apple Pencil\n"
        "- Magic Keyboard"
    )
    # the shopper sees the Pixel 9 Pro's bullet only, not two accessories the store may
    # not have
    assert body.answer == f"{PIXEL_SAID}\n\nYou might also like:\n- Pixel 9 Pro [MOB-016]"


def test_a_sentence_after_a_product_with_no_number_put_forward_goes_with_it() -> None:
    body = shown_pixels(f"{PIXEL_SAID} Consider the Apple Pencil. It is in stock.")
    # "It is in stock" is the Pencil's, not the Pixel 9's: it goes with it
    assert body.answer == PIXEL_SAID


@pytest.mark.parametrize(
    "said",
    [
        # systems, ports, chips, software, services: no product put forward
        "Consider Windows 11.",
        "consider windows 11 for school.",
        "It runs Android and charges over USB-C.",
        "I'd go for an M3 Pro.",
        "consider the m3 pro chip.",
        "you might also like one ui 7.",
        "Consider Google Photos for backups.",
        "Consider Google One for storage.",
        "Consider Apple Music.",
        "Try Google Lens on it.",
        "Try Magic Eraser on photos.",
        "You might also like the Kindle edition.",
        "Consider HP Instant Ink for printing.",
        "Consider Dell Mobile Connect.",
        "Install Lenovo Vantage for updates.",
        # a kind, an amount, a size, a count: no name
        "Consider a Wireless Mouse.",
        "Consider a Phone Case.",
        "Consider the 256 GB version.",
        "consider a 14 inch screen.",
        "you might also like 16 gb of ram.",
        "consider upgrading to 16 gb.",
        "get version 2 of the app.",
        "consider 2 cases.",
        "Consider the Samsung Galaxy line.",
        "Consider Samsung Galaxy phones too.",
        # a returned product in any case, a question, a denial, a comparison, quoted words
        "consider the google pixel 9 pro.",
        "Do you need the Apple Pencil?",
        "We don't carry the Apple Pencil.",
        "Consider the Apple Pencil, but we don't carry it.",
        "Battery life beats the iPhone 15.",
        'One reviewer wrote: "Consider the Apple Pencil instead."',
        "Reviewers say the Kindle Paperwhite is a great choice.",
    ],
)
def test_words_that_put_no_unreturned_product_with_no_number_forward_stay(said: str) -> None:
    answer = f"{PIXEL_SAID} {said}"
    assert shown_pixels(answer).answer == answer


def test_an_accessory_a_returned_record_names_stays_in_any_case() -> None:
    # Given a returned phone whose description names its accessories
    phone = {
        **PIXEL_9_PRO,
        "productId": "MOB-017",
        "name": "Google Pixel 9 Pro XL",
        "description": "Works with the Pixel Buds Pro 2, the Pixel Watch and a Pixel Stand.",
    }
    answer = f"{PIXEL_SAID} Consider the Pixel Watch too. you could also get the pixel buds pro 2."
    # Then the shopper reads both: the store's own record names them
    assert shown_pixels(answer, phone).answer == answer
