"""Chapter 11: every glossary property, plus Armour X, −X from attacks and Magical Strike (DESIGN.md §5).

Each test sets up a position where the property changes the outcome, so removing it fails the test.
"""

from __future__ import annotations

from ludorum.engine import Action
from ludorum.games.signum import GAME, combat
from ludorum.games.signum import creatures as cr

from .helpers import answer_splits, build, gone, m, melee, play, roll_dice

A, B, C = 2, 3, 4  # uids of the listed models (the heroes are 0 and 1)


def legal(s: object) -> list[Action]:
    return list(GAME.legal_actions(s))  # type: ignore[arg-type]


def test_aura_gives_friends_in_range_the_property_but_not_the_holder() -> None:
    s = build(models=[m("sellsword", 0, 30, 10), m("sellsword", 0, 50, 40), m("musketeer", 1, 36, 10)])
    assert cr.has(s, s.model(A), "stalwart")
    assert not cr.has(s, s.model(B), "stalwart")
    assert not cr.has(s, s.model(C), "stalwart")
    assert not cr.has(s, s.model(0), "stalwart")


def test_berserk_adds_strength_while_wounded() -> None:
    s = build(models=[m("orc_berserker", 0, 30, 30), m("orc_berserker", 0, 40, 30, wounds=1)])
    assert cr.strength(s, s.model(A)) == 3 and cr.strength(s, s.model(B)) == 5


def test_battle_mage_uses_magic_after_moving() -> None:
    s = build(models=[m("inquisitor", 0, 30, 20), m("orc_berserker", 1, 30, 27)])
    s = play(s, ("activate", A), ("contact", B))
    assert Action("strike", (B,)) in legal(s)
    s = build(models=[m("guild_alchemist", 0, 30, 20), m("orc_berserker", 1, 30, 40)])
    s = play(s, ("activate", A))
    assert Action("magic_shot", (B,)) in legal(s)
    s = play(s, ("move", 2, 80))
    assert Action("magic_shot", (B,)) not in legal(s)


def test_quick_shooter_shoots_after_moving() -> None:
    s = build(
        models=[m("elven_ranger", 0, 30, 20), m("crossbowman", 0, 40, 20), m("orc_berserker", 1, 30, 40)]
    )
    s1 = play(s, ("activate", A), ("move", 2, 80))
    assert Action("shoot", (C,)) in legal(s1)
    s2 = play(s, ("activate", B), ("move", 2, 80))
    assert Action("shoot", (C,)) not in legal(s2)


def test_warlike_and_cautious_bound_the_split() -> None:
    s = build(models=[m("zealot", 0, 30, 30), m("harbour_brawler", 0, 40, 30), m("temple_guard", 0, 50, 30)])
    assert list(combat.split_options(s, s.model(A))) == [2]
    assert list(combat.split_options(s, s.model(B))) == [1, 2]
    assert list(combat.split_options(s, s.model(C))) == [0, 1]


def test_shot_hits_on_bullseye_and_the_target_blocks_on_shield_axe() -> None:
    s = build(models=[m("crossbowman", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("shoot", B))
    assert s.rolls[0].n == 2
    s = roll_dice(s, {"hit": "bull", "block": "shield"})
    assert s.model(B).wounds == 0
    s = build(models=[m("crossbowman", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, {"hit": "bull", "block": "axe"})
    assert s.model(B).wounds == 2
    s = build(models=[m("crossbowman", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, {"hit": "axe"})
    assert s.model(B).wounds == 0


def test_shot_refusals_name_the_rule() -> None:
    s = build(models=[m("crossbowman", 0, 30, 10), m("sellsword", 1, 30, 40)], terrain=[])
    s = play(s, ("activate", A))
    err = GAME.describe_error(s, Action("shoot", (B,)))
    assert err is not None and "Shot: the target is beyond XL (27.0 cm)" in str(err)
    s = build(models=[m("crossbowman", 0, 30, 15), m("sellsword", 1, 30, 40)], terrain=[("rocks", 30, 27)])
    s = play(s, ("activate", A))
    assert "line of sight" in str(GAME.describe_error(s, Action("shoot", (B,))))


def test_defender_must_be_the_target() -> None:
    s = build(models=[m("sellsword", 0, 30, 30), m("temple_guard", 1, 30, 33), m("orc_berserker", 1, 33, 30)])
    s = play(s, ("activate", A))
    targets = {a.args[0] for a in legal(s) if a.kind == "melee"}
    assert targets == {B}


def test_clink_of_coins_buys_a_property() -> None:
    s = build(
        models=[m("tax_collector", 0, 30, 30)], phase="terrain", terrain_hands=([], []), prosperity=(5, 5)
    )
    s = play(s, ("pass",))
    assert legal(s) == [Action("clink", (A, True)), Action("clink", (A, False))]
    s = play(s, ("clink", A, True))
    assert s.prosperity[0] == 4 and cr.has(s, s.model(A), "initiative")
    s = play(s, ("end_turn",))
    assert not cr.has(s, s.model(A), "initiative")


def test_initiative_strikes_first_and_a_dead_foe_does_not_strike_back() -> None:
    s = build(models=[m("sellsword", 0, 30, 30, granted=["initiative"]), m("sellsword", 1, 30, 33, wounds=1)])
    s = melee(s, A, B, 2, 2, {"aa": "shield", "da": "shield", "ad": "axe", "dd": "axe"})
    assert gone(s, "sellsword") is False and s.find(B) is None and s.model(A).wounds == 0
    s = build(models=[m("sellsword", 0, 30, 30), m("sellsword", 1, 30, 33, wounds=1)])
    s = melee(s, A, B, 2, 2, {"aa": "shield", "da": "shield", "ad": "axe", "dd": "axe"})
    assert s.find(B) is None and s.model(A).wounds == 2


def test_buckshot_pushes_the_target_and_wounds_it_if_blocked() -> None:
    s = build(models=[m("blunderbuss", 0, 30, 20), m("sellsword", 1, 30, 28)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, lambda r: (1, r.n - 1, 0) if r.tag == "hit" else (0, r.n, 0))
    t = s.model(B)
    assert t.wounds == 1 and t.y == 36.0
    s = build(models=[m("blunderbuss", 0, 30, 20), m("sellsword", 1, 30, 28), m("troll", 1, 30, 33)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, lambda r: (1, r.n - 1, 0) if r.tag == "hit" else (0, r.n, 0))
    assert s.model(B).wounds == 2 and s.model(B).y == 29.0  # stopped 1 cm short by the Troll


def test_control_takes_an_enemy_until_the_end_of_the_turn_but_never_a_hero() -> None:
    s = build(models=[m("confessor", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A))
    assert Action("control", (1,)) not in legal(s)
    s = play(s, ("control", B))
    s = roll_dice(s, lambda r: (1, r.n - 1, 0))
    assert s.model(B).side() == 0
    assert Action("activate", (B,)) in legal(s)
    s = play(s, ("end_turn",))
    assert s.model(B).side() == 1
    s = build(models=[m("confessor", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("control", B))
    s = roll_dice(s, {}, "axe")
    assert s.model(B).side() == 1


def test_agile_splits_second_and_predictable_first() -> None:
    s = build(models=[m("duelist", 0, 30, 30), m("orc_berserker", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    assert combat.splitter(s, s.pending[-1]).uid == B
    s = build(models=[m("sellsword", 0, 30, 30), m("shieldbearer", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    assert combat.splitter(s, s.pending[-1]).uid == B
    s = build(models=[m("duelist", 0, 30, 30), m("duelist", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    assert combat.splitter(s, s.pending[-1]).uid == A


def test_magic_shot_cannot_be_defended_and_ignores_armour() -> None:
    s = build(models=[m("guild_alchemist", 0, 30, 20), m("grypharim_knight", 1, 30, 35)])
    s = play(s, ("activate", A), ("magic_shot", B))
    s = roll_dice(s, {"hit": "bull"})
    assert s.model(B).wounds == 2 and not s.rolls


def test_masters_reroll_failed_dice() -> None:
    # Master of Attack (Lucky Coin), Defence (Duelist), Magic (Alchemist), Shooting (Sharpshooter).
    s = build(models=[m("sellsword", 0, 30, 30, relics=["lucky_coin"]), m("duelist", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 2, 0)
    assert [(r.tag, r.master) for r in s.rolls] == [("aa", 1), ("dd", 1)]  # no dice: no roll
    s = play(s, ("roll", 1, 1, 0))
    assert s.rolls[0].stage == 1 and s.rolls[0].n == 1
    s = play(s, ("roll", 0, 0, 1))
    assert {r.tag: r.hits for r in s.rolled}["aa"] == 2
    s = build(models=[m("guild_alchemist", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("magic_shot", B))
    assert s.rolls[0].master == 1
    s = build(models=[m("sharpshooter", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("shoot", B))
    assert s.rolls[0].master == 1


def test_master_healer_rerolls_healing_dice() -> None:
    s = build(
        heroes=("priestess_serafina", "burgomaster_orvin"),
        models=[m("sellsword", 0, 30, 12, wounds=2)],
    )
    s = play(s, ("activate", 0), ("heal", A))
    assert s.rolls[0].n == 3 and s.rolls[0].master == 1


def test_healer_heals_axes_in_contact_but_only_shield_axes_at_range() -> None:
    s = build(models=[m("sister_of_mercy", 0, 30, 30), m("troll", 0, 30, 34, wounds=3)])
    s = play(s, ("activate", A), ("heal", B))
    s = roll_dice(s, {}, "axe")
    assert s.model(B).wounds == 1
    s = build(models=[m("sister_of_mercy", 0, 30, 20), m("troll", 0, 30, 34, wounds=3)])
    s = play(s, ("activate", A), ("heal", B))
    s = roll_dice(s, {}, "axe")
    assert s.model(B).wounds == 3
    s = build(models=[m("sister_of_mercy", 0, 30, 20), m("troll", 0, 30, 34, wounds=3)])
    s = play(s, ("activate", A), ("heal", B))
    s = roll_dice(s, {}, "shield")
    assert s.model(B).wounds == 1


def test_slow_cannot_run() -> None:
    s = build(models=[m("dwarf_ironbeard", 0, 30, 30), m("sellsword", 0, 40, 30)])
    assert not [a for a in legal(play(s, ("activate", A))) if a.kind == "run"]
    assert [a for a in legal(play(s, ("activate", B))) if a.kind == "run"]


def test_run_goes_one_step_further_and_ends_the_activation() -> None:
    s = build(models=[m("sellsword", 0, 30, 20)])
    s = play(s, ("activate", A), ("run", 2))
    assert s.model(A).y == 35.0 and s.model(A).activated and s.acting == -1


def test_seasoned_fighter_forces_a_reroll_of_successes() -> None:
    s = build(models=[m("sellsword", 0, 30, 30), m("dwarf_ironbeard", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 2, 0)
    assert s.rolls[0].forced
    s = play(s, ("roll", 0, 0, 2))
    assert s.rolls[0].stage == 2 and s.rolls[0].n == 2
    s = play(s, ("roll", 2, 0, 0))
    s = roll_dice(s, {}, "axe")
    assert s.model(B).wounds == 0


def test_steam_boiler_rolls_before_the_action() -> None:
    s = build(models=[m("steam_gunner", 0, 30, 20), m("sellsword", 1, 30, 35)])
    s = play(s, ("activate", A), ("shoot", B))
    assert s.rolls[0].tag == "boiler" and s.rolls[0].n == 1
    s2 = play(s, ("roll", 0, 0, 1))
    assert s2.rolls[0].tag == "hit" and s2.rolls[0].n == 3
    s3 = play(s, ("roll", 1, 0, 0))
    assert s3.model(A).wounds == 1 and s3.rolls[0].n == 2


def test_first_word_on_entering_and_last_word_on_dying() -> None:
    s = build(models=[], hands=(["herald"], []), prosperity=(10, 10))
    s = play(s, ("recruit", "herald", 0))
    assert s.prosperity[0] == 10  # paid 2, First Word gives 2
    s = build(models=[m("sellsword", 0, 30, 30), m("tax_collector", 1, 30, 33)], prosperity=(5, 5))
    s = melee(s, A, B, 2, 1, {"aa": "shield", "da": "bull"})
    assert s.find(B) is None and s.prosperity[1] == 7
    s = build(models=[m("orc_berserker", 0, 30, 30), m("spear_veteran", 1, 30, 33)])
    s = melee(s, A, B, 3, 2, {"aa": "shield", "da": "bull"})
    assert s.find(B) is None and s.model(A).wounds == 1


def test_flight_passes_over_bases() -> None:
    s = build(models=[m("gryphon_rider", 0, 30, 20), m("sellsword", 0, 40, 20), m("troll", 1, 30, 26)])
    s1 = play(s, ("activate", A))
    assert GAME.describe_error(s1, Action("move_to", (300, 320))) is None
    s = build(models=[m("sellsword", 0, 30, 20), m("troll", 1, 30, 25)])
    s2 = play(s, ("activate", A))
    assert "in the way" in str(GAME.describe_error(s2, Action("move_to", (300, 290))))


def test_pursuit_moves_and_attacks_again() -> None:
    s = build(
        models=[m("rat_catcher", 0, 30, 30), m("sellsword", 1, 30, 33, wounds=2), m("musketeer", 1, 36, 36)]
    )
    s = melee(s, A, B, 1, 2, {"aa": "shield", "da": "axe"})
    assert s.find(B) is None
    assert set(legal(s)) == {Action("pursue", (C,)), Action("done")}
    s = play(s, ("pursue", C))
    assert s.pending[-1].kind == "melee" and s.pending[-1].target == C
    s = answer_splits(s, 1, 0)
    s = roll_dice(s, {"aa": "shield", "dd": "axe"}, "axe")
    assert s.find(C) is not None and s.find(C).wounds == 1  # type: ignore[union-attr]
    assert s.model(A).activated


def test_momentum_adds_a_die_after_moving() -> None:
    s = build(models=[m("gryphon_rider", 0, 30, 20), m("troll", 1, 30, 30)])
    s = play(s, ("activate", A), ("contact", B), ("melee", B))
    s = answer_splits(s, 3, 2)
    assert s.rolls[0].tag == "aa" and s.rolls[0].n == 4
    s = build(models=[m("gryphon_rider", 0, 30, 25), m("troll", 1, 30, 30)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 3, 2)
    assert s.rolls[0].n == 3


def test_regeneration_at_the_start_of_the_activation_phase() -> None:
    s = build(models=[m("troll", 0, 30, 30, wounds=2)], phase="terrain", terrain_hands=([], []))
    s = play(s, ("pass",))
    assert s.model(A).wounds == 1


def test_rush_may_activate_at_once() -> None:
    s = build(models=[], hands=(["rat_catcher", "musketeer"], []), prosperity=(20, 5))
    s = play(s, ("recruit", "rat_catcher", 0), ("recruit", "musketeer", 4))
    acts = {a.args[0] for a in legal(s) if a.kind == "activate"}
    assert 2 in acts and 3 not in acts


def test_hidden_cannot_be_attacked_until_found() -> None:
    s = build(
        models=[
            m("sellsword", 0, 30, 30),
            m("cutthroat", 1, 30, 33, hidden=True),
            m("crossbowman", 0, 30, 10),
        ]
    )
    s1 = play(s, ("activate", A))
    assert Action("melee", (B,)) not in legal(s1) and Action("detect", (B,)) in legal(s1)
    assert Action("shoot", (B,)) not in legal(play(s, ("activate", C)))
    found = roll_dice(play(s1, ("detect", B)), {}, "shield")
    assert not found.model(B).hidden and Action("melee", (B,)) in legal(found)
    missed = roll_dice(play(s1, ("detect", B)), {}, "axe")
    assert missed.model(B).hidden and missed.model(A).activated


def test_hidden_enters_hidden_moves_hidden_and_runs_revealed() -> None:
    s = build(models=[], hands=(["cutthroat"], []), prosperity=(10, 10))
    s = play(s, ("recruit", "cutthroat", 1))
    assert s.model(2).hidden
    s = build(models=[m("cutthroat", 0, 30, 20, hidden=True), m("cutthroat", 0, 40, 20, hidden=True)])
    assert play(s, ("activate", A), ("move", 2, 80)).model(A).hidden
    assert not play(s, ("activate", B), ("run", 2)).model(B).hidden


def test_hidden_is_found_by_sorcery_on_a_bullseye() -> None:
    s = build(models=[m("guild_alchemist", 0, 30, 20), m("cutthroat", 1, 30, 35, hidden=True)])
    s = play(s, ("activate", A), ("magic_shot", B))
    assert s.rolls[0].tag == "find"
    s1 = roll_dice(s, {"find": "bull", "hit": "bull"})
    assert s1.find(B) is None
    s2 = roll_dice(s, {"find": "axe"})
    assert s2.model(B).hidden and s2.model(B).wounds == 0


def test_hidden_in_contact_does_not_hamper_and_hidden_finds_hidden_unrevealed() -> None:
    s = build(
        models=[
            m("crossbowman", 0, 30, 20),
            m("cutthroat", 1, 30, 23, hidden=True),
            m("sellsword", 1, 40, 35),
        ]
    )
    assert Action("shoot", (C,)) in legal(play(s, ("activate", A)))
    s = build(models=[m("cutthroat", 0, 30, 30, hidden=True), m("cutthroat", 1, 30, 33, hidden=True)])
    s = roll_dice(play(s, ("activate", A), ("detect", B)), {}, "shield")
    assert s.model(A).hidden and not s.model(B).hidden


def test_sniper_deals_two_per_hit_from_l_to_xl() -> None:
    s = build(models=[m("sharpshooter", 0, 30, 15), m("troll", 1, 30, 36)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, lambda r: (1, r.n - 1, 0) if r.tag == "hit" and r.stage == 0 else (0, r.n, 0))
    assert s.model(B).wounds == 2
    s = build(models=[m("sharpshooter", 0, 30, 25), m("troll", 1, 30, 36)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, lambda r: (1, r.n - 1, 0) if r.tag == "hit" and r.stage == 0 else (0, r.n, 0))
    assert s.model(B).wounds == 1


def test_hard_target_forces_a_reroll_of_hits() -> None:
    s = build(models=[m("crossbowman", 0, 30, 20), m("harpy", 1, 30, 35)])
    s = play(s, ("activate", A), ("shoot", B))
    assert s.rolls[0].forced
    s = play(s, ("roll", 2, 0, 0), ("roll", 0, 2, 0))
    assert s.model(B).wounds == 0 and not s.rolls


def test_difficult_terrain_slows_a_creature_starting_in_it() -> None:
    s = build(models=[m("sellsword", 0, 30, 30)], terrain=[("swamp", 30, 30)])
    s = play(s, ("activate", A))
    lengths = {a.args[1] for a in legal(s) if a.kind == "move"}
    assert lengths == {80}


def test_attack_and_defence_experts_add_a_die() -> None:
    s = build(models=[m("harbour_brawler", 0, 30, 30), m("paladin", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 2, 0)
    n = {r.tag: r.n for r in s.rolls}
    assert n == {"aa": 3, "dd": 4}
    s = build(models=[m("harbour_brawler", 0, 30, 30), m("paladin", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 1, 1)
    n = {r.tag: r.n for r in s.rolls}
    assert n == {"aa": 1, "ad": 1, "da": 1, "dd": 2}


def test_armour_and_minus_x_from_attacks() -> None:
    s = build(models=[m("orc_berserker", 0, 30, 30), m("grypharim_knight", 1, 30, 33)])
    s = melee(s, A, B, 3, 0, {"aa": "shield", "dd": "axe"})
    assert s.model(B).wounds == 2  # 3 hits, Armour 1
    s = build(models=[m("orc_berserker", 0, 30, 30), m("shieldbearer", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 3, 0)
    assert {r.tag: r.n for r in s.rolls}["aa"] == 2


def test_magical_strike_cannot_be_defended_and_suffers_wounds() -> None:
    s = build(models=[m("inquisitor", 0, 30, 30), m("grypharim_knight", 1, 30, 33)])
    s = play(s, ("activate", A), ("strike", B))
    assert [r.tag for r in s.rolls] == ["hit"]
    s = roll_dice(s, {}, "axe")
    assert s.model(B).wounds == 2
    s = build(models=[m("inquisitor", 0, 30, 30, wounds=1), m("grypharim_knight", 1, 30, 33)])
    s = roll_dice(play(s, ("activate", A), ("strike", B)), {}, "axe")
    assert s.model(B).wounds == 0


def test_difficult_terrain_entered_this_turn_holds_a_pursuer() -> None:
    # The Rat Catcher charges into the swamp, kills, and may not pursue out of it; without the swamp it may.
    spec = {
        "models": [
            m("rat_catcher", 0, 30, 22),
            m("sellsword", 1, 30, 29, wounds=2),
            m("musketeer", 1, 40, 26),
        ]
    }
    for swamp, can_pursue in ((True, False), (False, True)):
        s = build(**spec, terrain=[("swamp", 30, 31)] if swamp else [])
        s = play(s, ("activate", A), ("contact", B), ("melee", B))
        s = answer_splits(s, 1, 2)
        s = roll_dice(s, {"aa": "shield", "da": "axe"}, "axe")
        assert s.find(B) is None
        assert (Action("pursue", (C,)) in legal(s)) is can_pursue
