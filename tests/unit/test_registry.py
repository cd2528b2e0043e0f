"""The registry is the one declaration of functions and tools; the rest is derived."""

from __future__ import annotations

import json
from typing import Any, get_args

import jsonschema
import pytest
from pydantic import ValidationError

import registry
import statemachine
from converse.metering import DEFAULT_STAND_IN
from converse.request import build_request
from lookup_inventory.schema import SortBy
from shared.catalog.categories import Category
from shared.config.pricing import token_prices
from tests.support.store import SAMPLE_PROMPT

SAMPLES: dict[str, list[dict[str, Any]]] = {
    "lookup_inventory": [
        {},
        {"category": "COMPUTERS", "keywords": "windows", "maxPrice": 600},
        {"category": "PHONES"},
        {"maxPrice": 0},
        {"maxPrice": 2_000_000},
        {"sortBy": "camera", "brandId": "Apple"},
        {"sortBy": "cheapest"},
        {"productIds": ["CMP-001", "MOB-002"]},
        {"productIds": []},
        {"productIds": ["bad id!"]},
        {"productIds": [f"CMP-{i:03}" for i in range(11)]},
        {"keywords": ""},
        {"keywords": "x" * 121},
        {"colour": "red"},
    ],
    "get_computer_reviews": [
        {"query": "Dell XPS 13"},
        {"query": "x"},
        {"query": "x" * 201},
        {},
        {"query": "Dell", "site": "example"},
    ],
    "get_book_info": [{"query": "Dune"}, {"query": ""}, {}, {"query": 42}],
    "get_store_policies": [
        {"question": "What is your return policy?"},
        {"question": "x"},
        {"question": "x" * 301},
        {},
        {"question": "returns", "topic": "returns"},
    ],
}


@pytest.mark.parametrize("tool", registry.TOOLS, ids=lambda t: t.name)
def test_what_the_model_is_told_is_what_the_tool_accepts(tool: registry.Tool) -> None:
    schema = tool.spec()["toolSpec"]["inputSchema"]["json"]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["properties"]) == set(tool.input_model.model_fields)
    required = {n for n, f in tool.input_model.model_fields.items() if f.is_required()}
    assert set(schema.get("required", [])) == required
    assert schema["additionalProperties"] is False
    for sample in SAMPLES[tool.name]:
        told_ok = jsonschema.Draft202012Validator(schema).is_valid(sample)
        try:
            tool.input_model.model_validate(sample)
            accepted = True
        except ValidationError:
            accepted = False
        assert told_ok == accepted, (tool.name, sample)


def test_every_field_the_model_reads_is_described_and_enums_come_from_the_types() -> None:
    for tool in registry.TOOLS:
        spec = tool.spec()["toolSpec"]
        assert len(spec["description"]) > 40
        for name, field in spec["inputSchema"]["json"]["properties"].items():
            assert field.get("description"), (tool.name, name)
            assert "anyOf" not in field and "title" not in field
    inventory = registry.TOOLS[0].spec()["toolSpec"]["inputSchema"]["json"]["properties"]
    assert inventory["category"]["enum"] == [category.value for category in Category]
    assert inventory["sortBy"]["enum"] == list(get_args(SortBy))


def test_the_request_offers_exactly_the_registered_tools() -> None:
    request = build_request(
        [{"role": "user", "content": [{"text": "hi"}]}],
        system_prompt="You sell things.",
        model_id="m",
        max_tokens=100,
        temperature=0,
        prompt_caching=False,
    )
    assert [t["toolSpec"]["name"] for t in request["toolConfig"]["tools"]] == [
        t.name for t in registry.TOOLS
    ]


def test_the_asl_names_no_tool_and_reads_them_from_one_substitution() -> None:
    definition = statemachine.read_definition()
    for tool in registry.TOOLS:
        assert tool.name not in definition
    assert definition.count("${ToolFunctions}") >= 2
    arns = {f.key: f"arn:{f.key}" for f in registry.FUNCTIONS}
    values = statemachine.resource_substitutions(arns, "sessions", "steps", "spend")
    assert set(values) == set(statemachine.resource_placeholders())
    budget = statemachine.budget_substitutions(
        None,
        token_prices(DEFAULT_STAND_IN),
        max_tokens=1024,
        currency="USD",
        system_prompt=SAMPLE_PROMPT,
    )
    filled = statemachine.substitute(
        definition,
        {
            **values,
            **budget,
            **statemachine.loop_substitutions(search_first=True),
            **statemachine.TUNING_DEFAULTS,
        },
    )
    assert "'lookup_inventory': 'arn:lookup_inventory'" in filled
    json.loads(filled)


def test_every_registered_function_has_its_handler_installed() -> None:
    import importlib

    for function in registry.FUNCTIONS:
        module = importlib.import_module(function.module)
        assert callable(module.lambda_handler), function.key
