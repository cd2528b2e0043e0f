"""In Lambda, a newer snapshot is loaded after the response has gone back, by an internal
extension, never while the model waits for the tool's answer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from lookup_inventory import after_response, handler
from lookup_inventory.after_response import AfterResponse
from lookup_inventory.snapshots import S3Snapshots
from shared.config.environment import overriding
from tests.support.fake_extensions_api import FakeExtensionsApi
from tests.unit.test_lookup_inventory import seed_table, told
from tests.unit.test_lookup_snapshots import (
    BUCKET,
    CATALOG,
    NEW_PHONE,
    REGION,
    _cold,
    function_variables,
    invoke,
    publish,
)


@pytest.fixture
def lambda_container(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[FakeExtensionsApi, Any]]:
    """A deployed lookup function in a Lambda container: the catalog and the index bucket
    in moto, a check for a newer snapshot due at every call, and its after-response
    extension registered with a (fake) Extensions API."""
    variables = {**function_variables(tmp_path), "CATALOG_INDEX_CHECK_S": "0"}
    with mock_aws(), FakeExtensionsApi() as api:
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        seed_table([*CATALOG, NEW_PHONE])
        publish(s3, tmp_path, CATALOG)
        extension = AfterResponse.start(api.address)
        assert extension is not None
        monkeypatch.setattr(handler, "AFTER_RESPONSE", extension)
        with overriding(variables):
            _cold()
            yield api, s3
            _cold()


def test_a_newer_snapshot_is_loaded_after_the_response_before_the_next_event(
    lambda_container: tuple[FakeExtensionsApi, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api, s3 = lambda_container
    downloads: list[str] = []
    real = S3Snapshots.fetch_latest

    def fetch(self: S3Snapshots, current: str | None, deadline: float | None = None) -> Any:
        found = real(self, current, deadline)
        api.mark(f"fetched {'new' if found else 'nothing new'}")
        downloads.append(str(deadline is not None))
        return found

    monkeypatch.setattr(S3Snapshots, "fetch_latest", fetch)
    # "answered" is marked where the handler hands its answer over (its finally tells the
    # extension so): a mark made once invoke() has returned here, on the test's thread,
    # can come after the extension's thread has fetched on a loaded machine.
    extension = handler.AFTER_RESPONSE
    assert extension is not None
    handed_over = extension.invocation_done

    def answered() -> None:
        api.mark("answered")
        handed_over()

    monkeypatch.setattr(extension, "invocation_done", answered)
    # Given a container that answered its first (cold) call
    assert api.wait_for_next(1)
    api.invoke()
    assert invoke({"category": "BOOKS"})["toolResult"]["status"] == "success"
    assert api.wait_for_next(2)
    # And a phone published since
    second = publish(s3, tmp_path, [*CATALOG, NEW_PHONE])
    # When the model looks for it
    api.invoke()
    api.mark("call")
    first = invoke({"productName": "Zephyr Fold"})
    # Then that call is answered from the snapshot it had, and the newer one is fetched
    # only after it answered, before the extension lets Lambda freeze the container
    assert "MOB-900" not in [p["productId"] for p in told(first)["products"]]
    assert api.wait_for_next(3)
    after_call = api.log[api.log.index("call") :]
    assert after_call == ["call", "answered", "fetched new", "next"]
    # And with the time left before the invocation's deadline
    assert downloads[-1] == "True"
    # And the next call finds the phone
    api.invoke()
    late = invoke({"productName": "Zephyr Fold"})
    assert [p["productId"] for p in told(late)["products"]] == ["MOB-900"]
    assert f"snapshot {second.version}" in late["trace"]["summary"]
    assert api.wait_for_next(4)  # the container is idle again before the test ends


def test_the_extension_registers_for_invocations_only() -> None:
    with FakeExtensionsApi() as api:
        extension = AfterResponse.start(api.address)
        assert extension is not None and api.wait_for_next(1)
        assert api.registered == [{"name": after_response.NAME, "events": ["INVOKE"]}]


def test_a_refused_registration_leaves_refreshes_on_a_thread(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Given an Extensions API that refuses the registration
    with FakeExtensionsApi(refuse=True) as api:
        # When the function initialises
        extension = AfterResponse.start(api.address)
    # Then it has no extension, says so, and refreshes fall back to a thread
    assert extension is None
    assert "after-response extension not registered" in capsys.readouterr().err
    assert AfterResponse.start(None) is None  # outside Lambda: nothing to register with


def test_work_runs_with_the_invocations_deadline_and_never_twice() -> None:
    with FakeExtensionsApi() as api:
        extension = AfterResponse.start(api.address)
        assert extension is not None and api.wait_for_next(1)
        deadlines: list[float | None] = []
        # Given work handed off during an invocation with 3 s to go
        api.invoke(timeout_ms=3000)
        extension.submit(deadlines.append)
        extension.invocation_done()
        assert api.wait_for_next(2)
        # Then it ran once, with a deadline inside those 3 s
        assert len(deadlines) == 1 and deadlines[0] is not None
        assert 0 < deadlines[0] - time.monotonic() < 3
        # And an invocation that hands nothing off runs nothing
        api.invoke()
        extension.invocation_done()
        assert api.wait_for_next(3) and extension.ran == 1
