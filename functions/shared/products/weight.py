"""The store's weight unit (``STORE_WEIGHT_UNIT``), and a weight as a shopper reads it.

The catalog keeps a weight as its source wrote it, converted to the catalog's unit
(``weightKg``, or ``weightG`` for a light product): 1.1793 kg is what 2.6 lb is. A
shopper reads it rounded, in the store's unit: ``1.18 kg`` (``170 g`` for a record in
grams) in a store that sells in kilograms, ``2.6 lb`` (``6 oz``) in one that sells in
pounds. The card, the model's compact record and the answer's corrections all say it
through :func:`shown` or :func:`for_model`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator

from shared.catalog.specs import WEIGHT_KG

WeightUnitName = Literal["kg", "lb"]
WEIGHT_UNITS: Final = ("kg", "lb")
DEFAULT_WEIGHT_UNIT: Final = "kg"
POUND_KG: Final = 0.45359237
OUNCE_KG: Final = POUND_KG / 16

GRAMS_KEYS: Final = frozenset(WEIGHT_KG.fact.also if WEIGHT_KG.fact else ())
"""Spec keys that hold a weight in grams (``weightG``); ``weightKg`` holds kilograms."""
_MODEL_KEYS: Final = {
    "kg": {WEIGHT_KG.key: WEIGHT_KG.key, **{key: key for key in GRAMS_KEYS}},
    "lb": {WEIGHT_KG.key: "weightLb", **{key: "weightOz" for key in GRAMS_KEYS}},
}


def known_weight_unit(value: str) -> str:
    """``value`` as a weight unit (``" LB "`` is ``lb``), else a ``ValueError``."""
    unit = value.strip().casefold()
    if unit not in WEIGHT_UNITS:
        raise ValueError(f"must be kg or lb, got {value!r}")
    return unit


StoreWeightUnit = Annotated[str, AfterValidator(known_weight_unit)]
"""A settings field holding ``STORE_WEIGHT_UNIT``, checked when the settings are read."""


def _number(value: float, decimals: int) -> str:
    return f"{round(value, decimals):.{decimals}f}".rstrip("0").rstrip(".")


def in_unit(kg: float, unit: str, *, light: bool = False) -> tuple[float, str]:
    """A weight in kilograms as the store says it: the rounded number and its unit.
    ``light``: the record gives it in grams, as phones do (then g, or oz)."""
    if unit == "lb":
        if light:
            return round(kg / OUNCE_KG, 1), "oz"
        return round(kg / POUND_KG, 1), "lb"
    if light:
        return round(kg * 1000), "g"
    return round(kg, 2), "kg"


def shown(kg: float, unit: str, *, light: bool = False) -> str:
    """``1.1793`` -> ``"1.18 kg"`` (``"2.6 lb"`` in a store in pounds)."""
    number, name = in_unit(kg, unit, light=light)
    return f"{_number(number, 2)} {name}"


def for_model(specs: Mapping[str, Any], unit: str) -> dict[str, Any]:
    """``specs`` with each weight rounded as a shopper reads it, under a key that names
    its unit (``weightKg``, ``weightLb``, ``weightOz``): what the model reads and repeats."""
    keys = _MODEL_KEYS.get(unit, _MODEL_KEYS[DEFAULT_WEIGHT_UNIT])
    out: dict[str, Any] = {}
    for key, value in specs.items():
        if key in keys and isinstance(value, int | float) and not isinstance(value, bool):
            light = key in GRAMS_KEYS
            number, _ = in_unit(value / 1000 if light else value, unit, light=light)
            out[keys[key]] = int(number) if float(number).is_integer() else number
        else:
            out[key] = value
    return out
