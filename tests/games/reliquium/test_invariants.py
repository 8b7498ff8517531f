"""Invariants of the table that must hold after every decision of random games (all variants)."""

from __future__ import annotations

import random

import pytest

from ludorum.engine import Action, IllegalAction
from ludorum.games.reliquium import GAME
from ludorum.games.reliquium.content import WATER, content
from ludorum.games.reliquium.state import ReliquiumState

C = content()


def check(s: ReliquiumState) -> None:
    for f in s.factions:
        on_board = [sum(u[c] for r, u in enumerate(s.units) if s.occupant[r] == f) for c in range(3)]
        # Every miniature is on the board or in the reserve: 3 of each class.
        assert [a + b for a, b in zip(on_board, s.reserve[f], strict=True)] == [3, 3, 3]
        assert s.marker[f] == -1 or s.marker[f] % 3 >= s.track[f][s.marker[f] // 3]  # on a free division
    terrain = C.terrains(s.config.players)  # the side of the board in play
    for f in range(4):
        # Castles on the board are the free divisions of the track, by type (neutral factions too: their
        # track holds the tokens not on the board).
        for seg in range(3):
            built = sum(1 for r, c in enumerate(s.castle) if c == f and terrain[r] == seg)
            assert built + s.track[f][seg] == 3
    for r in range(len(C.names)):
        assert sum(s.units[r]) <= 3  # the unit limit
        assert (s.occupant[r] == -1) == (s.units[r] == (0, 0, 0))
        if s.castle[r] != -1:
            assert C.terrain[r] != WATER
            # "Under no circumstances may units of different factions be in the same region"; a player's
            # castle hosts only its own units (neutral castles host anyone).
            if s.castle[r] in s.factions:
                assert s.occupant[r] in (-1, s.castle[r])
    for t in s.ranged:
        assert sum(t[4:7]) + t[7] <= t[1]  # no more units than arrows
    borders = [C.border(t[2], t[3]) for t in (*s.melee, *s.ranged)]
    assert len(borders) == len(set(borders))  # one token per border


@pytest.mark.parametrize("variants", [[], ["single-march", "militia", "allies"]])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_in_random_games(players: int, variants: list[str]) -> None:
    for seed in range(6):
        cfg = GAME.config(players, variants, rounds=8)
        s = GAME.new(cfg, seed)
        rng = random.Random(seed)
        while not GAME.is_over(s):
            check(s)
            legal = GAME.legal_actions(s)
            s = GAME.apply(s, legal[rng.randrange(len(legal))])
        check(s)


def test_unknown_action_is_refused_by_name() -> None:
    s = GAME.new(GAME.config(2), 0)
    with pytest.raises(IllegalAction, match="there is no action 'fly'"):
        GAME.apply(s, Action("fly", (1,)))


def test_fast_view_is_the_derived_view() -> None:
    from ludorum.engine import derive_view
    from ludorum.games.reliquium.game import public_view

    for seed in range(4):
        s = GAME.new(GAME.config(2 + seed % 3, ["allies", "militia"], rounds=6), seed)
        rng = random.Random(seed)
        while not GAME.is_over(s):
            assert public_view(s) == derive_view(s, 0)
            legal = GAME.legal_actions(s)
            s = GAME.apply(s, legal[rng.randrange(len(legal))])
