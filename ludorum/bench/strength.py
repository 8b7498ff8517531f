"""Strength at equal time per move for ``make bench``: a short match of one of our search levels against
OpenSpiel's ``MCTSBot``, seats swapped, played through the OpenSpiel adapter (needs the ``rl`` extra).

Our side is a level's settings with its iteration budget lifted and its wall-clock cap set to the move
time, deciding from its seat's information set.  OpenSpiel's side is ``MCTSBot`` with random rollouts
(one per simulation, UCT constant 2) searching the adapter's state as it is (in a game with hidden
information it sees what our side cannot: the comparison favours it there); its simulation count is calibrated
from its own simulations per CPU second, measured on a position sixty decisions in, so that it too thinks
about the move time.  The result is each side's share of the wins (1 a win, ½ a draw), over the games.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ludorum.agents.search import SearchBot, level_settings
from ludorum.bench.engine import mid_game
from ludorum.bench.search import spiel_bot
from ludorum.engine import Action
from ludorum.engine.information import InformationSet
from ludorum.games import registry


@dataclass(frozen=True)
class StrengthMatch:
    """The outcome of one short match: our level's share of the wins against OpenSpiel's MCTSBot."""

    game: str
    level: str
    move_seconds: float
    spiel_simulations: int
    """MCTSBot's simulations per move, calibrated to ``move_seconds``."""
    games: int
    ours: float
    """Our total share of the wins (1 a win, ½ a draw, 0 a loss), 0 to ``games``."""
    cut: int
    """Games stopped at the move limit before they ended, counted as draws."""

    def line(self) -> str:
        """The figure as one line of text."""
        cut = f"; {self.cut} cut at the move limit, counted as draws" if self.cut else ""
        return (
            f"Strength {self.game} 2p: our {self.level} level won {self.ours:g} of {self.games} games "
            f"({self.ours / self.games:.0%} of the wins) against OpenSpiel's MCTSBot (random rollouts, "
            f"{self.spiel_simulations} simulations a move) at {self.move_seconds:g} s a move, seats "
            f"swapped{cut}"
        )


def spiel_rate(name: str, seconds: float) -> float:
    """OpenSpiel MCTSBot's simulations per CPU second through the adapter, from a position sixty
    decisions in (at least one search of 8 simulations)."""
    import pyspiel

    import ludorum.rl.openspiel as los

    spiel_game = pyspiel.load_game(los.short_name(name), {"players": 2})
    state = spiel_game.state_at(mid_game(registry().get(name), 2))
    sims = 8
    bot = spiel_bot(spiel_game, sims, 0)
    done = 0
    start = time.process_time()
    while done == 0 or time.process_time() - start < seconds:
        bot.mcts_search(state)
        done += sims
    return done / (time.process_time() - start)


def action_id(legal: dict[int, Action], action: Action) -> int:
    """The adapter's id of ``action`` among the numbered legal actions (the lowest, as ids ascend)."""
    for index in sorted(legal):
        if legal[index] == action:
            return index
    raise ValueError(f"{action} is not among the adapter's legal actions")


def play_match(
    name: str,
    games: int = 2,
    move_seconds: float = 0.1,
    level: str = "hard",
    seed: int = 0,
    max_moves: int = 2000,
    calibrate_seconds: float = 1.0,
) -> StrengthMatch:
    """Play ``games`` games of ``name`` (2 players), our ``level`` in seat 0 of the even games and seat 1
    of the odd ones; a game still going after ``max_moves`` decisions of either side is a draw."""
    import pyspiel

    import ludorum.rl.openspiel as los

    if games < 1 or move_seconds <= 0 or max_moves < 1:
        raise ValueError(
            f"a match needs at least one game, a positive move time and move limit, not games={games}, "
            f"move_seconds={move_seconds}, max_moves={max_moves}"
        )
    spiel_game = pyspiel.load_game(los.short_name(name), {"players": 2})
    # Two simulations at least: with one, MCTSBot's root has no children to choose from.
    sims = max(2, round(spiel_rate(name, calibrate_seconds) * move_seconds))
    settings = level_settings(level, name).but(iterations=10**9, seconds=move_seconds)
    ours, cut = 0.0, 0
    for g in range(games):
        seat = g % 2
        returns = _play_one(spiel_game, SearchBot(settings), spiel_bot(spiel_game, sims, seed + g),
                            seat, random.Random(seed + g), max_moves)  # fmt: skip
        if returns is None:
            cut += 1
            ours += 0.5
        else:
            ours += returns[seat]
    return StrengthMatch(name, level, move_seconds, sims, games, ours, cut)


def _play_one(
    spiel_game: Any, ours: SearchBot, theirs: Any, seat: int, rng: random.Random, max_moves: int
) -> list[float] | None:
    """One game from the start, ``ours`` in ``seat``; the returns, or ``None`` if cut at ``max_moves``."""
    state = spiel_game.new_initial_state()
    game = registry().get(spiel_game.ludorum_name)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        if moves >= max_moves:
            return None
        moves += 1
        player = state.current_player()
        if player == seat:
            position = state.ludorum_state
            action = ours.decide(InformationSet(game, position, seat), rng)
            state.apply_action(action_id(spiel_game.table.legal(position), action))
        else:
            state.apply_action(theirs.step(state))
    return list(state.returns())
