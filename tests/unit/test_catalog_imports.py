"""The catalog package's modules import one another one way: no cycle, not even one hidden
by an import inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "storechat" / "catalog"
PREFIX = "storechat.catalog"


def _imports() -> dict[str, set[str]]:
    """Each module of the package, and the package's modules it imports anywhere in it."""
    names = {
        PREFIX if path.stem == "__init__" else f"{PREFIX}.{path.stem}": path
        for path in PACKAGE.glob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {other for other in found if other in names and other != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph``, as the modules along it, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for other in sorted(graph[name]):
            found = visit(other, [*path, name])
            if found:
                return found
        done.add(name)
        return None

    for name in sorted(graph):
        found = visit(name, [])
        if found:
            return found
    return None


def test_the_catalog_modules_import_one_another_without_a_cycle() -> None:
    # Given every import in the package's modules, at the top or inside a function
    graph = _imports()
    assert f"{PREFIX}.own_format" in graph[f"{PREFIX}.rows"]

    # Then following them never leads back to where it started
    assert _cycle(graph) is None


def test_a_cycle_is_found_where_there_is_one() -> None:
    # Given a graph where a reader and the rows it feeds import each other
    graph = {"rows": {"own_format"}, "own_format": {"rows", "errors"}, "errors": set()}
    # Then the cycle is named
    assert _cycle(graph) == ["own_format", "rows", "own_format"]
