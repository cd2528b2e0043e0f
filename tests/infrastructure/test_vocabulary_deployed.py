"""The deployed API and page use the names of shared/api/vocabulary.py, and only those."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from shared.api.vocabulary import ERRORS, PAGE_NAMES_FILE, page_names
from tests.infrastructure.conftest import Synthesized, render

DEV_SERVER_ONLY = {"not_found", "method_not_allowed", "origin_not_allowed"}
"""API Gateway answers an unknown path or method itself (a 403, ``request_rejected``)."""


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_every_error_code_the_api_answers_with_is_declared(dev: Synthesized) -> None:
    # Given every mapping and gateway response template of the API
    resources = [
        render(resource["Properties"])
        for resource_type in ("AWS::ApiGateway::Method", "AWS::ApiGateway::GatewayResponse")
        for resource in dev.of_type(resource_type).values()
    ]

    # When the error codes they answer with are read out of them
    codes = {
        code for text in _strings(resources) for code in re.findall(r'"error":\s*"([a-z_]+)"', text)
    }

    # Then they are the contract's codes, all but the dev server's own
    assert codes == set(ERRORS) - DEV_SERVER_ONLY


def test_the_page_is_published_with_the_contracts_names(dev: Synthesized) -> None:
    # Given the files the page's deployment uploads beside web/
    published = list(dev.outdir.glob(f"asset.*/{PAGE_NAMES_FILE}"))

    # Then names.json is one of them, and it is the contract's names for the page
    assert len(published) == 1, published
    assert json.loads(published[0].read_text(encoding="utf-8")) == page_names()
