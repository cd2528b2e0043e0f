"""How a handler's environment is chosen: the process's, or a local system's in one context."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from converse.settings import get_settings as converse_settings
from lookup_inventory.settings import get_settings as catalog_settings
from shared.config.environment import environ, overriding
from shared.runtime.observability import MetricUnit, metrics
from storechat.local.environment import forget_warm_state, function_variables, layered


@pytest.fixture(autouse=True)
def _cold_settings() -> Iterator[None]:
    forget_warm_state()
    yield
    forget_warm_state()


def _variables(model: str = "offline", **extra: str) -> dict[str, str]:
    return function_variables(
        model,
        region="eu-west-1",
        catalog_table="catalog-a",
        steps_table="steps-a",
        store_file="/tmp/store-a.json",
        log_level="WARNING",
        metrics_namespace="Storechat",
        extra=extra,
    )


def test_without_an_override_a_handler_reads_the_process_environment() -> None:
    assert environ() is os.environ


def test_an_override_holds_in_its_own_thread_only_and_ends_with_its_block() -> None:
    # Given an override set in this thread
    seen_elsewhere: list[Any] = []
    with overriding({"CATALOG_TABLE_NAME": "outer"}):
        with overriding({"CATALOG_TABLE_NAME": "inner"}):
            inner = environ()["CATALOG_TABLE_NAME"]
        outer = environ()["CATALOG_TABLE_NAME"]
        # When another thread asks
        thread = threading.Thread(target=lambda: seen_elsewhere.append(environ()))
        thread.start()
        thread.join()

    # Then each block saw its own values, the other thread the process environment
    assert (inner, outer) == ("inner", "outer")
    assert seen_elsewhere == [os.environ]
    # And after the block this thread reads the process environment again
    assert environ() is os.environ


def test_a_systems_variables_lie_over_the_process_environment_without_writing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a developer's variable in the shell, and one the caller passes as env=
    monkeypatch.setenv("BRAVE_API_KEY", "from-the-shell")
    monkeypatch.delenv("CATALOG_CACHE_TTL_S", raising=False)
    variables = layered(_variables(CATALOG_CACHE_TTL_S="3600", MODEL_ID="chosen"))

    # Then the handlers see both, the caller's value over the runner's own
    assert variables["BRAVE_API_KEY"] == "from-the-shell"
    assert variables["CATALOG_CACHE_TTL_S"] == "3600" and variables["MODEL_ID"] == "chosen"
    # And the process environment did not get them
    assert "CATALOG_CACHE_TTL_S" not in os.environ


def test_settings_and_the_catalog_client_region_come_from_the_override() -> None:
    # Given a local system's variables in force
    with overriding(layered(_variables("replay:/tmp/recorded.json"))):
        # When the functions read their settings
        converse = converse_settings()
        catalog = catalog_settings()

    # Then they are the system's, the region included (boto3 cannot read an override)
    assert converse.provider == "replay:/tmp/recorded.json"
    assert catalog.table_name == "catalog-a" and catalog.region == "eu-west-1"


def test_a_new_system_does_not_see_the_settings_an_earlier_one_cached() -> None:
    # Given settings cached while a first system ran
    with overriding(layered(_variables(CATALOG_TABLE_NAME="first"))):
        assert catalog_settings().table_name == "first"

    # When a second system starts cold
    forget_warm_state()
    with overriding(layered(_variables(CATALOG_TABLE_NAME="second"))):
        second = catalog_settings()

    # Then it reads its own
    assert second.table_name == "second"


@metrics.log_metrics
def _metered(event: dict[str, Any], context: Any) -> str:
    metrics.add_metric(name="ToolCalls", unit=MetricUnit.Count, value=1)
    return "done"


def test_metrics_off_in_an_override_are_dropped_not_printed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given metrics on in the process, off in the override
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.delenv("POWERTOOLS_DEV", raising=False)
    monkeypatch.setattr(metrics, "namespace", "Storechat")

    # When a handler meters a call under the override
    with overriding(layered(_variables())):
        assert _metered({}, None) == "done"

    # Then nothing was printed and nothing is kept for a later flush
    assert capsys.readouterr().out == ""
    assert not metrics.metric_set


def test_metrics_on_in_the_process_environment_are_published_as_before(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a Lambda's environment: metrics on, no override
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.delenv("POWERTOOLS_DEV", raising=False)
    monkeypatch.setattr(metrics, "namespace", "Storechat")

    # When a handler meters a call
    _metered({}, None)

    # Then Powertools prints the EMF blob to stdout, for CloudWatch to read
    out = capsys.readouterr().out
    assert '"Namespace":"Storechat"' in out and '"ToolCalls"' in out
    assert not metrics.metric_set


@metrics.log_metrics
def _metering_much(event: dict[str, Any], context: Any) -> str:
    for n in range(40):
        metrics.add_metric(name=f"Step{event['item']}x{n}", unit=MetricUnit.Count, value=1)
    return "done"


# A flush that finds the set emptied by another thread's flush warns that it has nothing.
@pytest.mark.filterwarnings("ignore:No application metrics to publish")
def test_handlers_metering_on_the_maps_threads_at_once_do_not_break_each_others_flush(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given metrics on, and the local Map's items running their tools' handlers at once on
    # threads that share the one metrics object (as Lambda never does)
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.delenv("POWERTOOLS_DEV", raising=False)
    monkeypatch.setattr(metrics, "namespace", "Storechat")
    failures: list[BaseException] = []

    def item(number: int) -> None:
        try:
            for _ in range(150):
                _metering_much({"item": number}, None)
        except BaseException as exc:  # what a Map item would have failed with
            failures.append(exc)

    threads = [threading.Thread(target=item, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # Then no handler failed ("dictionary changed size during iteration" failed a turn of
    # the red team once), and every value was published and none kept
    assert failures == []
    out = capsys.readouterr().out
    assert out.count('"Step3x39"') >= 1
    assert not metrics.metric_set
