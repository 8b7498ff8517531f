"""Chapter 11, read word by word against the Russian: the readings the audit of issue 6 corrected.

Each test fails on the code before the audit (see docs/signum.md, "Rulebook and issue checklist").
"""

from __future__ import annotations

from ludorum.engine import Action
from ludorum.games.signum import GAME
from ludorum.games.signum.state import SignumState

from .helpers import answer_splits, build, faces, m, melee, play, roll_dice

A, B, C = 2, 3, 4  # uids of the listed models (the heroes are 0 and 1)


def legal(s: object) -> list[Action]:
    return list(GAME.legal_actions(s))  # type: ignore[arg-type]


def roll_one(s: SignumState, face: str) -> SignumState:
    """Roll only the first waiting dice group, every die showing ``face``."""
    return GAME.apply(s, Action("roll", faces(face, s.rolls[0].n)))


def test_initiative_the_opponent_attacks_after_the_first_blow_with_the_penalty_of_its_wounds() -> None:
    # «в ближнем бою персонаж наносит свой удар первым (со всеми эффектами), а затем его противник
    # совершает свою атаку»: the opponent attacks afterwards, already wounded (only Shield/Axe hits).
    s = build(models=[m("sellsword", 0, 30, 30, granted=["initiative"]), m("sellsword", 1, 30, 33)])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 2, 1)
    assert [r.tag for r in s.rolls] == ["aa", "dd"]  # only the first blow is rolled at first
    s = roll_one(roll_one(s, "shield"), "axe")
    assert s.model(B).wounds == 2
    assert [r.tag for r in s.rolls] == ["da"]  # then the opponent's attack (A kept no defence dice)
    s = roll_dice(s, {}, "axe")  # an Axe would hit if the opponent were unwounded
    assert s.model(A).wounds == 0 and s.model(A).activated
    # Without Initiative both strike at once, unwounded: the same Axe hits.
    s = build(models=[m("sellsword", 0, 30, 30), m("sellsword", 1, 30, 33)])
    s = melee(s, A, B, 2, 1, {"aa": "shield", "dd": "axe"}, "axe")
    assert s.model(B).wounds == 2 and s.model(A).wounds == 1


def test_initiative_of_the_defender_strikes_first_and_kills_before_the_attacker_strikes() -> None:
    s = build(models=[m("sellsword", 0, 30, 30, wounds=2), m("sellsword", 1, 30, 33, granted=["initiative"])])
    s = play(s, ("activate", A), ("melee", B))
    s = answer_splits(s, 2, 1)
    assert [r.tag for r in s.rolls] == ["da"]  # the defender's blow first (A kept no defence dice)
    s = roll_one(s, "shield")
    assert s.find(A) is None and not s.rolls and s.model(B).wounds == 0


def test_buckshot_moves_the_target_even_when_the_shot_misses() -> None:
    # «При выстреле на расстоянии М или менее цель перемещается на S» — on the shot, hit or not.
    s = build(models=[m("blunderbuss", 0, 30, 20), m("sellsword", 1, 30, 28)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, {}, "axe")  # no Bullseye: no hit
    assert s.model(B).wounds == 0 and s.model(B).y == 36.0 and s.model(A).activated


def test_buckshot_on_a_miss_still_wounds_a_target_that_cannot_be_moved_the_full_distance() -> None:
    s = build(models=[m("blunderbuss", 0, 30, 20), m("sellsword", 1, 30, 28), m("troll", 1, 30, 33)])
    s = play(s, ("activate", A), ("shoot", B))
    s = roll_dice(s, {}, "axe")
    assert s.model(B).wounds == 1 and s.model(B).y == 29.0


def test_hidden_healer_is_revealed_by_healing() -> None:
    # «При беге, атаке или активации (но не при выполнении срабатывающей способности) персонаж теряет
    # скрытость»: Healer X is an activated property («активируемое свойство»).
    s = build(
        models=[
            m("cutthroat", 0, 30, 30, hidden=True, granted=["healer 2"]),
            m("sellsword", 0, 30, 33, wounds=2),
        ]
    )
    s = play(s, ("activate", A), ("heal", B))
    s = roll_dice(s, {}, "axe")
    assert s.model(B).wounds == 0 and not s.model(A).hidden


def test_pursuit_cannot_close_on_a_hidden_enemy() -> None:
    # «скрытого персонажа не могут атаковать, пока он скрыт» — a Pursuit is a melee attack.
    s = build(
        models=[
            m("rat_catcher", 0, 30, 30),
            m("sellsword", 1, 30, 33, wounds=2),
            m("cutthroat", 1, 36, 36, hidden=True),
        ]
    )
    s = melee(s, A, B, 1, 2, {"aa": "shield", "da": "axe"})
    assert s.find(B) is None
    assert set(legal(s)) == {Action("done")}


def test_a_hidden_creature_walking_out_of_contact_suffers_no_backstab_but_a_running_one_does() -> None:
    # «скрытого персонажа не могут атаковать, пока он скрыт» — a Backstab is an attack; running reveals it.
    s = build(models=[m("assassin", 0, 30, 30, hidden=True), m("orc_berserker", 1, 30, 33)])
    walked = GAME.apply(play(s, ("activate", A)), Action("move_to", (300, 220)))
    assert not walked.rolls and walked.model(A).y == 22.0 and walked.model(A).hidden
    ran = play(s, ("activate", A), ("run", 6))
    assert [r.tag for r in ran.rolls] == ["b0"] and not ran.model(A).hidden


def test_finding_a_hidden_creature_counts_as_a_melee_attack_so_it_may_follow_a_move() -> None:
    # «Скрытое существо можно обнаружить в контакте с ним … Это считается атакой в ближнем бою»: like a
    # melee attack, it may follow a move into contact; found, it may be attacked at once.
    s = build(models=[m("sellsword", 0, 30, 30), m("cutthroat", 1, 30, 38, hidden=True)])
    s = play(s, ("activate", A), ("contact", B))
    assert Action("detect", (B,)) in legal(s) and Action("melee", (B,)) not in legal(s)
    found = roll_dice(play(s, ("detect", B)), {}, "shield")
    assert not found.model(B).hidden and Action("melee", (B,)) in legal(found)
