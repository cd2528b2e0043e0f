"""Fast stand-ins for the catalog table and the index bucket, for large synthetic catalogs.

moto answers a DynamoDB ``Query`` by serializing every item through botocore's
shape model on the server side: about 4 ms per item on this machine, so one
cache miss over a 50,000-product catalog takes over a minute, and more than
nine tenths of that is moto, not the handler. Seeding 50,000 items through
``BatchWriteItem`` costs another minute.

:class:`FastCatalog` answers ``Query`` (on the category index) and ``Scan`` of
the catalog table from pages encoded once, ahead of time, in DynamoDB's wire
format and cut at about 1 MB as DynamoDB cuts them, and ``BatchGetItem`` (the
catalog tool's fresh read of the products it found) from the same encoded items.
Two ways to reach it:

* :meth:`FastCatalog.serving` hooks ``before-send`` on boto3's default session
  in this process: the real handler, the real ``DynamoCatalog`` and botocore's
  real response parsing run; only the server's work and the network are left out.
  Every other request falls through to moto.
* :meth:`FastCatalog.http` serves the same pages over HTTP on 127.0.0.1, for a
  handler in another process (``AWS_ENDPOINT_URL_DYNAMODB``), so that process
  holds nothing but the handler when its memory is measured.

The catalog tool searches a snapshot of the catalog that an indexer publishes to a
bucket. :func:`publish_index` publishes one to moto's S3 as the local runner does;
:class:`LoopbackBucket` serves one over HTTP on 127.0.0.1 for a handler in another
process (``AWS_ENDPOINT_URL_S3``).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from io import BytesIO
from pathlib import Path
from typing import Any

import boto3
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ClientError

from bench.loopback import serving
from storechat.local.index import INDEX_BUCKET, INDEX_PREFIX, index_variables, seed_index
from storechat.local.runner import CATALOG_TABLE, REGION

PAGE_BYTES = 1024 * 1024
_EVENTS = (
    "before-send.dynamodb.Query",
    "before-send.dynamodb.Scan",
    "before-send.dynamodb.BatchGetItem",
)


def wire(value: Any) -> Any:
    """A JSON value in DynamoDB's attribute-value format (what boto3's serializer sends)."""
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, int | float):
        return {"N": repr(value) if isinstance(value, float) else str(value)}
    if isinstance(value, str):
        return {"S": value}
    if value is None:
        return {"NULL": True}
    if isinstance(value, list):
        return {"L": [wire(v) for v in value]}
    if isinstance(value, dict):
        return {"M": {k: wire(v) for k, v in value.items()}}
    raise TypeError(f"cannot encode {type(value).__name__} for DynamoDB")


def _pages(items: list[str]) -> list[list[str]]:
    """Items (already wire-encoded JSON) cut into pages of at most about 1 MB."""
    pages: list[list[str]] = [[]]
    size = 0
    for item in items:
        if pages[-1] and size + len(item) > PAGE_BYTES:
            pages.append([])
            size = 0
        pages[-1].append(item)
        size += len(item)
    return pages


class _Raw(BytesIO):
    def stream(self, **_: Any) -> Iterator[bytes]:
        chunk = self.read()
        while chunk:
            yield chunk
            chunk = self.read()


class FastCatalog:
    """Pre-encoded pages of one catalog, in full, and its records by id."""

    def __init__(self, catalog: list[dict[str, Any]]) -> None:
        by_category: dict[str, list[tuple[str, str]]] = {}
        everything: list[str] = []
        self._by_id: dict[str, str] = {}
        for product in catalog:
            item = json.dumps(
                {k: wire(v) for k, v in product.items()}, separators=(",", ":"), ensure_ascii=False
            )
            by_category.setdefault(str(product["category"]), []).append(
                (str(product["productId"]), item)
            )
            everything.append(item)
            self._by_id[str(product["productId"])] = item
        self._scan = _pages(everything)
        self._lock = threading.Lock()
        self.size = len(catalog)
        self.counts = {category: len(entries) for category, entries in by_category.items()}

    def update(self, product: dict[str, Any]) -> None:
        """Change one product as a write to the table would, for reads by id (the catalog
        tool's fresh read); the Query and Scan pages keep the records they were made with."""
        item = json.dumps(
            {k: wire(v) for k, v in product.items()}, separators=(",", ":"), ensure_ascii=False
        )
        with self._lock:
            self._by_id[str(product["productId"])] = item

    def _batch_get(self, payload: dict[str, Any]) -> bytes | None:
        asked = payload["RequestItems"]
        if set(asked) != {CATALOG_TABLE}:
            return None
        keys = asked[CATALOG_TABLE].get("Keys", [])
        with self._lock:
            found = [
                self._by_id[k["productId"]["S"]] for k in keys if k["productId"]["S"] in self._by_id
            ]
        return (
            f'{{"Responses":{{"{CATALOG_TABLE}":[{",".join(found)}]}},"UnprocessedKeys":{{}}}}'
        ).encode()

    def respond(self, payload: dict[str, Any]) -> bytes | None:
        """The response body to a Scan or BatchGetItem request body, or None if it is not
        ours."""
        if "RequestItems" in payload:
            return self._batch_get(payload)
        if payload.get("TableName") != CATALOG_TABLE:
            return None  # the sessions table and anything else stay with moto
        if "KeyConditionExpression" in payload:
            return None  # the catalog table is read by key or scanned, never queried
        start = int(payload.get("ExclusiveStartKey", {}).get("_page", {}).get("N", "0"))
        pages = self._scan
        page = pages[start] if start < len(pages) else []
        body = f'{{"Count":{len(page)},"ScannedCount":{len(page)},"Items":[{",".join(page)}]'
        if start + 1 < len(pages):
            body += ',"LastEvaluatedKey":' + json.dumps({"_page": {"N": str(start + 1)}})
        return (body + "}").encode("utf-8")

    def _answer(self, request: Any, **_: Any) -> AWSResponse | None:
        body = self.respond(json.loads(request.body or b"{}"))
        if body is None:
            return None
        headers = {
            "x-amzn-requestid": str(uuid.uuid4()),
            "content-type": "application/x-amz-json-1.0",
        }
        return AWSResponse(request.url, 200, headers, _Raw(body))

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Answer catalog reads from clients created on boto3's default session meanwhile.

        Use inside ``mock_aws`` (moto swaps the default session for its own);
        clients created before entering keep talking to moto.
        """
        if boto3.DEFAULT_SESSION is None:
            boto3.setup_default_session()
        assert boto3.DEFAULT_SESSION is not None
        events = boto3.DEFAULT_SESSION.events
        for name in _EVENTS:
            events.register_first(name, self._answer, unique_id=f"bench-fast-catalog-{name}")
        try:
            yield
        finally:
            for name in _EVENTS:
                events.unregister(name, unique_id=f"bench-fast-catalog-{name}")

    @contextmanager
    def http(self) -> Iterator[str]:
        """Serve the pages on 127.0.0.1 and yield the endpoint URL."""
        catalog = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                body = catalog.respond(payload)
                if body is None and self.headers.get("X-Amz-Target", "").endswith(".PutItem"):
                    body = b"{}"  # a live-trace step the function writes: taken, not kept
                status = 200 if body is not None else 400
                if body is None:
                    body = b'{"__type":"ValidationException","message":"bench: not served"}'
                self.send_response(status)
                self.send_header("Content-Type", "application/x-amz-json-1.0")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        with serving(Handler) as url:
            yield url


def publish_index(products: list[dict[str, Any]]) -> None:
    """Publish a search snapshot of ``products`` to the local index bucket (inside moto),
    as the indexer would; the catalog tool loads it at its next cold start."""
    seed_index(boto3.client("s3", region_name=REGION), INDEX_BUCKET, products)


class _RecordingS3:
    """The S3 calls ``publish_snapshot`` makes, kept in memory with their metadata."""

    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}
        self.metadata: dict[str, dict[str, str]] = {}

    def get_object(self, *, Bucket: str, Key: str) -> dict[str, Any]:
        if Key not in self.objects:
            raise ClientError({"Error": {"Code": "NoSuchKey"}}, "GetObject")
        return {"Body": BytesIO(self.objects[Key]), "Metadata": self.metadata.get(Key, {})}

    def upload_file(
        self, filename: str, bucket: str, key: str, ExtraArgs: dict[str, Any] | None = None
    ) -> None:
        self.objects[key] = Path(filename).read_bytes()
        self.metadata[key] = dict((ExtraArgs or {}).get("Metadata", {}))

    def put_object(
        self,
        *,
        Bucket: str,
        Key: str,
        Body: bytes,
        Metadata: dict[str, str] | None = None,
        **_: Any,
    ) -> None:
        self.objects[Key] = Body
        self.metadata[Key] = dict(Metadata or {})


class LoopbackBucket:
    """A published snapshot of one catalog, served as S3 objects on 127.0.0.1.

    Published as the indexer publishes for the catalog table (price and stock read
    fresh); :meth:`publish` publishes again, as the indexer would after a change.
    """

    def __init__(self, products: list[dict[str, Any]]) -> None:
        self._recorder = _RecordingS3()
        self.objects = self._recorder.objects
        self.publish(products)
        self.served: dict[str, int] = {}
        """Bytes served per key (what readers downloaded), counted as they are sent."""
        self._lock = threading.Lock()

    def publish(self, products: list[dict[str, Any]]) -> bool:
        """Publish ``products`` as the indexer would; True if a new snapshot was published."""
        from shared.search.build import READ_FRESH
        from shared.search.publish import pointer_key, publish_snapshot

        before = self.objects.get(pointer_key(INDEX_PREFIX))
        with tempfile.TemporaryDirectory(prefix="bench-index-") as scratch:
            publish_snapshot(
                products,
                s3_client=self._recorder,
                bucket=INDEX_BUCKET,
                prefix=INDEX_PREFIX,
                work_dir=scratch,
                fresh_fields=READ_FRESH,
            )
        return self.objects.get(pointer_key(INDEX_PREFIX)) != before

    def snapshot_bytes(self) -> int:
        """The size of the published snapshot object (gzipped)."""
        return max(len(body) for key, body in self.objects.items() if key.endswith(".gz"))

    def _count(self, key: str, size: int) -> None:
        with self._lock:
            self.served[key] = self.served.get(key, 0) + size

    @contextmanager
    def http(self, download_dir: str) -> Iterator[Mapping[str, str]]:
        """Serve the objects (path-style ``GET /bucket/key``); yield the tool's variables."""
        objects = self.objects
        count = self._count

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                key = self.path.split("?", 1)[0].removeprefix(f"/{INDEX_BUCKET}/")
                body = objects.get(key)
                if body is None:
                    self.send_response(404)
                    body = b"<Error><Code>NoSuchKey</Code></Error>"
                else:
                    self.send_response(200)
                    self.send_header("ETag", f'"{hashlib.md5(body).hexdigest()}"')
                    count(key, len(body))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        with serving(Handler) as url:
            yield {"AWS_ENDPOINT_URL_S3": url, **index_variables(download_dir)}


class Catalogs:
    """Synthetic catalogs by size, made and encoded once per run (50,000 products take
    seconds)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._fast: dict[int, FastCatalog] = {}
        self._buckets: dict[int, LoopbackBucket] = {}
        self._products: dict[int, list[dict[str, Any]]] = {}

    def products(self, size: int) -> list[dict[str, Any]]:
        """The synthetic catalog of ``size`` products (made once; do not change it)."""
        from bench.catalog_gen import synthetic_catalog

        if size not in self._products:
            self._products[size] = synthetic_catalog(size, seed=self.seed)
        return self._products[size]

    def fast(self, size: int) -> FastCatalog:
        if size not in self._fast:
            self._fast[size] = FastCatalog(self.products(size))
        return self._fast[size]

    def bucket(self, size: int) -> LoopbackBucket:
        """The published snapshot of the catalog of ``size`` (built once: 200,000 products
        take a quarter of a minute)."""
        if size not in self._buckets:
            self._buckets[size] = LoopbackBucket(self.products(size))
        return self._buckets[size]
