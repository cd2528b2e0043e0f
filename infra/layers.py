"""Lambda layers made of binary wheels, built at synth by pip and without Docker.

The one storechat needs is ``sqlean.py``: SQLite 3.50 built with FTS5, for the two
functions that build or open search snapshots (the indexer and the catalog tool).
The python3.13 runtime's own SQLite (Amazon Linux 2023's) is built with FTS5 too,
the way Fedora's is, but that cannot be shown from here; ``shared/search/driver.py``
uses the standard library's ``sqlite3`` when it has FTS5 and ``sqlean`` when not, so
the layer is what makes search work on either.

pip downloads the wheel for the functions' architecture and Python version with
``--platform``/``--python-version``/``--only-binary=:all:``: binary wheels only, so
nothing is compiled and neither Docker nor a cross-compiler is needed. The wheel is
pinned by its sha256 (``--require-hashes``): a wheel the index serves with other bytes
stops the synth instead of reaching the functions. The result is kept in
``.cache/layers/<requirement>-<arch>-py<version>-<sha256 prefix>/`` (git-ignored), so
each later synth uses it instead of downloading it again, and the layer's asset is
that folder: its hash is its content's. If pip cannot get the wheel (no network, an
unknown version, a hash that does not match), the synth stops with
:class:`LayerBuildError` saying so, instead of falling back to Docker.
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
from typing import Literal

from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra import names

Architecture = Literal["arm64", "x86_64"]

PIP_ARCHITECTURE: dict[Architecture, str] = {"arm64": "aarch64", "x86_64": "x86_64"}
# The python3.12/3.13 runtimes run on Amazon Linux 2023 (glibc 2.34): wheels for
# manylinux_2_28 and the older manylinux2014 (glibc 2.17) both run there.
PLATFORMS: tuple[str, ...] = ("manylinux_2_28_{arch}", "manylinux2014_{arch}")
COMPLETE_MARKER = "requirement.txt"
"""Written in a cache entry once pip has succeeded (the requirement and its hash): an
entry without it is not used."""
CONTENT = "layer"
"""The folder of a cache entry that is the layer's asset (``python/...`` inside it)."""
PIP_TIMEOUT_S = 600

Runner = Callable[..., subprocess.CompletedProcess[str]]


class LayerBuildError(RuntimeError):
    """The layer's wheels could not be fetched; the message says what to do."""


@dataclass(frozen=True)
class WheelLayer:
    """One requirement (``name==version``) for one architecture and Python version,
    pinned by the sha256 of the wheel pip may install for them."""

    requirement: str
    architecture: Architecture
    python_version: str
    """``3.13``: what ``--python-version`` and the wheel's ``cp313`` tag mean."""
    sha256: str
    """The wheel's sha256, in hex: pip installs nothing else."""

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9._-]+==[0-9][A-Za-z0-9.]*", self.requirement):
            raise ValueError(f"{self.requirement!r}: a layer needs an exact name==version pin")
        if not re.fullmatch(r"3\.\d+", self.python_version):
            raise ValueError(f"{self.python_version!r} is not a Python version like 3.13")
        if not re.fullmatch(r"[0-9a-f]{64}", self.sha256):
            raise ValueError(f"{self.sha256!r} is not a sha256 in lower-case hex")

    @property
    def name(self) -> str:
        """``sqlean.py-3.50.4.5-aarch64-py3.13-3725a94c80a6``: the cache folder. The hash
        is in it, so a wheel pinned anew is fetched anew."""
        pinned = self.requirement.replace("==", "-")
        arch = PIP_ARCHITECTURE[self.architecture]
        return f"{pinned}-{arch}-py{self.python_version}-{self.sha256[:12]}"

    @property
    def requirements_file(self) -> str:
        """What pip reads with ``--require-hashes``: the pin and the one hash it accepts."""
        return f"{self.requirement} --hash=sha256:{self.sha256}\n"

    @property
    def abi_tag(self) -> str:
        return "cp" + self.python_version.replace(".", "")

    def pip_command(self, target: Path, requirements: Path) -> list[str]:
        """Install what ``requirements`` (:attr:`requirements_file`) names into ``target``."""
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
            "--no-deps",
            "--require-hashes",
            "--disable-pip-version-check",
            "--quiet",
            "--requirement",
            str(requirements),
        ]


def cached(layer: WheelLayer, cache_root: Path = names.LAYER_CACHE_DIR) -> Path:
    """The cache entry of ``layer`` (:data:`CONTENT` and :data:`COMPLETE_MARKER`),
    downloading it first if needed.

    pip installs into a temporary folder beside the cache entry, which is renamed into
    place only once complete: two synths at once (the tests run two) both succeed, and
    an interrupted download leaves nothing behind that a later synth would trust.
    """
    folder = cache_root / layer.name
    if _complete(folder):
        return folder
    cache_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{layer.name}.", dir=cache_root))
    try:
        _pip_install(layer, staging / CONTENT / "python")
        check_wheels(staging / CONTENT / "python", layer)
        (staging / COMPLETE_MARKER).write_text(layer.requirements_file, encoding="utf-8")
        if folder.exists() and not _complete(folder):
            shutil.rmtree(folder)  # a leftover from an older, interrupted layout
        try:
            os.replace(staging, folder)
        except OSError:
            if not _complete(folder):  # not another synth's win: a failure
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _complete(folder: Path) -> bool:
    return (folder / COMPLETE_MARKER).is_file() and (folder / CONTENT).is_dir()


def _pip_install(layer: WheelLayer, target: Path, run: Runner = subprocess.run) -> None:
    requirements = target.parent / f".{layer.name}.requirements.txt"
    requirements.parent.mkdir(parents=True, exist_ok=True)
    requirements.write_text(layer.requirements_file, encoding="utf-8")
    command = layer.pip_command(target, requirements)
    advice = (
        f"The {layer.name} Lambda layer is built at synth, without Docker, by pip "
        "downloading a binary wheel with the pinned sha256 from the package index: connect "
        "this machine to it, or put the package installed from that wheel under "
        f"{names.LAYER_CACHE_DIR / layer.name / CONTENT / 'python'} with a {COMPLETE_MARKER} "
        f"in {names.LAYER_CACHE_DIR / layer.name}."
    )
    try:
        result = run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LayerBuildError(f"could not run pip ({exc}). {advice}") from exc
    finally:
        requirements.unlink(missing_ok=True)
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


def wheel_layer_code(
    layer: WheelLayer, *, cache_root: Path = names.LAYER_CACHE_DIR
) -> lambda_.AssetCode:
    """A layer's code asset (``python/...``): the cache entry's :data:`CONTENT`, fetched
    first if needed, so that a failure is a plain :class:`LayerBuildError` from the app.

    CDK hashes the asset from that folder's files, so the asset changes exactly when
    what the functions get does.
    """
    return lambda_.Code.from_asset(str(cached(layer, cache_root) / CONTENT))


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
        code=wheel_layer_code(layer),
        compatible_runtimes=[runtime],
        compatible_architectures=[architecture],
        description=description,
    )
