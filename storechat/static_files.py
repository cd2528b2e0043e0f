"""The chat's files as the dev server serves them: which file a path names, and its type."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}


def find(web_dir: Path, path: str) -> Path | None:
    """The file under ``web/`` that ``path`` names, or ``None`` (never one outside it)."""
    relative = unquote(path).lstrip("/") or "index.html"
    parts = relative.split("/")
    if (
        "\x00" in relative
        or "\\" in relative
        or any(part in ("", ".", "..") or part.startswith(".") for part in parts)
    ):
        return None
    candidate = (web_dir / relative).resolve()
    try:
        found = candidate.is_relative_to(web_dir) and candidate.is_file()
    except OSError:  # a name longer than the file system allows, for one
        return None
    return candidate if found else None


def content_type(file: Path) -> str:
    """A browser requires a module's type to be JavaScript: every ``.js`` is."""
    return CONTENT_TYPES.get(file.suffix.lower()) or (
        mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    )
