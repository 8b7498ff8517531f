"""Invariants over seeded random games: bases never overlap and stay on the Battlefield, wounds stay below
health, zones keep every card, prosperity never goes negative."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ludorum.engine import CHANCE
from ludorum.games.signum import GAME
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.setup import deck_of
from ludorum.games.signum.state import SignumState


def cards_held(s: SignumState, seat: int) -> Counter[str]:
    held = Counter(s.hands[seat]) + Counter(s.decks[seat]) + Counter(s.tactics[seat])
    held += Counter(c for c in s.graveyard[seat] if cr.CARDS[c].kind != "hero")
    held += Counter(m.card for m in s.models if m.owner == seat and m.card != s.heroes[seat])
    held += Counter(r for m in s.models if m.owner == seat for r in m.relics)
    return held


def check(s: SignumState) -> None:
    for i, a in enumerate(s.models):
        da = cr.disc(a)
        assert bf.on_board(da), f"{a.card} left the Battlefield"
        assert a.wounds < cr.health(a), f"{a.card} should be in the Graveyard"
        for b in s.models[i + 1 :]:
            assert not bf.overlaps(da, cr.disc(b)), f"{a.card} and {b.card} overlap"
        for t in cr.obstacles(s.terrain):
            assert not (t.impassable and bf.overlaps(da, t.disc)), f"{a.card} stands in impassable terrain"
    assert all(p >= 0 for p in s.prosperity)
    for seat in range(s.players):  # a player who left keeps its cards too: its hand is in its Graveyard
        assert cards_held(s, seat) == Counter(deck_of(s.config, seat)[1])


@pytest.mark.parametrize("players", [2, 3])
def test_invariants_hold_in_random_games(players: int) -> None:
    config = GAME.config(players)
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new(config, 4000 + seed)
        while not GAME.is_over(s):
            if GAME.to_move(s) == CHANCE:
                s = GAME.apply_chance(s, GAME.sample_chance(s))
            else:
                s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
            check(s)
