"""Tables kept in files, so that what they hold survives between CLI calls.

moto's tables live only as long as the process. Two of them outlive it: the sessions
(``<data_dir>/sessions.json``), so that a conversation goes on, and the daily spend
counters (``<data_dir>/spend.json``), so that a day's model budget holds across
``storechat ask`` calls. Each file holds its table's items in DynamoDB's JSON, written
whole (the sessions after every successful turn, the spend after every turn, whatever
became of it); the next process puts back those whose ``expiresAt`` has not passed.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Item = dict[str, Any]


class TableFile:
    """One file of saved items, read into and written from one table."""

    def __init__(
        self,
        path: Path,
        dynamodb: Any,
        table: str,
        *,
        clock: Callable[[], float] = time.time,
        lasting: bool = False,
    ) -> None:
        """``lasting``: items without ``expiresAt`` are kept (the sync table's products),
        not dropped as expired."""
        self.path = path
        self._lasting = lasting
        self._dynamodb = dynamodb
        self._table = table
        self._clock = clock
        self._save_lock = threading.Lock()

    def load(self) -> int:
        """Put the saved items that have not expired into the table; returns how many.

        A damaged file costs the shopper their history (or the day's count), not the
        question: it is reported on stderr and ignored.
        """
        if not self.path.exists():
            return 0
        try:
            items = _live_items(self.path.read_text(encoding="utf-8"), self._clock(), self._lasting)
        except (OSError, ValueError, TypeError) as exc:
            print(f"warning: ignoring unreadable {self.path} ({exc})", file=sys.stderr)
            return 0
        for item in items:
            self._dynamodb.put_item(TableName=self._table, Item=item)
        return len(items)

    def save(self) -> None:
        """Write the whole table to the file, atomically: a reader sees the old or the new."""
        with self._save_lock:
            items: list[Item] = []
            for page in self._dynamodb.get_paginator("scan").paginate(TableName=self._table):
                items.extend(page["Items"])
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(
                dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
            )
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(items, out)
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise


def _live_items(text: str, now: float, lasting: bool = False) -> list[Item]:
    """The items in ``text`` whose ``expiresAt`` is still ahead.

    Raises ValueError or TypeError when ``text`` is not what :meth:`TableFile.save` writes.
    """
    items = json.loads(text)
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise ValueError("not a list of DynamoDB items")
    live = []
    for item in items:
        if lasting and "expiresAt" not in item:
            live.append(item)
            continue
        expires = item.get("expiresAt", {})
        if not isinstance(expires, dict):
            raise ValueError("an expiresAt that is not a DynamoDB number")
        if float(expires.get("N", "0")) > now:
            live.append(item)
    return live
