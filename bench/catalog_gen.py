"""Generate large synthetic catalogs with the same schema as the bundled one.

The bundled catalog (``functions/shared/data/catalog.json``) holds under a
hundred hand-written products. Load tests, pagination and search ranking need
tens of thousands, so this module fakes them: same keys, same spec shapes, same
value ranges, with names and specs drawn from per-brand product lines so that a
"Razer Blade" is a heavy gaming laptop and a Chromebook runs ChromeOS.

Usage::

    python -m bench.catalog_gen --size 50000 --out catalog-50k.json
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

W_HOME = "Windows 11 Home"
W_PRO = "Windows 11 Pro"
MACOS = "macOS"
CHROMEOS = "ChromeOS"

# Category, id prefix and share of the catalog. Large records (computers, with
# nine specs) and small ones (books) both get a big share, so load tests see
# the size mix a real store has.
_CATEGORY_WEIGHTS: tuple[tuple[str, str, float], ...] = (
    ("COMPUTERS", "CMP", 0.40),
    ("MOBILE", "MOB", 0.25),
    ("BOOKS", "BK", 0.35),
)

# --------------------------------------------------------------------------- computers

# Integrated graphics follow the processor, so the pairs are fixed: an Intel
# chip with Radeon graphics would be a giveaway that the data is fake.
_IGPU: dict[str, str] = {
    "Intel Celeron N4500": "Intel UHD Graphics",
    "Intel Processor N100": "Intel UHD Graphics",
    "Intel Core i3-N305": "Intel UHD Graphics",
    "Intel Core i3-1215U": "Intel UHD Graphics",
    "Intel Core i3-1315U": "Intel UHD Graphics",
    "Intel Core i5-1335U": "Intel Iris Xe Graphics",
    "Intel Core i7-1355U": "Intel Iris Xe Graphics",
    "Intel Core 5 120U": "Intel Graphics",
    "Intel Core 7 150U": "Intel Graphics",
    "Intel Core Ultra 5 125U": "Intel Graphics",
    "Intel Core Ultra 5 125H": "Intel Arc Graphics",
    "Intel Core Ultra 7 155H": "Intel Arc Graphics",
    "Intel Core Ultra 7 258V": "Intel Arc 140V GPU",
    "AMD Ryzen 3 7320U": "AMD Radeon 610M",
    "AMD Ryzen 3 7320C": "AMD Radeon 610M",
    "AMD Ryzen 5 7520U": "AMD Radeon 610M",
    "AMD Ryzen 5 7530U": "AMD Radeon Graphics",
    "AMD Ryzen 7 7730U": "AMD Radeon Graphics",
    "AMD Ryzen 7 8840U": "AMD Radeon 780M",
    "AMD Ryzen AI 9 HX 370": "AMD Radeon 890M",
    "Qualcomm Snapdragon X Plus": "Qualcomm Adreno GPU",
    "Qualcomm Snapdragon X Elite": "Qualcomm Adreno GPU",
    "MediaTek Kompanio 520": "Arm Mali-G52 MC2",
    "Intel Core i5-13400": "Intel UHD Graphics 730",
    "Intel Core i7-13700": "Intel UHD Graphics 770",
    "AMD Ryzen 5 8600G": "AMD Radeon 760M",
}


def _integrated(*cpus: str) -> tuple[tuple[str, str], ...]:
    return tuple((cpu, _IGPU[cpu]) for cpu in cpus)


def _discrete(cpus: Sequence[str], gpus: Sequence[str]) -> tuple[tuple[str, str], ...]:
    return tuple((cpu, gpu) for cpu in cpus for gpu in gpus)


@dataclass(frozen=True, slots=True)
class _Tier:
    chips: tuple[tuple[str, str], ...]
    ram: tuple[int, ...]
    storage: tuple[int, ...]
    price: tuple[int, int]
    battery: tuple[int, int]
    features: tuple[str, ...]
    uses: tuple[str, ...]


_LAPTOP_GPUS = tuple(f"NVIDIA GeForce RTX {n} Laptop GPU" for n in ("4050", "4060", "4070", "4080"))

_TIERS: dict[str, _Tier] = {
    "budget": _Tier(
        chips=_integrated(
            "Intel Processor N100",
            "Intel Core i3-N305",
            "Intel Core i3-1315U",
            "AMD Ryzen 3 7320U",
            "AMD Ryzen 5 7520U",
            "Intel Core i5-1335U",
        ),
        ram=(8, 8, 16),
        storage=(256, 512),
        price=(299, 649),
        battery=(7, 11),
        features=(
            "A webcam privacy shutter and a full-size keyboard come as standard",
            "Fast charging adds hours of use from a short top-up",
            "An anti-glare Full HD screen keeps text easy to read",
        ),
        uses=(
            "Made for homework, browsing, streaming and video calls",
            "A sensible pick for school, email and everyday documents",
        ),
    ),
    "mainstream": _Tier(
        chips=_integrated(
            "Intel Core i5-1335U",
            "Intel Core i7-1355U",
            "Intel Core 5 120U",
            "Intel Core 7 150U",
            "Intel Core Ultra 5 125U",
            "AMD Ryzen 5 7530U",
            "AMD Ryzen 7 7730U",
        ),
        ram=(8, 16, 16),
        storage=(512, 512, 1024),
        price=(549, 999),
        battery=(8, 14),
        features=(
            "A backlit keyboard, Wi-Fi 6E and a 1080p webcam round out the package",
            "A fingerprint reader signs you in and a USB-C port handles charging",
            "A 16:10 display shows more of every page and spreadsheet",
        ),
        uses=(
            "Built for study, office work and everyday multitasking",
            "A balanced choice for students and home offices",
        ),
    ),
    "premium": _Tier(
        chips=_integrated(
            "Intel Core Ultra 5 125H",
            "Intel Core Ultra 7 155H",
            "Intel Core Ultra 7 258V",
            "AMD Ryzen 7 8840U",
            "AMD Ryzen AI 9 HX 370",
            "Qualcomm Snapdragon X Plus",
            "Qualcomm Snapdragon X Elite",
        ),
        ram=(16, 16, 32),
        storage=(512, 1024),
        price=(999, 1899),
        battery=(12, 22),
        features=(
            "An OLED display, an aluminium chassis and Wi-Fi 7 set it apart",
            "A Copilot key and an on-device NPU accelerate AI features in Windows",
            "Thunderbolt 4 ports drive external displays and fast storage",
        ),
        uses=(
            "Designed for professionals who work on the move",
            "Light enough to carry all day, with power for creative work",
        ),
    ),
    "gaming": _Tier(
        chips=_discrete(
            (
                "Intel Core i5-13420H",
                "Intel Core i7-13620H",
                "Intel Core i7-14650HX",
                "Intel Core i9-14900HX",
                "AMD Ryzen 7 7735HS",
                "AMD Ryzen 9 8945HS",
            ),
            _LAPTOP_GPUS,
        ),
        ram=(16, 16, 32),
        storage=(512, 1024, 2048),
        price=(799, 3199),
        battery=(4, 9),
        features=(
            "A high-refresh display and dual-fan cooling keep frame rates steady",
            "A per-key RGB keyboard and a MUX switch get the most out of the GPU",
            "Vapour-chamber cooling holds clocks high during long sessions",
        ),
        uses=(
            "Made for AAA games, streaming and 3D work",
            "A serious machine for esports and demanding titles",
        ),
    ),
    "chromebook": _Tier(
        chips=_integrated(
            "Intel Celeron N4500",
            "MediaTek Kompanio 520",
            "Intel Core i3-N305",
            "Intel Core i3-1215U",
            "AMD Ryzen 3 7320C",
        ),
        ram=(4, 8, 8),
        storage=(64, 128, 256),
        price=(199, 599),
        battery=(9, 13),
        features=(
            "It starts in seconds and updates itself in the background",
            "Google apps, web apps and Android apps from Google Play run side by side",
            "Built-in virus protection and automatic updates keep it secure",
        ),
        uses=(
            "A simple, low-maintenance choice for classrooms and families",
            "Ideal for web, email and Google Docs",
        ),
    ),
    "mac": _Tier(
        chips=(
            ("Apple M2 (8-core CPU)", "Apple M2 8-core GPU"),
            ("Apple M3 (8-core CPU)", "Apple M3 10-core GPU"),
            ("Apple M4 (10-core CPU)", "Apple M4 10-core GPU"),
        ),
        ram=(8, 16, 16, 24),
        storage=(256, 512, 1024),
        price=(599, 1699),
        battery=(15, 18),
        features=(
            "Thunderbolt ports and Wi-Fi 6E connect displays, drives and accessories",
            "Apple silicon runs silently and works with iPhone through Continuity",
        ),
        uses=(
            "Great for study, photo editing and everyday creative work",
            "A quiet, efficient Mac for home and school",
        ),
    ),
    "mac_pro": _Tier(
        chips=(
            ("Apple M3 Pro (11-core CPU)", "Apple M3 Pro 14-core GPU"),
            ("Apple M4 Pro (12-core CPU)", "Apple M4 Pro 16-core GPU"),
            ("Apple M3 Max (14-core CPU)", "Apple M3 Max 30-core GPU"),
        ),
        ram=(18, 24, 36),
        storage=(512, 1024, 2048),
        price=(1999, 3499),
        battery=(18, 24),
        features=(
            "A Liquid Retina XDR display, HDMI and an SDXC slot are built in",
            "Hardware-accelerated ray tracing and ProRes engines speed up pro apps",
        ),
        uses=(
            "Built for video editing, music production and software development",
            "A pro machine for creators who need sustained performance",
        ),
    ),
    "desktop": _Tier(
        chips=_integrated("Intel Core i5-13400", "Intel Core i7-13700", "AMD Ryzen 5 8600G"),
        ram=(8, 16, 16, 32),
        storage=(512, 1024),
        price=(449, 1099),
        battery=(0, 0),
        features=(
            "Wi-Fi 6, plenty of USB ports and room to add storage come as standard",
            "A tool-free case makes adding memory and drives easy",
        ),
        uses=(
            "A dependable machine for the family desk or home office",
            "Suited to homework, spreadsheets and photo libraries",
        ),
    ),
    "gaming_desktop": _Tier(
        chips=_discrete(
            ("Intel Core i5-14400F", "Intel Core i7-14700F", "AMD Ryzen 7 7800X3D"),
            (
                "NVIDIA GeForce RTX 4060",
                "NVIDIA GeForce RTX 4060 Ti",
                "NVIDIA GeForce RTX 4070 SUPER",
            ),
        ),
        ram=(16, 32),
        storage=(1024, 2048),
        price=(999, 2499),
        battery=(0, 0),
        features=(
            "A tempered-glass side panel and liquid cooling show off the hardware",
            "Standard parts and spare bays make future upgrades simple",
        ),
        uses=(
            "Built for high-refresh 1440p gaming and streaming",
            "A gaming tower with headroom for the next generation of titles",
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class _ComputerLine:
    brand: str
    name: str  # format string: {size} (whole inches), {inches}, {code}, {gen}, {chip}
    form: str
    os: str
    tier: str
    sizes: tuple[float, ...]
    weight: tuple[float, float]
    codes: tuple[str, ...] = ("",)  # format strings too: {size}, {n} (two random digits)
    gens: tuple[int, ...] = (1,)


_AIO_SIZES = (23.8, 27.0)

# One product line per entry, so the table reads like a shelf list.
# fmt: off
_COMPUTER_LINES: tuple[_ComputerLine, ...] = (
    _ComputerLine("ASUS", "ASUS Vivobook {size} ({code})", "laptop", W_HOME, "budget",
                  (14.0, 15.6, 16.0), (1.38, 1.88), ("X{size}04VA", "M{size}05YA", "E{size}04FA")),
    _ComputerLine("ASUS", "ASUS Zenbook {size} OLED ({code})", "laptop", W_HOME, "premium",
                  (13.3, 14.0, 14.5), (0.99, 1.4), ("UX3405", "UM3406", "UX5406")),
    _ComputerLine("ASUS", "ASUS Vivobook S {size} Flip ({code})", "2-in-1", W_HOME, "mainstream",
                  (14.0, 16.0), (1.5, 1.9), ("TP3402", "TP3604")),
    _ComputerLine("ASUS", "ASUS ExpertBook B{size} ({code})", "laptop", W_PRO, "mainstream",
                  (14.0,), (1.2, 1.45), ("B1402", "B5404", "B9403")),
    _ComputerLine("ASUS", "ASUS TUF Gaming A{size} ({code})", "laptop", W_HOME, "gaming",
                  (15.6, 16.0), (2.2, 2.4), ("FA507NV", "FA607PI", "FA507UV")),
    _ComputerLine("ASUS", "ASUS ROG Strix G{size} ({code})", "laptop", W_HOME, "gaming",
                  (16.0, 18.0), (2.5, 3.1), ("G614JV", "G814JI", "G614JIR")),
    _ComputerLine("ASUS", "ASUS Chromebook CX{size} ({code})", "laptop", CHROMEOS, "chromebook",
                  (14.0, 15.6), (1.3, 1.7), ("CX3{size}02", "CX1{size}00")),
    _ComputerLine("ASUS", "ASUS Vivo AiO {size} ({code})", "all-in-one", W_HOME, "desktop",
                  _AIO_SIZES, (5.2, 7.8), ("V241", "V271", "V440")),
    _ComputerLine("Dell", "Dell Inspiron {size} ({code})", "laptop", W_HOME, "mainstream",
                  (14.0, 15.6, 16.0), (1.45, 1.9), ("5440", "5445", "7440", "3530", "5640")),
    _ComputerLine("Dell", "Dell Inspiron {size} ({code})", "laptop", W_HOME, "budget",
                  (15.6,), (1.62, 1.9), ("3520", "3525", "3530", "3535")),
    _ComputerLine("Dell", "Dell XPS {size} ({code})", "laptop", W_HOME, "premium",
                  (13.4, 14.5, 16.3), (1.19, 2.13), ("9340", "9440", "9640", "9345")),
    _ComputerLine("Dell", "Dell Latitude {code}", "laptop", W_PRO, "mainstream",
                  (13.3, 14.0, 15.6), (1.2, 1.7), ("5440", "5450", "7440", "7450", "3540")),
    _ComputerLine("Dell", "Alienware m{size} R{gen}", "laptop", W_HOME, "gaming",
                  (16.0, 18.0), (2.6, 3.3), gens=(1, 2)),
    _ComputerLine("Dell", "Dell Inspiron {size} All-in-One ({code})", "all-in-one", W_HOME,
                  "desktop", _AIO_SIZES, (6.0, 8.4), ("5420", "5430", "7720", "7730")),
    _ComputerLine("Dell", "Dell XPS Desktop ({code})", "desktop", W_HOME, "gaming_desktop",
                  (0.0,), (8.0, 10.5), ("8950", "8960")),
    _ComputerLine("Apple", "Apple MacBook Air {size} ({chip})", "laptop", MACOS, "mac",
                  (13.6, 15.3), (1.24, 1.51)),
    _ComputerLine("Apple", "Apple MacBook Pro {size} ({chip})", "laptop", MACOS, "mac_pro",
                  (14.2, 16.2), (1.55, 2.15)),
    _ComputerLine("Apple", "Apple iMac 24 ({chip})", "all-in-one", MACOS, "mac",
                  (24.0,), (4.35, 4.48)),
    _ComputerLine("Apple", "Apple Mac mini ({chip})", "desktop", MACOS, "mac",
                  (0.0,), (0.67, 1.28)),
    _ComputerLine("Lenovo", "Lenovo IdeaPad Slim 3 {size} (Gen {gen})", "laptop", W_HOME, "budget",
                  (14.0, 15.6, 16.0), (1.37, 1.9), gens=(7, 8, 9)),
    _ComputerLine("Lenovo", "Lenovo ThinkPad E{size} Gen {gen}", "laptop", W_PRO, "mainstream",
                  (14.0, 16.0), (1.41, 1.8), gens=(5, 6)),
    _ComputerLine("Lenovo", "Lenovo ThinkPad X1 Carbon Gen {gen}", "laptop", W_PRO, "premium",
                  (14.0,), (1.09, 1.12), gens=(11, 12)),
    _ComputerLine("Lenovo", "Lenovo Yoga 7i {size} (Gen {gen})", "2-in-1", W_HOME, "mainstream",
                  (14.0, 16.0), (1.49, 2.0), gens=(8, 9)),
    _ComputerLine("Lenovo", "Lenovo LOQ {size} (Gen {gen})", "laptop", W_HOME, "gaming",
                  (15.6,), (2.3, 2.5), gens=(8, 9)),
    _ComputerLine("Lenovo", "Lenovo Legion Pro 5 {size} (Gen {gen})", "laptop", W_HOME, "gaming",
                  (16.0,), (2.5, 2.7), gens=(8, 9)),
    _ComputerLine("Lenovo", "Lenovo IdeaPad Flex 3i Chromebook (Gen {gen})", "2-in-1", CHROMEOS,
                  "chromebook", (11.6, 12.2), (1.2, 1.35), gens=(6, 7, 8)),
    _ComputerLine("Lenovo", "Lenovo IdeaCentre 3 Tower (Gen {gen})", "desktop", W_HOME, "desktop",
                  (0.0,), (4.5, 5.6), gens=(7, 8)),
    _ComputerLine("Lenovo", "Lenovo IdeaCentre AIO {size} (Gen {gen})", "all-in-one", W_HOME,
                  "desktop", _AIO_SIZES, (5.5, 7.5), gens=(8, 9)),
    _ComputerLine("HP", "HP {size} Laptop ({code})", "laptop", W_HOME, "budget",
                  (14.0, 15.6), (1.4, 1.75),
                  ("{size}-fd00{n}", "{size}-fc00{n}", "{size}-ep00{n}")),
    _ComputerLine("HP", "HP Pavilion {size} ({code})", "laptop", W_HOME, "mainstream",
                  (14.0, 15.6), (1.41, 1.75),
                  ("{size}-eg30{n}", "{size}-eh30{n}", "{size}-dv20{n}")),
    _ComputerLine("HP", "HP Envy x360 {size} ({code})", "2-in-1", W_HOME, "premium",
                  (14.0, 15.6), (1.39, 1.85),
                  ("{size}-fc00{n}", "{size}-fh00{n}", "{size}-es10{n}")),
    _ComputerLine("HP", "HP EliteBook 840 G{gen}", "laptop", W_PRO, "premium",
                  (14.0,), (1.32, 1.45), gens=(10, 11)),
    _ComputerLine("HP", "HP Victus {size} ({code})", "laptop", W_HOME, "gaming",
                  (15.6, 16.1), (2.29, 2.48), ("{size}-fb10{n}", "{size}-r00{n}", "{size}-s00{n}")),
    _ComputerLine("HP", "HP OMEN {size} ({code})", "laptop", W_HOME, "gaming",
                  (16.1, 17.3), (2.35, 2.78),
                  ("{size}-wf00{n}", "{size}-xf00{n}", "{size}-db00{n}")),
    _ComputerLine("HP", "HP Chromebook {size}a ({code})", "laptop", CHROMEOS, "chromebook",
                  (14.0,), (1.38, 1.5), ("{size}a-nf00{n}", "{size}a-nd00{n}", "{size}a-ne00{n}")),
    _ComputerLine("HP", "HP Pavilion Desktop ({code})", "desktop", W_HOME, "desktop",
                  (0.0,), (5.2, 6.1), ("TP01-30{n}", "TP01-40{n}")),
    _ComputerLine("HP", "HP OMEN 25L Desktop ({code})", "desktop", W_HOME, "gaming_desktop",
                  (0.0,), (9.0, 11.0), ("GT15-10{n}", "GT15-20{n}")),
    _ComputerLine("HP", "HP All-in-One {size} ({code})", "all-in-one", W_HOME, "desktop",
                  _AIO_SIZES, (5.8, 8.2), ("{size}-cr00{n}",)),
    _ComputerLine("Samsung", "Samsung Galaxy Book{gen}", "laptop", W_HOME, "mainstream",
                  (15.6,), (1.55, 1.58), gens=(3, 4)),
    _ComputerLine("Samsung", "Samsung Galaxy Book{gen} Pro {size}", "laptop", W_HOME, "premium",
                  (14.0, 16.0), (1.17, 1.56), gens=(3, 4)),
    _ComputerLine("Samsung", "Samsung Galaxy Book{gen} 360", "2-in-1", W_HOME, "mainstream",
                  (13.3, 15.6), (1.16, 1.46), gens=(3, 4)),
    _ComputerLine("Microsoft", "Microsoft Surface Laptop {gen} ({inches}-inch)", "laptop", W_HOME,
                  "premium", (13.5, 13.8, 15.0), (1.27, 1.66), gens=(5, 6, 7)),
    _ComputerLine("Microsoft", "Microsoft Surface Laptop Go {gen}", "laptop", W_HOME, "mainstream",
                  (12.4,), (1.13, 1.13), gens=(2, 3)),
    _ComputerLine("Microsoft", "Microsoft Surface Pro {gen}", "2-in-1", W_HOME, "premium",
                  (13.0,), (0.88, 0.9), gens=(9, 10, 11)),
    _ComputerLine("Acer", "Acer Aspire 3 ({code})", "laptop", W_HOME, "budget",
                  (14.0, 15.6), (1.45, 1.8), ("A3{size}-24P", "A3{size}-510P")),
    _ComputerLine("Acer", "Acer Aspire 5 ({code})", "laptop", W_HOME, "mainstream",
                  (14.0, 15.6), (1.5, 1.78), ("A5{size}-56M", "A5{size}-58M", "A5{size}-48M")),
    _ComputerLine("Acer", "Acer Swift Go {size} ({code})", "laptop", W_HOME, "premium",
                  (14.0, 16.0), (1.25, 1.6), ("SFG{size}-72", "SFG{size}-73")),
    _ComputerLine("Acer", "Acer Nitro V {size} ({code})", "laptop", W_HOME, "gaming",
                  (15.6,), (2.1, 2.25), ("ANV{size}-51", "ANV{size}-41")),
    _ComputerLine("Acer", "Acer Predator Helios Neo {size} ({code})", "laptop", W_HOME, "gaming",
                  (16.0, 18.0), (2.6, 3.2), ("PHN{size}-72", "PHN{size}-71")),
    _ComputerLine("Acer", "Acer Chromebook Plus {code}", "laptop", CHROMEOS, "chromebook",
                  (14.0, 15.6), (1.45, 1.75), ("5{size}",)),
    _ComputerLine("Acer", "Acer Aspire TC ({code})", "desktop", W_HOME, "desktop",
                  (0.0,), (5.5, 6.5), ("TC-1780", "TC-1770", "TC-1760")),
    _ComputerLine("Razer", "Razer Blade {size} ({gen})", "laptop", W_HOME, "gaming",
                  (14.0, 16.0, 18.0), (1.84, 3.1), gens=(2023, 2024, 2025)),
    _ComputerLine("MSI", "MSI Modern {size} ({code})", "laptop", W_HOME, "budget",
                  (14.0, 15.6), (1.4, 1.75), ("C13M", "C12M", "B7M")),
    _ComputerLine("MSI", "MSI Prestige {size} AI Evo ({code})", "laptop", W_HOME, "premium",
                  (13.3, 14.0, 16.0), (0.99, 1.6), ("A1MG", "A2VM")),
    _ComputerLine("MSI", "MSI Katana {size} ({code})", "laptop", W_HOME, "gaming",
                  (15.6, 17.3), (2.25, 2.6), ("B13VFK", "B13VGK", "B12VEK")),
    _ComputerLine("MSI", "MSI Cyborg {size} ({code})", "laptop", W_HOME, "gaming",
                  (15.6,), (1.98, 2.01), ("A12VE", "A13VF")),
    _ComputerLine("MSI", "MSI Codex R2 ({code})", "desktop", W_HOME, "gaming_desktop",
                  (0.0,), (8.0, 9.2), ("B14NUC7", "B14NUD7", "B14NUE7")),
)
# fmt: on

_FORM_WORDS = {"laptop": "laptop", "2-in-1": "2-in-1 convertible", "all-in-one": "all-in-one"}
# Brands read with a leading vowel sound: "an HP desktop", "an MSI desktop".
_AN_BRANDS = frozenset({"ASUS", "Acer", "Apple", "HP", "MSI"})


def _pick(rng: random.Random, options: Sequence[Any]) -> Any:
    # Several times cheaper than random.choice, and a 50,000-product catalog
    # makes hundreds of thousands of picks.
    return options[int(rng.random() * len(options))]


def _between(rng: random.Random, low: int, high: int) -> int:
    """An integer in ``[low, high]``, like ``randint`` but cheaper."""
    return low + int(rng.random() * (high - low + 1))


@functools.cache
def _fraction(value: int, options: tuple[int, ...]) -> float:
    low, high = min(options), max(options)
    return (value - low) / (high - low) if high > low else 0.0


def _shelf_price(bounds: tuple[int, int], fraction: float) -> float:
    """The price ``fraction`` of the way through ``bounds``, ending in 49 or 99 like a tag."""
    low, high = bounds
    return float((low + round((high - low) * fraction / 50) * 50) // 10 * 10 + 9)


def _stock(rng: random.Random) -> int:
    # About one product in twenty is sold out, so "out of stock" paths get
    # exercised; one draw decides both that and the count.
    draw = rng.random()
    return 0 if draw < 0.05 else 1 + int((draw - 0.05) / 0.95 * 60)


def _storage_text(gb: int) -> str:
    return f"{gb // 1024} TB" if gb >= 1024 else f"{gb} GB"


@dataclass(frozen=True, slots=True)
class _Config:
    """One buildable configuration of a tier, with its text and price rank worked out once."""

    cpu: str
    gpu: str
    ram: int
    storage: int
    chip: str  # the short name Apple puts in product names: "M3 Pro"
    summary: str  # "the <cpu>, <ram> GB of memory and a <storage> SSD"
    rank: float  # 0..0.7: where memory and storage sit in the tier's price range


def _configs(tier: _Tier) -> tuple[_Config, ...]:
    # Built once at import: picking one prepared configuration per product is
    # much cheaper than four picks and the string work each time.
    return tuple(
        _Config(
            cpu=cpu,
            gpu=gpu,
            ram=ram,
            storage=storage,
            chip=cpu.split(" (", 1)[0].removeprefix("Apple "),
            summary=f"the {cpu}, {ram} GB of memory and a {_storage_text(storage)} SSD",
            rank=0.35 * _fraction(ram, tier.ram) + 0.35 * _fraction(storage, tier.storage),
        )
        for cpu, gpu in tier.chips
        for ram in tier.ram
        for storage in tier.storage
    )


_CONFIGS: dict[str, tuple[_Config, ...]] = {name: _configs(tier) for name, tier in _TIERS.items()}


def _computer(rng: random.Random, product_id: str) -> dict[str, Any]:
    line: _ComputerLine = _pick(rng, _COMPUTER_LINES)
    tier = _TIERS[line.tier]
    config: _Config = _pick(rng, _CONFIGS[line.tier])
    size: float = _pick(rng, line.sizes)
    # Laptops are named by the whole inch (15.6 sells as "15"), desktop
    # screens by the nearest (23.8 sells as "24").
    label = int(size) if size < 20 else round(size)
    code = _pick(rng, line.codes).format(size=label, n=_between(rng, 10, 99))
    name = line.name.format(
        size=label, inches=f"{size:g}", code=code, gen=_pick(rng, line.gens), chip=config.chip
    )
    portable = line.form in ("laptop", "2-in-1")
    battery = float(_between(rng, *tier.battery)) if portable else 0.0
    # More memory and storage cost more within a tier, with some noise on top,
    # so that sorting by price and by spec roughly agree as they do in a shop.
    rank = config.rank + 0.3 * rng.random()
    if line.form == "desktop":
        article = "An" if line.brand in _AN_BRANDS else "A"
        opening = f"{article} {line.brand} desktop"
    else:
        opening = f"A {size:g}-inch {_FORM_WORDS[line.form]}"
    description = (
        f"{opening} with {config.summary}. {_pick(rng, tier.features)}. {_pick(rng, tier.uses)}."
    )
    low_kg, high_kg = line.weight
    return {
        "productId": product_id,
        "name": name,
        "brand": line.brand,
        "category": "COMPUTERS",
        "price": _shelf_price(tier.price, rank),
        "description": description,
        "stock": _stock(rng),
        "specs": {
            "formFactor": line.form,
            "os": line.os,
            "cpu": config.cpu,
            "ramGb": config.ram,
            "storageGb": config.storage,
            "gpu": config.gpu,
            "screenInches": size,
            "weightKg": round(low_kg + (high_kg - low_kg) * rng.random(), 2),
            "batteryHours": battery,
        },
    }


# --------------------------------------------------------------------------- mobile


@dataclass(frozen=True, slots=True)
class _PhoneTier:
    ram: tuple[int, ...]
    storage: tuple[int, ...]
    price: tuple[int, int]
    cameras: tuple[int, ...]
    battery: tuple[int, int]
    weight: tuple[int, int]
    features: tuple[str, ...]
    five_g: bool = True


_PHONE_TIERS: dict[str, _PhoneTier] = {
    "budget_4g": _PhoneTier(
        ram=(4, 6),
        storage=(64, 128),
        price=(129, 229),
        cameras=(50, 50, 108),
        battery=(5000, 5000),
        weight=(185, 205),
        features=(
            "A 90 Hz display keeps scrolling smooth",
            "Expandable storage makes room for photos and apps",
        ),
        five_g=False,
    ),
    "budget": _PhoneTier(
        ram=(4, 6, 8),
        storage=(64, 128, 128),
        price=(149, 349),
        cameras=(50, 50, 108),
        battery=(5000, 5000),
        weight=(185, 210),
        features=(
            "A 90 Hz display keeps scrolling smooth",
            "Expandable storage makes room for photos and apps",
            "Years of security updates are included",
        ),
    ),
    "mid": _PhoneTier(
        ram=(6, 8, 8, 12),
        storage=(128, 128, 256),
        price=(349, 649),
        cameras=(50, 64),
        battery=(4400, 5500),
        weight=(180, 215),
        features=(
            "A 120 Hz AMOLED display and stereo speakers make video shine",
            "IP67 water resistance and optical image stabilisation come as standard",
            "Fast wired charging tops it up in well under an hour",
        ),
    ),
    "flagship": _PhoneTier(
        ram=(8, 12, 12, 16),
        storage=(128, 256, 256, 512),
        price=(699, 1299),
        cameras=(50,),
        battery=(4000, 5500),
        weight=(165, 235),
        features=(
            "A telephoto lens with optical zoom and on-device AI editing are built in",
            "A bright LTPO display adapts from 1 Hz to 120 Hz to save battery",
            "Wireless charging and IP68 dust and water resistance are included",
        ),
    ),
    "apple": _PhoneTier(
        ram=(6, 8),
        storage=(128, 256, 512),
        price=(699, 1199),
        cameras=(48,),
        battery=(3300, 4700),
        weight=(170, 227),
        features=(
            "Face ID, MagSafe charging and Emergency SOS via satellite are built in",
            "USB-C charging and Dynamic Island make everyday tasks quicker",
            "Crash Detection and a Ceramic Shield front add peace of mind",
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class _PhoneLine:
    brand: str
    name: str  # format string: {gen}
    tier: str
    # (generation, chip, screen inches): the chip and screen follow the model
    # year, so a phone never ships with a chip its maker did not use.
    models: tuple[tuple[str, str, float], ...]
    cameras: tuple[int, ...] = ()  # overrides the tier's when the line is known for one


_SD8G2, _SD8G3 = "Snapdragon 8 Gen 2", "Snapdragon 8 Gen 3"
_GALAXY_8G2, _GALAXY_8G3 = f"{_SD8G2} for Galaxy", f"{_SD8G3} for Galaxy"

# fmt: off
_PHONE_LINES: tuple[_PhoneLine, ...] = (
    _PhoneLine("Apple", "Apple iPhone {gen}", "apple",
               (("15", "Apple A16 Bionic", 6.1), ("16", "Apple A18", 6.1))),
    _PhoneLine("Apple", "Apple iPhone {gen} Plus", "apple",
               (("15", "Apple A16 Bionic", 6.7), ("16", "Apple A18", 6.7))),
    _PhoneLine("Apple", "Apple iPhone {gen} Pro", "apple",
               (("15", "Apple A17 Pro", 6.1), ("16", "Apple A18 Pro", 6.3))),
    _PhoneLine("Apple", "Apple iPhone {gen} Pro Max", "apple",
               (("15", "Apple A17 Pro", 6.7), ("16", "Apple A18 Pro", 6.9))),
    _PhoneLine("Samsung", "Samsung Galaxy S{gen}", "flagship",
               (("23", _GALAXY_8G2, 6.1), ("24", _GALAXY_8G3, 6.2), ("24", "Exynos 2400", 6.2),
                ("25", "Snapdragon 8 Elite for Galaxy", 6.2))),
    _PhoneLine("Samsung", "Samsung Galaxy S{gen} Ultra", "flagship",
               (("23", _GALAXY_8G2, 6.8), ("24", _GALAXY_8G3, 6.8),
                ("25", "Snapdragon 8 Elite for Galaxy", 6.9)), cameras=(200,)),
    _PhoneLine("Samsung", "Samsung Galaxy A{gen}", "budget_4g",
               (("15", "MediaTek Helio G99", 6.5), ("05s", "Snapdragon 680", 6.7))),
    _PhoneLine("Samsung", "Samsung Galaxy A{gen} 5G", "budget",
               (("15", "MediaTek Dimensity 6100+", 6.5), ("16", "Exynos 1330", 6.7),
                ("25", "Exynos 1280", 6.5))),
    _PhoneLine("Samsung", "Samsung Galaxy A{gen} 5G", "mid",
               (("35", "Exynos 1380", 6.6), ("55", "Exynos 1480", 6.6),
                ("56", "Exynos 1580", 6.7))),
    _PhoneLine("Samsung", "Samsung Galaxy Z Flip{gen}", "flagship",
               (("5", _GALAXY_8G2, 6.7), ("6", _GALAXY_8G3, 6.7))),
    _PhoneLine("Samsung", "Samsung Galaxy Z Fold{gen}", "flagship",
               (("5", _GALAXY_8G2, 7.6), ("6", _GALAXY_8G3, 7.6))),
    _PhoneLine("Google", "Google Pixel {gen}", "flagship",
               (("8", "Google Tensor G3", 6.2), ("9", "Google Tensor G4", 6.3))),
    _PhoneLine("Google", "Google Pixel {gen} Pro", "flagship",
               (("8", "Google Tensor G3", 6.7), ("9", "Google Tensor G4", 6.3))),
    _PhoneLine("Google", "Google Pixel {gen} Pro XL", "flagship",
               (("9", "Google Tensor G4", 6.8),)),
    _PhoneLine("Google", "Google Pixel {gen}a", "mid",
               (("7", "Google Tensor G2", 6.1), ("8", "Google Tensor G3", 6.1)), cameras=(64,)),
    _PhoneLine("OnePlus", "OnePlus {gen}", "flagship",
               (("11", _SD8G2, 6.7), ("12", _SD8G3, 6.82), ("13", "Snapdragon 8 Elite", 6.82))),
    _PhoneLine("OnePlus", "OnePlus {gen}R", "mid",
               (("11", "Snapdragon 8+ Gen 1", 6.74), ("12", _SD8G2, 6.78))),
    _PhoneLine("OnePlus", "OnePlus Nord N{gen} 5G", "budget",
               (("20", "Snapdragon 695 5G", 6.43), ("30", "Snapdragon 695 5G", 6.72))),
    _PhoneLine("ASUS", "ASUS Zenfone {gen}", "flagship",
               (("10", _SD8G2, 5.9), ("11 Ultra", _SD8G3, 6.78))),
    _PhoneLine("ASUS", "ASUS ROG Phone {gen}", "flagship",
               (("7", _SD8G2, 6.78), ("8", _SD8G3, 6.78), ("8 Pro", _SD8G3, 6.78))),
)
# fmt: on


def _phone(rng: random.Random, product_id: str) -> dict[str, Any]:
    line: _PhoneLine = _pick(rng, _PHONE_LINES)
    tier = _PHONE_TIERS[line.tier]
    gen, chip, size = _pick(rng, line.models)
    camera: int = _pick(rng, line.cameras or tier.cameras)
    # Nearest 10 mAh: real capacities are never quoted to the unit.
    battery = _between(rng, *tier.battery) // 10 * 10
    storage: int = _pick(rng, tier.storage)
    kind = "iPhone" if line.brand == "Apple" else "Android phone"
    description = (
        f"A {size:g}-inch {kind} with the {chip}, a {camera}MP main camera, "
        f"{_storage_text(storage)} of storage and a {battery:,} mAh battery. "
        f"{_pick(rng, tier.features)}."
    )
    rank = 0.6 * _fraction(storage, tier.storage) + 0.4 * rng.random()
    return {
        "productId": product_id,
        "name": line.name.format(gen=gen),
        "brand": line.brand,
        "category": "MOBILE",
        "price": _shelf_price(tier.price, rank),
        "description": description,
        "stock": _stock(rng),
        "specs": {
            "os": "iOS" if line.brand == "Apple" else "Android",
            "chip": chip,
            "ramGb": _pick(rng, tier.ram),
            "storageGb": storage,
            "screenInches": size,
            "cameraMp": camera,
            "batteryMah": battery,
            "weightG": _between(rng, *tier.weight),
            "fiveG": tier.five_g,
        },
    }


# --------------------------------------------------------------------------- books

# Real registrant prefixes for each publisher, so generated ISBNs look like
# theirs; the remaining digits are random and the check digit is computed.
_PUBLISHERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Penguin Books", ("978014", "978024")),
    ("HarperCollins", ("978000", "978006")),
    ("Bloomsbury", ("978140", "978152")),
)

_FIRST_NAMES = (
    "Amelia", "James", "Priya", "Daniel", "Sofia", "Oliver", "Hannah", "Kwame", "Mei", "Lucas",
    "Isabel", "Tomás", "Grace", "Samuel", "Leila", "Arjun", "Chloe", "Nathaniel", "Ines", "Ruth",
    "Marcus", "Elena", "Yusuf", "Clara", "Felix", "Naomi", "Theo", "Rosa", "Ezra", "Maya",
)  # fmt: skip
_LAST_NAMES = (
    "Hart", "Okafor", "Lindqvist", "Marlowe", "Nakamura", "Ashworth", "Reyes", "Blackwood", "Chen",
    "Fitzgerald", "Adeyemi", "Holloway", "Novak", "Sinclair", "Kaur", "Whitaker", "Moreau",
    "Delaney", "Osei", "Carver", "Hughes", "Lowell", "Varga", "Bennett", "Abbott",
)  # fmt: skip
_ADJECTIVES = (
    "Silent", "Hidden", "Last", "Burning", "Winter", "Glass", "Lost", "Midnight", "Golden",
    "Forgotten", "Salt", "Distant", "Quiet", "Broken", "Wild", "Paper", "Iron", "Northern",
)  # fmt: skip
_NOUNS = (
    "Garden", "Lighthouse", "Orchard", "Crown", "River", "Archive", "Harbour", "Map", "Clockmaker",
    "Island", "Library", "Tide", "Mountain", "Letter", "Kingdom", "Forest", "Station",
    "Cartographer",
)  # fmt: skip
_PLACES = (
    "Lisbon", "the Moors", "Kyoto", "Edinburgh", "the Delta", "Vienna", "the Fens", "Marrakesh",
    "Prague", "the Coast", "Montreal", "Cornwall", "Lagos", "the Highlands", "Istanbul",
)  # fmt: skip
_TITLE_PATTERNS = (
    "The {adj} {noun}",
    "The {noun} of {place}",
    "A {noun} in {place}",
    "{adj} {noun}",
    "The {noun}'s Daughter",
    "Beyond the {adj} {noun}",
)
# genre -> (page range, premises); a premise completes "In this <genre> title by <author>, ..."
_GENRES: dict[str, tuple[tuple[int, int], tuple[str, ...]]] = {
    "Literary fiction": ((220, 480), (
        "{name} returns to {place} after twenty years to face the family left behind",
        "three generations of one family in {place} keep a secret that shapes all their lives",
    )),
    "Mystery": ((240, 420), (
        "{name}, a retired detective in {place}, is drawn into one last baffling case",
        "a body is found in a locked room in {place} and every guest has a reason to lie",
    )),
    "Thriller": ((280, 460), (
        "{name} has two days to find a missing witness before a trial in {place} begins",
        "an analyst in {place} discovers a message that someone will kill to keep hidden",
    )),
    "Fantasy": ((320, 760), (
        "{name}, an apprentice mapmaker, discovers that the borders of {place} are moving",
        "a thief and an exiled princess cross a kingdom at war to return a stolen crown",
    )),
    "Science fiction": ((280, 560), (
        "the crew of a generation ship wake early and only {name} remembers Earth",
        "{name} receives a signal from a colony that was declared lost a century ago",
    )),
    "Historical fiction": ((300, 620), (
        "{name} keeps a bookshop open in wartime {place} while hiding refugees upstairs",
        "a young engraver in eighteenth-century {place} is caught up in a forgery scandal",
    )),
    "Romance": ((260, 420), (
        "{name} inherits a failing vineyard near {place} and an infuriating business partner",
        "two rival bakers in {place} are forced to share a kitchen for one summer",
    )),
    "Young adult": ((240, 440), (
        "{name} starts at a new school in {place} and learns that the town's legend is true",
        "a teenage coder in {place} uncovers what the city's new app is really tracking",
    )),
    "Biography": ((280, 640), (
        "{name} traces the life of a forgotten scientist from {place} who changed medicine",
        "the author follows an explorer from {place} through letters never published before",
    )),
    "Popular science": ((220, 420), (
        "{name} explains how sleep, memory and habit shape our days, with studies from {place}",
        "a physicist explains the hidden patterns behind weather, traffic and crowds",
    )),
}  # fmt: skip
_GENRE_NAMES = tuple(_GENRES)
# (index of the first name, full name): the index lets the hero avoid the author's name.
_AUTHORS = tuple(
    (index, f"{first} {last}") for index, first in enumerate(_FIRST_NAMES) for last in _LAST_NAMES
)
_PAPERBACK_PRICES = (8.99, 9.99, 10.99, 12.99, 14.99, 16.99)
_HARDCOVER_PRICES = (19.99, 22.99, 24.99, 27.99)

# ISBN-13 check digits weigh the digits 1, 3, 1, 3, ... Every prefix above is six
# digits, so the six random digits weigh 1,3,1 then 3,1,3; summing them through
# two 1,000-entry tables is several times faster than a digit-by-digit loop.
_WEIGHT_131 = tuple(n // 100 + 3 * (n // 10 % 10) + n % 10 for n in range(1000))
_WEIGHT_313 = tuple(3 * (n // 100) + n // 10 % 10 + 3 * (n % 10) for n in range(1000))
_PREFIX_WEIGHT = {
    prefix: sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(prefix))
    for _, prefixes in _PUBLISHERS
    for prefix in prefixes
}


def _isbn13(rng: random.Random, prefix: str) -> str:
    number = int(rng.random() * 1_000_000)
    high, low = divmod(number, 1000)
    total = _PREFIX_WEIGHT[prefix] + _WEIGHT_131[high] + _WEIGHT_313[low]
    return f"{prefix}{number:06d}{-total % 10}"


def _book(rng: random.Random, product_id: str, isbns: set[str]) -> dict[str, Any]:
    publisher, prefixes = _pick(rng, _PUBLISHERS)
    genre: str = _pick(rng, _GENRE_NAMES)
    pages, premises = _GENRES[genre]
    first, author = _pick(rng, _AUTHORS)
    # The hero is anyone but the author: "by Yusuf Hart, Yusuf inherits..." reads as a bug.
    hero = _FIRST_NAMES[
        (first + 1 + int(rng.random() * (len(_FIRST_NAMES) - 1))) % len(_FIRST_NAMES)
    ]
    place: str = _pick(rng, _PLACES)
    title = _pick(rng, _TITLE_PATTERNS).format(
        adj=_pick(rng, _ADJECTIVES), noun=_pick(rng, _NOUNS), place=place
    )
    # Tens of thousands of books share a few prefixes, so random ISBNs would
    # collide; a lookup by ISBN must find exactly one book.
    isbn = _isbn13(rng, _pick(rng, prefixes))
    while isbn in isbns:
        isbn = _isbn13(rng, _pick(rng, prefixes))
    isbns.add(isbn)
    hardcover = rng.random() < 0.3
    book_format = "hardcover" if hardcover else "paperback"
    page_count = _between(rng, *pages)
    # Skewed to recent years: most of a store's books are new titles.
    year = 2025 - min(int(rng.expovariate(1 / 12)), 125)
    premise = _pick(rng, premises).format(name=hero, place=place)
    description = (
        f"In this {genre.lower()} title by {author}, {premise}. "
        f"A {page_count}-page {book_format}, first published in {year}."
    )
    return {
        "productId": product_id,
        "name": title,
        "brand": publisher,
        "category": "BOOKS",
        "price": _pick(rng, _HARDCOVER_PRICES if hardcover else _PAPERBACK_PRICES),
        "description": description,
        "stock": _stock(rng),
        "specs": {
            "author": author,
            "isbn": isbn,
            "year": year,
            "pages": page_count,
            "genre": genre,
            "format": book_format,
        },
    }


# --------------------------------------------------------------------------- catalog


def synthetic_catalog(size: int, *, seed: int = 7) -> list[dict[str, Any]]:
    """Return ``size`` synthetic products; the same ``seed`` always gives the same list.

    Ids are ``CMP-``, ``MOB-`` or ``BK-`` followed by a six-digit counter per
    category, so they never clash with the bundled catalog's three-digit ids.
    """
    if size < 1:
        raise ValueError(f"size must be at least 1, got {size}")
    rng = random.Random(seed)
    categories = [category for category, _, _ in _CATEGORY_WEIGHTS]
    weights = [weight for _, _, weight in _CATEGORY_WEIGHTS]
    prefixes = {category: prefix for category, prefix, _ in _CATEGORY_WEIGHTS}
    counters = dict.fromkeys(categories, 0)
    isbns: set[str] = set()
    products: list[dict[str, Any]] = []
    # Categories are drawn independently per product so that they interleave
    # like a real feed; choices() does it in one C-speed call.
    for category in rng.choices(categories, weights, k=size):
        counters[category] += 1
        product_id = f"{prefixes[category]}-{counters[category]:06d}"
        if category == "COMPUTERS":
            products.append(_computer(rng, product_id))
        elif category == "MOBILE":
            products.append(_phone(rng, product_id))
        else:
            products.append(_book(rng, product_id, isbns))
    return products


def write_catalog(path: str | Path, size: int, seed: int = 7) -> int:
    """Write a synthetic catalog of ``size`` products to ``path`` as JSON; return the count."""
    products = synthetic_catalog(size, seed=seed)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Compact separators: at 50,000 products indentation would double the file.
    with target.open("w", encoding="utf-8") as handle:
        json.dump(products, handle, ensure_ascii=False, separators=(",", ":"))
        handle.write("\n")
    return len(products)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.catalog_gen",
        description="Write a synthetic product catalog with the bundled catalog's schema.",
    )
    parser.add_argument("--size", type=int, default=50_000, help="number of products")
    parser.add_argument("--seed", type=int, default=7, help="random seed (same seed, same file)")
    parser.add_argument("--out", type=Path, required=True, help="JSON file to write")
    args = parser.parse_args(argv)
    if args.size < 1:
        parser.error(f"--size must be at least 1, got {args.size}")  # exits with status 2
    count = write_catalog(args.out, args.size, args.seed)
    print(f"wrote {count} products to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
