"""The three-faced die: faces, chance outcomes, re-rolls."""

from __future__ import annotations

import pytest

from ludorum.engine import CHANCE, Action
from ludorum.games.signum import GAME, dice

from .helpers import build, m, model, play


def test_faces_twice_each() -> None:
    assert [dice.face_of(v) for v in range(1, 7)] == [1, 1, 2, 2, 4, 4]
    assert dice.FACE_NAMES[dice.face_of(1)] == "Bullseye"
    assert dice.FACE_NAMES[dice.face_of(4)] == "Axe"
    assert dice.FACE_NAMES[dice.face_of(6)] == "Shield/Axe"
    with pytest.raises(ValueError):
        dice.face_of(7)


def test_outcomes_are_a_distribution() -> None:
    for n in range(1, 8):
        outs = dice.outcomes(n)
        assert len(outs) == (n + 1) * (n + 2) // 2
        assert sum(p for _, p in outs) == pytest.approx(1.0)
    assert dict(dice.outcomes(1)) == pytest.approx({(1, 0, 0): 1 / 3, (0, 1, 0): 1 / 3, (0, 0, 1): 1 / 3})


def test_master_rerolls_failures_and_forced_rerolls_successes() -> None:
    r = dice.Roll("t", 3, dice.HITS_MELEE, master=1)
    nxt = dice.advance(r, (2, 1, 0))
    assert isinstance(nxt, dice.Roll) and nxt.n == 1 and nxt.kept == 1
    done = dice.advance(nxt, (0, 0, 1))
    assert isinstance(done, dice.Rolled) and done.hits == 2
    f = dice.Roll("t", 3, dice.HITS_MELEE, forced=True)
    nxt = dice.advance(f, (1, 2, 0))
    assert isinstance(nxt, dice.Roll) and nxt.n == 2 and nxt.stage == 2
    done = dice.advance(nxt, (1, 0, 1))
    assert isinstance(done, dice.Rolled) and done.hits == 1


def test_dice_are_chance_nodes_in_the_game() -> None:
    s = build(models=[m("musketeer", 1, 30, 40), m("crossbowman", 0, 30, 25)])
    s = play(s, ("activate", model(s, "crossbowman").uid), ("shoot", model(s, "musketeer").uid))
    assert GAME.to_move(s) == CHANCE
    outs = GAME.chance_outcomes(s)
    assert {a for a, _ in outs} == set(GAME.legal_actions(s))
    assert all(a.kind == "roll" for a, _ in outs)
    assert Action("roll", (2, 0, 0)) in GAME.legal_actions(s)
