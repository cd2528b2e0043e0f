"""Every Lambda of storechat and every tool the model can call, declared once.

``FUNCTIONS`` are the Lambdas the state machine invokes, ``TOOLS`` the tools the model
can call; ``BACKGROUND`` are the Lambdas that run beside the loop (on deploy, on a
catalog change, on a schedule) and that the state machine never calls. Everything
else is derived from these tables:

* the ``toolSpec`` list the model receives (:func:`tool_specs`), generated from
  each tool's pydantic input model, so what the model is told and what the tool
  accepts cannot differ;
* the CDK functions, their permissions and the state machine's substitutions
  (``infra/``; a background function's triggers and grants are in its own construct),
  including the one JSONata object that maps a tool name to its
  function (``ToolFunctions``);
* the local runner's table of in-process handlers (``storechat/local``).

To add a tool: write ``functions/<name>/`` (``schema.py`` with the input model and
the description, ``handler.py`` returning ``shared.api.contract.ToolOutput``), then add
one :class:`Function` and one :class:`Tool` below (docs/architecture.md, "Add a tool").

The registry sits above the packages it names, beside them in ``functions/`` (every
Lambda's code asset is that folder, so each can import it): the tools import nothing
from here, and neither does ``shared``. No AWS imports here: the CDK app, the local
runner and the Converse Lambda read it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from get_book_info.schema import DESCRIPTION as BOOK_DESCRIPTION
from get_book_info.schema import BookInput
from get_computer_reviews.schema import DESCRIPTION as REVIEWS_DESCRIPTION
from get_computer_reviews.schema import ReviewsInput
from get_store_policies.schema import DESCRIPTION as POLICIES_DESCRIPTION
from get_store_policies.schema import PoliciesInput
from lookup_inventory.schema import DESCRIPTION as INVENTORY_DESCRIPTION
from lookup_inventory.schema import InventoryInput
from shared.config.time_budget import DEADLINE_MS
from shared.products.currency import DEFAULT_CURRENCY, InStoreCurrency
from shared.tools.web_tool import WebQuery


@dataclass(frozen=True)
class Function:
    """One Lambda: its package under ``functions/`` and its settings on any architecture."""

    key: str
    """The package name (``lookup_inventory``); the handler is ``<key>.handler.lambda_handler``."""
    description: str
    timeout_s: int
    """The Lambda's timeout, and its Task's ``TimeoutSeconds`` in the ASL: it covers a cold
    start's init as well as the call."""
    memory_mb: int
    """Memory, and so CPU: Lambda gives 1,769 MB one vCPU and less in proportion. Sized so
    that a cold invoke takes at most half the timeout (``python -m bench``, section 10)."""
    ephemeral_storage_mb: int = 512
    """``/tmp``; 512 MB is Lambda's default (and included in the price)."""
    subsegments: bool = False
    """Whether X-Ray subsegments for its calls (AWS SDK, HTTP) pay for loading the X-Ray
    SDK at its first invocation. Every function is traced (Lambda active tracing); one
    that only computes, or whose one call is its whole duration, does without the SDK."""

    @property
    def module(self) -> str:
        return f"{self.key}.handler"

    @property
    def handler(self) -> str:
        return f"{self.module}.lambda_handler"

    @property
    def construct_id(self) -> str:
        """``LookupInventory``: the CDK id, and the stem of its ASL placeholder."""
        return "".join(part.capitalize() for part in self.key.split("_"))

    @property
    def placeholder(self) -> str:
        """The ASL placeholder that holds this function's ARN."""
        return f"{self.construct_id}FunctionArn"


@dataclass(frozen=True)
class Tool:
    """A tool the model can call: what it reads about it, what it may send, where it runs."""

    name: str
    description: str
    input_model: type[BaseModel]
    function: Function

    @property
    def quotes_the_web(self) -> bool:
        """Whether its results quote what web pages say (a :class:`WebQuery` tool): quoted
        for the model as untrusted, and screened by the environment's guardrail."""
        return issubclass(self.input_model, WebQuery)

    def spec(self, currency: str = DEFAULT_CURRENCY) -> dict[str, Any]:
        """What the model reads about the tool, with amounts in ``currency`` (the store's)."""
        return {
            "toolSpec": {
                "name": self.name,
                "description": self.description,
                "inputSchema": {"json": input_schema(self.input_model, currency)},
            }
        }


# Sizes from measured cold invokes at each function's CPU share (bench section 10;
# docs/architecture.md, "What each function is given"): each well under half its timeout,
# lookup at 200,000 products included.
# A model call reads the model until the turn's deadline at the latest.
CONVERSE = Function(
    "converse",
    "Builds the Converse request, calls the model, returns its reply",
    DEADLINE_MS // 1000,
    512,
)
LOOKUP_INVENTORY = Function(
    "lookup_inventory",
    "Tool: finds products in the store's catalog",
    5,
    # A cold start downloads, gunzips and checks the search snapshot (27 MB gzipped at
    # 200,000 products): at 512 MB that took half the 5 s.
    1024,
    # The snapshot in use and the one being downloaded (2 x 114 MB at 200,000 products).
    ephemeral_storage_mb=1024,
    subsegments=True,
)
GET_COMPUTER_REVIEWS = Function(
    "get_computer_reviews",
    "Tool: searches the web for reviews of a computer",
    5,
    # A cold start reads the key from Secrets Manager, then Brave answers within the 5 s.
    512,
    subsegments=True,
)
GET_BOOK_INFO = Function(
    "get_book_info", "Tool: looks a book up in Open Library", 5, 512, subsegments=True
)
GET_STORE_POLICIES = Function(
    "get_store_policies",
    "Tool: the sections of the store's own policies that answer a question",
    5,
    # It reads a small file it was deployed with and matches words: no network, no SDK.
    256,
)
COMPOSE_RESPONSE = Function(
    "compose_response",
    "Builds the response body from the ledger and the model's answer",
    2,
    # Its Task is cut off at 2 s, a cold start included: at 256 MB that took half of it,
    # and at 512 MB, with the live trace's step written, 0.45 of it.
    1024,
)

FUNCTIONS: tuple[Function, ...] = (
    CONVERSE,
    LOOKUP_INVENTORY,
    GET_COMPUTER_REVIEWS,
    GET_BOOK_INFO,
    GET_STORE_POLICIES,
    COMPOSE_RESPONSE,
)
"""The Lambdas the state machine invokes, in the order an operator meets them."""

SEED_CATALOG = Function(
    "seed_catalog", "Loads the bundled catalog into the catalog table on deploy", 120, 256
)
INDEX_CATALOG = Function(
    "index_catalog",
    "Rebuilds the catalog's search snapshot from the source of truth and publishes it",
    300,
    2048,
    # The snapshot being built and its gzipped copy (about 140 MB at 200,000 products).
    ephemeral_storage_mb=2048,
    subsegments=True,
)

RECORD_FEEDBACK = Function(
    "record_feedback",
    "POST /query/{turnId}/feedback: a shopper's rating of an answer or a click on a product",
    # One query and one update of the sessions table; a page waits for neither.
    5,
    256,
)
CATALOG_WEBHOOK = Function(
    "catalog_webhook",
    "Writes the store platforms' product webhooks to the catalog table",
    10,
    # Parsing a product's JSON and its HTML description, and a few table writes.
    512,
    subsegments=True,
)

CATALOG_SYNC = Function(
    "catalog_sync",
    "Pulls every product from the store platform's Admin API into the catalog table",
    # Lambda's longest: a store's whole catalog, page by page at the API's own pace.
    900,
    # Every product read is held until the plan is made (as the CLI's sync holds them).
    1024,
    subsegments=True,
)

BACKGROUND: tuple[Function, ...] = (
    SEED_CATALOG,
    INDEX_CATALOG,
    CATALOG_WEBHOOK,
    CATALOG_SYNC,
    RECORD_FEEDBACK,
)
"""Lambdas beside the loop: the state machine never invokes them (infra/data.py,
infra/search.py, infra/webhooks.py, infra/catalog_sync.py and infra/feedback.py deploy
them with their triggers or route)."""

INVENTORY_TOOL = Tool("lookup_inventory", INVENTORY_DESCRIPTION, InventoryInput, LOOKUP_INVENTORY)
REVIEWS_TOOL = Tool("get_computer_reviews", REVIEWS_DESCRIPTION, ReviewsInput, GET_COMPUTER_REVIEWS)
BOOK_TOOL = Tool("get_book_info", BOOK_DESCRIPTION, BookInput, GET_BOOK_INFO)
POLICIES_TOOL = Tool("get_store_policies", POLICIES_DESCRIPTION, PoliciesInput, GET_STORE_POLICIES)

TOOLS: tuple[Tool, ...] = (INVENTORY_TOOL, REVIEWS_TOOL, BOOK_TOOL, POLICIES_TOOL)
"""The tools, in the order the model is told about them (the system prompt names them
by these declarations, ``converse/prompt.py``)."""

TOOLS_PLACEHOLDER = "ToolFunctions"
"""The ASL placeholder for the JSONata object ``{'tool name': 'function ARN', ...}``."""


def functions_by_key() -> dict[str, Function]:
    return {f.key: f for f in FUNCTIONS}


def tool_names() -> tuple[str, ...]:
    return tuple(t.name for t in TOOLS)


def tool_function_keys() -> set[str]:
    return {t.function.key for t in TOOLS}


def tool_functions_object(arn_of: dict[str, str]) -> str:
    """The ``ToolFunctions`` substitution: a JSONata object from tool name to function ARN.

    ``arn_of`` maps a function key to its ARN (a CDK token in the stack, a local ARN in
    the runner). Names and ARNs hold no quote, so they need no escaping.
    """
    pairs = ", ".join(f"'{t.name}': '{arn_of[t.function.key]}'" for t in TOOLS)
    return "{" + pairs + "}"


def tool_specs(currency: str = DEFAULT_CURRENCY) -> tuple[dict[str, Any], ...]:
    """The ``toolConfig.tools`` entries the model receives, with amounts in ``currency``
    (the store's; built once per set of tools and currency)."""
    return _specs(TOOLS, currency)


@functools.cache
def _specs(tools: tuple[Tool, ...], currency: str) -> tuple[dict[str, Any], ...]:
    return tuple(t.spec(currency) for t in tools)


def input_schema(model: type[BaseModel], currency: str = DEFAULT_CURRENCY) -> dict[str, Any]:
    """``model``'s JSON Schema as a model needs it: no titles, no nulls, no references.

    pydantic writes an optional field as ``anyOf: [X, {type: null}]`` with a ``null``
    default; for the model an optional field is simply one it may leave out, so it
    reads ``X``. Every other rule (enums, bounds, lengths, patterns, forbidden extra
    keys, required fields) is kept, so the schema says exactly what the tool accepts.
    A field marked :class:`~shared.products.currency.InStoreCurrency` names ``currency`` after
    its description.
    """
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})
    schema.pop("description", None)  # the model's docstring; the tool has its description
    compact: dict[str, Any] = _compact(schema, definitions)
    for name, field in model.model_fields.items():
        for marker in field.metadata:
            if isinstance(marker, InStoreCurrency) and field.description:
                described = compact["properties"][field.alias or name]
                described["description"] = marker.describe(field.description, currency)
    return compact


def _compact(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_compact(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = definitions[node["$ref"].rsplit("/", 1)[-1]]
        return _compact({**target, **{k: v for k, v in node.items() if k != "$ref"}}, definitions)
    options = node.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(options):
            merged = {**kept[0], **{k: v for k, v in node.items() if k != "anyOf"}}
            return _compact(merged, definitions)
    return {
        key: _properties(value, definitions)
        if key == "properties"
        else _compact(value, definitions)
        for key, value in node.items()
        if key != "title" and not (key == "default" and value is None)
    }


def _properties(properties: dict[str, Any], definitions: dict[str, Any]) -> dict[str, Any]:
    # Property names are data here, not schema keywords: a field may be called "title".
    return {name: _compact(schema, definitions) for name, schema in properties.items()}
