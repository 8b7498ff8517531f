"""Advice and the after-game review by the search bots, for any game (the server's hints and analysis).

:func:`advise` asks a search bot for the best move of one seat at one decision and for the estimated
win chance it gives that seat: the mean reward, through the chosen move, of the search's root (rewards
are win shares in [0, 1]).  It sees only the seat's :class:`~ludorum.engine.information.InformationSet`
— the bot searches on states sampled from it, never on the true one — and its generator is seeded from
what the seat knows (its view and the step), so two positions the seat cannot tell apart get the same
advice.

:func:`analyse` replays a finished game's record and, for each decision of each player (up to a bound),
advises the seat from its information set at that point and compares: the best move's estimated win
chance (*before*) with that of the move played (*after*).  The largest drops are each player's biggest
mistakes.  The work is bounded by iterations per decision, a number of decisions and a wall-clock
budget; the server runs it in a worker process.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ludorum.agents.search import SearchBot, level_settings
from ludorum.agents.search.rollout import searchable
from ludorum.engine import CANCEL, Action, Game, Record, replay_states
from ludorum.engine.information import InformationSet, knowledge_rng

LEVEL = "medium"
"""The search level that advises and analyses."""
ITERATIONS = 300
"""Iterations per analysed decision."""
MAX_DECISIONS = 120
"""Decisions analysed at most in one game (spread evenly over it when there are more)."""
SECONDS = 60.0
"""Wall-clock budget of one analysis; what is left over is reported as not analysed."""
MISTAKE = 0.05
"""The smallest drop of estimated win chance counted as a mistake."""
MISTAKES_SHOWN = 3
"""Each player's biggest mistakes marked."""


@dataclass(frozen=True, slots=True)
class Advice:
    """A search's answer for one seat at one decision."""

    action: Action
    """The move the search prefers (its most visited)."""
    win: float | None
    """The seat's estimated win chance with that move (``None``: a forced move, nothing searched)."""
    values: dict[Action, tuple[int, float]] = field(default_factory=dict)
    """Every searched move: its visits and the seat's estimated win chance through it."""


def advise(
    info: InformationSet[Any], level: str = LEVEL, iterations: int | None = None, step: int = 0
) -> Advice:
    """The best move for ``info``'s seat by the search bot of ``level``, seeded from the seat's knowledge
    at ``step`` only.  ``iterations`` replaces the level's whole budget, its wall-clock cap included, so
    that the advice is the same on any machine; without it the level's cap bounds the server's work."""
    overrides: dict[str, Any] = {"reuse": False}
    if iterations is not None:
        overrides.update(iterations=iterations, seconds=None)
    bot = SearchBot(level_settings(level, info.game.name, **overrides))
    action = bot.decide(info, knowledge_rng("advice", info.seat, step, info.view))
    values = bot.last.values
    win = values[action][1] if action in values else None
    return Advice(action, win, dict(values))


@dataclass(frozen=True, slots=True)
class Judgement:
    """One analysed decision: what was played, what the search preferred, and the win chances."""

    step: int
    """The record's step (0-based) at which the seat decided."""
    seat: int
    played: Action
    played_label: str
    best: Action
    best_label: str
    before: float
    """The seat's estimated win chance with the best move."""
    after: float | None
    """With the move played (``None``: the search never tried it)."""

    @property
    def loss(self) -> float:
        """How much estimated win chance the move played gave away: 0 when it was the best, or when the
        search never tried it (no estimate: not counted against the player)."""
        if self.played == self.best or self.after is None:
            return 0.0
        return max(0.0, self.before - self.after)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON."""
        return {
            "step": self.step,
            "seat": self.seat,
            "played": self.played.to_json(),
            "played_label": self.played_label,
            "best": self.best.to_json(),
            "best_label": self.best_label,
            "before": round(self.before, 3),
            "after": None if self.after is None else round(self.after, 3),
            "loss": round(self.loss, 3),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """A game's analysis: the decisions judged, and each player's biggest mistakes."""

    game: str
    level: str
    iterations: int
    decisions: int
    """Decisions with a real choice in the whole game."""
    judgements: list[Judgement]
    complete: bool
    """Whether every decision chosen for analysis was analysed within the time budget."""

    def mistakes(self, seat: int, limit: int = MISTAKES_SHOWN) -> list[Judgement]:
        """``seat``'s biggest mistakes, biggest first (drops of at least :data:`MISTAKE`)."""
        mine = [j for j in self.judgements if j.seat == seat and j.loss >= MISTAKE]
        return sorted(mine, key=lambda j: (-j.loss, j.step))[:limit]

    def to_json(self, players: int) -> dict[str, Any]:
        """The analysis as JSON; ``mistakes`` maps each seat to the steps of its biggest mistakes."""
        return {
            "game": self.game,
            "level": self.level,
            "iterations": self.iterations,
            "decisions": self.decisions,
            "analysed": len(self.judgements),
            "complete": self.complete,
            "judgements": [j.to_json() for j in self.judgements],
            "mistakes": {str(s): [j.step for j in self.mistakes(s)] for s in range(players)},
        }


def choices(game: Game[Any], record: Record, states: Sequence[Any]) -> list[int]:
    """The steps of ``record`` (replayed as ``states``) at which a player had a real choice: more than
    one searchable move, and not backing out of a compound decision (that only undoes a step)."""
    return [
        i
        for i, (seat, action) in enumerate(record.steps)
        # seat < 0: chance, or a seat's time running out (record.TIMEOUT): nobody's choice
        if seat >= 0 and action != CANCEL and len(searchable(game.legal_actions(states[i]))) > 1
    ]


def spread(steps: Sequence[int], limit: int) -> list[int]:
    """At most ``limit`` of ``steps``, evenly spread over them (all of them when they fit)."""
    if len(steps) <= limit:
        return list(steps)
    if limit <= 0:
        return []
    return [steps[(k * len(steps)) // limit] for k in range(limit)]


def analyse(
    game: Game[Any],
    record: Record,
    *,
    level: str = LEVEL,
    iterations: int = ITERATIONS,
    max_decisions: int = MAX_DECISIONS,
    seconds: float | None = SECONDS,
) -> Analysis:
    """Judge the decisions of ``record`` (a finished game of ``game``) by the search bot of ``level``,
    each from its seat's information set at that step; bounded by ``iterations`` per decision,
    ``max_decisions`` and ``seconds`` (``None``: no time budget, for reproducible tests)."""
    start = time.perf_counter()
    states = list(replay_states(game, record))
    candidates = choices(game, record, states)
    wanted = set(spread(candidates, max_decisions))
    judged: list[Judgement] = []
    complete = True
    for i, (seat, played) in enumerate(record.steps):
        if i not in wanted:
            continue
        if seconds is not None and time.perf_counter() - start > seconds:
            complete = False
            break
        state = states[i]
        advice = advise(InformationSet(game, state, seat), level, iterations, i)
        before = advice.win if advice.win is not None else 0.0
        after = advice.values[played][1] if played in advice.values else None
        if played == advice.action:
            after = before
        judged.append(
            Judgement(
                i,
                seat,
                played,
                game.describe(state, played),
                advice.action,
                game.describe(state, advice.action),
                before,
                after,
            )
        )
    return Analysis(game.name, level, iterations, len(candidates), judged, complete)
