"""The four-player table is symmetric: reflected across its diagonal (x ↔ y), P1's place is P3's and P2's
is P4's, and the turn order P1 → P2 → P3 → P4 is the same order started two places later.  So the rules and
the heuristic bot must treat a reflected position as the reflection of the position: the same legal
actions, the same transitions, the same choices, reflected.  A rule or bot that favours one direction or
one axis (the side-edge entry bug of 2 December 2026) makes seats unequal that the table makes equal."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ludorum.engine import CHANCE, Action
from ludorum.games.signum import GAME
from ludorum.games.signum.bot import HeuristicBot
from ludorum.games.signum.state import Model, SignumState

PER_SEAT = (
    "prosperity",
    "heroes",
    "terrain_hands",
    "city",
    "graveyard",
    "deck_sizes",
    "kills",
    "overlong",
    "building_hands",
    "out",
    "hands",
    "tactics",
    "building_decks",
    "decks",
)
COMPARED = ("models", "prosperity", "kills", "out", "active", "phase", "acting", "stage", "pending", "rolls")
SKIPPED = ("roll_first", "choose_first", "terrain")  # the roll's seats and the terrain spots' numbering


def seat(k: int) -> int:
    """The seat a reflection puts in seat ``k``'s place (an involution; -1, nobody, stays)."""
    return (k + 2) % 4 if k >= 0 else k


def model(m: Model) -> Model:
    """A model reflected."""
    return m.but(x=m.y, y=m.x, owner=seat(m.owner), controller=seat(m.controller), hit_by=seat(m.hit_by))


def reflect(s: SignumState) -> SignumState:
    """The whole state reflected across the diagonal, seats renamed."""
    r = s.clone()
    r.models = tuple(model(m) for m in s.models)
    r.terrain = tuple(dataclasses.replace(t, x=t.y, y=t.x) for t in s.terrain)
    for name in PER_SEAT:
        values = getattr(s, name)
        setattr(r, name, tuple(values[seat(k)] for k in range(len(values))))
    r.active, r.first = seat(s.active), seat(s.first)
    r.pending = tuple(dataclasses.replace(p, x=p.y, y=p.x) for p in s.pending)
    return r


def action(a: Action) -> Action:
    """An action reflected: direction i (at i·45° from +x) becomes 90° − i·45°; points swap x and y."""
    if a.kind in ("move", "run"):
        return Action(a.kind, ((2 - int(a.args[0])) % 8, *a.args[1:]))  # type: ignore[arg-type]
    if a.kind == "move_to":
        return Action(a.kind, (a.args[1], a.args[0]))
    return a


@pytest.mark.parametrize("game_seed", [0, 1, 2])
def test_a_reflected_four_player_game_is_played_as_its_reflection(game_seed: int) -> None:
    bot, s, rng, checked = HeuristicBot(), GAME.new(GAME.config(4), game_seed), random.Random(game_seed), 0
    while not GAME.is_over(s):
        mover = GAME.to_move(s)
        if mover == CHANCE:
            s = GAME.step(s, GAME.sample_chance(s))
            continue
        legal = GAME.legal_actions(s)
        chosen = bot.choose(GAME.view(s, mover), legal, mover, rng)
        after = GAME.step(s, chosen)
        if s.phase not in SKIPPED:
            r = reflect(s)
            assert set(GAME.legal_actions(r)) == {action(a) for a in legal}, (s.turn, chosen)
            mirrored = bot.choose(
                GAME.view(r, seat(mover)), GAME.legal_actions(r), seat(mover), random.Random(0)
            )
            assert mirrored == action(bot.choose(GAME.view(s, mover), legal, mover, random.Random(0)))
            want, got = reflect(after), GAME.step(r, action(chosen))
            for name in COMPARED:
                assert getattr(got, name) == getattr(want, name), (s.turn, chosen, name)
            checked += 1
        s = after
    assert checked > 100
