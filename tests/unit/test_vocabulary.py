"""Error codes, outcomes and fallback reasons: one declaration, and everyone else agrees with it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

import statemachine
from compose_response.logic import ResponseBody
from shared.api.query import error_body, openapi
from shared.api.vocabulary import (
    ERRORS,
    FALLBACK_REASONS,
    OUTCOMES,
    PAGE_NAMES_FILE,
    Outcome,
    page_names,
)
from shared.catalog.categories import Category
from shared.catalog.specs import SPECS
from shared.config.metric_names import OUTCOME_METRICS

ROOT = Path(__file__).resolve().parents[2]
# A name the ASL assigns: {"fallbackReason": "deadline"} in an Assign, or
# 'fallbackReason': 'compose_failed' inside a JSONata expression.
_JSONATA_LITERAL = r"'{key}':\s*'([a-z_]+)'"


def _asl_literals(key: str) -> set[str]:
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for name, value in node.items():
                if name == key and isinstance(value, str) and not value.startswith("{%"):
                    found.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, str):
            found.update(re.findall(_JSONATA_LITERAL.format(key=key), node))

    walk(json.loads(statemachine.read_definition()))
    return found


def test_every_fallback_reason_the_state_machine_sets_is_declared_and_the_other_way_round() -> None:
    # Given every fallbackReason written as a literal in the ASL
    assigned = _asl_literals("fallbackReason")

    # Then each is declared (with a sentence for the shopper), and none is declared in vain
    assert assigned, "the ASL assigns fallback reasons as literals"
    assert assigned - set(FALLBACK_REASONS) == set(), "undeclared fallback reasons"
    assert set(FALLBACK_REASONS) - assigned == set(), "declared reasons the ASL never sets"
    assert "compose_failed" in assigned


def test_every_outcome_the_state_machine_sets_is_declared() -> None:
    assigned = _asl_literals("outcome")
    assert assigned == set(OUTCOMES)


def test_the_outcome_type_the_metrics_and_the_response_body_name_the_same_outcomes() -> None:
    assert set(get_args(Outcome)) == set(OUTCOMES)
    assert set(OUTCOME_METRICS) == set(OUTCOMES)
    field = ResponseBody.model_fields["outcome"].annotation
    assert set(get_args(field)) == set(OUTCOMES)


@pytest.mark.parametrize("error", ERRORS.values(), ids=ERRORS.keys())
def test_every_error_code_has_a_status_and_words_for_the_shopper(error: Any) -> None:
    assert re.fullmatch(r"[a-z]+(_[a-z]+)*", error.code)
    assert error.status is None or 400 <= error.status <= 599
    assert error.title.strip() and error.message.strip()
    assert error.body() == error_body(error.code, error.message)
    assert error.body("why") == {"error": error.code, "message": "why"}
    # A status is retried only when the server (not the request) was the problem.
    if error.status is not None and error.status < 500 and error.status != 429:
        assert not error.retry


def test_each_status_leads_to_the_first_code_a_client_should_assume() -> None:
    # The page takes the first code with a response's status when its body has none:
    # for 502 that is a failed conversation, not "unavailable".
    first = {}
    for error in ERRORS.values():
        first.setdefault(error.status, error.code)
    assert first[400] == "invalid_request"
    assert first[502] == "conversation_failed"
    assert first[504] == "timeout"


def test_the_page_gets_every_name_with_its_words() -> None:
    # When the names are published for the page
    names = json.loads(json.dumps(page_names()))

    # Then every code, outcome and reason is there, each with its words, and the chips
    # of every category's cards (and no nulls, which the deployed copy could not keep)
    assert set(names) == {"errors", "outcomes", "fallbackReasons", "chips"}
    assert set(names["chips"]) == {category.value for category in Category}
    assert set(names["errors"]) == set(ERRORS)
    for code, entry in names["errors"].items():
        error = ERRORS[code]
        assert entry.get("status") == error.status
        assert entry["title"] == error.title
        assert entry["message"] == error.message
        assert entry["retry"] is error.retry
    assert set(names["outcomes"]) == set(OUTCOMES)
    for outcome, entry in names["outcomes"].items():
        assert entry.get("notice") == OUTCOMES[outcome]
    assert names["outcomes"]["answered"] == {}
    assert names["fallbackReasons"] == FALLBACK_REASONS
    assert all(sentence.strip() for sentence in FALLBACK_REASONS.values())
    assert "null" not in json.dumps(names)


def test_the_page_loads_the_names_from_the_file_they_are_published_as() -> None:
    # The page's script is several modules: they are read as one
    app = "\n".join(
        path.read_text(encoding="utf-8") for path in sorted((ROOT / "web").glob("*.js"))
    )
    assert f'const NAMES_URL = new URL("./{PAGE_NAMES_FILE}", import.meta.url);' in app
    # and keeps no list of its own: no reason is a key or a string in the page's code
    for name in FALLBACK_REASONS:
        assert not re.search(rf"""\b{name}\s*:|["'`]{name}["'`]""", app), name
    # nor a spec key or a category of its own: the chips come from names.json too
    for spec in SPECS:
        assert not re.search(rf"""["'`]{spec.key}["'`]""", app), spec.key
    for category in Category:
        assert not re.search(rf"""["'`]{category.value}["'`]""", app), category.value


def test_the_openapi_document_lists_every_code_under_its_status() -> None:
    responses = openapi()["paths"]["/query"]["post"]["responses"]
    listed: dict[str, str] = {}
    for status, response in responses.items():
        if status == "200":
            schema = response["content"]["application/json"]["schema"]["properties"]
            assert schema["outcome"]["enum"] == list(OUTCOMES)
            assert schema["fallbackReason"]["enum"] == [*FALLBACK_REASONS, None]
            continue
        error = response["content"]["application/json"]["schema"]["properties"]["error"]
        listed |= dict.fromkeys(error["enum"], status)
    assert listed == {code: str(error.status or "default") for code, error in ERRORS.items()}


@pytest.mark.parametrize(
    "name",
    [*ERRORS, *OUTCOMES, *FALLBACK_REASONS],
)
def test_the_contract_doc_names_every_code_outcome_and_fallback_reason(name: str) -> None:
    # Given the doc that owns the /query contract's words (the README links to it)
    doc = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    # Then a reader finds every error code, outcome and fallback reason there
    assert f"`{name}`" in doc, f"docs/limits.md does not mention `{name}`"
