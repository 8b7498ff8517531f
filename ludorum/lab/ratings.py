"""Ratings and head-to-head figures of the bots in a tournament.

Ratings use openskill's Plackett–Luce model, which rates multi-player finishing orders (ties share a
rank).  A kind that fills several seats of one game enters each as its own team; its rating after the
game is the mean of its copies' updates, so one game moves it once.  Games are rated in index order, so
the ratings are the same whichever executor played them, in whichever order they finished.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ludorum.lab.results import Line
from ludorum.lab.stats import Z95, ClusteredTally, Rate


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot kind's figures over a tournament."""

    bot: str
    mu: float
    sigma: float
    wins: Rate
    mean_rank: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the skill (μ ± 1.96 σ)."""
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate μ − 3σ that the table is sorted by."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        low, high = self.interval
        return {
            "bot": self.bot,
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "low": round(low, 3),
            "high": round(high, 3),
            "ordinal": round(self.ordinal, 3),
            "win_rate": self.wins.to_json(),
            "mean_rank": round(self.mean_rank, 3),
        }


def standings(bots: Sequence[str], lines: Sequence[Line]) -> list[BotStanding]:
    """Each bot's rating, win rate (fair share: 1/players) and mean rank, best first."""
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    wins: dict[str, ClusteredTally] = defaultdict(ClusteredTally)  # clustered by seed: see balance.py
    seats: dict[str, int] = defaultdict(int)
    ranks: dict[str, int] = defaultdict(int)
    players = 0
    for line in sorted(lines, key=lambda x: x.index):
        result = line.record.result
        if result is None:
            continue
        players = len(line.bots)
        for seat, (bot, share) in enumerate(zip(line.bots, result.shares, strict=True)):
            wins[bot].add(line.record.seed, share)
            seats[bot] += 1
            ranks[bot] += result.ranking[seat]
        teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma, name=b)] for b in line.bots]
        rated = model.rate(teams, ranks=list(result.ranking))
        copies: dict[str, list[Any]] = defaultdict(list)
        for bot, team in zip(line.bots, rated, strict=True):
            copies[bot].append(team[0])
        for bot, new in copies.items():
            ratings[bot] = model.rating(
                mu=sum(r.mu for r in new) / len(new), sigma=sum(r.sigma for r in new) / len(new), name=bot
            )
    fair = 1 / players if players else 0.0
    out = [
        BotStanding(b, ratings[b].mu, ratings[b].sigma, wins[b].rate(fair), ranks[b] / max(1, seats[b]))
        for b in bots
    ]
    return sorted(out, key=lambda s: -s.ordinal)


def head_to_head(bots: Sequence[str], lines: Sequence[Line]) -> dict[str, dict[str, Rate]]:
    """``matrix[a][b]``: how often a seat of ``a`` finished ahead of a seat of ``b`` in the same game.

    Counted over every pair of seats held by the two kinds (a tie counts one half); the fair share is 1/2.
    """
    ahead: dict[tuple[str, str], ClusteredTally] = defaultdict(ClusteredTally)
    for line in lines:
        result = line.record.result
        if result is None:
            continue
        for s, a in enumerate(line.bots):
            for t, b in enumerate(line.bots):
                if a == b:
                    continue
                mine, theirs = result.ranking[s], result.ranking[t]
                ahead[a, b].add(line.record.seed, 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
    return {a: {b: ahead[a, b].rate(0.5) for b in bots if b != a} for a in bots}
