"""The store's settings for the functions that speak for it, as a small Lambda layer.

The Converse function names the store and its policies in the system prompt, the
policies tool answers from the policies' text, and the response builder makes product
and cart links from the storefront and the platform. All three read one file,
``shared.store.settings.StoreFile`` (the ``store`` block of ``cdk.json`` with its policies file
read), which this layer puts at :data:`STORE_FILE` (``/opt`` is where Lambda unpacks
layers). A policies file can pass Lambda's 4 KB of environment variables; a layer has
no such limit, costs no call at a cold start, and changes with a deploy.

The file is written at synth under ``.cache/store/<sha256 prefix>/`` (git-ignored), so
the asset's hash is its content's: a changed policy is a new layer version.
"""

from __future__ import annotations

import hashlib
from typing import Final

from aws_cdk import aws_lambda as lambda_
from constructs import Construct

import registry
from infra import names
from infra.config import EnvironmentConfig

STORE_FILE: Final = "/opt/store/store.json"
FUNCTIONS: Final = frozenset(
    {registry.CONVERSE.key, registry.GET_STORE_POLICIES.key, registry.COMPOSE_RESPONSE.key}
)
"""The functions that read the store's settings (``STORE_FILE`` in their settings)."""


def store_layer(scope: Construct, id: str, config: EnvironmentConfig) -> lambda_.LayerVersion:
    content = config.store.model_dump_json(indent=1)
    digest = hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]
    folder = names.STORE_CACHE_DIR / digest
    target = folder / "store" / "store.json"
    if not target.is_file() or target.read_text(encoding="utf-8") != content:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    return lambda_.LayerVersion(
        scope,
        id,
        code=lambda_.Code.from_asset(str(folder)),
        description=f"{config.store.settings.name}: the store's settings and policies "
        f"({config.stack_name})",
    )


def environment() -> dict[str, str]:
    return {"STORE_FILE": STORE_FILE}
