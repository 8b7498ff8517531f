"""Win rates and their 95 % intervals.

A game's win is shared (``Result.shares``): a seat ranked first alone wins 1, each of ``k`` seats tied
for first wins ``1/k``; so the win shares of a game sum to 1 and a fair seat's share is ``1/players``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal distribution."""


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate over ``n`` trials with its Wilson 95 % interval, and the share it is judged against."""

    wins: float
    n: int
    fair: float

    @property
    def rate(self) -> float:
        """The observed rate (0 with no trials)."""
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson score interval at 95 % (``(0, 1)`` with no trials)."""
        if not self.n:
            return 0.0, 1.0
        p, n, z2 = self.rate, self.n, Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def flagged(self) -> bool:
        """Whether the fair share lies outside the interval: an imbalance the games show at 95 %."""
        low, high = self.interval
        return not low <= self.fair <= high

    def to_json(self) -> dict[str, Any]:
        """The JSON form used by the reports."""
        low, high = self.interval
        return {
            "wins": round(self.wins, 4),
            "games": self.n,
            "rate": round(self.rate, 4),
            "low": round(low, 4),
            "high": round(high, 4),
            "fair": round(self.fair, 4),
            "flagged": self.flagged,
        }

    def text(self) -> str:
        """``"54.0 % [44.3–63.4]"``, with a ``!`` when flagged."""
        low, high = self.interval
        return f"{100 * self.rate:.1f} % [{100 * low:.1f}–{100 * high:.1f}]" + (" !" if self.flagged else "")
