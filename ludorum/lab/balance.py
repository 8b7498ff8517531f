"""Balance figures of one or more runs of a game (one run per player count and variant set).

Every rate has its Wilson 95 % interval and the fair share it is judged against; a rate whose interval
leaves out its fair share is *flagged*.  The games of one rotation cycle share a seed (same dice, same
first-player roll), so they are not independent: every rate is clustered by seed and its interval is
widened by the design effect the clusters show (:class:`ludorum.lab.stats.ClusteredTally`).

The content figures are correlations, not causes: strong players use more cards, so a card's users
winning often says less than its users winning more often than the non-users of the same games (both
are given).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ludorum.engine import Game
from ludorum.lab.results import Line
from ludorum.lab.schedule import Schedule
from ludorum.lab.stats import ClusteredTally


@dataclass(frozen=True, slots=True)
class Cell:
    """The games of one player count and variant set."""

    schedule: Schedule
    lines: list[Line]

    @property
    def players(self) -> int:
        """Seats per game."""
        return self.schedule.spec.players

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants in play."""
        return self.schedule.spec.variants

    @property
    def name(self) -> str:
        """``"3 players"`` or ``"3 players, single-march"``."""
        return f"{self.players} players" + (f", {'+'.join(self.variants)}" if self.variants else "")


def reason_kind(reason: str) -> str:
    """An end reason with its numbers blanked, so that "3 castles" and "4 castles" count as one ending."""
    return re.sub(r"\d+", "#", reason)


def spread(values: Sequence[float]) -> dict[str, float]:
    """Minimum, deciles, median, mean and maximum."""
    if not values:
        return {}
    ordered = sorted(values)
    deciles = statistics.quantiles(ordered, n=10) if len(ordered) > 1 else [ordered[0]] * 9
    return {
        "min": ordered[0],
        "p10": round(deciles[0], 2),
        "median": statistics.median(ordered),
        "mean": round(statistics.fmean(ordered), 2),
        "p90": round(deciles[-1], 2),
        "max": ordered[-1],
    }


def cell_figures(cell: Cell) -> dict[str, Any]:
    """The figures of one cell as JSON, with a list of every flagged one in words.

    Every trial is clustered by its game's seed, so a game counted several times in one tally (several
    non-users of a card in one game) and the games of one rotation cycle all fall in one cluster.
    """
    n, fair = cell.players, 1 / cell.players
    lines = [line for line in cell.lines if line.record.result is not None]
    seat_tallies = [ClusteredTally() for _ in range(n)]
    first_tally = ClusteredTally()
    dims: dict[str, dict[str, ClusteredTally]] = defaultdict(lambda: defaultdict(ClusteredTally))
    used: dict[tuple[str, str], ClusteredTally] = defaultdict(ClusteredTally)  # seat-games of users
    unused: dict[tuple[str, str], ClusteredTally] = defaultdict(ClusteredTally)
    elements: set[tuple[str, str]] = set()
    for line in lines:
        elements.update(e for seat in line.facts.uses for e in seat)
    reasons: Counter[str] = Counter()
    decisions, lengths = [], []
    for line in lines:
        assert line.record.result is not None
        shares = line.record.result.shares
        cluster = line.record.seed
        reasons[reason_kind(line.record.result.reason)] += 1
        decisions.append(line.facts.decisions)
        if line.facts.length is not None:
            lengths.append(line.facts.length)
        first_tally.add(cluster, shares[line.facts.first])
        for seat, share in enumerate(shares):
            seat_tallies[seat].add(cluster, share)
            for dim, value in line.facts.labels[seat].items():
                dims[dim][value].add(cluster, share)
            mine = set(line.facts.uses[seat])
            for element in elements:
                (used[element] if element in mine else unused[element]).add(cluster, share)
    games = len(lines)
    seats = [t.rate(fair) for t in seat_tallies]
    first = first_tally.rate(fair)
    by_dim = {dim: {v: t.rate(fair) for v, t in sorted(values.items())} for dim, values in dims.items()}
    users = {element: used[element].rate(fair) for element in sorted(elements)}
    content: dict[str, dict[str, Any]] = defaultdict(dict)
    for (category, name), rate in users.items():
        content[category][name] = {
            "use_rate": round(rate.n / (games * n), 4) if games else 0.0,
            "users": rate.to_json(),
            "non_users": unused[category, name].rate(fair).to_json(),
        }
    flags = [f"seat {s}: {r.text()}" for s, r in enumerate(seats) if r.flagged]
    if first.flagged:
        flags.append(f"first player: {first.text()}")
    flags += [f"{dim} {v}: {r.text()}" for dim, vals in by_dim.items() for v, r in vals.items() if r.flagged]
    flags += [
        f"{category} {name}: its users win {r.text()}" for (category, name), r in users.items() if r.flagged
    ]
    reader = cell.schedule.reader
    return {
        "name": cell.name,
        "players": n,
        "variants": list(cell.variants),
        "games": games,
        "fair_share": round(fair, 4),
        "seats": [r.to_json() for r in seats],
        "first_player": first.to_json(),
        "dimensions": {d: {v: r.to_json() for v, r in vals.items()} for d, vals in by_dim.items()},
        "length": {
            "decisions": spread(decisions),
            **({reader.length_unit: spread(lengths)} if lengths and reader.length_unit else {}),
        },
        "length_values": {"decisions": decisions, reader.length_unit or "length": lengths},
        "end_reasons": dict(reasons.most_common()),
        "content": dict(content),
        "flags": flags,
    }


def balance_report(game: Game[Any], bot: str, seed: int, cells: Sequence[Cell]) -> dict[str, Any]:
    """The whole report as JSON: settings, one entry per cell, and the comparison across cells."""
    figures = [cell_figures(c) for c in cells]
    comparison = []
    for fig in figures:
        seats = fig["seats"]
        worst = max(seats, key=lambda r: abs(r["rate"] - fig["fair_share"])) if seats else None
        comparison.append(
            {
                "cell": fig["name"],
                "games": fig["games"],
                "seat0": seats[0] if seats else None,
                "first_player": fig["first_player"],
                "worst_seat": seats.index(worst) if worst else None,
                "worst_seat_rate": worst,
                "mean_decisions": fig["length"]["decisions"].get("mean"),
                "flags": len(fig["flags"]),
            }
        )
    return {
        "game": game.name,
        "title": game.title,
        "bot": bot,
        "seed": seed,
        "games": sum(f["games"] for f in figures),
        "dimensions": dict(cells[0].schedule.reader.dimensions) if cells else {},
        "length_unit": cells[0].schedule.reader.length_unit if cells else "",
        "cells": figures,
        "comparison": comparison,
    }
