"""The stamper keeps its estimates as samples come: the same figures as from every sample."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spit.net.stamping import QUANTILE, SAMPLES, Stamper


def _naive(samples: list[tuple[float, float, float]]) -> tuple[float, float, float, float]:
    """(offset, rtt, median delay, jitter) from the kept samples, each walked again."""
    kept = samples[-SAMPLES:]
    low = max(their - received for sent, their, received in kept)
    high = min(their - sent for sent, their, received in kept)
    if low <= high:
        offset = (low + high) / 2
    else:
        offset = min(
            (received - sent, their - (sent + received) / 2) for sent, their, received in kept
        )[1]
    delays = sorted(max(0.0, received - (their - offset)) for _s, their, received in kept)
    jitter = delays[min(len(delays) - 1, int(QUANTILE * len(delays)))] - delays[0]
    rtt = min(received - sent for sent, _t, received in kept)
    return offset, rtt, statistics.median(delays), jitter


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0.0, 0.2),  # out
            st.floats(0.0, 0.2),  # back
            st.floats(-0.01, 0.01),  # the other clock's drift so far
        ),
        min_size=1,
        max_size=SAMPLES * 2 + 7,
    ),
    st.floats(-1000.0, 1000.0),
)
def test_kept_estimates_match_a_walk_over_every_sample(
    trips: list[tuple[float, float, float]], offset: float
) -> None:
    stamper = Stamper()
    samples: list[tuple[float, float, float]] = []
    sent = 100.0
    for out, back, drift in trips:
        their = sent + out + offset + drift
        received = sent + out + back
        stamper.add_sample(sent, their, received)
        samples.append((sent, their, received))
        want_offset, want_rtt, want_delay, want_jitter = _naive(samples)
        assert stamper.offset is not None and abs(stamper.offset - want_offset) < 1e-9
        assert stamper.rtt == want_rtt
        assert stamper.delay is not None and abs(stamper.delay - want_delay) < 1e-9
        assert abs(stamper.jitter - want_jitter) < 1e-9
        allowance = stamper.allowance
        assert allowance is not None
        assert abs(allowance - min(stamper.cap, want_delay + stamper.margin)) < 1e-9
        assert stamper.count == min(len(samples), SAMPLES)
        sent += 0.25


def test_a_local_stampers_figures_are_its_lags() -> None:
    local = Stamper.local()
    assert local.delay == 0.0 and local.jitter == 0.0 and local.rtt == 0.0
    for lag in (0.004, 0.001, 0.003, 0.010):
        local.judge(50.0 - lag, 50.0)
    assert local.delay == pytest.approx(statistics.median([0.004, 0.001, 0.003, 0.010]))
    assert local.jitter == pytest.approx(0.010 - 0.001)
