"""The shared packages import one way, downward: a lower package knows nothing of the
ones above it (``functions/shared/__init__.py`` draws the layers)."""

from __future__ import annotations

import ast
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "functions" / "shared"

# Bottom to top; a package imports only packages of lower rows.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"config", "text", "catalog"}),
    frozenset({"runtime"}),
    frozenset({"products", "store"}),
    frozenset({"trace", "search"}),
    frozenset({"api", "platform"}),
    frozenset({"tools"}),
)


def _row(package: str) -> int:
    return next(row for row, packages in enumerate(LAYERS) if package in packages)


def _package_imports() -> dict[str, set[str]]:
    """Each shared package, and the other shared packages its modules import anywhere."""
    graph: dict[str, set[str]] = {}
    for path in SHARED.rglob("*.py"):
        parts = path.relative_to(SHARED).parts
        if len(parts) == 1:
            continue
        found = graph.setdefault(parts[0], set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith("shared."):
                    found.add(name.split(".")[1])
        found.discard(parts[0])
    return graph


def test_every_shared_module_lives_in_a_package_of_the_layers() -> None:
    # Given the files of functions/shared, When they are listed
    loose = sorted(p.name for p in SHARED.glob("*.py") if p.name != "__init__.py")
    packages = {p.name for p in SHARED.iterdir() if (p / "__init__.py").is_file()}
    # Then none sits loose beside the packages, and each package has its row
    assert loose == []
    assert packages == set().union(*LAYERS)


def test_no_shared_package_imports_one_of_its_own_row_or_above() -> None:
    # Given every import in the shared packages, at the top or inside a function
    graph = _package_imports()
    assert "runtime" in graph["products"] and "api" in graph["tools"]
    # Then each imports only packages of lower rows
    upward = {
        (package, other)
        for package, others in graph.items()
        for other in others
        if _row(other) >= _row(package)
    }
    assert upward == set()
