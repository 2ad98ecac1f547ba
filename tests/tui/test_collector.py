"""The collector's older passes run between frames: which one is near, and running it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from spit.tui.collector import collect_due, older_pass_near


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector on, from empty counts; its thresholds and state put back after."""
    thresholds = gc.get_threshold()
    enabled = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not enabled:
            gc.disable()


def test_no_older_pass_is_near_until_the_next_young_one_starts_it(collector: None) -> None:
    gc.set_threshold(1_000_000, 3, 100)
    gc.collect()  # every count at 0
    assert not older_pass_near()
    assert collect_due() is None
    gc.collect(0)
    gc.collect(0)  # the next young collection makes the second generation's count 3
    assert older_pass_near()
    assert collect_due() == 1
    assert gc.get_count()[1:] == (0, 1)
    assert not older_pass_near()


def test_the_second_generation_pass_that_makes_a_full_one_due_is_a_full_one(
    collector: None,
) -> None:
    gc.set_threshold(1_000_000, 1, 1)
    gc.collect()
    assert collect_due() == 1  # the third generation's count goes to 1: not past 1
    assert gc.get_count()[2] == 1
    assert collect_due() == 2  # this one would take it past 1: everything, now
    assert gc.get_count()[1:] == (0, 0)


def test_nothing_runs_while_the_collector_is_off(collector: None) -> None:
    gc.set_threshold(1_000_000, 1, 100)
    gc.disable()
    assert not older_pass_near()
    assert collect_due() is None
