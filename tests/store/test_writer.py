"""The background writer: jobs run in order on one thread, submit never waits."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from spit.store.writer import Writer


def test_jobs_run_in_order_on_one_other_thread() -> None:
    writer = Writer()
    seen: list[tuple[int, str]] = []
    for i in range(20):
        writer.submit(lambda i=i: seen.append((i, threading.current_thread().name)))
    assert writer.flush(timeout=10)
    assert [i for i, _ in seen] == list(range(20))
    assert {name for _, name in seen} == {"spit-writer"}
    assert writer.close(timeout=10)


def test_submit_returns_while_a_job_is_still_blocked() -> None:
    writer = Writer()
    gate = threading.Event()
    done: list[str] = []
    writer.submit(lambda: (gate.wait(10), done.append("slow")))
    writer.submit(lambda: done.append("next"))  # queued behind the blocked job, not run here
    assert done == [] and not writer.idle
    gate.set()
    assert writer.flush(timeout=10)
    assert done == ["slow", "next"] and writer.idle
    writer.close(timeout=10)


def test_a_failing_job_is_logged_and_the_next_still_runs(caplog: pytest.LogCaptureFixture) -> None:
    writer = Writer()
    done: list[int] = []

    def fail() -> None:
        raise OSError("disk on fire")

    with caplog.at_level(logging.ERROR, logger="spit.store"):
        writer.submit(fail)
        writer.submit(lambda: done.append(1))
        assert writer.flush(timeout=10)
    assert done == [1]
    assert "a background write failed" in caplog.text and "disk on fire" in caplog.text
    writer.close(timeout=10)


def test_close_runs_what_is_queued_then_refuses_more() -> None:
    writer = Writer()
    done: list[int] = []
    for i in range(3):
        writer.submit(lambda i=i: done.append(i))
    assert writer.close(timeout=10)
    assert done == [0, 1, 2]
    with pytest.raises(RuntimeError):
        writer.submit(lambda: None)


def test_an_unused_writer_starts_no_thread() -> None:
    before = threading.active_count()
    writer = Writer()
    assert writer.flush(timeout=1) and writer.close(timeout=1)
    assert threading.active_count() == before


def test_a_settling_writer_starts_each_job_no_sooner_than_settle_after_its_submit() -> None:
    writer = Writer(settle=0.05)
    started: list[tuple[int, float]] = []
    submitted: list[float] = []
    for i in range(3):
        submitted.append(time.monotonic())
        writer.submit(lambda i=i: started.append((i, time.monotonic())))
    assert writer.flush(timeout=10)
    assert [i for i, _ in started] == [0, 1, 2]
    assert all(at - submitted[i] >= 0.05 for i, at in started)
    writer.close(timeout=10)
