"""A small, thread-safe, bounded cache with a time to live.

Warm Lambdas are reused and, locally, the Map runs tool calls on threads, so
every read and write happens under one lock. A loader runs outside the lock:
two threads that miss together may both load, which is cheaper than making
every other reader wait on a slow table.

Two bounds hold at once: at most ``max_entries`` keys, and at most ``max_items``
items over all values (a value's items are its ``len()``; anything without a
length counts one). The second keeps a huge catalog from growing a warm
container's memory without limit: the least recently used entries are evicted
until both hold, and a single value larger than ``max_items`` is returned to
its caller but not kept.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sized
from typing import Generic, TypeVar, cast

K = TypeVar("K")
V = TypeVar("V")

DEFAULT_MAX_ITEMS = 60_000


def _items_in(value: object) -> int:
    return len(value) if isinstance(value, Sized) else 1


class TTLCache(Generic[K, V]):
    def __init__(
        self,
        *,
        ttl_s: float,
        max_entries: int,
        max_items: int = DEFAULT_MAX_ITEMS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl_s = ttl_s
        self._max_entries = max_entries
        self._max_items = max_items
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: OrderedDict[K, tuple[float, V, int]] = OrderedDict()
        self._items = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: K) -> V | None:
        """The fresh value under ``key``, or None (counted as a miss)."""
        return self._lookup(key)[1]

    def _lookup(self, key: K) -> tuple[bool, V | None]:
        now = self._clock()
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] > now:
                self._entries.move_to_end(key)
                self.hits += 1
                return True, entry[1]
            self.misses += 1
            return False, None

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for the time to live, evicting the least recently used to fit."""
        size = _items_in(value)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._items -= old[2]
            if size > self._max_items:
                return
            self._entries[key] = (self._clock() + self._ttl_s, value, size)
            self._items += size
            while len(self._entries) > self._max_entries or self._items > self._max_items:
                _, (_, _, evicted) = self._entries.popitem(last=False)
                self._items -= evicted

    def get_or_load(self, key: K, loader: Callable[[], V]) -> V:
        found, cached = self._lookup(key)
        if found:
            return cast(V, cached)  # found: a stored V, which may itself be None
        value = loader()
        self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._items = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    @property
    def items(self) -> int:
        """How many items the cached values hold together."""
        with self._lock:
            return self._items
