"""Shoppers' German, Spanish and French, read as the English the phrase table knows.

The store's catalog and its phrase table (:mod:`shared.search.intents`) are English;
a shopper may not be. Before a phrase is parsed, the words a shopper in German,
Spanish or French uses for a kind of product, a budget, a unit and the usual wishes
(cheap, light, the best camera, a long battery, gaming, programming, school) are
replaced by the English words the table reads, so that "Welches Handy hat die beste
Kamera?" is a phone with the best camera and "un portátil por menos de 900 dólares" a
laptop under $900, for every model and for the offline one alike. Words with no
meaning to the store ("ich suche", "quiero") become stop words. Anything else is
left as written: a name or a title is searched as the shopper spelt it.

Only words that are not also English words a shopper would use are here ("portable"
is a laptop in French and a wish in English; "Handy" is a German phone only with its
capital, as German writes nouns).
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Foreign phrase -> the English the phrase table and the amount reader know. Written
# lower case with their accents; each is also read without them ("portatil").
ENGLISH: dict[str, str] = {
    # ---- kinds of product
    "handys": "phones", "smartphones": "phones", "telefon": "phone", "mobiltelefon": "phone",
    "móvil": "phone", "móviles": "phones", "teléfono": "phone", "teléfonos": "phones",
    "celular": "phone", "celulares": "phones", "téléphone": "phone", "téléphones": "phones",
    "téléphone portable": "phone", "portátil": "laptop", "portátiles": "laptops",
    "ordenador portátil": "laptop", "computadora portátil": "laptop",
    "ordinateur portable": "laptop", "pc portable": "laptop", "ordinateurs portables": "laptops",
    "ordenador": "computer", "computadora": "computer", "ordinateur": "computer",
    "rechner": "computer", "buch": "book", "bücher": "books", "libro": "book",
    "libros": "books", "novela": "novel", "novelas": "novels", "livre": "book",
    "livres": "books",
    # ---- budgets and units
    "weniger als": "under", "unter": "under", "bis zu": "up to", "höchstens": "at most",
    "maximal": "at most", "menos de": "under", "por menos de": "under", "hasta": "up to",
    "como máximo": "at most", "moins de": "under", "pour moins de": "under",
    "jusqu'à": "up to", "au maximum": "at most", "mindestens": "at least",
    "al menos": "at least", "au moins": "at least", "dólares": "dollars", "dólar": "dollar",
    "zoll": "inch", "pulgadas": "inches", "pouces": "inches", "stunden": "hours",
    "horas": "hours", "heures": "hours",
    # ---- wishes: orders, uses, specs
    "günstig": "cheap", "günstiges": "cheap", "günstigen": "cheap", "billig": "cheap",
    "preiswert": "cheap", "barato": "cheap", "barata": "cheap", "económico": "cheap",
    "pas cher": "cheap", "bon marché": "cheap", "am günstigsten": "cheapest",
    "günstigste": "cheapest", "günstigstes": "cheapest", "más barato": "cheapest",
    "más barata": "cheapest", "moins cher": "cheapest", "moins chère": "cheapest",
    "teuerste": "most expensive", "teuerstes": "most expensive",
    "más caro": "most expensive", "más cara": "most expensive", "plus cher": "most expensive",
    "plus chère": "most expensive", "leichteste": "lightest", "leichtestes": "lightest",
    "más ligero": "lightest", "más ligera": "lightest", "plus léger": "lightest",
    "plus légère": "lightest", "leicht": "light", "leichtes": "light", "leichten": "light",
    "ligero": "light", "ligera": "light", "léger": "light", "légère": "light",
    "am leichtesten": "lightest", "leichtesten": "lightest", "am teuersten": "most expensive",
    "am billigsten": "cheapest", "billigste": "cheapest", "größten": "biggest",
    "más grande": "biggest", "plus grand": "biggest", "plus grande": "biggest",
    "schwerste": "heaviest", "schwerstes": "heaviest", "schwersten": "heaviest",
    "am schwersten": "heaviest", "más pesado": "heaviest", "más pesada": "heaviest",
    "plus lourd": "heaviest", "plus lourde": "heaviest", "kleinste": "smallest",
    "kleinster": "smallest", "kleinstes": "smallest", "kleinsten": "smallest",
    "am kleinsten": "smallest", "más pequeño": "smallest", "más pequeña": "smallest",
    "plus petit": "smallest", "plus petite": "smallest", "größte": "biggest",
    "größter": "biggest", "größtes": "biggest", "älteste": "oldest", "ältestes": "oldest",
    "ältesten": "oldest", "am ältesten": "oldest", "más antiguo": "oldest",
    "más antigua": "oldest", "plus ancien": "oldest", "plus ancienne": "oldest",
    "neueste": "newest", "neuestes": "newest", "neuesten": "newest", "más nuevo": "newest",
    "más nueva": "newest", "más reciente": "newest", "plus récent": "newest",
    "plus récente": "newest", "pantalla más pequeña": "smallest screen",
    "pantalla más grande": "biggest screen", "am wenigsten": "least", "wenigsten": "least",
    "gute": "good", "guter": "good", "gutes": "good", "guten": "good",
    "bueno": "good", "buena": "good", "buen": "good", "bon": "good", "bonne": "good",
    "beste": "best", "besten": "best", "bester": "best", "bestes": "best", "mejor": "best",
    "meilleur": "best", "meilleure": "best", "kamera": "camera", "cámara": "camera",
    "appareil photo": "camera", "caméra": "camera", "akku": "battery",
    "akkulaufzeit": "battery life", "lange akkulaufzeit": "long battery life",
    "batería": "battery", "batería de larga duración": "long battery life",
    "batterie": "battery", "autonomie": "battery life",
    "grande autonomie": "long battery life", "bildschirm": "screen", "pantalla": "screen",
    "écran": "screen", "großer bildschirm": "big screen", "pantalla grande": "big screen",
    "grand écran": "big screen", "arbeitsspeicher": "ram", "speicher": "storage",
    "almacenamiento": "storage", "stockage": "storage", "spiele": "games", "zocken": "gaming",
    "juegos": "games", "jugar": "gaming", "jeux": "games", "jouer": "gaming",
    "programmieren": "programming", "programar": "programming",
    "programación": "programming", "programmer": "programming",
    "programmation": "programming", "studium": "student", "schule": "school",
    "studenten": "student", "estudiante": "student", "universidad": "university",
    "escuela": "school", "étudiant": "student", "étudiante": "student", "école": "school",
    "université": "university", "reisen": "travel", "viajar": "travel", "viajes": "travel",
    "voyager": "travel", "arbeit": "work", "büro": "office",
    "trabajo": "work", "oficina": "office", "travail": "work",
    # ---- books
    "fantasía": "fantasy", "ciencia ficción": "science fiction",
    "science-fiction": "science fiction", "krimi": "mystery", "krimis": "mystery",
    "roman policier": "mystery", "policier": "mystery", "misterio": "mystery",
    "novela negra": "crime", "mythologie": "mythology", "mitología": "mythology",
    "griechische": "greek", "griechischen": "greek", "griega": "greek", "grecque": "greek",
    "geschichte": "history", "historia": "history", "histoire": "history",
    # ---- questions
    "haben sie": "do you have", "tienen": "do you have", "avez-vous": "do you have",
    "auf lager": "in stock", "vorrätig": "in stock", "en stock": "in stock",
    "disponible": "available", "verfügbar": "available",
    # ---- words with no meaning to the store
    "ich suche": " ", "ich brauche": " ", "ich möchte": " ", "ich will": " ", "suche": " ",
    "quiero": " ", "busco": " ", "necesito": " ", "je cherche": " ", "je veux": " ",
    "je voudrais": " ", "welches": "which", "welche": "which", "welcher": "which",
    "cuál": "which", "qué": "what", "más": "more", "quel": "which", "quelle": "which",
    "für": "for", "para": "for", "pour": "for", "mit": "with", "avec": "with", "ohne": "without",
    "sans": "without", "einen": "a", "eine": "a", "ein": "a", "una": "a",
    "une": "a", "un": "a", "von": "by", "est": "is", "ist": "is", "es gibt": "is there",
    "gibt es": "is there", "tiene": "has", "der": "the", "die": "the", "das": "the",
    "el": "the", "la": "the", "los": "the", "las": "the", "le": "the", "les": "the",
    "de": "of", "del": "of", "du": "of", "des": "of", "sobre": "about", "que": "that",
}  # fmt: skip

# German nouns that are also English words: read only with the capital German gives them.
CAPITALISED: dict[str, str] = {"Handy": "phone"}


def _bare(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@functools.cache
def _pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    table = {**{_bare(k): v for k, v in ENGLISH.items()}, **ENGLISH}
    phrases = sorted(table, key=len, reverse=True)
    alternation = "|".join(re.escape(p) for p in phrases)
    return re.compile(rf"(?<![\w'-])(?:{alternation})(?![\w'-])", re.IGNORECASE), table


_CAPITALISED = re.compile(r"(?<![\w'-])(" + "|".join(CAPITALISED) + r")(?![\w'-])")


# French elides an article before a vowel: "l'ordinateur" is "the computer".
_ELIDED = re.compile(r"(?<![\w'])(l|d|qu|j)'(?=[^\W\d_])", re.IGNORECASE)
_ELISIONS = {"l": "the ", "d": "of ", "qu": "that ", "j": "i "}


def in_english(text: str) -> str:
    """``text`` with the German, Spanish and French words of :data:`ENGLISH` in English."""
    pattern, table = _pattern()
    text = _CAPITALISED.sub(lambda m: CAPITALISED[m[1]], text)
    text = _ELIDED.sub(lambda m: _ELISIONS[m[1].lower()], text)
    return pattern.sub(lambda m: table[m[0].lower()], unicodedata.normalize("NFC", text))
