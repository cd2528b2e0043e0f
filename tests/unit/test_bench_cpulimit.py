"""The bench's CPU share for cold starts: a child runs in a cgroup with its function's
quota, or, where none can be made, unlimited and said so, never silently."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.cpulimit import CPU_ROOT, GROUP_PREFIX, cpu_limit, share_of_vcpu, why_unlimited


def test_memory_buys_its_share_of_one_vcpu() -> None:
    assert share_of_vcpu(1769) == 1.0
    assert share_of_vcpu(256) == pytest.approx(0.1447, abs=1e-4)
    assert share_of_vcpu(3538) == 1.0  # one thread cannot use a second vCPU


def test_without_a_cgroup_controller_the_child_runs_unlimited_and_it_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a machine with no cgroup v1 cpu controller where the bench looks for one
    assert why_unlimited(tmp_path) is not None
    # When a cold start is to be limited to 29 % of a CPU
    with cpu_limit(0.29, root=tmp_path) as limit:
        done = subprocess.run([sys.executable, "-c", "print('ran')"], capture_output=True)
    # Then the child still runs, unlimited, and both the results and stderr say so
    assert done.stdout.strip() == b"ran"
    assert limit.limited is False and limit.preexec is None and "unlimited" in limit.how
    assert "CPU NOT LIMITED" in capsys.readouterr().err
    assert limit.as_dict()["limited"] is False


@pytest.mark.skipif(why_unlimited() is not None, reason="needs root and a cgroup v1 cpu controller")
def test_the_child_runs_in_its_own_group_which_is_removed_after() -> None:
    # Given the share a 512 MB function gets
    with cpu_limit(share_of_vcpu(512)) as limit:
        # When a child runs under it
        done = subprocess.run(
            [sys.executable, "-c", "print(open('/proc/self/cgroup').read())"],
            capture_output=True,
            text=True,
            preexec_fn=limit.preexec,
            check=True,
        )
        group = next(
            line.split(":")[-1].strip("/")
            for line in done.stdout.splitlines()
            if ":cpu:" in line or line.split(":")[1] == "cpu"
        )
        quota = (CPU_ROOT / group / "cpu.cfs_quota_us").read_text().strip()
    # Then it ran in a group of its own with the function's quota, gone afterwards
    assert group.startswith(GROUP_PREFIX) and limit.limited
    assert quota == str(round(share_of_vcpu(512) * 100_000))
    assert not (CPU_ROOT / group).exists()
