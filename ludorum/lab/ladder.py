"""Strength of the search levels: head-to-head matches with seats rotated, and an Elo ladder.

A *match* plays ``games`` games of one game between two bot kinds (``a`` against ``b``); with two
players the seats alternate game by game, with more players one ``a`` sits among ``b`` opponents and
its seat rotates.  ``a``'s score is its mean share of the win (ties split), given with a 95 % Wilson
interval (ties count as fractions of a win).  Search bots play without their wall-clock cap, so a
match is reproducible from its seed.  Each finished game is appended to a JSON-lines file as it ends,
so a long run can be stopped and its games still counted.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludorum.agents import play_game
from ludorum.agents.kinds import bot_kinds, uncapped
from ludorum.agents.search import base_level
from ludorum.engine import Game
from ludorum.lab.executors import Executor, SerialExecutor
from ludorum.lab.results import complete_lines, cut_torn_tail
from ludorum.lab.schedule import GameTask, Spec
from ludorum.lab.stats import Rate


@dataclass(frozen=True)
class Score:
    """``a``'s share of the win against ``b`` over a match, as a :class:`Rate` (fair share 1/players)."""

    a: str
    b: str
    players: int
    rate: Rate

    @property
    def n(self) -> int:
        """Games played."""
        return self.rate.n

    @property
    def mean(self) -> float:
        """``a``'s mean share of the win."""
        return self.rate.rate

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the mean share (honest at 0 % and 100 %, unlike the normal one)."""
        return self.rate.interval

    def fair_multiple(self) -> float:
        """The share over the fair share (1/players)."""
        return self.mean * self.players

    def elo(self) -> tuple[float, float, float]:
        """The Elo difference implied by a two-player score, with its 95 % interval."""
        lo, hi = self.interval
        return _elo(self.mean), _elo(lo), _elo(hi)


def _elo(p: float) -> float:
    p = min(max(p, 0.005), 0.995)
    return -400.0 * math.log10(1.0 / p - 1.0)


def play_match(
    game: Game[Any],
    a: str,
    b: str,
    players: int,
    games: int,
    seed: int,
    log: Path | None = None,
    executor: Executor | None = None,
) -> Iterator[float]:
    """Play the match, yielding ``a``'s share of each game's win.  A game the log already holds (same
    game, kinds, players and seed) is not played again: its logged share is yielded first, so a stopped
    run is resumed by running the same command.  The games left are played by ``executor`` (this process
    by default; local workers or Ray, ``ludorum ladder --workers``) and logged as each ends, in the order
    they end: a game's result depends only on its seed and seats, never on who played it."""
    config = game.config(players)
    played: dict[tuple[int, int], float] = {}
    if log is not None:
        cut_torn_tail(log)  # a run killed mid-write: go on from a clean line end
        played = logged_games(log, game.name).get((a, b, players), {})
    tasks = []
    for g in range(games):
        seat = g % players
        if (seed + g, seat) in played:
            yield played[seed + g, seat]
            continue
        kinds = tuple(a if s == seat else b for s in range(players))
        tasks.append(GameTask(g, game.name, config, seed + g, kinds, (), Spec(game.name, players, (a, b))))
    for _, line in (executor or SerialExecutor()).run(tasks, functools.partial(_play_one, game, a, b)):
        if log is not None:
            with log.open("a") as f:
                f.write(line + "\n")
        yield float(json.loads(line)["share"])


def _play_one(game: Game[Any], a: str, b: str, task: GameTask) -> str:
    """Play one game of a match (in whichever process the executor chose): its log line."""
    seat = task.index % len(task.bots)
    bots = [uncapped(game, kind) for kind in task.bots]
    start = time.perf_counter()
    play = play_game(game, task.config, task.seed, bots)
    entry = {
        "game": game.name, "a": a, "b": b, "players": len(task.bots), "seed": task.seed, "seat": seat,
        "share": game.result(play.state).shares[seat], "seconds": round(time.perf_counter() - start, 2),
    }  # fmt: skip
    return json.dumps(entry)


def logged_games(log: Path, game: str) -> dict[tuple[str, str, int], dict[tuple[int, int], float]]:
    """The games of ``game`` that ``log`` holds: per match ``(a, b, players)``, ``a``'s share of each game
    by its ``(seed, seat)`` (``a``'s seat: a seed played from another seat is another game).  A game logged
    twice (two runs of the same seeds) is one entry."""
    if not log.is_file():
        return {}
    out: dict[tuple[str, str, int], dict[tuple[int, int], float]] = {}
    for _, line in complete_lines(log):
        e = json.loads(line)
        if e["game"] == game:
            out.setdefault((e["a"], e["b"], e["players"]), {})[e["seed"], e["seat"]] = e["share"]
    return out


def score(a: str, b: str, players: int, shares: Sequence[float]) -> Score:
    """The summary of a match's per-game shares."""
    return Score(a, b, players, Rate(sum(shares), len(shares), 1.0 / players))


def read_log(path: Path | Sequence[Path], game: str) -> list[Score]:
    """Every match of ``game`` recorded in a JSON-lines log (or in several, read as one: a ladder whose
    rungs were played into different files), summarised; a game logged twice counts once."""
    merged: dict[tuple[str, str, int], dict[tuple[int, int], float]] = {}
    for one in [path] if isinstance(path, Path) else path:
        for match, games in logged_games(one, game).items():
            merged.setdefault(match, {}).update(games)
    return [score(a, b, p, list(games.values())) for (a, b, p), games in sorted(merged.items())]


LADDER = ("random", "heuristic", "easy", "medium", "hard", "expert")
"""The ladder from weakest to strongest; neighbours play each other."""


def ladder_elo(scores: Sequence[Score]) -> dict[str, tuple[float, float]]:
    """Elo per kind (random = 0) chained through neighbour matches, with the 95 % half-width summed
    in quadrature along the chain."""
    by_pair = {(s.a, s.b): s for s in scores if s.players == 2}
    out: dict[str, tuple[float, float]] = {LADDER[0]: (0.0, 0.0)}
    for lower, upper in itertools.pairwise(LADDER):
        s = by_pair.get((upper, lower))
        if s is None or lower not in out:
            break
        mid, lo, hi = s.elo()
        base, err = out[lower]
        out[upper] = (base + mid, math.hypot(err, (hi - lo) / 2))
    return out


@dataclass(frozen=True)
class Pairing:
    """One match of the strength plan: ``a`` (scored) against ``b`` at ``players`` for ``games`` games."""

    a: str
    b: str
    players: int
    games: int

    def text(self) -> str:
        """``"hard:heuristic@2×100"``."""
        return f"{self.a}:{self.b}@{self.players}×{self.games}"


def strength_plan(game: Game[Any], scale: float = 1.0) -> list[Pairing]:
    """The matches that establish issue 9's strength figures for ``game`` (docs/agents.md): the ladder's
    neighbours at two players, ``hard`` against ``heuristic`` over 100 games, and one ``hard`` among
    ``heuristic`` opponents at the largest player count.  Games per pairing were chosen so the whole plan
    fits about three hours of the 2-core machine (``scale`` multiplies them, at least 2 each)."""
    top = game.max_players
    planned = [
        Pairing("heuristic", "random", 2, 100),
        Pairing("easy", "heuristic", 2, 100),
        Pairing("medium", "easy", 2, 100),
        Pairing("hard", "medium", 2, 100),
        Pairing("expert", "hard", 2, 40),
        Pairing("hard", "heuristic", 2, 100),
        Pairing("hard", "heuristic", top, 10 * top),
    ]
    return [Pairing(p.a, p.b, p.players, max(2, round(p.games * scale))) for p in planned]


def parse_pair(game: Game[Any], text: str) -> tuple[str, str]:
    """``"A:B"`` → ``(A, B)``, each a bot kind of ``game`` or a variant of a level; the colon that
    separates them is the one with a kind on each side (a variant's value may hold one:
    ``hard/guide=game:thrifty:hard``)."""
    kinds = bot_kinds(game)
    for i, ch in enumerate(text):
        if ch == ":" and base_level(text[:i]) in kinds and base_level(text[i + 1 :]) in kinds:
            return text[:i], text[i + 1 :]
    raise ValueError(f"{text!r} is not A:B with two bot kinds of {game.title} ({', '.join(kinds)})")


def seed_for(game: str, a: str, b: str, players: int, base: int) -> int:
    """A match's first seed, derived from the base seed and what plays (distinct per match).  A variant
    of a level plays its level's seeds, so that an experiment is paired game for game with the match it
    would change (``easy/bias=1:heuristic`` plays the games of ``easy:heuristic``)."""
    a, b = base_level(a), base_level(b)
    return base + random.Random(f"{game}:{a}:{b}:{players}").randrange(10**6) * 1000
