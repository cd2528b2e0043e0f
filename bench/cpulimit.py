"""Run a child process on the CPU a Lambda's memory buys: a cgroup CPU quota.

Lambda gives a function CPU in proportion to its memory: 1,769 MB is one full vCPU,
256 MB about 14 % of one. A cold start measured on a whole core of this machine
flatters a small function several times over, so the bench runs each cold invoke
in a cgroup (v1 ``cpu`` controller) whose quota is that share of one CPU:
``cpu.cfs_quota_us = share x cpu.cfs_period_us`` with a 100 ms period. The child
joins the group before it execs, so the interpreter's own start is limited too;
the group is removed when the child has exited. The group's weight
(``cpu.shares``) is the highest there is, so other work on this shared machine
cannot take the child's share from it: a Lambda's share is its own. The quota
still caps it; the throttling figures say the cap was reached.

Creating a group needs root and a cgroup v1 ``cpu`` hierarchy. Where either is
missing (cgroup v2 only, a container without the controller, not root), the child
runs unlimited: :func:`cpu_limit` says so on stderr in capitals and returns a
:class:`Limit` whose ``limited`` is False with the reason, which the results carry,
so a figure measured on a whole core is never taken for one measured at the share.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

MB_PER_VCPU = 1769
"""Lambda's memory for one full vCPU; less memory, a proportional share of one."""
PERIOD_US = 100_000
TOP_WEIGHT = 262_144
"""The largest ``cpu.shares``: the child gets its quota before other work gets more."""
CPU_ROOT = Path("/sys/fs/cgroup/cpu")
GROUP_PREFIX = "storechat-bench-"


def share_of_vcpu(memory_mb: int) -> float:
    """The share of one vCPU a function of ``memory_mb`` gets (at most one: a bigger
    function gets more vCPUs, which a single-threaded cold start cannot use)."""
    return min(1.0, memory_mb / MB_PER_VCPU)


@dataclass
class Limit:
    """How a child was (or was not) limited, and what the quota did to it."""

    share: float
    limited: bool
    how: str
    preexec: Callable[[], None] | None = None
    throttled_periods: int = 0
    throttled_ms: float = 0.0
    extra: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "share": round(self.share, 4),
            "limited": self.limited,
            "how": self.how,
            "throttled_periods": self.throttled_periods,
            "throttled_ms": round(self.throttled_ms, 1),
        }


def why_unlimited(root: Path = CPU_ROOT) -> str | None:
    """Why a quota cannot be applied here, or None when it can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "not root: cannot create a cgroup"
    if not (root / "cpu.cfs_quota_us").exists():
        if Path("/sys/fs/cgroup/cgroup.controllers").exists():
            return "cgroup v2 only: no v1 cpu controller at /sys/fs/cgroup/cpu"
        return f"no cgroup v1 cpu controller at {root}"
    return None


def _write(path: Path, value: str) -> None:
    with path.open("w", encoding="ascii") as handle:
        handle.write(value)


def _throttling(group: Path) -> tuple[int, float]:
    try:
        stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    except (OSError, ValueError):
        return 0, 0.0
    return int(stat.get("nr_throttled", 0)), int(stat.get("throttled_time", 0)) / 1e6


@contextmanager
def cpu_limit(share: float, *, root: Path = CPU_ROOT) -> Iterator[Limit]:
    """A :class:`Limit` whose ``preexec`` puts a child (``subprocess`` ``preexec_fn``) in
    a cgroup with ``share`` of one CPU; throttling figures are filled in on exit.

    Unlimited, loudly, when the quota cannot be applied.
    """
    reason = why_unlimited(root)
    group = root / f"{GROUP_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
    if reason is None:
        _remove_stale(root)
        try:
            group.mkdir()
            _write(group / "cpu.cfs_period_us", str(PERIOD_US))
            _write(group / "cpu.cfs_quota_us", str(max(1000, round(share * PERIOD_US))))
            _write(group / "cpu.shares", str(TOP_WEIGHT))
        except OSError as exc:
            reason = f"could not set up {group}: {exc.strerror or exc}"
            _remove(group)
    if reason is not None:
        print(
            f"bench: WARNING: CPU NOT LIMITED ({reason}); cold starts run on a whole core "
            f"instead of {share:.0%} of one, and the results say so",
            file=sys.stderr,
            flush=True,
        )
        yield Limit(share=share, limited=False, how=f"unlimited: {reason}")
        return
    procs = group / "cgroup.procs"

    def join() -> None:  # runs in the child, between fork and exec
        _write(procs, str(os.getpid()))

    limit = Limit(
        share=share,
        limited=True,
        how=(
            f"cgroup v1 cpu quota: {round(share * PERIOD_US)} us per {PERIOD_US} us period "
            f"({share:.1%} of one CPU), top weight against other load"
        ),
        preexec=join,
    )
    try:
        yield limit
    finally:
        limit.throttled_periods, limit.throttled_ms = _throttling(group)
        _remove(group)


def _remove_stale(root: Path) -> None:
    """Remove the groups of bench runs that were killed before they could clean up."""
    for stale in root.glob(f"{GROUP_PREFIX}*"):
        owner = stale.name.removeprefix(GROUP_PREFIX).split("-", 1)[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            _remove(stale)


def _remove(group: Path) -> None:
    """Remove an (empty) group; a child that outlived its run is moved out first."""
    if not group.exists():
        return
    try:
        for pid in (group / "cgroup.procs").read_text().split():
            _write(group.parent / "cgroup.procs", pid)
        group.rmdir()
    except OSError as exc:
        print(f"bench: could not remove {group}: {exc}", file=sys.stderr, flush=True)
