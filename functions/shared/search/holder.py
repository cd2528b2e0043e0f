"""The snapshot a Lambda searches, and newer ones swapped in without a search waiting.

At a cold start there is nothing to search yet, so the first search loads the
latest snapshot itself. After that, a search never downloads anything: when a
check for a newer snapshot is due (at most every ``check_every_s``), the search
that finds it due hands :meth:`SnapshotHolder.refresh` to the holder's
``schedule`` as it ends, and is answered from the snapshot in use. The refresh
reads the pointer, downloads and checks a newer snapshot, and swaps it in for
the searches that start after it; a newer one that fails to load is reported
and skipped, and the old one keeps serving.

``schedule`` decides where the refresh runs: by default on a thread of its own
(the local runner); in Lambda, after the response has gone back
(``lookup_inventory/after_response.py``), with the time left before the
function's timeout as its deadline. A refresh that would not fit before its
deadline (judged by how long the last load took) is put off to the next search.

Each search holds a lease on the snapshot it started with, so a swap never
closes a file under a running search: a superseded snapshot's file is deleted
at the swap (a file still open stays readable) and it is closed as soon as its
last search ends, at once when none is running. ``/tmp`` then holds at most the
snapshot in use and the one being downloaded.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from shared.search.engine import SearchIndex
from shared.search.errors import SnapshotDeferred, SnapshotUnreadable
from shared.search.snapshot import SnapshotFile, open_snapshot

Refresh = Callable[[float | None], bool]
""":meth:`SnapshotHolder.refresh`: given a deadline (or None), True if it swapped."""
FetchLatest = Callable[[str | None, float | None], SnapshotFile | None]
"""``fetch_latest(current_version, deadline)``: the latest snapshot, downloaded, when it
is not ``current_version`` (None at a cold start); None when there is nothing newer.
It may raise, and :class:`SnapshotDeferred` past its deadline."""

LOAD_MARGIN = 1.5
"""A refresh starts only with this many times the last load's duration left (plus
:data:`LOAD_SLACK_S`): a catalog grows slowly, so the last load is a good estimate."""
LOAD_SLACK_S = 0.5


def in_background(refresh: Refresh) -> None:
    """Run ``refresh`` on a daemon thread of its own, without a deadline."""
    threading.Thread(target=refresh, args=(None,), name="snapshot-refresh", daemon=True).start()


class SnapshotHolder:
    """The snapshot a warm Lambda searches; see the module's docstring."""

    def __init__(
        self,
        fetch_latest: FetchLatest,
        *,
        check_every_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[SnapshotFile], SearchIndex] = open_snapshot,
        on_refresh_error: Callable[[Exception], None] | None = None,
        schedule: Callable[[Refresh], None] = in_background,
    ) -> None:
        self._fetch_latest = fetch_latest
        self._check_every_s = check_every_s
        self._clock = clock
        self._opener = opener
        self._on_refresh_error = on_refresh_error
        self._schedule = schedule
        self._lock = threading.Lock()  # the state below
        self._loading = threading.Lock()  # one cold-start load at a time
        self._refreshing = threading.Lock()  # one refresh at a time
        self._index: SearchIndex | None = None
        self._leases: dict[int, int] = {}
        self._retired: dict[int, SearchIndex] = {}
        self._checked_at = float("-inf")
        self._scheduled = False
        self.last_load_s = 0.0
        self.refresh_errors = 0

    @property
    def version(self) -> str | None:
        index = self._index
        return index.meta.version if index is not None else None

    # ------------------------------------------------------------------ searching

    def index(self) -> SearchIndex:
        """The snapshot in use; at a cold start, loads one or raises
        :class:`SnapshotUnreadable` (or whatever ``fetch_latest`` raised).

        To warm a container up. A search takes :meth:`lease` instead, so that a swap
        cannot close the snapshot under it.
        """
        index = self._index
        if index is not None:
            return index
        with self._loading:
            if self._index is None:
                loaded = self._load(None, None)
                if loaded is None:
                    raise SnapshotUnreadable("no snapshot has been published")
                with self._lock:
                    self._index = loaded
                    self._checked_at = self._clock()
            return self._index

    @contextmanager
    def lease(self) -> Iterator[SearchIndex]:
        """The snapshot to search for the length of the block; kept open until the block
        ends even if a newer one is swapped in meanwhile. A check that fell due is
        scheduled as the block ends, never run inside it."""
        index = self._acquire()
        try:
            yield index
        finally:
            self._release(index)
            self._schedule_if_due()

    def _acquire(self) -> SearchIndex:
        while True:
            index = self.index()
            with self._lock:
                if self._index is index:  # not swapped out between the two lines
                    self._leases[id(index)] = self._leases.get(id(index), 0) + 1
                    return index

    def _release(self, index: SearchIndex) -> None:
        with self._lock:
            left = self._leases.get(id(index), 1) - 1
            if left:
                self._leases[id(index)] = left
                return
            self._leases.pop(id(index), None)
            retired = self._retired.pop(id(index), None)
        if retired is not None:
            retired.close()

    def _schedule_if_due(self) -> None:
        with self._lock:
            if self._scheduled or self._clock() - self._checked_at < self._check_every_s:
                return
            self._scheduled = True
        try:
            self._schedule(self.refresh)
        except Exception as exc:  # nowhere to run it now: the next search schedules it again
            with self._lock:
                self._scheduled = False
            if self._on_refresh_error is not None:
                self._on_refresh_error(exc)

    # ------------------------------------------------------------------ refreshing

    def refresh(self, deadline: float | None = None) -> bool:
        """Swap in the published snapshot if it is newer; True if it did.

        Never raises: a failure is counted, reported to ``on_refresh_error`` and the
        snapshot in use keeps serving. With too little time before ``deadline``
        (``clock()`` time) it does nothing and the next search schedules it again.
        """
        if not self._refreshing.acquire(blocking=False):
            return False
        try:
            return self._refresh(deadline)
        finally:
            self._refreshing.release()
            with self._lock:
                self._scheduled = False

    def _refresh(self, deadline: float | None) -> bool:
        current = self._index
        if current is None:
            return False  # the next search loads one
        needed = LOAD_MARGIN * self.last_load_s + LOAD_SLACK_S
        if deadline is not None and deadline - self._clock() < needed:
            return False  # put off: still due, so the next search schedules it again
        self._checked_at = self._clock()
        try:
            index = self._load(current.meta.version, deadline)
        except SnapshotDeferred:
            self._checked_at = float("-inf")
            return False
        except Exception as exc:  # a bad new snapshot must not take the good one down
            self.refresh_errors += 1
            if self._on_refresh_error is not None:
                self._on_refresh_error(exc)
            return False
        if index is None:
            return False
        with self._lock:
            old, self._index = self._index, index
            if old is not None:
                self._retire(old)
        return True

    def _retire(self, old: SearchIndex) -> None:
        """Delete a superseded snapshot's file now; close it once no search holds it.
        Called with the state lock held."""
        _delete(old.path)
        if self._leases.get(id(old), 0):
            self._retired[id(old)] = old
        else:
            old.close()

    def _load(self, current: str | None, deadline: float | None) -> SearchIndex | None:
        """The latest snapshot, opened, if it is not ``current``; None when it is."""
        started = self._clock()
        snapshot = self._fetch_latest(current, deadline)
        if snapshot is None:
            return None
        try:
            index = self._opener(snapshot)
        except Exception:
            _delete(snapshot.path)  # it will not be served: give its room back at once
            raise
        self.last_load_s = self._clock() - started
        return index

    def close(self) -> None:
        """Close every snapshot this holder opened (a container going away, a test)."""
        with self._lock:
            opened = [self._index, *self._retired.values()]
            self._index = None
            self._retired.clear()
        for index in opened:
            if index is not None:
                index.close()


def _delete(path: Path) -> None:
    # A file that cannot go now goes with the fetcher's clean-up before its next download.
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
