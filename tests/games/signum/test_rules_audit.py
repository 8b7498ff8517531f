"""Chapters 8–11 read against the Russian: the readings the audit of issue 14 corrected.

Each test quotes the sentence it checks and fails on the code before the audit (see docs/signum.md,
"Audit of issue 14").  Uids: the heroes not listed among the models are 0 and 1, the listed models follow.
"""

from __future__ import annotations

from ludorum.engine import Action
from ludorum.games.signum import GAME
from ludorum.games.signum.state import SignumState

from .helpers import build, faces, hurt, m, melee, model, p3_hero_killed, play, roll_dice, to_activation

A, B, C = 2, 3, 4  # uids of the listed models (the heroes are 0 and 1)


def roll_one(s: SignumState, face: str) -> SignumState:
    """Roll only the first waiting dice group, every die showing ``face``."""
    return GAME.apply(s, Action("roll", faces(face, s.rolls[0].n)))


# -- Chapter 8: fifty-one prosperity wins the moment it is reached ---------------------------------------


def test_the_first_to_reach_51_wins_before_its_own_draw_pays_the_opponent() -> None:
    # «Игрок может одержать победу ... накопив пятьдесят одну единицу процветания» (8): P1's income lifts it
    # to 51 at the start of its turn.  Its draw from an empty deck would then pay P2 eight (9: «его соперник
    # получает единицы процветания»), taking P2 past P1 — but the game was already won.
    s = build(
        models=[],
        active=1,
        decks=([], ["tithe"] * 10),
        hands=([], []),
        prosperity=(49, 45),
        overlong=(8, 1),
    )
    s = play(s, ("end_turn",))
    assert GAME.is_over(s) and s.winner == 0 and "51 prosperity" in s.reason
    assert s.prosperity == (51, 45)  # the game ended before the draw: nothing was paid


def test_last_words_of_creatures_falling_together_resolve_the_active_players_first() -> None:
    # Both Tax Collectors («Последнее слово»: +2 prosperity) fall in the same melee, both owners at 49.
    # The two Last Words resolve one at a time — the active player's first (designed) — so P1 reaches 51
    # first and wins; nothing was decided "at once", so no tie-break and no draw.
    s = build(
        models=[m("tax_collector", 1, 30, 33, wounds=1), m("tax_collector", 0, 30, 30, wounds=1)],
        prosperity=(49, 49),
    )
    s = melee(s, B, A, 1, 1, {"aa": "shield", "da": "shield"})
    assert GAME.is_over(s) and s.winner == 0 and "51 prosperity" in s.reason
    assert s.prosperity == (51, 49)


def test_opponents_tactics_fired_by_one_event_resolve_in_turn_order() -> None:
    # Three players; P2 builds and both other players reveal Sabotage (+2 when an enemy builds), both at 49.
    # After P2 the turn passes to P3, then P1: P3's tactic resolves first and P3 reaches 51 first.
    s = build(
        players=3,
        models=[],
        phase="build",
        active=1,
        prosperity=(49, 20, 49),
        tactics=(["sabotage"], [], ["sabotage"]),
    )
    s = play(s, ("build", "farm"))
    assert GAME.is_over(s) and s.winner == 2 and s.prosperity[0] == 49


def test_a_hero_killed_while_its_owners_triggered_effect_lifts_the_owner_to_51_loses_to_the_51() -> None:
    # «Если убийство героя активирует действие каких-то карт тактики ... игра закончится только после
    # отработки всех активированных эффектов. Например, эффекты могут поднять уровень процветания одного из
    # игроков» (8).  P2's hero takes its fatal wound; P2's Divine Providence (+3 when your hero is wounded)
    # lifts P2 from 48 to 51 before the game ends: P2 has won by prosperity — the effect changed the result,
    # which is why the rulebook waits for it.
    cases: list[tuple[list[str], int, str]] = [(["divine_providence"], 1, "51 prosperity"), ([], 0, "killed")]
    for tactics, winner, how in cases:
        s = build(
            models=[
                m("sellsword", 0, 30, 30),
                m("burgomaster_orvin", 1, 30, 34, wounds=hurt("burgomaster_orvin", 1)),
            ],
            tactics=([], tactics),
            prosperity=(10, 48),
        )
        orvin = model(s, "burgomaster_orvin").uid
        s = melee(s, model(s, "sellsword").uid, orvin, 2, 0, {"aa": "shield", "dd": "axe"})
        assert s.find(orvin) is None, "the hero fell"
        # Without the tactic the killer wins: the first way of chapter 8.
        assert GAME.is_over(s) and s.winner == winner and how in s.reason


# -- Chapter 9: only characters destroyed by the opponent count ------------------------------------------


def test_a_creature_that_kills_itself_with_its_steam_boiler_is_not_an_enemy_kill() -> None:
    # «побеждает наиболее кровожадный игрок – тот, кто смог уничтожить больше персонажей соперника» (9).
    # P2's Musketeer wounds P1's Steam Carriage Gunner; in P1's turn the Gunner's own Steam Boiler scalds it
    # to death («Паровой котел»: Bullseye, 1 wound).  P2 did not destroy it.
    s = build(active=1, models=[m("steam_gunner", 0, 30, 20), m("musketeer", 1, 30, 40)])
    s = play(s, ("activate", B), ("shoot", A))
    # Shot 4: two Bullseyes, re-rolled (Hard Target) into Bullseyes again; the Gunner blocks none.
    s = play(s, ("roll", 2, 2, 0), ("roll", 2, 0, 0), ("roll", 0, 2, 0))
    assert s.model(A).wounds == 2 and s.model(A).hit_by == 1
    s = to_activation(play(s, ("end_turn",)))
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_one(s, "bull")  # the Boiler's die: the Gunner scalds itself to death
    assert s.find(A) is None and "steam_gunner" in s.graveyard[0]
    assert s.kills == (0, 0)


def test_a_controlled_enemy_whose_boiler_kills_it_is_credited_to_the_controller() -> None:
    # Designed: under «Контроль Х» the Gunner is on P1's side for the turn; the Boiler's wound is dealt by
    # the side that commands it, so the kill of P2's character is P1's.
    s = build(models=[m("confessor", 0, 30, 20), m("steam_gunner", 1, 30, 30, wounds=2)])
    s = play(s, ("activate", A), ("control", B))
    s = roll_dice(s, {"hit": "bull"})
    assert s.model(B).controller == 0
    s = play(s, ("activate", B), ("shoot", 1))
    s = roll_one(s, "bull")
    assert s.find(B) is None and s.kills == (1, 0)


# -- Chapter 11: Master of Shooting covers every ranged attack ---------------------------------------------


def test_master_of_shooting_rerolls_in_a_magic_shot_too() -> None:
    # «Мастер стрельбы Х — существо может перебросить Х кубиков при дальней атаке», and «Магический
    # выстрел Х — магическая дальняя атака»: a Magic Shot is a ranged attack.
    s = build(
        heroes=("priestess_serafina", "burgomaster_orvin"),
        models=[m("priestess_serafina", 0, 30, 10, granted=["master_shooting 1"]), m("sellsword", 1, 30, 30)],
    )
    hero = model(s, "priestess_serafina").uid
    s = play(s, ("activate", hero), ("magic_shot", model(s, "sellsword").uid))
    assert s.rolls[0].tag == "hit" and s.rolls[0].master == 1
    # With Master of Magic as well, both rights apply: each re-rolls its own failed dice (designed).
    s = build(
        models=[m("guild_alchemist", 0, 30, 20, granted=["master_shooting 1"]), m("sellsword", 1, 30, 35)]
    )
    s = play(s, ("activate", A), ("magic_shot", B))
    assert s.rolls[0].master == 2


def test_master_of_shooting_rerolls_in_a_bolt_spell() -> None:
    # A bolt spell is «a magical ranged attack» cast through the hero (designed § 4.2), so the hero's
    # Master of Shooting applies to it as to a Magic Shot.
    s = build(
        models=[m("marshal_aurelian", 0, 30, 10, granted=["master_shooting 1"]), m("sellsword", 1, 30, 20)],
        hands=(["holy_lightning"], []),
        prosperity=(10, 10),
    )
    target = model(s, "sellsword").uid
    s = play(s, ("cast", "holy_lightning", target))
    assert s.rolls[0].tag == "hit" and s.rolls[0].master == 1


# -- Chapter 10 (designed): a player who leaves a 3–4 player game -----------------------------------------


def test_a_player_who_leaves_puts_its_hand_in_the_graveyard_and_its_last_words_fire() -> None:
    # «Последнее слово — срабатывающее свойство. Выполняется при переносе персонажа с Поля боя на Кладбище»
    # (11): P3's creatures go to the Graveyard when P3 leaves, so the Spear Veteran's Last Word wounds the
    # enemy in contact; P3's hand and face-down tactics go to its Graveyard too.
    s = p3_hero_killed(
        m("spear_veteran", 2, 45, 45),
        m("sellsword", 0, 45, 42),
        hands=([], [], ["tithe", "musketeer"]),
        tactics=([], [], ["street_ambush"]),
    )
    assert s.out == (False, False, True) and not GAME.is_over(s)
    assert s.hands[2] == () and s.tactics[2] == ()
    for card in ("tithe", "musketeer", "street_ambush", "spear_veteran", "gryphon_lord_kassian"):
        assert card in s.graveyard[2], card
    assert model(s, "sellsword").wounds == 1  # the Spear Veteran's Last Word
    assert s.kills[0] == 1  # the hero P1 killed; the creatures that left were not destroyed by anyone


def test_last_words_of_a_leaving_player_can_fell_another_hero() -> None:
    # P1 kills P3's hero; P3's Spear Veteran, leaving with P3, wounds P1's dying hero in contact with it
    # (Last Word): P1 falls too and P2, the last player standing, wins.
    s = p3_hero_killed(
        m("marshal_aurelian", 0, 45, 45, wounds=hurt("marshal_aurelian", 1)), m("spear_veteran", 2, 45, 49)
    )
    assert GAME.is_over(s) and s.winner == 1 and "killed" in s.reason
