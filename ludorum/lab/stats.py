"""Win rates and their 95 % intervals.

A game's win is shared (``Result.shares``): a seat ranked first alone wins 1, each of ``k`` seats tied
for first wins ``1/k``; so the win shares of a game sum to 1 and a fair seat's share is ``1/players``.

Trials need not be independent: the lab plays every arrangement of a rotation cycle with one seed, and
games sharing a seed share their dice.  :func:`clustered_rate` groups trials by such a cluster key and
estimates Kish's *design effect* — how many times the variance of the rate exceeds what ``n``
independent trials would give — and :class:`Rate` widens its Wilson interval by computing it over the
effective sample size ``n / design_effect``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate over ``n`` trials with its Wilson 95 % interval, and the share it is judged against.

    ``design_effect`` (≥ 1; 1 for independent trials) is how many times the rate's variance exceeds the
    binomial one because trials come in correlated clusters; ``clusters`` is their number when the rate
    was built from clusters (:func:`clustered_rate`), else ``None``.
    """

    wins: float
    n: int
    fair: float
    design_effect: float = 1.0
    clusters: int | None = None

    def __post_init__(self) -> None:
        # Below 1 would claim more precision than independent trials give: a caller's mistake, not data.
        if not self.design_effect >= 1.0:
            raise ValueError(f"a design effect is at least 1, not {self.design_effect}")

    @property
    def rate(self) -> float:
        """The observed rate (0 with no trials)."""
        return self.wins / self.n if self.n else 0.0

    @property
    def effective_n(self) -> float:
        """The number of independent trials worth as much as these: ``n / design_effect``."""
        return self.n / self.design_effect

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson score interval at 95 % over :attr:`effective_n` trials (``(0, 1)`` with no trials)."""
        if not self.n:
            return 0.0, 1.0
        p, n, z2 = self.rate, self.effective_n, Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def flagged(self) -> bool:
        """Whether the fair share lies outside the interval: an imbalance the games show at 95 %."""
        low, high = self.interval
        return not low <= self.fair <= high

    def to_json(self) -> dict[str, Any]:
        """The JSON form used by the reports; ``design_effect`` and ``clusters`` only for clustered rates,
        so that rates of independent trials keep their old form."""
        low, high = self.interval
        data: dict[str, Any] = {
            "wins": round(self.wins, 4),
            "games": self.n,
            "rate": round(self.rate, 4),
            "low": round(low, 4),
            "high": round(high, 4),
            "fair": round(self.fair, 4),
            "flagged": self.flagged,
        }
        if self.clusters is not None or self.design_effect != 1.0:
            data["design_effect"] = round(self.design_effect, 3)
        if self.clusters is not None:
            data["clusters"] = self.clusters
        return data

    def text(self) -> str:
        """``"54.0 % [44.3–63.4]"``, with a ``!`` when flagged."""
        low, high = self.interval
        return f"{100 * self.rate:.1f} % [{100 * low:.1f}–{100 * high:.1f}]" + (" !" if self.flagged else "")


class ClusteredTally:
    """Win shares summed per cluster, for a :class:`Rate` whose interval allows for the clustering.

    Accumulating (rather than keeping every trial) keeps a balance report's per-card tallies small.
    """

    __slots__ = ("_sums",)

    def __init__(self) -> None:
        """An empty tally."""
        self._sums: dict[Hashable, list[float]] = {}  # cluster -> [sum of shares, trials]

    def add(self, cluster: Hashable, share: float) -> None:
        """Count one trial of ``cluster`` with win share ``share`` (in [0, 1])."""
        sums = self._sums.get(cluster)
        if sums is None:
            self._sums[cluster] = [share, 1.0]
        else:
            sums[0] += share
            sums[1] += 1.0

    def rate(self, fair: float) -> Rate:
        """The rate of the trials so far, with its estimated design effect.

        With clusters ``c`` of ``m_c`` trials summing to ``y_c``, ``n = Σ m_c`` and ``p = Σ y_c / n``,
        the cluster-robust variance of ``p`` is ``C/(C−1) · Σ (y_c − p·m_c)² / n²`` over ``C`` clusters.
        The design effect is its ratio to the same estimator's value for ``n`` independent win-or-lose
        trials, ``n/(n−1) · p(1−p)/n`` — so its small-sample factor allows for having few clusters, not
        for having few trials, and one win-or-lose trial per cluster gives 1.  It is floored at 1 (ties
        spread less than win-or-lose trials), and is 1 with fewer than 2 clusters or with ``p`` at 0 or 1
        (nothing to estimate a spread from).
        """
        sums = self._sums.values()
        wins = math.fsum(y for y, _ in sums)
        n = int(sum(m for _, m in sums))
        clusters = len(self._sums)
        if clusters < 2 or n < 2:
            return Rate(wins, n, fair, 1.0, clusters)
        p = wins / n
        if p <= 0.0 or p >= 1.0:
            return Rate(wins, n, fair, 1.0, clusters)
        between = clusters / (clusters - 1) * math.fsum((y - p * m) ** 2 for y, m in sums)
        independent = n / (n - 1) * n * p * (1 - p)  # both sides times n², which cancels
        return Rate(wins, n, fair, max(1.0, between / independent), clusters)


def clustered_rate(trials: Iterable[tuple[Hashable, float]], fair: float) -> Rate:
    """The rate of ``(cluster key, win share)`` trials, its interval widened by the clusters' design
    effect (see :meth:`ClusteredTally.rate`)."""
    tally = ClusteredTally()
    for cluster, share in trials:
        tally.add(cluster, share)
    return tally.rate(fair)
