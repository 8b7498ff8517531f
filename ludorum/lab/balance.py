"""Balance figures of one or more runs of a game (one run per player count and variant set).

Every rate has its Wilson 95 % interval and the fair share it is judged against; a rate whose interval
leaves out its fair share is *flagged*.  The content figures are correlations, not causes: strong
players use more cards, so a card's users winning often says less than its users winning more often
than the non-users of the same games (both are given).
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
from ludorum.lab.stats import Rate


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


def _tally(tally: list[float]) -> tuple[float, int]:
    """A ``[wins, seat-games]`` tally as :class:`Rate` arguments."""
    return tally[0], int(tally[1])


def cell_figures(cell: Cell) -> dict[str, Any]:
    """The figures of one cell as JSON, with a list of every flagged one in words."""
    n, fair = cell.players, 1 / cell.players
    lines = [line for line in cell.lines if line.record.result is not None]
    seat_wins = [0.0] * n
    first_wins = 0.0
    dims: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0]))
    used: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])  # wins, seat-games of users
    unused: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    elements: set[tuple[str, str]] = set()
    for line in lines:
        elements.update(e for seat in line.facts.uses for e in seat)
    reasons: Counter[str] = Counter()
    decisions, lengths = [], []
    for line in lines:
        assert line.record.result is not None
        shares = line.record.result.shares
        reasons[reason_kind(line.record.result.reason)] += 1
        decisions.append(line.facts.decisions)
        if line.facts.length is not None:
            lengths.append(line.facts.length)
        first_wins += shares[line.facts.first]
        for seat, share in enumerate(shares):
            seat_wins[seat] += share
            for dim, value in line.facts.labels[seat].items():
                dims[dim][value][0] += share
                dims[dim][value][1] += 1
            mine = set(line.facts.uses[seat])
            for element in elements:
                tally = used[element] if element in mine else unused[element]
                tally[0] += share
                tally[1] += 1
    games = len(lines)
    seats = [Rate(w, games, fair) for w in seat_wins]
    first = Rate(first_wins, games, fair)
    by_dim = {
        dim: {v: Rate(w, int(k), fair) for v, (w, k) in sorted(values.items())}
        for dim, values in dims.items()
    }
    content: dict[str, dict[str, Any]] = defaultdict(dict)
    for category, name in sorted(elements):
        k = used[category, name][1]
        content[category][name] = {
            "use_rate": round(k / (games * n), 4) if games else 0.0,
            "users": Rate(*_tally(used[category, name]), fair).to_json(),
            "non_users": Rate(*_tally(unused[category, name]), fair).to_json(),
        }
    flags = [f"seat {s}: {r.text()}" for s, r in enumerate(seats) if r.flagged]
    if first.flagged:
        flags.append(f"first player: {first.text()}")
    flags += [f"{dim} {v}: {r.text()}" for dim, vals in by_dim.items() for v, r in vals.items() if r.flagged]
    flags += [
        f"{category} {name}: its users win {Rate(*_tally(used[category, name]), fair).text()}"
        for category, names in content.items()
        for name, fig in names.items()
        if fig["users"]["flagged"]
    ]
    analysis = cell.schedule.analysis
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
            **({analysis.length_unit: spread(lengths)} if lengths and analysis.length_unit else {}),
        },
        "length_values": {"decisions": decisions, analysis.length_unit or "length": lengths},
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
        "dimensions": dict(cells[0].schedule.analysis.dimensions) if cells else {},
        "length_unit": cells[0].schedule.analysis.length_unit if cells else "",
        "cells": figures,
        "comparison": comparison,
    }
