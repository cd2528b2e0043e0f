"""Which SQLite the search engine runs on: the standard library's, if it has FTS5.

Python's ``sqlite3`` module links the SQLite of the machine it runs on. Most
builds enable FTS5 (Debian's, Fedora's and so Amazon Linux 2023's, python.org's
installers); a build without it would make every search fail. Then the engine
uses ``sqlean`` (the ``sqlean.py`` wheel: the same DB-API with its own SQLite
3.50 built with FTS5, for manylinux x86_64 and aarch64) when it is installed.
"""

from __future__ import annotations

import functools
import importlib
import os
import sqlite3
import urllib.parse
from pathlib import Path
from types import ModuleType
from typing import cast

from shared.search.errors import SearchEngineMissing


def has_fts5(module: ModuleType) -> bool:
    """Whether ``module`` (a DB-API SQLite module) can create an FTS5 table."""
    try:
        connection = module.connect(":memory:")
    except Exception:  # a module that cannot even open memory has no FTS5 either
        return False
    try:
        connection.execute("CREATE VIRTUAL TABLE probe USING fts5(body)")
        return True
    except module.Error:
        return False
    finally:
        connection.close()


@functools.cache
def sqlite_module() -> ModuleType:
    """The DB-API module to use: ``sqlite3`` when it has FTS5, else ``sqlean``."""
    if has_fts5(sqlite3):
        return sqlite3
    try:
        fallback = importlib.import_module("sqlean")
    except ImportError as exc:
        raise SearchEngineMissing(
            f"this Python's SQLite {sqlite3.sqlite_version} has no FTS5 and sqlean is missing"
        ) from exc
    if not has_fts5(fallback):
        raise SearchEngineMissing("neither sqlite3 nor sqlean has FTS5")
    return fallback


def read_only_uri(path: str | os.PathLike[str]) -> str:
    """A ``file:`` URI that opens ``path`` read-only as a file nobody changes (``immutable``:
    no locks, no journal checks), with any character of the path escaped."""
    return f"file:{urllib.parse.quote(str(Path(path).resolve()))}?mode=ro&immutable=1"


def connect(uri: str) -> sqlite3.Connection:
    """A connection to ``uri`` (a ``file:`` URI) that any thread may use and close."""
    module = sqlite_module()
    return cast(sqlite3.Connection, module.connect(uri, uri=True, check_same_thread=False))


def database_errors(*more: type[Exception]) -> tuple[type[Exception], ...]:
    """What a corrupt or missing database file raises while it is read (for either
    module), and ``more``."""
    module = sqlite_module()
    errors: tuple[type[Exception], ...] = (sqlite3.Error, *more)
    return (*errors, module.Error) if module is not sqlite3 else errors
