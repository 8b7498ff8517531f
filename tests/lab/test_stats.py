"""Win rates: Wilson intervals, and their widening when trials come in correlated clusters."""

from __future__ import annotations

import math
import random

import pytest

from ludorum.lab.stats import Z95, Rate, clustered_rate


def wilson(p: float, n: float) -> tuple[float, float]:
    """The Wilson 95 % interval of rate ``p`` over ``n`` trials, written out again as a reference."""
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return centre - half, centre + half


def width(interval: tuple[float, float]) -> float:
    """The width of an interval."""
    return interval[1] - interval[0]


def test_one_trial_per_cluster_is_the_plain_wilson_interval() -> None:
    rng = random.Random(7)
    outcomes = [float(rng.random() < 0.4) for _ in range(300)]
    rate = clustered_rate(enumerate(outcomes), 1 / 3)
    plain = Rate(sum(outcomes), 300, 1 / 3)
    assert rate.design_effect == pytest.approx(1.0, abs=1e-9) and rate.clusters == 300
    assert rate.interval == pytest.approx(plain.interval, abs=1e-9)
    assert (rate.wins, rate.n, rate.flagged) == (plain.wins, plain.n, plain.flagged)


def test_perfectly_correlated_clusters_count_as_one_trial_each() -> None:
    # 10 seeds of 24 games each, every game of a seed with the same outcome: half the seeds all wins.
    trials = [(seed, float(seed % 2)) for seed in range(10) for _ in range(24)]
    rate = clustered_rate(trials, 1 / 3)
    # 24 identical trials per cluster: Kish's 1 + (24 − 1)·1 = 24, times the few-clusters factor 10/9
    # and over the 240/239 the same estimator gives independent trials.
    assert rate.design_effect == pytest.approx(24 * 10 / 9 * 239 / 240)
    assert (rate.rate, rate.n, rate.clusters) == (0.5, 240, 10)
    assert rate.interval == pytest.approx(wilson(0.5, 240 / rate.design_effect))
    plain = Rate(120, 240, 1 / 3)
    assert width(rate.interval) > 4 * width(plain.interval)
    # Flags use the widened interval: 240 independent games would rule 1/3 out; 10 seeds' worth do not.
    assert plain.flagged and not rate.flagged


def test_the_design_effect_is_one_when_there_is_nothing_to_widen() -> None:
    one_cluster = clustered_rate([("s", 1.0), ("s", 0.0), ("s", 1.0)], 0.5)
    never = clustered_rate([(seed, 0.0) for seed in range(5) for _ in range(4)], 0.5)
    # Every cluster wins exactly half of its games: less spread than independent games, floored at 1.
    balanced = clustered_rate([(seed, float(i % 2)) for seed in range(6) for i in range(4)], 0.5)
    shared = clustered_rate([(seed, 0.5) for seed in range(6)], 0.5)  # ties: a share of 1/2 every game
    for rate in (one_cluster, never, balanced, shared):
        assert rate.design_effect == 1.0
        assert rate.interval == Rate(rate.wins, rate.n, rate.fair).interval
    assert (one_cluster.clusters, never.clusters, balanced.clusters) == (1, 5, 6)
    empty = clustered_rate([], 0.5)
    assert (empty.n, empty.interval, empty.design_effect) == (0, (0.0, 1.0), 1.0)


def test_rates_keep_their_old_form_unless_clustered() -> None:
    assert "design_effect" not in Rate(5, 10, 0.5).to_json() and "clusters" not in Rate(5, 10, 0.5).to_json()
    data = clustered_rate([(seed, float(seed < 2)) for seed in range(4) for _ in range(3)], 0.5).to_json()
    assert data["clusters"] == 4 and data["design_effect"] == round(3 * 4 / 3 * 11 / 12, 3)
    assert {"wins", "games", "rate", "low", "high", "fair", "flagged"} <= data.keys()
    assert Rate(5, 10, 0.5, 2.0).interval == pytest.approx(wilson(0.5, 5))
    low, high = wilson(0.5, 5)
    assert Rate(5, 10, 0.5, 2.0).text() == f"50.0 % [{100 * low:.1f}–{100 * high:.1f}]"
    with pytest.raises(ValueError, match="at least 1"):
        Rate(5, 10, 0.5, 0.5)
