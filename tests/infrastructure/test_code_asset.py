"""The functions' code asset ships bytecode for the runtime's Python, deterministically."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
from aws_cdk import App, Stack
from aws_cdk import aws_lambda as lambda_

from infra import code_asset, names
from infra.code_asset import ASSET_EXCLUDE, BytecodeWarning, function_code, interpreter, staged
from infra.runtime import python_version

RUNTIME_PYTHON = python_version()
FOUND = interpreter(RUNTIME_PYTHON)
needs_runtime_python = pytest.mark.skipif(
    FOUND is None,
    reason=f"no python{RUNTIME_PYTHON} on this machine (PATH, pyenv): nothing compiles bytecode "
    "for the runtime, so the asset ships sources only (tested below)",
)
UNCHECKED_HASH = 0b01
"""PEP 552's flags word: hash-based (bit 0), source not checked (bit 1 clear)."""


def _asset_hash(code: lambda_.AssetCode) -> str:
    location = code.bind(Stack(App(), "CodeHash")).s3_location
    assert location is not None
    return str(location.object_key)


def _stage(cache_root: Path, functions_dir: Path = names.FUNCTIONS_DIR) -> Path:
    assert FOUND is not None
    python, version = FOUND
    return staged(python, version, functions_dir, cache_root)


def _small_functions(root: Path) -> Path:
    (root / "tool" / "__pycache__").mkdir(parents=True)
    (root / "tool" / "__init__.py").write_text("", encoding="utf-8")
    (root / "tool" / "handler.py").write_text(
        "KINDS = {'a', 'b', 'c', 'd'}\n\ndef lambda_handler(event, context):\n"
        "    return event in KINDS\n",
        encoding="utf-8",
    )
    (root / "tool" / "__pycache__" / "handler.cpython-311.pyc").write_bytes(b"stale")
    return root


@needs_runtime_python
def test_every_module_ships_unchecked_hash_bytecode_for_the_runtime(tmp_path: Path) -> None:
    # Given the functions' code asset staged with the runtime's Python
    asset = _stage(tmp_path)
    tag = "cpython-" + RUNTIME_PYTHON.replace(".", "")

    # Then every module has its pyc, and it is loaded without reading the source's time
    modules = sorted(asset.rglob("*.py"))
    assert any(p.relative_to(asset).as_posix() == "compose_response/handler.py" for p in modules)
    for module in modules:
        pyc = module.parent / "__pycache__" / f"{module.stem}.{tag}.pyc"
        assert pyc.is_file(), f"{module.relative_to(asset)} ships no {tag} bytecode"
        flags = int.from_bytes(pyc.read_bytes()[4:8], "little")
        assert flags == UNCHECKED_HASH, f"{pyc.relative_to(asset)}: flags {flags:#b}"
    # And no bytecode of another Python (the working tree's own) rides along
    assert {p.name.split(".")[-2] for p in asset.rglob("*.pyc")} == {tag}


@needs_runtime_python
def test_the_asset_hash_is_the_same_for_the_same_sources(tmp_path: Path) -> None:
    # Given the same sources staged twice, into two caches, and once with a change
    first, second = (_stage(tmp_path / name) for name in ("a", "b"))
    changed_sources = shutil.copytree(
        names.FUNCTIONS_DIR, tmp_path / "functions", ignore=shutil.ignore_patterns("__pycache__")
    )
    handler = changed_sources / "compose_response" / "handler.py"
    handler.write_text(handler.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    changed = _stage(tmp_path / "c", changed_sources)

    # Then the bytecode and the asset's hash are the same, and differ for other sources
    pycs = sorted(p.relative_to(first) for p in first.rglob("*.pyc"))
    assert [(first / p).read_bytes() for p in pycs] == [(second / p).read_bytes() for p in pycs]
    hashes = [_asset_hash(lambda_.Code.from_asset(str(a))) for a in (first, second, changed)]
    assert hashes[0] == hashes[1]
    assert hashes[2] != hashes[0]


@needs_runtime_python
def test_the_staged_asset_is_reused_while_the_sources_are_unchanged(tmp_path: Path) -> None:
    # Given a staged asset
    sources = _small_functions(tmp_path / "functions")
    first = _stage(tmp_path / "cache", sources)

    # When it is asked for again by an interpreter that cannot run, for the same sources
    again = staged(tmp_path / "no-python", FOUND[1] if FOUND else "", sources, tmp_path / "cache")

    # Then the cached one is used, with nothing compiled and no stale bytecode copied
    assert again == first
    assert not (first / "tool" / "__pycache__" / "handler.cpython-311.pyc").exists()
    assert len(list((tmp_path / "cache").iterdir())) == 1


def test_without_the_runtimes_python_the_asset_is_sources_only_and_synth_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a machine with no interpreter of the runtime's version
    monkeypatch.setattr(code_asset, "interpreter", lambda version: None)
    sources = _small_functions(tmp_path / "functions")

    # When the code asset is made
    with pytest.warns(BytecodeWarning, match=f"no python{RUNTIME_PYTHON}.*sources only"):
        code = function_code(RUNTIME_PYTHON, sources, tmp_path / "cache")

    # Then it is the sources as they are, without their bytecode, and nothing was staged
    without_bytecode = lambda_.Code.from_asset(str(sources), exclude=ASSET_EXCLUDE)
    assert code.path == str(sources)
    assert _asset_hash(code) == _asset_hash(without_bytecode)
    assert not (tmp_path / "cache").exists()


def test_an_interpreter_of_another_version_is_not_used() -> None:
    assert interpreter("3.99") is None


def test_with_the_runtimes_python_synth_gives_no_warning(tmp_path: Path) -> None:
    if FOUND is None:
        pytest.skip(f"no python{RUNTIME_PYTHON} here: the warning is expected")
    sources = _small_functions(tmp_path / "functions")
    with warnings.catch_warnings():
        warnings.simplefilter("error", BytecodeWarning)
        code = function_code(RUNTIME_PYTHON, sources, tmp_path / "cache")
    assert Path(code.path).is_relative_to(tmp_path / "cache")
