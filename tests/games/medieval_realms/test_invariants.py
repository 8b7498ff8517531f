"""Invariants checked at every step of seeded random games: every card is somewhere exactly once, no
Manor goes negative, displays keep their limits, the box is never exceeded, VP never fall."""

from __future__ import annotations

import random

import pytest

from ludorum.engine import Action
from ludorum.engine.conformance import random_choice
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.content import CARDS, RESOURCES
from ludorum.games.medieval_realms.state import BOX, RealmsState


def check(s: RealmsState, before: RealmsState | None) -> None:
    where = [c for c in (*s.panel, *s.future) if c >= 0]
    where += [*s.deck, *s.discards]
    for seat in range(s.config.players):
        where += [*s.display[seat], *s.in_play[seat]]
        colours = [CARDS[c].colour for c in s.display[seat]]
        assert len(colours) <= 4 and len(set(colours)) == len(colours)
        assert all(r >= 0 for r in s.res[seat])
        assert s.dues[seat] >= 0
        if before is not None:
            assert s.vp[seat] >= before.vp[seat]
    if s.auction is not None:
        where.append(s.auction.card)
    assert sorted(where) == list(range(len(CARDS)))
    assert sum(s.mayors) <= BOX[0] and sum(s.generals) <= BOX[1] and sum(s.admirals) <= BOX[2]
    assert sorted(s.order) == list(range(s.config.players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_invariants_hold_at_every_step(players: int) -> None:
    for g in range(15):
        rng = random.Random(g)
        s = GAME.new(GAME.config(players), 900 + g)
        before = None
        while not GAME.is_over(s):
            check(s, before)
            before, s = s, GAME.apply(s, random_choice(GAME.legal_actions(s), rng))
        check(s, before)
        assert s.round == 7


def _candidates(s: RealmsState) -> list[Action]:
    out = [Action("activate", (sq,)) for sq in range(0, 14)] + [Action("pass"), Action("cancel")]
    for seat in range(s.config.players):
        for c in (*s.display[seat], *s.in_play[seat]):
            out += [Action("play", (c,))] + [Action("play", (c, r)) for r in RESOURCES]
    for kind in ("mayor", "general", "admiral", "buffer"):
        out += [Action(kind, (a,)) for a in range(0, 12)] + [Action(kind, (r,)) for r in RESOURCES]
    out += [Action("bid", (x,)) for x in range(0, 12)] + [Action("token", (r,)) for r in RESOURCES]
    out += [Action("activate", ("1",)), Action("play", ("x",)), Action("mayor", ())]
    return out


@pytest.mark.parametrize("players", [2, 5])
def test_apply_accepts_exactly_the_legal_actions(players: int) -> None:
    rng = random.Random(players)
    s = GAME.new(GAME.config(players), 31 + players)
    while not GAME.is_over(s):
        legal = set(GAME.legal_actions(s))
        for a in _candidates(s):
            assert (GAME.describe_error(s, a) is None) == (a in legal), a
        s = GAME.apply(s, random_choice(list(legal), rng))
