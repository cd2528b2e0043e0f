"""A new package under ``functions/`` sorts with the project's own imports, with no entry.

ruff finds first-party packages in its ``src`` folders (``pyproject.toml``); a list of
names kept by hand would make a new tool's package fail the import order until added.
"""

from __future__ import annotations

import subprocess
import sys

from infra import names

RUFF_IMPORT_ORDER = (sys.executable, "-m", "ruff", "check", "--select", "I")


def _ruff_import_order(source: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUFF_IMPORT_ORDER, "--stdin-filename", "storechat/probe.py", "-"],
        input=source,
        cwd=names.ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_every_package_under_functions_is_first_party() -> None:
    # Given every package under functions/ imported below a third-party import, in the
    # first-party block beside the local package
    packages = sorted(p.parent.name for p in (names.ROOT / "functions").glob("*/__init__.py"))
    assert {"shared", "registry", "converse", "lookup_inventory"} <= set(packages)
    first_party = sorted([*packages, "storechat"])
    source = "\n".join(["import pydantic", "", *(f"import {name}" for name in first_party), ""])
    # When ruff checks the import order, Then it accepts it as it stands
    result = _ruff_import_order(source)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_package_ruff_does_not_know_would_be_sorted_as_third_party() -> None:
    # Given a name that is no package of the project, in the same place: the check above
    # can fail, ruff reads such a name as third-party and wants it moved
    source = "import pydantic\n\nimport no_such_tool_package\nimport storechat\n"
    result = _ruff_import_order(source)
    assert result.returncode != 0 and "I001" in result.stdout, result.stdout
