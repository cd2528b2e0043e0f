"""What a question costs in DynamoDB: each call it makes, in on-demand request units.

:class:`CapacityMeter` hooks botocore's events on boto3's default session (inside
moto's ``mock_aws``), so it sees every DynamoDB call of the process: the state
machine's ``LoadHistory`` query and ``SaveTurn`` put (moto's interpreter makes them
through boto3) and the tool Lambdas' own reads. For each call it computes the
request units DynamoDB would bill, by its documented rules:

* item size: attribute names plus values (strings in UTF-8 bytes, numbers about one
  byte per two significant digits plus one, lists and maps 3 bytes plus one byte per
  element, booleans and nulls one byte);
* writes: one unit per started KiB of the item (``PutItem``; ``UpdateItem``, the day's
  spend counter, from its key and the values it writes);
* reads: one unit per started 4 KiB, half for an eventually consistent read;
  ``GetItem`` and each item of ``BatchGetItem`` are rounded on their own, a
  ``Query`` or ``Scan`` page on the sum of the items it read; a read that finds
  nothing still costs the minimum.

A ``Query`` with a projection returns less than it read. The sessions table's
items were all written in this run, so their full sizes are known from the
``PutItem`` calls; elsewhere the returned items are what is counted.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import boto3

WRITE_UNIT_BYTES = 1024
READ_UNIT_BYTES = 4096
_HOOKS = ("before-call.dynamodb", "after-call.dynamodb")


@dataclass(frozen=True)
class DynamoCall:
    operation: str
    table: str
    read_units: float
    write_units: float


def _number_bytes(text: str) -> int:
    try:
        digits = Decimal(text).normalize().as_tuple().digits
    except InvalidOperation:
        return len(text) // 2 + 1
    significant = len(digits) if any(digits) else 1
    return math.ceil(significant / 2) + 1


def value_bytes(value: dict[str, Any]) -> int:
    """The size DynamoDB counts for one attribute value in its wire format."""
    kind, inner = next(iter(value.items()))
    if kind == "S":
        return len(str(inner).encode("utf-8"))
    if kind == "N":
        return _number_bytes(str(inner))
    if kind == "B":
        return len(inner) * 3 // 4  # base64 on the wire
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + value_bytes(v) for v in inner)
    if kind == "M":
        return 3 + sum(1 + len(k.encode("utf-8")) + value_bytes(v) for k, v in inner.items())
    if kind in ("SS", "NS", "BS"):
        return sum(value_bytes({kind[0]: v}) for v in inner)
    raise ValueError(f"unknown DynamoDB type {kind}")


def item_bytes(item: dict[str, Any]) -> int:
    return sum(len(name.encode("utf-8")) + value_bytes(v) for name, v in item.items())


def _read_units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / READ_UNIT_BYTES))
    return float(units) if consistent else units / 2


class CapacityMeter:
    """Records every DynamoDB call made through clients created while it is installed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: list[DynamoCall] = []
        self._put_sizes: dict[tuple[str, str], list[int]] = {}

    def _before(self, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        body = params.get("body") or b"{}"
        context["bench_dynamo_request"] = json.loads(body)

    def _after(self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        request: dict[str, Any] = context.get("bench_dynamo_request", {})
        calls = self._units(model.name, request, parsed)
        with self._lock:
            self._calls.extend(calls)

    def _units(
        self, operation: str, request: dict[str, Any], response: dict[str, Any]
    ) -> list[DynamoCall]:
        table = str(request.get("TableName", ""))
        consistent = bool(request.get("ConsistentRead"))
        if operation == "PutItem":
            item = request.get("Item", {})
            size = item_bytes(item)
            # Filed under each short string value: a later Query names its partition by one.
            keys = [json.dumps(v) for v in item.values() if len(v.get("S", "")) in range(1, 256)]
            with self._lock:
                for key in keys:
                    self._put_sizes.setdefault((table, key), []).append(size)
            return [DynamoCall(operation, table, 0.0, max(1, math.ceil(size / WRITE_UNIT_BYTES)))]
        if operation == "UpdateItem":
            # Billed on the item's size, which the state machine's counter update does not
            # return: its key and the values it writes are a few dozen bytes, one unit.
            values = request.get("ExpressionAttributeValues") or {}
            size = item_bytes(request.get("Key", {})) + item_bytes(values)
            return [DynamoCall(operation, table, 0.0, max(1, math.ceil(size / WRITE_UNIT_BYTES)))]
        if operation == "GetItem":
            size = item_bytes(response.get("Item") or {})
            return [DynamoCall(operation, table, _read_units(size, consistent), 0.0)]
        if operation == "BatchGetItem":
            calls = []
            for name, items in (response.get("Responses") or {}).items():
                asked = request.get("RequestItems", {}).get(name, {})
                strong = bool(asked.get("ConsistentRead"))
                units = sum(_read_units(item_bytes(i), strong) for i in items)
                calls.append(DynamoCall(operation, name, units, 0.0))
            return calls
        if operation in ("Query", "Scan"):
            items = response.get("Items") or []
            size = sum(item_bytes(i) for i in items)
            if "ProjectionExpression" in request and items:
                size = max(size, self._stored_size(table, request, len(items)))
            return [DynamoCall(operation, table, _read_units(size, consistent), 0.0)]
        return [DynamoCall(operation, table, 0.0, 0.0)]

    def _stored_size(self, table: str, request: dict[str, Any], count: int) -> int:
        """The full size of the newest ``count`` items put under the queried partition."""
        values = request.get("ExpressionAttributeValues") or {}
        for value in values.values():
            with self._lock:
                sizes = self._put_sizes.get((table, json.dumps(value)))
            if sizes:
                newest = sizes[-count:] if request.get("ScanIndexForward") is False else sizes
                return sum(newest[:count])
        return 0

    def drain(self) -> list[DynamoCall]:
        with self._lock:
            calls, self._calls = self._calls, []
        return calls

    @contextmanager
    def installed(self) -> Iterator[CapacityMeter]:
        """Count calls from clients created on boto3's default session meanwhile.

        Use inside ``mock_aws``, before the clients to count are created.
        """
        if boto3.DEFAULT_SESSION is None:
            boto3.setup_default_session()
        assert boto3.DEFAULT_SESSION is not None
        events = boto3.DEFAULT_SESSION.events
        events.register(_HOOKS[0], self._before, unique_id="bench-capacity-before")
        events.register(_HOOKS[1], self._after, unique_id="bench-capacity-after")
        try:
            yield self
        finally:
            events.unregister(_HOOKS[0], unique_id="bench-capacity-before")
            events.unregister(_HOOKS[1], unique_id="bench-capacity-after")
