"""The sample store's settings (``store/``) for tests, and stores of a test's own."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from converse.prompt import system_prompt
from shared.store.settings import StoreFile, load
from storechat.settings import SAMPLE_STORE

SAMPLE: StoreFile = load(SAMPLE_STORE)
SAMPLE_PROMPT: str = system_prompt(SAMPLE)


@functools.cache
def sample_store_file() -> str:
    """The sample store published as a function reads it (``STORE_FILE``)."""
    folder = Path(tempfile.mkdtemp(prefix="storechat-test-store-"))
    path = folder / "store.json"
    path.write_text(SAMPLE.model_dump_json(), encoding="utf-8")
    return str(path)


def store_file(
    folder: Path, policies: str = "# Returns\nWithin 30 days.\n", **settings: Any
) -> StoreFile:
    """A store of a test's own: the sample's settings with ``settings`` over them, and
    ``policies`` as its Markdown, both written in ``folder``."""
    (folder / "policies.md").write_text(policies, encoding="utf-8")
    block = {
        **json.loads(SAMPLE_STORE.read_text(encoding="utf-8")),
        "policies": "policies.md",
        **settings,
    }
    path = folder / "store.json"
    path.write_text(json.dumps(block), encoding="utf-8")
    return load(path)
