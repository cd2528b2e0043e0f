"""What shoppers' words mean to the catalog: a table, not code.

A model passes the shopper's phrase as ``keywords`` ("laptop for video
editing", "phones with great cameras"). Some words name a kind of product and
become filters ("laptop", "phones", "novels"); some name a use, which is
searched with the words products describe it in and ranks products by the spec
that matters for it ("gaming" -> graphics card and memory, "travel" -> weight,
"cameras" -> megapixels); some name an order ("cheap" -> cheapest first).

Phrases are written lower case and singular (the parser folds plurals:
"laptops" -> "laptop"), longest phrases win. Explicit tool fields always beat a
word: with ``category`` given, "laptop" in the keywords is just a search term.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.catalog.categories import Category
from shared.catalog.derive import fold, folded, includes, kinds

# Named ranking boosts: SQL over the ``products`` row ``p``, each in [0, 1]. Most have
# a step where a shopper's usual bar is met (16 GB for editing, 1.4 kg for "light",
# 12 hours or 5,000 mAh for "battery", 48 MP for "camera"), then grow slowly.
BOOSTS: dict[str, str] = {
    "ram": (
        "CASE WHEN p.ram_gb >= 16 THEN 0.6 + 0.4 * min(p.ram_gb / 32.0, 1.0)"
        " ELSE 0.3 * coalesce(p.ram_gb, 0) / 16.0 END"
    ),
    "gpu": "p.dedicated_gpu",
    "light": (
        "CASE WHEN p.weight_kg IS NULL THEN 0.0 WHEN p.weight_kg <= 1.4 THEN 1.0"
        " ELSE max(0.0, (2.0 - p.weight_kg) / 1.2) END"
    ),
    "battery": (
        "CASE WHEN p.battery_hours >= 12 OR p.battery_mah >= 5000 THEN 0.8 ELSE 0.0 END"
        " + 0.2 * max(min(coalesce(p.battery_hours, 0) / 20.0, 1.0),"
        " min(max(coalesce(p.battery_mah, 0) - 3000.0, 0.0) / 2500.0, 1.0))"
    ),
    "camera": (
        "CASE WHEN p.camera_mp >= 48 THEN 0.7 + 0.3 * min(p.camera_mp / 200.0, 1.0)"
        " ELSE 0.3 * coalesce(p.camera_mp, 0) / 48.0 END"
    ),
    "storage": "min(coalesce(p.storage_gb, 0) / 1024.0, 1.0)",
    # A modest budget (a student's, an everyday computer's): full marks up to $600, none
    # from $1,500.
    "affordable": (
        "CASE WHEN p.price IS NULL THEN 0.0 ELSE max(0.0, min(1.0, (1500.0 - p.price) / 900.0)) END"
    ),
    # Phones and computers are "big" at different sizes.
    "big_screen": (
        "CASE WHEN p.screen_inches IS NULL THEN 0.0"
        " WHEN p.screen_inches < 10 THEN max(0.0, min(1.0, (p.screen_inches - 6.0) / 0.8))"
        " ELSE max(0.0, min(1.0, (p.screen_inches - 13.0) / 3.0)) END"
    ),
    "small_screen": (
        "CASE WHEN p.screen_inches IS NULL THEN 0.0"
        " WHEN p.screen_inches < 10 THEN max(0.0, min(1.0, (6.8 - p.screen_inches) / 0.7))"
        " ELSE max(0.0, min(1.0, (16.0 - p.screen_inches) / 3.0)) END"
    ),
}
# A use that is about one spec ("light" is weight) ranks by it first: its boost weighs
# STRONG, enough to outrank a better text match ("Slim" in a heavy laptop's name).
STRONG = 3.0

# The facet each boost reads, and the order that follows it when there is no text to
# rank (a search that kept only the words' preferences): (column, biggest first).
BOOST_ORDER: dict[str, tuple[str, bool] | None] = {
    "ram": ("ram_gb", True),
    "gpu": None,  # no index; "gaming" also boosts memory
    "light": ("weight_kg", False),
    "battery": ("battery_hours", True),
    "camera": ("camera_mp", True),
    "storage": ("storage_gb", True),
    "affordable": ("price", False),
    "big_screen": ("screen_inches", True),
    "small_screen": ("screen_inches", False),
}
BOOST_COLUMNS: dict[str, tuple[str, ...]] = {
    "ram": ("ram_gb",),
    "gpu": ("ram_gb",),  # every computer has memory: dedicated_gpu is not a facet column
    "light": ("weight_kg",),
    "battery": ("battery_hours", "battery_mah"),
    "camera": ("camera_mp",),
    "storage": ("storage_gb",),
    "affordable": ("price",),
    "big_screen": ("screen_inches",),
    "small_screen": ("screen_inches",),
}


@dataclass(frozen=True)
class Intent:
    phrases: tuple[str, ...]
    terms: tuple[str, ...] = ()
    """Search terms standing for the phrase, any of which matches; none: a filter only."""
    category: str | None = None
    forms: tuple[str, ...] = ()
    """``formFactor`` values the phrase asks for."""
    boosts: tuple[tuple[str, float], ...] = ()
    sort: str | None = None
    on_sale: bool = False
    """Only products on sale: a price before the sale above today's."""
    line: bool = False
    """A product line the shopper named ("macbook"): its terms are required, so products
    of other lines that match only the shopper's other words never fill the results."""
    meant: str | None = None
    """The kind of product the use means when the shopper names none ("something for
    my grandmother who wants email": a computer); a kind named wins ("a simple phone")."""
    use: str | None = None
    """The use the phrase names ("gaming", "student"), for a model that says what an
    answer is for."""
    spend: bool = False
    """The shopper says the price is no limit ("money is no object"): nothing leans to the
    cheaper."""
    audience: bool = False
    """Whom the product is for ("a kid", "a teenager"): the words of a book's blurb, but
    of a phone or a computer no word to find (its text may say "kids" of anything), only
    a price to keep low."""


_GENRE = Category.BOOKS
KIND_INTENTS: tuple[Intent, ...] = tuple(
    Intent(kind.words, category=kind.category, forms=includes(spec, kind.value))
    for spec, kind in kinds()
)
"""Each kind of product a shopper names ("laptop", "desktop"): a filter on its category
and on the kinds it takes in, from the catalog's vocabulary (``Spec.kinds``)."""


def line_forms(line: str) -> tuple[str, ...]:
    """The kinds a product line is, where the catalog's vocabulary names the line as one
    kind (``Kind.also_named``: a MacBook is a laptop, an iMac an all-in-one)."""
    for spec, kind in kinds():
        if folded(line) in {folded(name) for name in kind.also_named}:
            return includes(spec, kind.value)
    return ()


_MAC = ("mac", "macbook", "imac", "macos")
INTENTS: tuple[Intent, ...] = (
    # ---- kinds of product: filters
    Intent(("phone", "smartphone", "mobile", "mobile phone", "cell phone", "cellphone",
            "handset"), category=Category.MOBILE),
    *KIND_INTENTS,
    Intent(("computer", "pc", "pcs", "workstation", "gaming rig"), category=Category.COMPUTERS),
    Intent(("book", "novel", "ebook", "e-book", "fiction", "nonfiction", "non-fiction",
            "something to read", "read"), category=Category.BOOKS),
    # A book's binding, read as a line is: books of it, where the store says which it has.
    Intent(("paperback", "softcover", "soft cover"), terms=("paperback", "softcover"),
           category=Category.BOOKS),
    Intent(("hardcover", "hardback", "hard cover"), terms=("hardcover", "hardback"),
           category=Category.BOOKS),
    # "I read that the XPS ..." reads no book; "do you carry" asks what the store sells.
    Intent(("read that", "read about", "read review", "read online", "read the review")),
    Intent(("do you carry", "you carry", "we carry", "does the store carry")),
    # ---- kinds named by a product line: a filter and a required search term
    Intent(("chromebook",), terms=("chromebook", "chromeos"), category=Category.COMPUTERS,
           line=True),
    # A line of one kind is that kind too ("macbook": laptops only); "mac" is any Mac.
    *(Intent((line,), terms=_MAC, category=Category.COMPUTERS, forms=line_forms(line),
             line=True)
      for line in ("macbook", "imac")),
    Intent(("iphone",), terms=("iphone",), category=Category.MOBILE, line=True),
    # ---- operating systems, read as lines are: a required term (the catalog's spec text
    # names it), so that a Windows laptop under $300 is one of the Windows laptops nearest
    # $300, never a Chromebook. No kind: "only Windows ones" narrows the kind asked before.
    Intent(("windows",), terms=("windows",), line=True),
    Intent(("macos", "mac os", "os x", "osx"), terms=_MAC, line=True),
    Intent(("chromeos", "chrome os"), terms=("chromebook", "chromeos"), line=True),
    Intent(("android",), terms=("android",), line=True),
    Intent(("ios",), terms=("ios", "iphone"), line=True),
    # ---- a sale: a filter; "for sale" (sold here) means nothing more than any product
    Intent(("on sale", "sale", "sale price", "discount", "discounted", "deal", "deals",
            "reduced", "price drop", "markdown", "marked down", "clearance", "special offer",
            "on offer", "promotion", "promo"), on_sale=True),
    Intent(("for sale", "up for sale")),
    # ---- orders
    Intent(("cheap", "cheapest", "budget", "affordable", "inexpensive", "low cost",
            "low-cost", "entry level", "entry-level", "bargain", "least expensive"),
           sort="price"),
    # ---- uses: searched, and ranked by what matters for them
    # A game a shopper names is a wish to play it: the most played, by their names.
    Intent(("gaming", "game", "gamer", "esport", "play game", "playing game", "fortnite",
            "minecraft", "roblox", "valorant", "league of legends", "call of duty", "warzone",
            "apex legends", "overwatch", "counter-strike", "cs2", "gta", "cyberpunk",
            "elden ring", "the sims", "baldur's gate", "steam game", "pc game", "minecraft",
            "roblox", "fortnite"),
           terms=("gaming", "rtx", "esports"),
           boosts=(("ram", STRONG), ("gpu", 2.0)), use="gaming"),
    Intent(("video editing", "photo editing", "editing", "edit video", "edit photo",
            "content creation", "creative work", "creative", "creator", "3d", "rendering",
            "music production", "graphic design", "4k video", "edit 4k video", "4k editing",
            "video production", "vlogging", "photoshop", "lightroom", "premiere",
            "make video", "making video", "create video", "creating video", "make music",
            "making music", "youtube channel", "twitch channel", "youtuber", "streamer",
            "stream on twitch", "streaming on twitch", "live streaming", "twitch streaming"),
           terms=("editing", "creative", "creator"),
           boosts=(("ram", STRONG), ("gpu", 0.5)), use="editing"),
    Intent(("programming", "coding", "developer", "software development", "development"),
           terms=("development", "programming", "coding", "software"),
           boosts=(("ram", STRONG),), use="programming"),
    Intent(("camera", "photo", "photography", "picture", "selfie", "take photo",
            "taking photo", "take picture", "photographer"),
           terms=("camera", "photo", "telephoto", "zoom"),
           boosts=(("camera", STRONG),), use="photos"),
    Intent(("light", "lightweight", "portable", "travel", "travelling", "traveling", "thin",
            "carry", "commute", "on the go", "on the move", "backpack", "ultraportable",
            "slim", "light weight", "flight", "flights", "long flight", "long flights"),
           terms=("light", "lightweight", "thin", "portable", "ultraportable"),
           boosts=(("light", STRONG),), use="travel"),
    Intent(("battery", "battery life", "long battery", "long battery life", "all day",
            "all-day", "long lasting", "long-lasting", "last all day", "big battery",
            "large battery", "huge battery", "long lasting battery"),
           terms=("battery", "mah", "all day"),
           boosts=(("battery", STRONG),)),
    Intent(("big screen", "large screen", "big display", "large display", "big", "large"),
           terms=("large", "larger", "largest", "big"),
           boosts=(("big_screen", STRONG),)),
    Intent(("small", "compact", "small screen", "one hand", "one-handed", "pocket", "mini"),
           terms=("compact", "small", "mini"),
           boosts=(("small_screen", STRONG),)),
    # Space is storage only said as room for things: "a book about space" is no SSD.
    Intent(("storage", "lot of storage", "plenty of storage", "storage space", "lot of space",
            "plenty of space", "more space", "enough space"),
           terms=("storage", "ssd"),
           boosts=(("storage", STRONG),)),
    Intent(("premium", "high end", "high-end", "flagship", "top of the line", "powerful",
            "fast", "performance"),
           terms=("premium", "flagship", "performance", "powerful"),
           boosts=(("ram", 0.5),)),
    # A student carries it all day, on a student's money.
    Intent(("student", "school", "college", "university", "homework", "class", "study",
            "studying", "high school", "middle school", "high schooler", "schoolwork"),
           terms=("student", "school", "homework", "study", "class", "college"),
           boosts=(("affordable", 1.5), ("light", 1.0), ("battery", 1.0)), use="student"),
    # Email and the web, as simply and cheaply as can be: the least a computer costs.
    Intent(("email", "e-mail", "web browsing", "browsing", "browse the web", "browse the internet",
            "everyday use", "everyday", "basic", "basic use", "simple", "grandmother", "grandma",
            "grandfather", "grandpa", "grandparent", "senior", "elderly", "beginner",
            "video call", "video calls", "make video call", "making video call",
            "not tech savvy", "not very tech savvy"),
           terms=("everyday", "basic", "email", "browsing", "essentials"),
           boosts=(("affordable", STRONG),), meant=Category.COMPUTERS, use="basic"),
    # Media a product plays, which no product's text needs to say: no word to find, and
    # no lean of its own ("a laptop for youtube video editing" is an editor's); a computer
    # when no kind is named.
    Intent(("netflix", "youtube", "watch movies", "watching movies", "watch videos",
            "watching videos", "watch tv", "watching tv", "streaming movies", "social media",
            "facebook", "watch twitch", "watching twitch", "watch twitch stream",
            "watching twitch stream", "watch stream", "watching stream", "watch youtube",
            "watching youtube", "favourite youtube channel", "favorite youtube channel",
            "watch live streaming", "watching live streaming",
            "watch live stream", "watching live stream", "watch streamer", "watching streamer"),
           meant=Category.COMPUTERS),
    # The price is no limit: no word to find, and no lean to the cheaper.
    Intent(("money is no object", "money's no object", "price is no object", "no budget",
            "cost is no object", "budget is no object", "budget is not an object",
            "price doesn't matter", "price does not matter", "regardless of price",
            "whatever it costs", "price is not an issue", "forget the budget",
            "forget about the budget", "forget my budget", "forget the price",
            "never mind the budget", "never mind the price", "nevermind the budget",
            "ignore the budget", "ignore my budget", "drop the budget", "budget doesn't matter",
            "budget does not matter", "budget is not an issue", "whatever the price",
            "no price limit", "no budget limit"), spend=True),
    Intent(("business", "work", "office", "professional", "enterprise", "productivity"),
           terms=("business", "office", "work", "professional"), use="work"),
    Intent(("kid", "child", "children", "young reader"),
           terms=("children", "child", "kid", "young", "fantasy", "magic", "adventure"),
           audience=True),
    Intent(("teen", "teenager", "young adult"), terms=("teenage", "teen", "young"),
           audience=True),
    Intent(("family", "home"), terms=("family", "home")),
    Intent(("foldable", "folding", "fold", "flip"), terms=("foldable", "fold", "flip")),
    Intent(("waterproof", "water resistant", "water-resistant"),
           terms=("ip68", "ip67", "water")),
    Intent(("touchscreen", "touch screen", "touch", "stylus", "pen", "for drawing",
            "drawing tablet", "to draw", "sketching", "digital art", "handwriting", "note taking",
            "taking notes"),
           terms=("touchscreen", "touch", "pen")),
    Intent(("quiet", "silent", "fanless"), terms=("fanless", "quiet", "silent")),
    Intent(("mac",), terms=_MAC),
    # ---- books: a genre is a book, and is searched with the words blurbs use
    Intent(("mystery", "detective", "crime", "whodunit", "murder mystery"),
           terms=("mystery", "detective", "crime", "murder"), category=_GENRE),
    Intent(("fantasy", "magic", "wizard", "dragon"),
           terms=("fantasy", "magic", "wizard", "dragon"), category=_GENRE),
    Intent(("sci-fi", "science fiction", "scifi"),
           terms=("science fiction", "sci-fi"), category=_GENRE),
    Intent(("classic", "classic novel", "classic literature"), terms=("classic",),
           category=_GENRE),
    Intent(("dystopia", "dystopian"), terms=("dystopian", "dystopia"), category=_GENRE),
    Intent(("romance", "love story", "romantic"), terms=("romance", "love"), category=_GENRE),
    Intent(("thriller", "suspense"), terms=("thriller", "suspense"), category=_GENRE),
    Intent(("myth", "mythology", "greek myth", "greek mythology", "mythological"),
           terms=("myth", "mythology", "mythological"), category=_GENRE),
    Intent(("biography", "memoir", "life story"), terms=("biography", "memoir"),
           category=_GENRE),
)  # fmt: skip

LINE_TERMS = frozenset(t for i in INTENTS if i.line and i.category is not None for t in i.terms)
"""The terms of the product lines the table knows (not the systems, which are read as
lines too): "iphone", "macbook", "chromebook"."""

LINE_NAMES = LINE_TERMS - {
    p for i in INTENTS if i.line and i.category is None for p in i.phrases if " " not in p
}
"""The terms of :data:`LINE_TERMS` that are the name of a line, not a system's ("macos",
"chromeos", which specs state): a product is of the line when its name (or brand) has
one, never because its description, specs or tags mention it ("faster than the iPhone
16" on a Samsung)."""

_STOP_WORDS = """
    a an the and or for with without of to in on at by from into about as is are be been
    i me my mine we our you your it its this that these those some any something anything
    i'm im i've i'd i'll
    one ones thing things stuff item items product products
    good great nice best better really very quite super decent solid
    do does did thanks thank hi hello hey also too now tell sell sells carry carries
    want wants need needs looking look find show get buy buying please can could would
    which what who whose that has have having like likes do does did how much many there
    recommend recommendation suggest suggestion option options
    least most less more than under over below above around about up between max min
    maximum minimum price priced cost costs costing dollar buck money spend
    stock stocked available availability just only
    today tonight here currently anymore yet guys
    he she him his her hers they them their son daughter wife husband mum mom dad
    new should shall must might ought gonna wanna come
    play plays playing played runs run running use uses using
    total overall altogether
    although since because else but why whether
    isn't aren't wasn't weren't doesn't don't didn't won't can't couldn't shouldn't wouldn't
    haven't hasn't isnt arent wasnt werent doesnt dont didnt cant couldnt shouldnt wouldnt
    isbn isbn10 isbn13 sku skus ean upc gtin barcode
"""
_COMPANY = """
    sister sisters brother brothers sibling siblings
    grandma grandmother grandpa grandfather granny grandparent grandparents nan nana gran
    mother father parent parents aunt uncle niece nephew cousin cousins
    friend friends girlfriend boyfriend partner fiance fiancee roommate flatmate
    colleague colleagues coworker coworkers classmate classmates
    share shares shared sharing
"""
COMPANY = frozenset(w for word in _COMPANY.split() for w in (word, fold(word)))
"""Whom a phone or a computer is for or shared with ("to share with my sister"): no word
its text says of it, though a book's title may ("The Friend"), so searched for books."""

_ASKING_WORDS = """
    give list all every top rated rating ratings review reviews reviewed reviewer reviewers
    popular pick picks best-selling selling
"""
ASKING_WORDS = frozenset(w for word in _ASKING_WORDS.split() for w in (word, fold(word)))
"""Words of asking for all, the best or the best reviewed of a kind ("list all laptops",
"top rated phones"): nothing to find in a product's text, but words of a title asked
for by name ("The List")."""
STOP_WORDS = ASKING_WORDS | frozenset(w for word in _STOP_WORDS.split() for w in (word, fold(word)))
"""Words that say nothing about the product, as written and folded ("does" is "doe"
folded): a word is compared after :func:`~words.fold`. Whether a product is in stock
is its record's to say, never a word to search ("is the iMac in stock?")."""
