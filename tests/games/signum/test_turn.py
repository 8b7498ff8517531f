"""Chapter 6 rebuilt: start of turn, building, terrain, activation; cards from the hand; tactics; views."""

from __future__ import annotations

import random

from ludorum.engine import CHANCE, Action
from ludorum.games.signum import GAME
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.setup import START_PROSPERITY
from ludorum.games.signum.state import SignumState

from .helpers import answer_splits, build, m, play, roll_dice, to_activation


def start(seed: int = 1) -> SignumState:
    s = GAME.new(GAME.config(2), seed)
    s = GAME.apply_chance(s, Action("first_die", (0,)))
    return GAME.apply(s, Action("first", (0,)))


def test_setup_opening_hands_heroes_on_their_edges_and_the_first_player() -> None:
    s = GAME.new(GAME.config(2), 3)
    assert GAME.to_move(s) == CHANCE
    assert [len(h) for h in s.hands] == [4, 4] and s.deck_sizes == (26, 26)
    h0, h1 = s.hero_of(0), s.hero_of(1)
    assert h0 is not None and h1 is not None
    assert h0.y == cr.CARDS[h0.card].base / 20 and h1.y == 60 - cr.CARDS[h1.card].base / 20
    s = GAME.apply_chance(s, Action("first_die", (1,)))
    assert GAME.to_move(s) == 1 and set(GAME.legal_actions(s)) == {
        Action("first", (0,)),
        Action("first", (1,)),
    }
    s = GAME.apply(s, Action("first", (0,)))
    assert s.turn == 1 and s.active == 0
    # income; no draw on the very first turn
    assert s.prosperity[0] == START_PROSPERITY + 2 and len(s.hands[0]) == 4


def test_second_turn_draws_and_collects_building_income() -> None:
    s = build(
        models=[], city=([], ["farm", "market"]), prosperity=(0, 0), decks=(["tithe"] * 5, ["tithe"] * 5)
    )
    hand = len(s.hands[1])
    s = play(s, ("end_turn",))
    assert s.active == 1 and s.prosperity[1] == 2 + 1 + 2 and len(s.hands[1]) == hand + 1


def test_building_phase_one_building_then_terrain_then_activation() -> None:
    s = build(models=[], phase="build", prosperity=(9, 0), terrain_hands=(["forest"], []))
    builds = {a.args[0] for a in GAME.legal_actions(s) if a.kind == "build"}
    assert "farm" in builds and "bank" not in builds and "guild_hall" not in builds
    s = play(s, ("build", "market"))
    assert s.city[0] == ("market",) and s.prosperity[0] == 3 and s.phase == "terrain"
    s = play(s, ("terrain", "forest", 4))
    assert s.terrain[0].card == "forest" and s.phase == "activation" and s.terrain_hands[0] == ()


def test_recruit_pays_and_enters_on_the_table_edge_and_cannot_act_at_once() -> None:
    s = build(models=[], hands=(["musketeer"], []), prosperity=(5, 5), city=(["barracks"], []))
    s = play(s, ("recruit", "musketeer", 0))
    mus = s.models[-1]
    assert s.prosperity[0] == 5 - 2 and (mus.x, mus.y) == (6.0, 1.5) and mus.fresh
    assert Action("activate", (mus.uid,)) not in GAME.legal_actions(s)
    err = GAME.describe_error(
        build(models=[], hands=(["troll"], []), prosperity=(1, 1)), Action("recruit", ("troll", 0))
    )
    assert err is not None and "Troll costs 6 prosperity, you have 1" in str(err)


def test_relic_goes_to_a_hero_slot_and_counts() -> None:
    s = build(models=[], hands=(["sword_of_dawn", "sword_of_dawn"], []), prosperity=(10, 5))
    s = play(s, ("equip", "sword_of_dawn"))
    hero = s.hero_of(0)
    assert hero is not None and cr.strength(s, hero) == 5
    assert Action("equip", ("sword_of_dawn",)) not in GAME.legal_actions(s)  # the weapon slot is taken


def test_spells_bolt_mend_bless() -> None:
    s = build(
        models=[m("sellsword", 1, 30, 20), m("troll", 0, 40, 20, wounds=3)],
        hands=(["holy_lightning", "prayer_of_healing", "gryphon_blessing"], []),
        prosperity=(20, 0),
    )
    s = play(s, ("cast", "holy_lightning", 2))
    s = roll_dice(s, {"hit": "bull"})
    assert s.find(2) is None
    s = play(s, ("cast", "prayer_of_healing", 3))
    assert s.model(3).wounds == 1
    s = play(s, ("cast", "gryphon_blessing", 3))
    assert cr.has(s, s.model(3), "initiative")


def test_tactics_are_secret_and_fire_on_their_condition() -> None:
    s = build(models=[], hands=(["ambush_of_the_faithful"], ["musketeer"]), prosperity=(5, 5))
    s = play(s, ("set", "ambush_of_the_faithful"))
    v1 = GAME.view(s, 1)
    assert v1["tactics"][0] == {"hidden": 1} and "Ambush" not in str(v1["log"])
    assert GAME.view(s, 0)["tactics"][0] == ["ambush_of_the_faithful"]
    s = to_activation(play(s, ("end_turn",)))
    s = play(s, ("recruit", "musketeer", 0))
    assert s.models[-1].wounds == 1 and s.tactics[0] == () and "ambush_of_the_faithful" in s.graveyard[0]


def test_shield_wall_smoke_screen_anathema_sabotage_insurance() -> None:
    s = build(
        models=[m("orc_berserker", 0, 30, 30), m("sellsword", 1, 30, 33)], tactics=([], ["shield_wall"])
    )
    s = play(s, ("activate", 2), ("melee", 3))
    s = answer_splits(s, 3, 1)
    assert {r.tag: r.n for r in s.rolls}["dd"] == 3
    s = build(models=[m("crossbowman", 0, 30, 20), m("sellsword", 1, 30, 35)], tactics=([], ["smoke_screen"]))
    s = play(s, ("activate", 2), ("shoot", 3))
    assert not s.rolls and s.model(3).wounds == 0
    s = build(models=[], hands=(["tithe"], []), tactics=([], ["anathema"]), prosperity=(5, 5))
    s = play(s, ("cast", "tithe", -1))
    assert s.prosperity[0] == 4
    s = build(models=[], phase="build", prosperity=(5, 5), tactics=([], ["sabotage"]))
    s = play(s, ("build", "farm"))
    assert s.prosperity[1] == 7
    s = build(
        models=[m("orc_berserker", 0, 30, 30), m("rat_catcher", 1, 30, 33)],
        tactics=([], ["insurance"]),
        prosperity=(3, 3),
    )
    s = play(s, ("activate", 2), ("melee", 3))
    s = answer_splits(s, 3, 1)
    s = roll_dice(s, {"aa": "shield"}, "bull")
    assert s.find(3) is None and s.prosperity[1] == 5


def test_views_hide_hands_decks_and_tactics() -> None:
    s = start()
    v = GAME.view(s, 1)
    assert v["hands"][0] == {"hidden": 4} and isinstance(v["hands"][1], list)
    assert v["decks"] == {"hidden": 2} and v["deck_sizes"] == [26, 26]
    other = GAME.sample_state(s, 1, random.Random(3))
    assert GAME.view(other, 1) == v
    assert other.hands[1] == s.hands[1] and sorted(other.hands[0] + other.decks[0]) == sorted(
        s.hands[0] + s.decks[0]
    )


def test_render_and_describe() -> None:
    s = build(models=[m("sellsword", 0, 30, 30)], terrain=[("forest", 30, 45)])
    text = GAME.render_text(s, 0)
    assert "Sellsword" in text and "%" in text and "Your hand" in text
    assert GAME.describe(s, Action("activate", (2,))) == "Activate Sellsword"  # a name, no internal id
    assert GAME.describe(s, Action("roll", (1, 0, 2))) == "Dice: 1× Bullseye, 0× Axe, 2× Shield/Axe"


def test_view_summarises_visible_cards_only() -> None:
    s = build(
        models=[m("sellsword", 0, 30, 30)], hands=(["tithe"], ["musketeer"]), tactics=(["shield_wall"], [])
    )
    v0, v1 = GAME.view(s, 0), GAME.view(s, 1)
    assert v0["cards"]["sellsword"]["properties"] == ["Warlike 1 (Воинственный 1)"]
    assert "tithe" in v0["cards"] and "shield_wall" in v0["cards"]
    assert "tithe" not in v1["cards"] and "shield_wall" not in v1["cards"] and "musketeer" in v1["cards"]
    assert v0["to_move"] == 0


def test_view_summarises_every_card_the_seat_may_choose() -> None:
    """A building one may build lies in no zone, but the board draws it as a card: the view summarises it."""
    s = start()
    assert s.phase == "build"
    named = {str(a.args[0]) for a in GAME.legal_actions(s) if a.kind == "build"}
    assert named
    assert named <= set(GAME.view(s, s.active)["cards"])


def test_labels_of_secret_actions_name_no_card() -> None:
    s = build(models=[], hands=(["shield_wall"], []))
    assert GAME.describe(s, Action("set", ("shield_wall",))) == "Set a tactic card face down"
    assert "farm" not in GAME.describe(s, Action("stack", ("farm",))).lower()
