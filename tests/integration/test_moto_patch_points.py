"""Fails loudly if moto moves any of the internal points the local runner patches."""

from __future__ import annotations

import inspect
import json
from typing import Any

import moto
import pytest

from storechat.local import moto_patches


def test_moto_is_the_pinned_version() -> None:
    assert moto.__version__ == moto_patches.MOTO_VERSION, (
        "moto changed: re-check storechat/local/moto_patches.py against the new version, "
        "then update MOTO_VERSION and the pin in pyproject.toml"
    )


def test_the_jsonata_evaluator_hook_is_where_we_patch_it() -> None:
    from moto.stepfunctions.parser.asl.jsonata import jsonata as target

    assert hasattr(target, "_eval_jsonata"), "moto no longer has jsonata._eval_jsonata"
    source = inspect.getsource(target.eval_jsonata_expression)
    assert "_eval_jsonata(" in source, "eval_jsonata_expression no longer calls _eval_jsonata"
    from moto.stepfunctions.parser.asl.component.intrinsic import jsonata as intrinsics

    assert intrinsics._DECLARATION_BY_VARIABLE_REFERENCE, "moto's JSONata stubs moved"


def test_the_lambda_backend_invoke_is_where_we_patch_it() -> None:
    from moto.awslambda_simple.models import LambdaSimpleBackend

    params = list(inspect.signature(LambdaSimpleBackend.invoke).parameters)
    assert params == ["self", "function_name", "qualifier", "body", "headers", "response_headers"]


def test_step_functions_jsonata_functions_work_after_patching() -> None:
    evaluate = moto_patches.evaluate
    assert evaluate('($x:={"a":[1,2,3]};$partition($x.a, 2))') == [[1, 2], [3]]
    assert evaluate("$range(0, 10, 5)") == [0, 5, 10]
    assert evaluate("$parse('{\"k\": [1]}').k") == [1]
    assert len(evaluate("$uuid()")) == 36 and evaluate("$uuid()") != evaluate("$uuid()")
    assert evaluate("$hash('abc', 'SHA-256')").startswith("ba7816bf")
    assert 0 <= evaluate("$random()") < 1
    # JSON null stays null; moto treats undefined differently
    assert evaluate("($v:=null;$v)") is None
    assert evaluate("$exists(($v:=null;$v))") is True
    assert evaluate("$exists(($v:=null;$w))") is False
    # $string keeps non-ASCII characters as they are, as JSONata on AWS does
    assert evaluate("$string({'a': 'é日'})") == '{"a":"é日"}'
    assert evaluate("$length($string({'a': 'é日'}))") == 10


def test_the_dynamodb_backend_put_item_used_for_bulk_loading_is_there() -> None:
    from moto.core.base_backend import BackendDict
    from moto.dynamodb.models import DynamoDBBackend, dynamodb_backends

    assert isinstance(dynamodb_backends, BackendDict), "moto's dynamodb_backends moved"
    params = list(inspect.signature(DynamoDBBackend.put_item).parameters)
    assert params[:3] == ["self", "table_name", "item_attrs"]


def test_what_moto_keeps_of_finished_work_is_where_forget_finished_drops_it() -> None:
    # moto's registry of every model instance, and its own way of emptying it
    from moto.core import model_instances
    from moto.stepfunctions.models import StateMachine

    assert callable(model_instances.reset_model_data), "moto's reset_model_data moved"
    assert isinstance(StateMachine.instances_tracked, list), "moto stopped tracking instances"
    # the list every Step Functions worker thread is appended to
    from moto.stepfunctions.parser import utils
    from moto.stepfunctions.parser.backend import execution_worker

    assert isinstance(utils.TMP_THREADS, list), "moto's TMP_THREADS moved"
    assert "TMP_THREADS.append(" in inspect.getsource(execution_worker), (
        "moto's execution worker no longer records its thread in TMP_THREADS"
    )


def test_executions_and_new_state_machines_parse_where_we_parse_each_definition_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from moto.stepfunctions.parser import models
    from moto.stepfunctions.parser.backend.execution_worker import ExecutionWorker

    # moto parses through the class's attribute, where the patch goes
    for calls_it in (ExecutionWorker._get_evaluation_entrypoint, models):
        assert "AmazonStateLanguageParser.parse(" in inspect.getsource(calls_it), calls_it

    parses: list[str] = []

    def counted(definition: str) -> Any:
        parses.append(definition)
        return ("program of", definition), ("tree of", definition)

    monkeypatch.setattr(moto_patches, "MOTOS_PARSE", counted)
    moto_patches.parsed.cache_clear()
    try:
        one = json.dumps({"StartAt": "A", "States": {"A": {"Type": "Pass", "End": True}}})
        other = json.dumps({"StartAt": "B", "States": {"B": {"Type": "Succeed"}}})
        first = moto_patches.parsed(one)
        assert moto_patches.parsed(one) is first
        assert moto_patches.parsed(other) == (("program of", other), ("tree of", other))
        assert parses == [one, other]
    finally:
        moto_patches.parsed.cache_clear()


def test_a_definition_that_does_not_parse_is_refused_every_time() -> None:
    from moto.stepfunctions.parser.asl.parse.asl_parser import ASLParserException

    for _ in range(2):
        with pytest.raises(ASLParserException):
            moto_patches.parsed('{"StartAt": "A", "States": {"A": {"Type": "Nope"}}}')
