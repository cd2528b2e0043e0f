"""Lambda layers made of binary wheels, built at synth by pip and without Docker.

The one storechat needs is ``sqlean.py``: SQLite 3.50 built with FTS5, for the two
functions that build or open search snapshots (the indexer and the catalog tool).
The python3.13 runtime's own SQLite (Amazon Linux 2023's) is built with FTS5 too,
the way Fedora's is, but that cannot be shown from here; ``shared/search/driver.py``
uses the standard library's ``sqlite3`` when it has FTS5 and ``sqlean`` when not, so
the layer is what makes search work on either.

pip downloads the wheel for the functions' architecture and Python version with
``--platform``/``--python-version``/``--only-binary=:all:``: binary wheels only, so
nothing is compiled and neither Docker nor a cross-compiler is needed. The result is
kept in ``.cache/layers/<requirement>-<arch>-py<version>/`` (git-ignored), so each
later synth copies it instead of downloading it again. If pip cannot get the wheel
(no network, an unknown version), the synth stops with :class:`LayerBuildError`
saying so, instead of falling back to Docker.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jsii
from aws_cdk import AssetHashType, BundlingOptions, ILocalBundling
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra import names

Architecture = Literal["arm64", "x86_64"]

PIP_ARCHITECTURE: dict[Architecture, str] = {"arm64": "aarch64", "x86_64": "x86_64"}
# The python3.12/3.13 runtimes run on Amazon Linux 2023 (glibc 2.34): wheels for
# manylinux_2_28 and the older manylinux2014 (glibc 2.17) both run there.
PLATFORMS: tuple[str, ...] = ("manylinux_2_28_{arch}", "manylinux2014_{arch}")
COMPLETE_MARKER = "requirement.txt"
"""Written beside ``python/`` once pip has succeeded: a folder without it is not used."""
PIP_TIMEOUT_S = 600

Runner = Callable[..., subprocess.CompletedProcess[str]]


class LayerBuildError(RuntimeError):
    """The layer's wheels could not be fetched; the message says what to do."""


@dataclass(frozen=True)
class WheelLayer:
    """One requirement (``name==version``) for one architecture and Python version."""

    requirement: str
    architecture: Architecture
    python_version: str
    """``3.13``: what ``--python-version`` and the wheel's ``cp313`` tag mean."""

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9._-]+==[0-9][A-Za-z0-9.]*", self.requirement):
            raise ValueError(f"{self.requirement!r}: a layer needs an exact name==version pin")
        if not re.fullmatch(r"3\.\d+", self.python_version):
            raise ValueError(f"{self.python_version!r} is not a Python version like 3.13")

    @property
    def name(self) -> str:
        """``sqlean.py-3.50.4.5-aarch64-py3.13``: the cache folder and the asset's hash."""
        pinned = self.requirement.replace("==", "-")
        return f"{pinned}-{PIP_ARCHITECTURE[self.architecture]}-py{self.python_version}"

    @property
    def abi_tag(self) -> str:
        return "cp" + self.python_version.replace(".", "")

    def pip_command(self, target: Path) -> list[str]:
        arch = PIP_ARCHITECTURE[self.architecture]
        platforms = [arg for p in PLATFORMS for arg in ("--platform", p.format(arch=arch))]
        return [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--target",
            str(target),
            *platforms,
            "--implementation",
            "cp",
            "--python-version",
            self.python_version,
            "--only-binary=:all:",
            # Bytecode compiled by the Python running synth would not match the runtime's.
            "--no-compile",
            "--disable-pip-version-check",
            "--quiet",
            self.requirement,
        ]


def cached(layer: WheelLayer, cache_root: Path = names.LAYER_CACHE_DIR) -> Path:
    """The folder holding ``python/`` for ``layer``, downloading it first if needed.

    pip installs into a temporary folder beside the cache entry, which is renamed into
    place only once complete: two synths at once (the tests run two) both succeed, and
    an interrupted download leaves nothing behind that a later synth would trust.
    """
    folder = cache_root / layer.name
    if (folder / COMPLETE_MARKER).is_file():
        return folder
    cache_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{layer.name}.", dir=cache_root))
    try:
        _pip_install(layer, staging / "python")
        check_wheels(staging / "python", layer)
        (staging / COMPLETE_MARKER).write_text(layer.requirement + "\n", encoding="utf-8")
        if folder.exists() and not (folder / COMPLETE_MARKER).is_file():
            shutil.rmtree(folder)  # a leftover from an older, interrupted layout
        try:
            os.replace(staging, folder)
        except OSError:
            if not (folder / COMPLETE_MARKER).is_file():  # not another synth's win: a failure
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _pip_install(layer: WheelLayer, target: Path, run: Runner = subprocess.run) -> None:
    command = layer.pip_command(target)
    advice = (
        f"The {layer.name} Lambda layer is built at synth, without Docker, by pip "
        "downloading a binary wheel from the package index: connect this machine to it, or "
        f"put the installed package under {names.LAYER_CACHE_DIR / layer.name / 'python'} "
        f"with a {COMPLETE_MARKER} beside it."
    )
    try:
        result = run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LayerBuildError(f"could not run pip ({exc}). {advice}") from exc
    if result.returncode != 0:
        said = (result.stderr or result.stdout).strip().splitlines()[-6:]
        arch = PIP_ARCHITECTURE[layer.architecture]
        platforms = " or ".join(p.format(arch=arch) for p in PLATFORMS)
        raise LayerBuildError(
            f"pip could not fetch {layer.requirement} for {platforms} and "
            f"Python {layer.python_version} (exit {result.returncode}):\n  "
            + "\n  ".join(said)
            + f"\n{advice}"
        )


def check_wheels(site: Path, layer: WheelLayer) -> None:
    """Every wheel pip installed into ``site`` is for the layer's architecture and Python."""
    tags = [
        line.split(":", 1)[1].strip()
        for wheel in site.glob("*.dist-info/WHEEL")
        for line in wheel.read_text(encoding="utf-8").splitlines()
        if line.startswith("Tag:")
    ]
    if not tags:
        raise LayerBuildError(f"pip installed no wheel for {layer.requirement} into {site}")
    arch = PIP_ARCHITECTURE[layer.architecture]
    wrong = [
        tag
        for tag in tags
        if not tag.endswith("-any")
        and not (tag.startswith(f"{layer.abi_tag}-") and tag.endswith(f"_{arch}"))
    ]
    if wrong:
        raise LayerBuildError(f"{layer.name}: pip chose wheels for another platform: {wrong}")


@jsii.implements(ILocalBundling)
class _CopyFromCache:
    """CDK's local bundling: fill the asset's output folder from the cache (pip if empty)."""

    def __init__(self, layer: WheelLayer, cache_root: Path) -> None:
        self._layer = layer
        self._cache_root = cache_root

    def try_bundle(self, output_dir: str, *_: Any, **__: Any) -> bool:
        source = cached(self._layer, self._cache_root) / "python"
        shutil.copytree(source, Path(output_dir) / "python", dirs_exist_ok=True)
        return True


def wheel_layer_code(
    layer: WheelLayer, *, image_runtime: lambda_.Runtime, cache_root: Path = names.LAYER_CACHE_DIR
) -> lambda_.AssetCode:
    """A layer's code asset (``python/...``), named by the pin, the architecture and Python.

    The asset's hash is that name, so the asset changes exactly when one of them does.
    The wheels are fetched here, before CDK stages the asset, so that a failure is a
    plain :class:`LayerBuildError` from the app rather than one wrapped by CDK's bundling;
    local bundling then only copies. The runtime's bundling image is only named because
    CDK requires an image: Docker never runs.
    """
    cached(layer, cache_root)
    return lambda_.Code.from_asset(
        str(cache_root),
        asset_hash_type=AssetHashType.CUSTOM,
        asset_hash=layer.name,
        bundling=BundlingOptions(
            image=image_runtime.bundling_image,
            local=_CopyFromCache(layer, cache_root),
        ),
    )


def wheel_layer(
    scope: Construct,
    id: str,
    *,
    layer: WheelLayer,
    runtime: lambda_.Runtime,
    architecture: lambda_.Architecture,
    description: str,
) -> lambda_.LayerVersion:
    return lambda_.LayerVersion(
        scope,
        id,
        code=wheel_layer_code(layer, image_runtime=runtime),
        compatible_runtimes=[runtime],
        compatible_architectures=[architecture],
        description=description,
    )
