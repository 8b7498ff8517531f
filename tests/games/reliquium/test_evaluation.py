"""Reliquium's search evaluation: shares are a distribution, and with three or four players they see
the race to the ninth castle (ready lands count, a castle weighs more the nearer the end)."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from ludorum.engine import CHANCE
from ludorum.games.reliquium import GAME
from ludorum.games.reliquium.content import WATER
from ludorum.games.reliquium.evaluation import TEMPERATURE, ready_lands, standing, value
from ludorum.games.reliquium.rules import C
from ludorum.games.reliquium.state import NO, ReliquiumState


def with_castles(s: ReliquiumState, counts: list[int]) -> ReliquiumState:
    """``s`` with each seat's castles on the board set to ``counts`` (through the track, which is what
    counts them)."""
    track = list(s.track)
    for f, n in zip(s.factions, counts, strict=True):
        left = 9 - n
        track[f] = (left - 2 * (left // 3), left // 3, left // 3)
    return dataclasses.replace(s, track=tuple(track))


def test_a_ready_land_raises_the_share_at_four_players() -> None:
    s = with_castles(GAME.new(GAME.config(4), 1), [5, 5, 5, 5])  # mid-race: ready lands count
    f = s.factions[0]
    # one of the faction's lone units steps onto an empty, castle-less land next to it
    src, dst = next(
        (r, n)
        for r in range(len(s.occupant))
        if s.occupant[r] == f and sum(s.units[r]) == 1
        for n in C.adj[r]
        if s.occupant[n] == NO and s.castle[n] == NO and C.terrain[n] != WATER
    )
    occupant, units = list(s.occupant), list(s.units)
    occupant[dst], units[dst] = f, units[src]
    occupant[src], units[src] = NO, (0, 0, 0)
    moved = dataclasses.replace(s, occupant=tuple(occupant), units=tuple(units))
    assert ready_lands(s, f) == 0 and ready_lands(moved, f) == 1
    assert value(moved)[0] > value(s)[0] + 0.05
    assert sum(value(moved)) == pytest.approx(1.0)


def test_a_castle_lead_weighs_more_near_the_ninth_castle() -> None:
    s = GAME.new(GAME.config(4), 1)
    early = value(with_castles(s, [4, 3, 3, 3]))[0]
    late = value(with_castles(s, [8, 7, 7, 7]))[0]
    assert early > 0.25 and late > early + 0.05


def random_positions(players: int, seed: int, moves: int) -> list[ReliquiumState]:
    """The positions of a game of random moves (chance, if any, drawn from the state's generator)."""
    rng = random.Random(seed)
    s = GAME.new(GAME.config(players), seed)
    out = [s]
    while len(out) < moves and not GAME.is_over(s):
        if GAME.to_move(s) == CHANCE:
            s = GAME.step(s, GAME.sample_chance(s))
        else:
            s = GAME.step(s, rng.choice(list(GAME.legal_actions(s))))
        out.append(s)
    return out


@pytest.mark.parametrize("players", [3, 4])
def test_shares_are_a_distribution_through_games(players: int) -> None:
    positions = random_positions(players, 7, 400)
    assert len(positions) > 100
    for s in positions:
        if GAME.is_over(s):  # search scores a finished game from its result, not from value()
            continue
        shares = value(s)
        assert len(shares) == players
        assert sum(shares) == pytest.approx(1.0)
        assert all(0.1 / players - 1e-9 <= x <= 0.9 + 0.1 / players + 1e-9 for x in shares)


def test_two_players_keep_the_hand_set_standing() -> None:
    for s in random_positions(2, 3, 200)[::20]:
        if GAME.is_over(s):
            continue
        scores = [standing(s, f) for f in s.factions]
        left = max(1, s.round_limit - s.round + 1)
        t = TEMPERATURE * min(1.0, 0.35 + left / 12)
        weights = [math.exp((x - max(scores)) / t) for x in scores]
        expected = [0.1 + 0.8 * w / sum(weights) for w in weights]
        assert list(value(s)) == pytest.approx(expected)
