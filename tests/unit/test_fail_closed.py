"""What ships to AWS runs only with its configuration, and without the offline model."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from converse import handler
from converse.providers import make_provider
from converse.settings import get_settings
from tests.support.store import sample_store_file

FUNCTIONS_DIR = Path(__file__).resolve().parents[2] / "functions"


@pytest.fixture
def cold_converse(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    get_settings.cache_clear()
    handler.use_provider(None)
    yield
    get_settings.cache_clear()
    handler.use_provider(None)


def test_the_converse_function_refuses_to_run_without_a_provider_setting(
    monkeypatch: pytest.MonkeyPatch, cold_converse: None
) -> None:
    monkeypatch.delenv("MODEL_PROVIDER", raising=False)
    with pytest.raises(ValidationError, match="MODEL_PROVIDER"):
        handler.provider()


def test_the_converse_function_refuses_to_speak_for_no_store(
    monkeypatch: pytest.MonkeyPatch, cold_converse: None
) -> None:
    # Given a deployed function without the store's settings
    monkeypatch.setenv("MODEL_PROVIDER", "bedrock")
    monkeypatch.delenv("STORE_FILE", raising=False)
    # Then it does not start: it would answer for a store it knows nothing of
    with pytest.raises(ValidationError, match="STORE_FILE"):
        handler.provider()


def test_the_offline_model_cannot_be_chosen_by_a_deployed_function(
    monkeypatch: pytest.MonkeyPatch, cold_converse: None
) -> None:
    monkeypatch.setenv("MODEL_PROVIDER", "offline")
    monkeypatch.setenv("STORE_FILE", sample_store_file())
    with pytest.raises(ValueError, match="only in storechat's local runner"):
        handler.provider()
    with pytest.raises(ValueError, match="only in storechat's local runner"):
        make_provider("offline", region=None)


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_nothing_under_functions_imports_the_local_package_or_the_offline_model() -> None:
    sources = sorted(FUNCTIONS_DIR.rglob("*.py"))
    assert sources, "no Lambda sources found"
    offenders = {
        f"{path.relative_to(FUNCTIONS_DIR)}: {name}"
        for path in sources
        for name in _imports(path)
        if name.split(".")[0] == "storechat" or "offline" in name
    }
    assert offenders == set()
    assert not [p for p in sources if "offline" in p.name]
