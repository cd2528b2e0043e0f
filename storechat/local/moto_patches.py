"""The only three places where storechat reaches inside moto. All are pinned to moto 5.2.5.

1. ``moto.stepfunctions.parser.asl.jsonata.jsonata._eval_jsonata`` is a stub in
   moto (upstream it calls a JVM). We evaluate with jsonata-python and register
   the JSONata functions Step Functions adds (``$partition``, ``$range``,
   ``$hash``, ``$random``, ``$uuid``, ``$parse``). moto prepends its own
   placeholder versions of some of them to every expression; we remove those.
   ``$string`` is replaced too: on AWS (JSONata 2.0.6 in JavaScript) it keeps
   non-ASCII characters raw, where jsonata-python escapes them, and the ASL counts
   sizes with it.
2. ``moto.awslambda_simple.models.LambdaSimpleBackend.invoke`` always answers
   "OK" in moto. We call the project's handler in-process instead, and report
   an exception the way Lambda does (``FunctionError: Unhandled``).
3. ``moto.stepfunctions.parser.asl.parse.asl_parser.AmazonStateLanguageParser.parse``
   runs for every execution, and for every state machine made: the ANTLR parser, in
   pure Python, took about half of a turn's time in the local loop. We parse each
   definition once and run every execution of it on that program. The program holds
   no state of an execution (each keeps its own ``Environment``); moto's Map already
   runs its concurrent items on the same states.

Two more internals are used, never patched: :func:`bulk_put_items` writes large
synthetic catalogs straight into moto's DynamoDB backend, and :func:`forget_finished`
drops what moto keeps of finished work that nothing reads (the registry of every model
instance it made, the thread of every Step Functions worker that ended), so that a long
``storechat serve`` stays flat.

``tests/integration/test_moto_patch_points.py`` fails loudly if any of these
moves, so a moto upgrade cannot silently turn the local loop into a no-op.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
import threading
import uuid
from collections.abc import Callable
from typing import Any, Final

import moto
from antlr4 import ParserRuleContext
from jsonata import Jsonata
from jsonata.functions import Functions
from jsonata.utils import Utils
from moto.awslambda_simple import models as lambda_simple
from moto.core.model_instances import reset_model_data
from moto.stepfunctions.parser import utils as sfn_utils
from moto.stepfunctions.parser.asl.component.eval_component import EvalComponent
from moto.stepfunctions.parser.asl.component.intrinsic import jsonata as moto_intrinsics
from moto.stepfunctions.parser.asl.jsonata import jsonata as moto_jsonata
from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser

from storechat.local.errors import CannotRunLocally

MOTO_VERSION = "5.2.5"

Invoker = Callable[[str, dict[str, Any]], Any]


# --- 1. JSONata ---------------------------------------------------------------------------


def _partition(array: list[Any], size: int) -> list[list[Any]]:
    size = int(size)
    return [array[i : i + size] for i in range(0, len(array), size)]


def _range(first: float, last: float, step: float) -> list[float]:
    out, value = [], first
    while (step > 0 and value <= last) or (step < 0 and value >= last):
        out.append(value)
        value += step
    return out


def _hash(value: str, algorithm: str) -> str:
    names = {
        "MD5": "md5",
        "SHA-1": "sha1",
        "SHA-256": "sha256",
        "SHA-384": "sha384",
        "SHA-512": "sha512",
    }
    return hashlib.new(names[algorithm], str(value).encode()).hexdigest()


def _random(seed: Any = None) -> float:
    return random.Random(seed).random() if seed is not None else random.random()


class _RawUnicodeEncoder(Functions.Encoder):
    """jsonata-python's ``$string`` encoder, writing non-ASCII characters as they are."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "ensure_ascii": False})


def _string(value: Any = None, prettify: Any = None) -> str | None:
    # Step Functions runs JSONata 2.0.6 on JavaScript, whose $string keeps "é" as one
    # character; jsonata-python writes "\u00e9" (six). Sizes counted in the ASL (the
    # history budget) must come out the same here as on AWS.
    if isinstance(value, Utils.JList) and value.outer_wrapper:
        value = value[0]
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, Jsonata.JFunction | Jsonata.JLambda):
        return ""
    if prettify:
        return json.dumps(value, cls=_RawUnicodeEncoder, indent="  ")
    return json.dumps(value, cls=_RawUnicodeEncoder, separators=(",", ":"))


STEP_FUNCTIONS_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "string": _string,
    "partition": _partition,
    "range": _range,
    "hash": _hash,
    "random": _random,
    "uuid": lambda: str(uuid.uuid4()),
    "parse": lambda text: json.loads(text),
}

_STUB_DECLARATIONS = tuple(moto_intrinsics._DECLARATION_BY_VARIABLE_REFERENCE.values())
_DECLARATION = re.compile(r"\$([A-Za-z0-9_]+):=")
_WRAPPED = re.compile(r"^\$(exists|type)\((.*)\)$", re.DOTALL)
_decoder = json.JSONDecoder()
_compiled = threading.local()


def _compile(expression: str) -> Jsonata:
    # A compiled expression holds evaluation state, so each thread keeps its
    # own. The Map runs its items on threads.
    cache: dict[str, Jsonata] | None = getattr(_compiled, "cache", None)
    if cache is None or len(cache) > 512:
        cache = _compiled.cache = {}
    found = cache.get(expression)
    if found is None:
        found = cache[expression] = Jsonata(expression)
    return found


def _split_declarations(expression: str) -> tuple[dict[str, Any], str] | None:
    """Read moto's ``($a:=<json>;$b:=<json>;BODY)`` into bindings and BODY.

    Parsing the values as JSON instead of as JSONata text is much faster for the
    large conversation variables, and gives the same values.
    """
    if not expression.startswith("(") or not expression.endswith(")"):
        return None
    bindings: dict[str, Any] = {}
    pos = 1
    while True:
        match = _DECLARATION.match(expression, pos)
        if not match:
            break
        try:
            value, end = _decoder.raw_decode(expression, match.end())
        except json.JSONDecodeError:
            return None
        if end >= len(expression) or expression[end] != ";":
            return None
        bindings[match.group(1)] = value
        pos = end + 1
    return bindings, expression[pos:-1]


def _jsonata_nulls(value: Any) -> Any:
    # jsonata-python reads Python None as "undefined"; JSON null is its NULL_VALUE.
    if value is None:
        return Utils.NULL_VALUE
    if isinstance(value, list):
        return [_jsonata_nulls(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonata_nulls(v) for k, v in value.items()}
    return value


def _evaluate_raw(expression: str) -> Any:
    """Evaluate, keeping JSON null distinct from undefined (None)."""
    split = _split_declarations(expression)
    bindings: dict[str, Any] = {}
    body = expression
    if split is not None:
        bindings, body = split
    compiled = _compile(body)
    compiled.set_output_convert_nulls(False)
    try:
        return compiled.evaluate(None, {**_functions(), **_jsonata_nulls(bindings)})
    except Exception as exc:
        raise moto_jsonata.JSONataException("States.QueryEvaluationError", str(exc)) from exc


def evaluate(expression: str) -> Any:
    """moto's ``_eval_jsonata``: evaluate one composed expression."""
    for stub in _STUB_DECLARATIONS:
        expression = expression.replace(stub, "")
    # moto asks "$exists(<expr>)" when <expr> gave None, to tell null from undefined.
    wrapped = _WRAPPED.match(expression)
    if wrapped and _split_declarations(wrapped.group(2)) is not None:
        inner = _evaluate_raw(wrapped.group(2))
        function = _compile(f"${wrapped.group(1)}($v)")
        function.set_output_convert_nulls(False)
        return Utils.convert_nulls(function.evaluate(None, {"v": inner}))
    return Utils.convert_nulls(_evaluate_raw(expression))


def _functions() -> dict[str, Any]:
    return {name: Jsonata.JLambda(fn) for name, fn in STEP_FUNCTIONS_FUNCTIONS.items()}


# --- 2. Lambda ----------------------------------------------------------------------------

_invoker: Invoker | None = None
_invoker_lock = threading.Lock()
_FUNCTION_NAME = re.compile(r"(?:arn:[^:]+:lambda:[^:]*:[^:]*:function:)?([^:/]+)")


def _invoke(
    self: Any,
    function_name: str,
    qualifier: str | None,
    body: Any,
    headers: Any,
    response_headers: dict[str, str],
) -> bytes:
    invoker = _invoker
    if invoker is None:
        raise RuntimeError("no local Lambda invoker is installed")
    match = _FUNCTION_NAME.match(function_name)
    name = match.group(1) if match else function_name
    payload = json.loads(body) if body else {}
    try:
        result = invoker(name, payload)
    except Exception as exc:  # reported like Lambda: the task fails with errorType
        response_headers["x-amz-function-error"] = "Unhandled"
        return json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)}).encode()
    try:
        return json.dumps(result).encode()
    except (TypeError, ValueError) as exc:
        # Lambda's runtime cannot serialise such a result either.
        response_headers["x-amz-function-error"] = "Unhandled"
        return json.dumps({"errorType": "Runtime.MarshalError", "errorMessage": str(exc)}).encode()


# --- 3. One parse per definition -----------------------------------------------------------

MOTOS_PARSE: Final = AmazonStateLanguageParser.parse
"""moto's own parse, which the cache below calls once per definition."""


@functools.lru_cache(maxsize=8)
def parsed(definition: str) -> tuple[EvalComponent, ParserRuleContext]:
    """The program of a state machine ``definition`` and its parse tree, parsed the first
    time they are asked for.

    A few definitions live at once (a generation of the local system's, a test's own); a
    definition that does not parse raises each time, as moto's own parse does."""
    return MOTOS_PARSE(definition)


def install(invoker: Invoker) -> None:
    """Apply the patches and route Lambda invocations to ``invoker(name, payload)``."""
    global _invoker
    if moto.__version__ != MOTO_VERSION:
        raise CannotRunLocally(
            f"storechat's local runner is pinned to moto {MOTO_VERSION}, found {moto.__version__}"
        )
    with _invoker_lock:
        _invoker = invoker
        moto_jsonata._eval_jsonata = evaluate
        lambda_simple.LambdaSimpleBackend.invoke = _invoke  # type: ignore[method-assign]
        AmazonStateLanguageParser.parse = staticmethod(parsed)  # type: ignore[method-assign]


# --- Forgetting finished work -------------------------------------------------------------


def forget_finished() -> None:
    """Drop what moto keeps of finished work and never reads again.

    * Every instance of a moto model is kept in its class's ``instances_tracked`` (for
      moto server's dashboard), for as long as the process lives: each execution's copy
      of its state machine, every version of every DynamoDB item written, and through a
      deleted state machine its executions (``storechat.local.generations``). moto's own
      ``reset_model_data`` empties those lists, as it does when a mock stops; the backends
      keep what they hold.
    * Every thread the Step Functions interpreter starts is appended to ``TMP_THREADS``
      and never removed; the ones that have ended are dropped from it, in place.
    """
    reset_model_data()
    threads: list[threading.Thread] = sfn_utils.TMP_THREADS
    threads[:] = [thread for thread in threads if thread.is_alive()]


# --- Bulk loading -------------------------------------------------------------------------


def bulk_put_items(account: str, region: str, table: str, items: list[dict[str, Any]]) -> None:
    """Put items straight into moto's table, skipping its HTTP emulation (scale tests only)."""
    from boto3.dynamodb.types import TypeSerializer
    from moto.dynamodb.models import dynamodb_backends

    serialize = TypeSerializer().serialize
    backend = dynamodb_backends[account][region]
    for item in items:
        backend.put_item(table, {k: serialize(v) for k, v in item.items()})
