"""Chapters 8–10 exactly: hero death, both heroes falling, 51 prosperity, the over-long game, ties, and the
Experienced Architect variant."""

from __future__ import annotations

from ludorum.engine import CHANCE, Action
from ludorum.games.signum import GAME, victory
from ludorum.games.signum.creatures import CARDS
from ludorum.games.signum.state import SignumState

from .helpers import build, hurt, m, melee, model, play


def next_turn(s: SignumState) -> SignumState:
    """End the turn and pass the next player's building and terrain phases."""
    s = play(s, ("end_turn",))
    while s.phase in ("build", "terrain"):
        s = play(s, ("pass",))
    while s.coins_due:
        s = play(s, ("clink", s.coins_due[0], False))
    return s


def test_killing_the_enemy_hero_wins() -> None:
    s = build(
        models=[
            m("sellsword", 0, 30, 30),
            m("burgomaster_orvin", 1, 30, 34, wounds=hurt("burgomaster_orvin", 1)),
        ]
    )
    s = melee(
        s, model(s, "sellsword").uid, model(s, "burgomaster_orvin").uid, 2, 0, {"aa": "shield", "dd": "axe"}
    )
    assert GAME.is_over(s) and s.winner == 0
    assert GAME.result(s).winners == (0,) and "killed" in GAME.result(s).reason


def both_heroes_fall(**spec: object) -> SignumState:
    touching = (CARDS["gryphon_lord_kassian"].base + CARDS["captain_lisandra"].base) / 20.0  # in contact
    s = build(
        heroes=("gryphon_lord_kassian", "captain_lisandra"),
        models=[
            m("gryphon_lord_kassian", 0, 30, 30, wounds=hurt("gryphon_lord_kassian", 3)),
            m("captain_lisandra", 1, 30, 30 + touching, wounds=8),
        ],
        **spec,
    )
    kassian, lisandra = model(s, "gryphon_lord_kassian").uid, model(s, "captain_lisandra").uid
    return melee(s, kassian, lisandra, 4, 4, {"aa": "shield", "da": "shield"})


def test_both_heroes_dying_in_one_melee_more_prosperity_wins() -> None:
    s = both_heroes_fall(prosperity=(10, 12))
    assert GAME.is_over(s) and s.winner == 1 and "more prosperity" in s.reason


def test_tie_on_prosperity_goes_to_the_city_then_to_the_bloodthirsty_then_a_draw() -> None:
    s = both_heroes_fall(prosperity=(10, 10), city=(["farm"], ["market"]))
    assert s.winner == 1 and "City is worth more" in s.reason
    s = both_heroes_fall(prosperity=(10, 10), city=(["market"], ["market"]), kills=(3, 1))
    assert s.winner == 0 and "destroyed more enemy characters" in s.reason
    s = both_heroes_fall(prosperity=(10, 10), kills=(1, 1))
    assert s.winner == victory.DRAW and GAME.result(s).ranking == (1, 1)


def test_the_game_ends_only_after_the_effects_of_a_death_resolve() -> None:
    # Divine Providence (when your hero is wounded: +3 prosperity) fires on the fatal wound itself.
    s = both_heroes_fall(prosperity=(10, 12), tactics=(["divine_providence"], []))
    assert s.prosperity[0] == 13 and s.winner == 0


def test_fifty_one_prosperity_wins() -> None:
    s = build(models=[], hands=(["tithe"], []), prosperity=(49, 0))
    s = play(s, ("cast", "tithe", -1))
    assert GAME.is_over(s) and s.winner == 0 and "51 prosperity" in s.reason
    s = build(models=[], hands=(["tithe"], []), prosperity=(48, 0))
    s = play(s, ("cast", "tithe", -1))
    assert not GAME.is_over(s)


def test_the_over_long_game_doubles_the_opponents_gain() -> None:
    s = build(models=[], decks=(["tithe"] * 10, []), hands=([], []), prosperity=(0, 0))
    gains = []
    for _ in range(4):
        s = next_turn(s)  # P2's turn: it must draw from its empty deck
        before = s.prosperity[0]
        gains.append(s.overlong[1])
        s = next_turn(s)  # P1's turn
        assert s.prosperity[0] >= before
    assert gains == [2, 4, 8, 16]
    s = build(models=[], decks=(["tithe"] * 10, []), hands=([], []), prosperity=(0, 0))
    s = play(s, ("end_turn",))
    assert s.prosperity[0] == 1 and any("empty battle deck" in line for line in s.log)


def test_the_over_long_game_ends_the_game_by_prosperity() -> None:
    s = build(models=[], decks=(["tithe"] * 10, []), hands=([], []), prosperity=(45, 0), overlong=(1, 8))
    s = play(s, ("end_turn",))
    assert GAME.is_over(s) and s.winner == 0


def test_turn_limit_is_decided_by_the_tie_breaks() -> None:
    s = build(models=[], prosperity=(20, 30), turn=victory.TURN_LIMIT)
    s = play(s, ("end_turn",))
    assert GAME.is_over(s) and s.winner == 1 and "turn limit" in s.reason


def test_experienced_architect_variant() -> None:
    cfg = GAME.config(2, variants=["architect"])
    s = GAME.new(cfg, 5)
    assert GAME.to_move(s) == CHANCE
    s = GAME.apply_chance(s, Action("first_die", (1,)))
    s = GAME.apply(s, Action("first", (1,)))
    assert s.phase == "stack" and GAME.to_move(s) == 1
    order = [a.args[0] for a in GAME.legal_actions(s)][::-1]  # a chosen order: the reverse
    for b in order:
        s = GAME.apply(s, Action("stack", (b,)))
    assert GAME.to_move(s) == 0
    # The opponent sees only how many building cards are stacked, never their order.
    assert GAME.view(s, 0)["building_decks"][1] == {"hidden": len(order)}
    while s.phase == "stack":
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    # Two building cards before the start, one more at the start of the first player's turn.
    assert s.building_hands[1] == tuple(order[:3])
    assert s.building_decks[1] == tuple(order[3:])
    builds = {a.args[0] for a in GAME.legal_actions(s) if a.kind == "build"}
    assert builds <= set(order[:3])
