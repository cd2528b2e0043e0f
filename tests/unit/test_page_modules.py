"""The chat page's script: ES modules, each one concern, loaded from one entry point.

The page has no build step: the browser loads ``index.html``, which loads ``app.js`` as
a module, which imports the rest. These checks read the files as the browser would.
"""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
ENTRY = "app.js"
MAX_LINES = 400
_IMPORT = re.compile(r"""^import\s[^;]*?\sfrom\s+["']\./([\w.-]+)["'];""", re.MULTILINE | re.DOTALL)
_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)", re.MULTILINE)


def _modules() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(WEB.glob("*.js"))}


def _imports(source: str) -> list[str]:
    return _IMPORT.findall(source)


def test_the_page_loads_one_module_and_no_inline_script() -> None:
    page = (WEB / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", page)
    # The CSP allows the page's own files only ("script-src 'self'"): no inline code
    assert scripts == [f'<script type="module" src="./{ENTRY}">']
    assert re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.DOTALL) == [""]


def test_every_module_is_a_file_beside_the_page_and_reached_from_the_entry() -> None:
    modules = _modules()
    reached: set[str] = set()
    waiting = [ENTRY]
    while waiting:
        name = waiting.pop()
        if name in reached:
            continue
        assert name in modules, f"{name} is imported but is not a file in web/"
        reached.add(name)
        waiting.extend(_imports(modules[name]))
    assert reached == set(modules), f"not imported by any module: {set(modules) - reached}"


def test_every_imported_name_is_exported_by_its_module() -> None:
    modules = _modules()
    exported = {name: set(_EXPORT.findall(source)) for name, source in modules.items()}
    for name, source in modules.items():
        for names, target in re.findall(
            r"""^import\s*\{([^}]*)\}\s*from\s+["']\./([\w.-]+)["'];""", source, re.MULTILINE
        ):
            wanted = {n.strip() for n in names.split(",") if n.strip()}
            missing = wanted - exported.get(target, set())
            assert not missing, f"{name} imports {missing} that {target} does not export"


def test_each_module_is_one_a_reader_can_hold_and_leaks_no_global() -> None:
    for name, source in _modules().items():
        lines = source.count("\n")
        assert lines < MAX_LINES, f"{name}: {lines} lines"
        # Modules share through exports only: nothing is hung on the window or globalThis
        assert not re.search(r"\b(window|globalThis|self)\.\w+\s*=[^=]", source), name
        # and each says what it is for, first
        assert source.startswith("// "), name
