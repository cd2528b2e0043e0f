"""A copy of ``functions/`` as the code asset deploys it, for the probes to import.

The deployed asset (``infra/code_asset.py``) holds the sources and their unchecked-hash
bytecode (PEP 552) compiled by python3.13, the runtime's Python. Python reads only
bytecode of its own version, so the copy here is compiled the same way (the same
excludes, the same ``compileall`` command) by the bench's own interpreter
(``sys.executable``): its figures model the deployed asset's bytecode with the bench's
Python. ``bytecode=False`` gives the sources alone, as the asset was before it shipped
bytecode (and still is where synth finds no python3.13).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from infra.code_asset import compile_bytecode, ignored
from infra.names import FUNCTIONS_DIR


def asset_copy(into: Path, *, bytecode: bool = True) -> Path:
    """``into/asset``: ``functions/``'s sources, with this interpreter's unchecked-hash
    bytecode unless ``bytecode`` is False."""
    target = into / "asset"
    shutil.copytree(FUNCTIONS_DIR, target, ignore=shutil.ignore_patterns(*ignored()))
    if bytecode:
        compile_bytecode(Path(sys.executable), target)
    return target


def describe(bytecode: bool = True) -> str:
    """How a figure measured on :func:`asset_copy` imported the code, for the report."""
    if not bytecode:
        return "the code compiled from source at every start, as an asset without bytecode"
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    return (
        "the code loaded from a copy of the deployed asset: its sources with unchecked-hash "
        f"bytecode, compiled by the bench's Python {version} (the deployed asset's by the "
        "runtime's python3.13), nothing written"
    )
