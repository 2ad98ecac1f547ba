"""The node's load figures: every timer wake and every pairing wait, counted in buckets."""

from __future__ import annotations

import random

from spit.server.loadstats import EDGES, Histogram, LoadStats, bucket_of, quantile_of


def test_a_duration_falls_in_the_bucket_whose_edges_hold_it() -> None:
    rng = random.Random(5)
    for seconds in [0.0, 0.00005, 0.0123, 0.0199, 0.02, 0.15, 1.99, 2.5, 19.9, 20.0, 299.0] + [
        rng.uniform(0, 300) for _ in range(500)
    ]:
        index = bucket_of(seconds)
        low = EDGES[index - 1] if index else 0.0
        assert low - 1e-9 <= seconds < EDGES[index] + 1e-9


def test_beyond_the_last_edge_counts_in_the_last_bucket() -> None:
    assert bucket_of(600.0) == len(EDGES) - 1
    assert EDGES[bucket_of(45.2)] == 46.0
    assert bucket_of(-1.0) == 0


def test_a_quantile_is_never_below_the_true_figure_and_at_most_one_bucket_above() -> None:
    rng = random.Random(7)
    values = [rng.expovariate(200) for _ in range(5000)]
    histogram = Histogram()
    for v in values:
        histogram.add(v)
    for q in (0.5, 0.95, 0.99, 0.999):
        true = sorted(values)[-(-int(q * len(values) * 1000) // 1000) - 1]
        got = histogram.quantile(q)
        index = bucket_of(true)
        assert true <= got <= EDGES[index] + 1e-9


def test_the_sparse_form_gives_the_same_quantiles() -> None:
    histogram = Histogram()
    for ms in (1, 2, 3, 50, 400):
        histogram.add(ms / 1000)
    sparse = histogram.sparse()
    assert sum(sparse.values()) == histogram.total == 5
    assert quantile_of(sparse, 0.99) == histogram.quantile(0.99) == EDGES[bucket_of(0.4)]
    assert quantile_of({}, 0.99) == 0.0


def test_load_stats_count_everything_and_keep_a_recent_window() -> None:
    stats = LoadStats(now=0.0)
    for _ in range(5):
        stats.timer_late(0.5)  # a burst long ago
    for _ in range(95):
        stats.timer_late(0.001)
    stats.paired(2.0)
    stats.paired(4.0)
    first = stats.status(now=1.0)
    assert first["lateness_wakes"] == 100
    assert first["lateness_all_p99_ms"] == first["lateness_p99_ms"]
    assert first["pair_p95_s"] == EDGES[bucket_of(4.0)]
    stats.status(now=61.0)  # a new window begins: the old one is still shown
    stats.status(now=122.0)  # and another: the burst is no longer recent
    for _ in range(100):
        stats.timer_late(0.001)
    later = stats.status(now=123.0)
    assert later["lateness_p99_ms"] < 2.0 < later["lateness_all_p99_ms"]
    assert later["lateness_wakes"] == 200
