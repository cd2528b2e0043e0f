"""The chat's script: ES modules, each one concern, loaded from two entry points.

There is no build step. The hosted page (``index.html``) loads ``page.js`` as a module;
the widget's one tag loads ``widget.js``, a classic script that imports ``launcher.js``
from its own address. Both entries build the chat from the same modules (``view.js``,
``chat.js`` and what they import): one code, no copy. These checks read the files as the
browser would.
"""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
PAGE_ENTRY = "page.js"
LOADER = "widget.js"
WIDGET_ENTRY = "launcher.js"
SHARED = {"chat.js", "view.js"}
MAX_LINES = 400
_IMPORT = re.compile(r"""^import\s[^;]*?\sfrom\s+["']\./([\w.-]+)["'];""", re.MULTILINE | re.DOTALL)
_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+(\w+)", re.MULTILINE)


def _modules() -> dict[str, str]:
    return {
        path.name: path.read_text(encoding="utf-8")
        for path in sorted(WEB.glob("*.js"))
        if path.name != LOADER
    }


def _reached(entry: str, modules: dict[str, str]) -> set[str]:
    reached: set[str] = set()
    waiting = [entry]
    while waiting:
        name = waiting.pop()
        if name in reached:
            continue
        assert name in modules, f"{name} is imported but is not a file in web/"
        reached.add(name)
        waiting.extend(_IMPORT.findall(modules[name]))
    return reached


def test_the_page_loads_one_module_and_no_inline_script() -> None:
    page = (WEB / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*>", page)
    # The CSP allows the page's own files only ("script-src 'self'"): no inline code
    assert scripts == [f'<script type="module" src="./{PAGE_ENTRY}">']
    assert re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.DOTALL) == [""]
    assert " style=" not in page and "<style" not in page


def test_the_widgets_tag_loads_its_entry_from_its_own_address_and_nothing_else() -> None:
    loader = (WEB / LOADER).read_text(encoding="utf-8")
    # A classic script (the store's tag has no type): no static import, one dynamic one,
    # resolved against the script's own address, never the store page's
    assert not re.search(r"^\s*(import|export)\s", loader, re.MULTILINE)
    assert len(re.findall(r"\bimport\(", loader)) == 1
    assert f'import(new URL("{WIDGET_ENTRY}", base).href)' in loader
    assert "document.currentScript" in loader
    # Nothing on the page's window, no cookies, no eval of any kind
    for forbidden in (r"\bwindow\.\w+\s*=[^=]", r"document\.cookie", r"\beval\(", r"new Function"):
        assert not re.search(forbidden, loader), forbidden


def test_both_entries_build_the_chat_from_the_same_modules() -> None:
    modules = _modules()
    page, widget = _reached(PAGE_ENTRY, modules), _reached(WIDGET_ENTRY, modules)
    assert page | widget == set(modules), f"reached by neither: {set(modules) - page - widget}"
    # The chat (its elements and its conversation) is one code for both
    assert page & widget >= SHARED
    assert page - widget == {PAGE_ENTRY} and widget - page == {WIDGET_ENTRY}


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
    for name, source in {**_modules(), LOADER: (WEB / LOADER).read_text("utf-8")}.items():
        lines = source.count("\n")
        assert lines < MAX_LINES, f"{name}: {lines} lines"
        # Modules share through exports only: nothing is hung on the window or globalThis,
        # no cookie is read and no text becomes code
        assert not re.search(r"\b(window|globalThis|self)\.\w+\s*=[^=]", source), name
        assert "document.cookie" not in source, name
        assert not re.search(r"\beval\(|new Function\(|\.innerHTML\b|insertAdjacentHTML", source), (
            name
        )
        # and each says what it is for, first
        assert source.startswith("// "), name


def test_no_stylesheet_sizes_by_the_pages_root() -> None:
    # In the widget rem is the store page's root font size, which a theme may set to 4px
    for sheet in sorted(WEB.glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", sheet.read_text(encoding="utf-8"), flags=re.DOTALL)
        assert not re.search(r"\d(rem|vmin|vmax)\b", text), sheet.name
