"""The SQLite layer's build: pinned once (by version and by hash), fetched once, named by
its content, and a clear stop when pip cannot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from infra import layers
from infra.layers import (
    COMPLETE_MARKER,
    CONTENT,
    LayerBuildError,
    WheelLayer,
    cached,
    check_wheels,
    wheel_layer_code,
)
from infra.runtime import (
    PYTHON_RUNTIME,
    SQLEAN_WHEEL_SHA256,
    python_version,
    sqlean_version,
    sqlean_wheel_sha256,
)

ARM_SHA = "3725a94c80a64740489aa5765f9c6d11fa428b7d557c53c2197d51305cbe70a8"
LAYER = WheelLayer("sqlean.py==3.50.4.5", "arm64", "3.13", ARM_SHA)


def _site(root: Path, tag: str) -> Path:
    dist_info = root / "sqlean_py-3.50.4.5.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "WHEEL").write_text(f"Wheel-Version: 1.0\nTag: {tag}\n", encoding="utf-8")
    return root


class FakePip:
    """Stands in for ``python -m pip install --target ...``."""

    def __init__(self, *, tag: str = "cp313-cp313-manylinux_2_28_aarch64", fail: str = "") -> None:
        self.tag = tag
        self.fail = fail
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        self.commands.append(command)
        self.requirements = Path(command[command.index("--requirement") + 1]).read_text("utf-8")
        if self.fail:
            return subprocess.CompletedProcess(command, 1, "", self.fail)
        target = Path(command[command.index("--target") + 1])
        _site(target, self.tag)
        (target / "sqlean").mkdir()
        return subprocess.CompletedProcess(command, 0, "", "")


@pytest.fixture
def pip(monkeypatch: pytest.MonkeyPatch) -> FakePip:
    fake = FakePip()
    monkeypatch.setattr(layers, "_pip_install", _with_runner(fake))
    return fake


def _with_runner(runner: FakePip) -> Any:
    original = layers._pip_install

    def install(layer: WheelLayer, target: Path) -> None:
        original(layer, target, run=runner)

    return install


def test_the_pin_is_read_from_the_dev_extras_and_matches_the_runtime() -> None:
    assert sqlean_version().count(".") >= 2
    assert python_version() == "3.13" == PYTHON_RUNTIME.name.removeprefix("python")


def test_pip_is_asked_for_binary_wheels_of_the_runtimes_platform(tmp_path: Path) -> None:
    command = LAYER.pip_command(tmp_path / "python", tmp_path / "req.txt")
    assert command[:4] == [sys.executable, "-m", "pip", "install"]
    assert "--only-binary=:all:" in command and "--no-compile" in command
    platforms = [command[i + 1] for i, arg in enumerate(command) if arg == "--platform"]
    assert platforms == ["manylinux_2_28_aarch64", "manylinux2014_aarch64"]
    assert command[command.index("--python-version") + 1] == "3.13"
    assert command[command.index("--implementation") + 1] == "cp"
    x86_sha = SQLEAN_WHEEL_SHA256[("3.50.4.5", "x86_64", "3.13")]
    x86 = WheelLayer("sqlean.py==3.50.4.5", "x86_64", "3.13", x86_sha)
    assert "manylinux2014_x86_64" in x86.pip_command(tmp_path, tmp_path / "req.txt")
    assert x86.name == f"sqlean.py-3.50.4.5-x86_64-py3.13-{x86_sha[:12]}"


def test_pip_installs_only_the_wheel_with_the_pinned_hash(tmp_path: Path, pip: FakePip) -> None:
    # When the layer is fetched
    cached(LAYER, tmp_path)

    # Then pip was told to check every file against its hash, and given exactly one
    (command,) = pip.commands
    assert "--require-hashes" in command and "--no-deps" in command
    assert pip.requirements == f"sqlean.py==3.50.4.5 --hash=sha256:{ARM_SHA}\n"
    # and the cache entry says what it was built from
    marker = tmp_path / LAYER.name / COMPLETE_MARKER
    assert marker.read_text(encoding="utf-8") == pip.requirements


def test_a_hash_that_does_not_match_stops_the_synth(tmp_path: Path, monkeypatch: Any) -> None:
    mismatch = FakePip(
        fail="ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE."
    )
    monkeypatch.setattr(layers, "_pip_install", _with_runner(mismatch))
    with pytest.raises(LayerBuildError, match="DO NOT MATCH THE HASHES"):
        cached(LAYER, tmp_path)
    assert list(tmp_path.iterdir()) == [], "nothing half-made is left in the cache"


def test_every_architecture_has_the_hash_of_the_pinned_release() -> None:
    for arch in ("arm64", "x86_64"):
        assert len(sqlean_wheel_sha256(sqlean_version(), arch, python_version())) == 64


def test_a_release_without_a_pinned_hash_stops_the_synth_saying_where_it_goes() -> None:
    with pytest.raises(LayerBuildError, match="SQLEAN_WHEEL_SHA256"):
        sqlean_wheel_sha256("9.9.9", "arm64", "3.13")


@pytest.mark.parametrize("sha", ["", "abc", ARM_SHA.upper(), ARM_SHA + "0"])
def test_a_layer_needs_a_whole_sha256(sha: str) -> None:
    with pytest.raises(ValueError, match="sha256"):
        WheelLayer("sqlean.py==3.50.4.5", "arm64", "3.13", sha)


def _asset_hash(folder: Path) -> str:
    from aws_cdk import App, Stack

    stack = Stack(App(), "LayerHash")
    code = wheel_layer_code(LAYER, cache_root=folder)
    location = code.bind(stack).s3_location
    assert location is not None
    return str(location.object_key)


def test_the_layers_asset_hash_is_its_content(tmp_path: Path) -> None:
    # Given two caches holding the same installed package, and a third with one byte changed
    roots = [tmp_path / name for name in ("a", "b", "c")]
    for root in roots:
        site = _site(root / LAYER.name / CONTENT / "python", "cp313-cp313-manylinux_2_28_aarch64")
        (site / "sqlean").mkdir()
        (site / "sqlean" / "_sqlite3.so").write_bytes(b"\x7fELF same")
        (root / LAYER.name / COMPLETE_MARKER).write_text(LAYER.requirements_file, "utf-8")
    other = roots[2] / LAYER.name / CONTENT / "python" / "sqlean" / "_sqlite3.so"
    other.write_bytes(b"\x7fELF other")

    # Then the asset's hash is the same for the same files and differs for other files
    first, second, changed = (_asset_hash(root) for root in roots)
    assert first == second
    assert changed != first
    assert LAYER.name not in first, "the hash is not the folder's name"


@pytest.mark.parametrize("requirement", ["sqlean.py", "sqlean.py>=3.50", "sqlean.py==latest"])
def test_a_layer_needs_an_exact_pin(requirement: str) -> None:
    with pytest.raises(ValueError, match="exact"):
        WheelLayer(requirement, "arm64", "3.13", ARM_SHA)


def test_the_download_is_cached_and_reused(tmp_path: Path, pip: FakePip) -> None:
    first = cached(LAYER, tmp_path)
    assert (first / COMPLETE_MARKER).read_text(encoding="utf-8") == LAYER.requirements_file
    assert (first / CONTENT / "python" / "sqlean").is_dir()
    again = cached(LAYER, tmp_path)
    assert again == first
    assert len(pip.commands) == 1, "the second synth copies from the cache"
    assert [p.name for p in tmp_path.iterdir()] == [LAYER.name], "no staging left behind"


def test_an_interrupted_download_is_not_trusted(tmp_path: Path, pip: FakePip) -> None:
    (tmp_path / LAYER.name / CONTENT).mkdir(parents=True)  # no marker: pip never finished
    cached(LAYER, tmp_path)
    assert len(pip.commands) == 1
    assert (tmp_path / LAYER.name / COMPLETE_MARKER).is_file()


def test_when_pip_cannot_fetch_the_synth_stops_saying_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    offline = FakePip(fail="ERROR: Could not find a version that satisfies the requirement")
    monkeypatch.setattr(layers, "_pip_install", _with_runner(offline))
    with pytest.raises(LayerBuildError) as caught:
        cached(LAYER, tmp_path)
    message = str(caught.value)
    assert "sqlean.py==3.50.4.5" in message and "manylinux2014_aarch64" in message
    assert "Could not find a version" in message
    assert "without Docker" in message and LAYER.name in message
    assert list(tmp_path.iterdir()) == [], "nothing half-made is left in the cache"


def test_when_pip_itself_is_missing_the_message_says_so(tmp_path: Path) -> None:
    def missing(*_: Any, **__: Any) -> subprocess.CompletedProcess[str]:
        raise FileNotFoundError("python")

    with pytest.raises(LayerBuildError, match="could not run pip"):
        layers._pip_install(LAYER, tmp_path / "python", run=missing)


@pytest.mark.parametrize(
    ("tag", "ok"),
    [
        ("cp313-cp313-manylinux_2_28_aarch64", True),
        ("cp313-cp313-manylinux_2_17_aarch64.manylinux2014_aarch64", True),
        ("py3-none-any", True),
        ("cp313-cp313-manylinux_2_28_x86_64", False),
        ("cp312-cp312-manylinux_2_28_aarch64", False),
    ],
)
def test_wheels_for_another_platform_are_refused(tmp_path: Path, tag: str, ok: bool) -> None:
    site = _site(tmp_path / "python", tag)
    if ok:
        check_wheels(site, LAYER)
    else:
        with pytest.raises(LayerBuildError, match="another platform"):
            check_wheels(site, LAYER)
