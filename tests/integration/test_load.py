"""A small, bounded load run against the dev server on loopback (`make load` runs 20 x 50)."""

from __future__ import annotations

from bench.loadtest import run_load


def test_concurrent_shoppers_lose_no_request_and_no_turn() -> None:
    # Given 20 shoppers asking 2 questions each at the same time, each in its own session
    report = run_load(shoppers=20, questions=2)
    print("\n" + "\n".join(report.lines()))
    # Then every request was answered and every turn was saved to its session
    assert report.requests == 40
    assert report.failures == 0, report.statuses
    assert report.lost_turns == 0
