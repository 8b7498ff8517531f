"""Chapter 7.2 rebuilt: melee with the dice split, simultaneous wounds, the penalty of wounds, Backstab."""

from __future__ import annotations

import pytest

from ludorum.engine import CANCEL, Action, IllegalAction
from ludorum.games.signum import GAME, combat
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.state import SignumState

from .helpers import answer_splits, build, gone, m, melee, play, roll_dice

A, D = 2, 3  # uids of the first two listed models (the heroes take 0 and 1)


def duel(a: str, d: str, **flags_a: object) -> SignumState:
    gap = (cr.CARDS[a].base + cr.CARDS[d].base) / 20.0
    return build(models=[m(a, 0, 30, 30, **flags_a), m(d, 1, 30, 30 + gap)])


def test_both_strike_at_the_same_time() -> None:
    s = duel("sellsword", "sellsword")
    s = melee(s, A, D, 2, 2, {"aa": "shield", "da": "shield"})
    assert s.model(A).wounds == 2 and s.model(D).wounds == 2


def test_defence_dice_parry_on_shield_axe_and_bullseye() -> None:
    s = duel("sellsword", "orc_berserker")
    s = melee(s, A, D, 2, 0, {"aa": "axe", "dd": "bull"})
    assert s.model(D).wounds == 0
    s = duel("sellsword", "orc_berserker")
    s = melee(s, A, D, 2, 0, {"aa": "axe", "dd": "axe"})
    assert s.model(D).wounds == 2


def test_wounded_fighter_hits_only_on_shield_axe() -> None:
    s = duel("sellsword", "orc_berserker", wounds=1)
    s = melee(s, A, D, 2, 0, {"aa": "axe", "dd": "axe"})
    assert s.model(D).wounds == 0
    s = duel("sellsword", "orc_berserker", wounds=1)
    s = melee(s, A, D, 2, 0, {"aa": "shield", "dd": "axe"})
    assert s.model(D).wounds == 2


def test_stalwart_ignores_the_penalty_of_wounds() -> None:
    s = duel("city_watchman", "orc_berserker", wounds=1)
    s = melee(s, A, D, 2, 0, {"aa": "axe", "dd": "axe"})
    assert s.model(D).wounds == 2


def test_split_must_be_a_legal_number() -> None:
    s = duel("sellsword", "sellsword")
    s = play(s, ("activate", A), ("melee", D))
    assert set(GAME.legal_actions(s)) == {Action("split", (1,)), Action("split", (2,))}  # Warlike 1
    with pytest.raises(IllegalAction):
        GAME.apply(s, Action("split", (0,)))


def test_death_goes_to_the_graveyard_and_counts_as_destroyed() -> None:
    s = duel("sellsword", "rat_catcher")
    s = melee(s, A, D, 2, 1, {"aa": "shield", "da": "bull"})
    assert gone(s, "rat_catcher") and "rat_catcher" in s.graveyard[1]
    assert s.kills == (1, 0)


def test_backstab_when_leaving_contact() -> None:
    s = duel("sellsword", "orc_berserker")
    s = play(s, ("activate", A))
    s = GAME.apply(s, Action("move_to", (300, 200)))
    assert [r.tag for r in s.rolls] == ["b0"] and s.rolls[0].n == 3
    s = roll_dice(s, {"b0": "axe"})
    assert gone(s, "sellsword")  # 3 wounds: it dies before it gets away


def test_backstab_survivor_completes_the_move() -> None:
    s = duel("troll", "rat_catcher")
    s = play(s, ("activate", A))
    s = GAME.apply(s, Action("move_to", (300, 240)))
    s = roll_dice(s, {"b0": "shield"})
    t = s.model(A)
    assert t.wounds == 1 and (t.x, t.y) == (30.0, 24.0)


def test_nimble_suffers_no_backstab() -> None:
    s = duel("wolf_rider", "orc_berserker")
    s = play(s, ("activate", A))
    s = GAME.apply(s, Action("move_to", (300, 220)))
    assert not s.rolls and s.model(A).y == 22.0


def test_move_then_melee_and_one_activation_per_turn() -> None:
    s = build(models=[m("sellsword", 0, 30, 22), m("troll", 1, 30, 30)])
    s = play(s, ("activate", A), ("contact", D))
    legal = GAME.legal_actions(s)
    assert Action("melee", (D,)) in legal and CANCEL not in legal
    s = play(s, ("melee", D))
    s = answer_splits(s, 2, 0)
    s = roll_dice(s, {}, "axe")
    assert s.model(A).activated
    assert Action("activate", (A,)) not in GAME.legal_actions(s)


def test_split_order_default_attacker_first() -> None:
    s = duel("sellsword", "troll")
    s = play(s, ("activate", A), ("melee", D))
    assert combat.splitter(s, s.pending[-1]).uid == D  # Troll is Predictable
    s = duel("sellsword", "orc_berserker")
    s = play(s, ("activate", A), ("melee", D))
    assert combat.splitter(s, s.pending[-1]).uid == A
    assert GAME.to_move(s) == 0


def test_strength_is_the_number_of_melee_dice() -> None:
    s = duel("orc_berserker", "troll")
    assert cr.strength(s, s.model(A)) == 3 and cr.strength(s, s.model(D)) == 4
