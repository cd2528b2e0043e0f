"""The functions' code asset: ``functions/``'s sources with bytecode for the runtime's Python.

Lambda's ``/var/task`` is read-only, so a module without a ``.pyc`` beside it is compiled
from source at every cold start. At synth, :func:`function_code` copies ``functions/``
(sources only: :data:`ASSET_EXCLUDE`) into ``.cache/code/<hash>-<python tag>/`` (git-ignored)
and compiles it there with the interpreter of the runtime's version (python3.13 for
python3.13), so the asset ships ``__pycache__/*.cpython-313.pyc`` for every module.

The bytecode is PEP 552's unchecked-hash kind: it holds a hash of its source instead of
a modification time, and Python loads it without reading the source again, so the
zip's timestamps do not matter. It is compiled deterministically (the same hash seed, the
file names it records as ``/var/task/...``, where Lambda unpacks the code), so the same
sources give the same files and the same asset hash on every synth by the same Python
release (another 3.13.x may write other bytecode, and a machine without one ships sources:
another asset, never a wrong one).
The staged folder is keyed by the sources' hash and the interpreter's version, and reused
while neither changes, as the layer cache is (``infra/layers.py``).

With no interpreter of the runtime's version on the machine (tried: ``python3.13`` on
``PATH``, then pyenv's installed versions), the asset is ``functions/``'s sources as
before, and synth warns once (:class:`BytecodeWarning`): the functions work the same,
their cold starts compile every module.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from infra import names

if TYPE_CHECKING:  # the bench compiles its asset copy the same way, without the CDK
    from aws_cdk import aws_lambda as lambda_

ASSET_EXCLUDE = [
    "**/__pycache__",
    "**/*.pyc",
    "**/.pytest_cache",
    "**/.mypy_cache",
    "**/.ruff_cache",
    "**/*.egg-info",
]
"""What never goes into the code asset from ``functions/``: the bytecode is compiled anew."""
TASK_ROOT = "/var/task"
"""Where Lambda unpacks the code asset: the file name each ``.pyc`` records."""
CONTENT = "asset"
"""The folder of a cache entry that is the code asset."""
COMPLETE_MARKER = "python.txt"
"""Written in a cache entry once compiled (the interpreter's version): an entry without it
is not used."""
COMPILE_TIMEOUT_S = 300


class BytecodeWarning(UserWarning):
    """The code asset ships without bytecode: no interpreter of the runtime's version."""


class BytecodeError(RuntimeError):
    """The runtime's Python could not compile ``functions/``; the message says which file."""


@cache
def interpreter(version: str) -> tuple[Path, str] | None:
    """An interpreter of Python ``version`` (``3.13``) on this machine, and its full
    ``sys.version``, or None. Each candidate is run: a pyenv shim of a version that is
    installed but not selected is on ``PATH`` and fails, so its installed copy is tried next.
    """
    for candidate in _candidates(version):
        found = _version_of(candidate)
        if found is not None and found.split(".")[:2] == version.split("."):
            return candidate, found
    return None


def _candidates(version: str) -> Iterator[Path]:
    on_path = shutil.which(f"python{version}")
    if on_path:
        yield Path(on_path)
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    yield from sorted((pyenv_root / "versions").glob(f"{version}.*/bin/python{version}"))


def _version_of(python: Path) -> str | None:
    try:
        done = subprocess.run(
            [str(python), "-c", "import sys; print(sys.version.split()[0])"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def ignored(patterns: list[str] = ASSET_EXCLUDE) -> list[str]:
    """:data:`ASSET_EXCLUDE` as names for ``shutil.ignore_patterns``."""
    return [pattern.removeprefix("**/") for pattern in patterns]


def sources_digest(functions_dir: Path, python_version: str) -> str:
    """A hash of every file the asset ships from ``functions_dir``, and of the interpreter
    that compiles them: a new source or a new Python is a new cache entry."""
    digest = hashlib.sha256(python_version.encode())
    for path in _files(functions_dir):
        digest.update(b"\0" + path.relative_to(functions_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _files(folder: Path) -> Iterator[Path]:
    """The files ``shutil.copytree`` copies with :func:`ignored`, in a stable order."""
    skip = shutil.ignore_patterns(*ignored())
    for root, dirs, files in os.walk(folder):
        dropped = skip(root, [*dirs, *files])
        dirs[:] = sorted(d for d in dirs if d not in dropped)
        yield from (Path(root) / f for f in sorted(files) if f not in dropped)


def compile_command(python: Path, folder: Path) -> list[str]:
    """compileall, deterministic: unchecked-hash pycs that record ``/var/task/...``."""
    return [
        str(python),
        "-m",
        "compileall",
        "-q",
        "--invalidation-mode",
        "unchecked-hash",
        "-d",
        TASK_ROOT,
        str(folder),
    ]


def staged(
    python: Path,
    python_version: str,
    functions_dir: Path = names.FUNCTIONS_DIR,
    cache_root: Path = names.CODE_CACHE_DIR,
) -> Path:
    """The cache entry's :data:`CONTENT` for these sources and this interpreter: a copy of
    ``functions_dir`` compiled by ``python``, made first if needed.

    Made in a temporary folder beside the entry and renamed into place once complete, so
    two synths at once both succeed and an interrupted one leaves nothing to trust.
    """
    tag = "cp" + "".join(python_version.split(".")[:2])
    folder = cache_root / f"{sources_digest(functions_dir, python_version)}-{tag}"
    if (folder / COMPLETE_MARKER).is_file():
        return folder / CONTENT
    cache_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=cache_root))
    try:
        shutil.copytree(functions_dir, staging / CONTENT, ignore=shutil.ignore_patterns(*ignored()))
        compile_bytecode(python, staging / CONTENT)
        (staging / COMPLETE_MARKER).write_text(python_version + "\n", encoding="utf-8")
        if folder.exists() and not (folder / COMPLETE_MARKER).is_file():
            shutil.rmtree(folder)  # a leftover of an interrupted synth
        try:
            os.replace(staging, folder)
        except OSError:
            if not (folder / COMPLETE_MARKER).is_file():  # not another synth's win
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder / CONTENT


def compile_bytecode(python: Path, folder: Path) -> None:
    """Compile every module under ``folder`` with ``python``: :func:`compile_command`."""
    # The hash seed orders the sets a module's constants hold; the caller's PYTHON*
    # settings (a PYTHONPATH, PYTHONDONTWRITEBYTECODE) are not the runtime's.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    try:
        done = subprocess.run(
            compile_command(python, folder),
            env={**env, "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BytecodeError(f"could not run {python} -m compileall ({exc})") from exc
    if done.returncode != 0:
        said = (done.stdout + done.stderr).strip().splitlines()[-8:]
        raise BytecodeError(
            f"{python} could not compile functions/ for the Lambda runtime:\n  " + "\n  ".join(said)
        )


def function_code(
    python_version: str,
    functions_dir: Path = names.FUNCTIONS_DIR,
    cache_root: Path = names.CODE_CACHE_DIR,
) -> lambda_.AssetCode:
    """Every function's code asset: ``functions_dir`` with bytecode for Python
    ``python_version`` when this machine has that interpreter, its sources only (and a
    :class:`BytecodeWarning`) when not. CDK hashes the asset from the files it holds."""
    from aws_cdk import aws_lambda as lambda_

    found = interpreter(python_version)
    if found is None:
        warnings.warn(
            f"no python{python_version} on this machine (PATH, pyenv): the functions' code "
            "asset ships sources only, and every cold start compiles them. Install Python "
            f"{python_version} where synth runs to ship its bytecode.",
            BytecodeWarning,
            stacklevel=2,
        )
        return lambda_.Code.from_asset(str(functions_dir), exclude=ASSET_EXCLUDE)
    python, full_version = found
    return lambda_.Code.from_asset(str(staged(python, full_version, functions_dir, cache_root)))
