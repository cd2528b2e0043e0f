"""The SQLite layer's build: pinned once, fetched once, and a clear stop when pip cannot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from infra import layers
from infra.layers import COMPLETE_MARKER, LayerBuildError, WheelLayer, cached, check_wheels
from infra.runtime import PYTHON_RUNTIME, python_version, sqlean_version

LAYER = WheelLayer("sqlean.py==3.50.4.5", "arm64", "3.13")


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
    command = LAYER.pip_command(tmp_path / "python")
    assert command[:4] == [sys.executable, "-m", "pip", "install"]
    assert "--only-binary=:all:" in command and "--no-compile" in command
    platforms = [command[i + 1] for i, arg in enumerate(command) if arg == "--platform"]
    assert platforms == ["manylinux_2_28_aarch64", "manylinux2014_aarch64"]
    assert command[command.index("--python-version") + 1] == "3.13"
    assert command[command.index("--implementation") + 1] == "cp"
    assert command[-1] == "sqlean.py==3.50.4.5"
    x86 = WheelLayer("sqlean.py==3.50.4.5", "x86_64", "3.13")
    assert "manylinux2014_x86_64" in x86.pip_command(tmp_path)
    assert x86.name == "sqlean.py-3.50.4.5-x86_64-py3.13"


@pytest.mark.parametrize("requirement", ["sqlean.py", "sqlean.py>=3.50", "sqlean.py==latest"])
def test_a_layer_needs_an_exact_pin(requirement: str) -> None:
    with pytest.raises(ValueError, match="exact"):
        WheelLayer(requirement, "arm64", "3.13")


def test_the_download_is_cached_and_reused(tmp_path: Path, pip: FakePip) -> None:
    first = cached(LAYER, tmp_path)
    assert (first / COMPLETE_MARKER).read_text(encoding="utf-8").strip() == LAYER.requirement
    assert (first / "python" / "sqlean").is_dir()
    again = cached(LAYER, tmp_path)
    assert again == first
    assert len(pip.commands) == 1, "the second synth copies from the cache"
    assert [p.name for p in tmp_path.iterdir()] == [LAYER.name], "no staging left behind"


def test_an_interrupted_download_is_not_trusted(tmp_path: Path, pip: FakePip) -> None:
    (tmp_path / LAYER.name / "python").mkdir(parents=True)  # no marker: pip never finished
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
