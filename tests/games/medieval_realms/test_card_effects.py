"""Card Description, effect by effect, for the cards the other modules do not play through: the leader
cards, Art Gallery and Cathedral, Realm Leaders won at auction, the Islands' end-of-game conditions, the
Great Person table, and the rule that End-of-Game Effects owe no tokens of choice."""

from __future__ import annotations

import pytest

from ludorum.engine import Action
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.content import CARDS, RESOURCES
from ludorum.games.medieval_realms.ending import FinalScore, final_scores, great_person_points, island_met
from ludorum.games.medieval_realms.scenario import build
from ludorum.games.medieval_realms.state import OVER, RealmsState

ZERO = dict.fromkeys(RESOURCES, 0)


def play(s: RealmsState, *actions: Action) -> RealmsState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def acting(players: int = 3, **kw: object) -> RealmsState:
    return build(players, phase="actions", order=tuple(range(players)), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("card", "resource", "leader"),
    [
        ("gunpowder", "science", "generals"),
        ("university", "science", "mayors"),
        ("docking_bay", "science", "admirals"),
        ("inquisition", "religion", "generals"),
    ],
)
def test_leader_cards_cost_four_and_give_their_leader(card: str, resource: str, leader: str) -> None:
    s = acting(resources=[{resource: 4}, {}, {}], display=[[card], [], []])
    before = getattr(s, leader)[0]
    s = play(s, Action("play", (s.display[0][0],)))
    assert getattr(s, leader)[0] == before + 1
    assert s.res[0][RESOURCES.index(resource)] == 0 and s.vp[0] == 0


@pytest.mark.parametrize(("card", "resource"), [("art_gallery", "culture"), ("cathedral", "religion")])
def test_art_gallery_and_cathedral_cost_five_and_give_five_points(card: str, resource: str) -> None:
    s = acting(resources=[{resource: 5}, {}, {}], display=[[card], [], []])
    s = play(s, Action("play", (s.display[0][0],)))
    assert s.vp[0] == 5 and s.res[0][RESOURCES.index(resource)] == 0
    assert s.dues[0] == 1  # 5 VP reached: one token of choice


@pytest.mark.parametrize(
    ("name", "field"), [("Mayor", "mayors"), ("General", "generals"), ("Admiral", "admirals")]
)
def test_a_realm_leader_won_at_auction_is_paid_in_gold_and_gives_its_leader(name: str, field: str) -> None:
    s = acting(2, resources=[{"gold": 3}, {"gold": 1}], panel=[f"Realm Leader: {name}"])
    before = getattr(s, field)[0]
    s = play(s, Action("activate", (1,)), Action("bid", (2,)), Action("pass"))
    assert getattr(s, field)[0] == before + 1 and s.res[0][RESOURCES.index("gold")] == 1
    assert CARDS[s.in_play[0][0]].type == "realm_leader" and s.display[0] == ()


def test_a_great_person_gives_two_points_at_once() -> None:
    s = acting(resources=[{"culture": 5}, {}, {}], display=[["artist"], [], []])
    s = play(s, Action("play", (s.display[0][0],)))
    assert s.vp[0] == 2 and s.res[0][RESOURCES.index("culture")] == 0


def test_the_great_person_table() -> None:
    assert [great_person_points(k) for k in range(6)] == [0, 1, 3, 6, 9, 12]


def _final(
    in_play: list[str], leaders: tuple[int, int, int] = (4, 1, 1), res: dict[str, int] | None = None
) -> tuple[FinalScore, RealmsState]:
    """Seat 0 of a two-player game with ``in_play`` at the end of round 7, both pass: the final tally."""
    s = acting(
        2,
        round=7,
        resources=[res or ZERO, ZERO],
        in_play=[in_play, []],
        leaders=[leaders, (6, 1, 1)],
    )
    s = play(s, Action("pass"), Action("pass"))
    assert s.phase == OVER
    return final_scores(s)[0], s


def test_great_person_table_counts_great_persons_in_play() -> None:
    f, _ = _final(["artist", "missionary", "scientist"])
    assert f.great_persons == 6
    # each Great Person's end-of-game effect: 1 per card of its colour, itself included
    assert f.end_effects == 3


def test_great_persons_still_in_the_personal_display_do_not_count() -> None:
    # The same reading as the tie-break's "most Cards": only cards in play count at the end.
    s = acting(2, round=7, resources=[ZERO, ZERO], in_play=[["artist"], []], display=[["missionary"], []])
    s = play(s, Action("pass"), Action("pass"))
    f = final_scores(s)[0]
    assert f.great_persons == 1 and f.cards == 1


@pytest.mark.parametrize(
    ("island", "unmet", "met"),
    [
        ("Island of the Fleet", {"leaders": (6, 1, 2)}, {"leaders": (6, 1, 3)}),
        ("Island of the Garrison", {"leaders": (6, 2, 1)}, {"leaders": (6, 3, 1)}),
        ("Island of the Settlers", {"leaders": (7, 1, 1)}, {"leaders": (8, 1, 1)}),  # 2 buffers
        (
            "Island of the Traders",
            {"cards": ["city", "tithe", "scientist"]},
            {"cards": ["city", "tithe", "scientist", "market"]},
        ),
        (
            "Island of the Monks",
            {"cards": ["tithe", "inquisition"]},
            {"cards": ["tithe", "inquisition", "missionary"]},
        ),
        (
            "Island of the Sages",
            {"cards": ["university", "gunpowder"]},
            {"cards": ["university", "gunpowder", "docking_bay"]},
        ),
        ("Treasure Island", {"res": {"gold": 9}}, {"res": {"gold": 10}}),
    ],
)
def test_island_end_of_game_conditions(island: str, unmet: dict, met: dict) -> None:  # type: ignore[type-arg]
    for spec, expected in ((unmet, False), (met, True)):
        res = {**ZERO, **spec.get("res", {})}
        _, s = _final([island, *spec.get("cards", [])], leaders=spec.get("leaders", (4, 1, 1)), res=res)
        card = next(c for c in s.in_play[0] if CARDS[c].name == island)
        assert island_met(s, 0, card) is expected, (island, spec)


def test_a_fulfilled_island_scores_three_points_at_the_end() -> None:
    f, _ = _final(["Treasure Island"], res={**ZERO, "gold": 10})
    assert f.end_effects == 3 and f.resources == 5
    f, _ = _final(["Treasure Island"], res={**ZERO, "gold": 9})
    assert f.end_effects == 0


def test_end_of_game_effects_owe_no_token_of_choice() -> None:
    f, s = _final(["castle", "castle"], leaders=(4, 3, 0))
    assert f.end_effects == 2 * 6 and s.vp[0] == 0
    assert s.dues == (0, 0)
    assert GAME.result(s).scores[0] == f.total


def test_island_of_the_settlers_counts_management_zone_mayors_in_every_game() -> None:
    for players, mayors, expected in ((2, 6, False), (2, 8, True), (3, 5, False), (3, 6, True)):
        s = acting(players, in_play=[["Island of the Settlers"]] + [[]] * (players - 1))
        s.mayors = (mayors, *s.mayors[1:])
        assert island_met(s, 0, s.in_play[0][0]) is expected, (players, mayors)
