"""Every worked example of the rulebook, set up with the scenario builder and played through."""

from __future__ import annotations

import pytest

from ludorum.engine import Action, IllegalAction
from ludorum.games.reliquium import GAME
from ludorum.games.reliquium.content import content
from ludorum.games.reliquium.scenario import scenario
from ludorum.games.reliquium.state import ATTACK, B_ADVANCE, B_FLEE, P_ABILITY, PEACE, ReliquiumState

C = content()
R = C.region
LEGION, ALLIANCE, ORDER, BROTHERHOOD = range(4)


def creature(name: str) -> int:
    return next(i for i, c in enumerate(C.creatures) if c.name == name)


def junction(*names: str) -> int:
    return C.junctions.index(tuple(sorted(R(n) for n in names)))  # type: ignore[arg-type]


def step(s: ReliquiumState, kind: str, *args: object) -> ReliquiumState:
    a = Action(kind, args)  # type: ignore[arg-type]
    assert a in GAME.legal_actions(s), (a, GAME.legal_actions(s))
    return GAME.apply(s, a)


BORDERLANDS = {
    "Boundless Expanse": "legion castle WM",
    "Saxum Ridge": "brotherhood castle WWM",
    "Ancestral Thickets": "brotherhood castle W",
    "Howling Wilds": "brotherhood D",
    "Valley of Volcanoes": "brotherhood castle D",
}
TWO = ["legion", "brotherhood"]


def test_march_example() -> None:
    """The Legion marches two warriors into the Wasteland, leaving its mage; the Brotherhood reinforces."""
    regions = {
        **BORDERLANDS,
        "Boundless Expanse": "legion castle WWM",
        "Saxum Ridge": "brotherhood castle WM",
    }
    s = scenario({"players": TWO, "regions": regions})
    s = step(s, "march", R("Boundless Expanse"), R("Wasteland"))
    s = step(s, "units", 2, 0, 0)
    assert s.units[R("Wasteland")] == (2, 0, 0) and s.occupant[R("Wasteland")] == LEGION
    assert s.units[R("Boundless Expanse")] == (0, 0, 1)
    assert s.turn == BROTHERHOOD
    s = step(s, "march", R("Ancestral Thickets"), R("Saxum Ridge"))
    s = step(s, "units", 1, 0, 0)
    assert s.units[R("Saxum Ridge")] == (2, 0, 1)
    assert s.occupant[R("Ancestral Thickets")] == -1 and s.castle[R("Ancestral Thickets")] == BROTHERHOOD


def test_march_refusals_and_cancel() -> None:
    s = scenario({"players": TWO, "regions": {**BORDERLANDS, "Wasteland": "legion WW"}})
    with pytest.raises(IllegalAction, match="March: the Saxum Ridge holds a castle of the Brotherhood"):
        GAME.apply(s, Action("march", (R("Wasteland"), R("Saxum Ridge"))))
    with pytest.raises(IllegalAction, match="neighbouring region"):
        GAME.apply(s, Action("march", (R("Boundless Expanse"), R("Saxum Ridge"))))
    s = step(s, "march", R("Boundless Expanse"), R("Wasteland"))
    with pytest.raises(IllegalAction):
        GAME.apply(s, Action("units", (1, 0, 1)))  # two more would exceed the unit limit of three
    back = step(s, "cancel")
    assert back.pending == () and back.units == s.units and back.turn == LEGION


def test_single_march() -> None:
    s = scenario({"players": TWO, "variants": ["single-march"], "regions": BORDERLANDS})
    s = step(s, "march", R("Boundless Expanse"), R("Wasteland"))
    s = step(s, "units", 0, 0, 1)
    s = step(s, "onward", R("Ashen Peaks"))
    assert s.units[R("Ashen Peaks")] == (0, 0, 1) and s.occupant[R("Wasteland")] == -1


def test_melee_example() -> None:
    """The Legion takes the Wasteland–Saxum Ridge border first; the Brotherhood goes round."""
    s = scenario({"players": TWO, "regions": {**BORDERLANDS, "Wasteland": "legion WW"}})
    s = step(s, "melee", R("Wasteland"), R("Saxum Ridge"))
    assert s.melee == ((LEGION, 1, R("Wasteland"), R("Saxum Ridge")),)
    with pytest.raises(IllegalAction, match="already lies"):
        GAME.apply(s, Action("melee", (R("Saxum Ridge"), R("Wasteland"))))
    s = step(s, "melee", R("Howling Wilds"), R("Wasteland"))
    assert s.melee[-1] == (BROTHERHOOD, 1, R("Howling Wilds"), R("Wasteland"))


def test_melee_refusals() -> None:
    s = scenario({"players": TWO, "regions": {**BORDERLANDS, "Ashen Peaks": "legion castle"}})
    with pytest.raises(IllegalAction, match="unoccupied"):
        GAME.apply(s, Action("melee", (R("Boundless Expanse"), R("Wasteland"))))
    with pytest.raises(IllegalAction, match="own region"):
        GAME.apply(s, Action("melee", (R("Boundless Expanse"), R("Ashen Peaks"))))
    neutral = scenario({"players": TWO, "regions": {**BORDERLANDS, "Wasteland": "order castle"}})
    with pytest.raises(IllegalAction, match="neutral castle"):
        GAME.apply(neutral, Action("melee", (R("Boundless Expanse"), R("Wasteland"))))


def test_lowest_melee_token_first() -> None:
    regions = {**BORDERLANDS, "Wasteland": "legion castle WW"}  # two plains castles: two plains actions
    s = scenario({"players": TWO, "regions": regions, "markers": {"legion": 1}})
    s = step(s, "melee", R("Wasteland"), R("Saxum Ridge"))
    s = step(s, "pass")  # the Brotherhood
    assert s.marker[LEGION] == 2
    s = step(s, "melee", R("Wasteland"), R("Howling Wilds"))
    assert [t[1] for t in s.melee] == [1, 2]


def test_ranged_example() -> None:
    """Legion supports the Wasteland from the Boundless Expanse; the Brotherhood's second token is a 2."""
    desc = {
        "players": TWO,
        "regions": {**BORDERLANDS, "Wasteland": "legion WW", "Ashen Peaks": "legion castle"},
        "melee": [
            ("legion", 1, "Wasteland", "Saxum Ridge"),
            ("brotherhood", 1, "Howling Wilds", "Wasteland"),
        ],
        "markers": {"legion": "mountains", "brotherhood": "mountains"},
    }
    s = step(scenario(desc), "ranged", R("Boundless Expanse"), R("Wasteland"))
    assert s.ranged[-1][:4] == (LEGION, 1, R("Boundless Expanse"), R("Wasteland"))
    s = step(s, "ranged", R("Valley of Volcanoes"), R("Saxum Ridge"))
    assert s.ranged[-1][:4] == (BROTHERHOOD, 1, R("Valley of Volcanoes"), R("Saxum Ridge"))
    desc2 = {
        **desc,
        "ranged": [("brotherhood", 1, "Valley of Volcanoes", "Saxum Ridge")],
        "turn": "brotherhood",
    }
    s2 = step(scenario(desc2), "ranged", R("Saxum Ridge"), R("Howling Wilds"))
    assert s2.ranged[-1][:4] == (BROTHERHOOD, 2, R("Saxum Ridge"), R("Howling Wilds"))


def test_ranged_needs_a_melee_token() -> None:
    s = scenario(
        {
            "players": TWO,
            "regions": {**BORDERLANDS, "Ashen Peaks": "legion castle"},
            "markers": {"legion": "mountains"},
        }
    )
    with pytest.raises(IllegalAction, match="neither attacks nor is attacked"):
        GAME.apply(s, Action("ranged", (R("Ashen Peaks"), R("Boundless Expanse"))))


def test_recruit() -> None:
    s = scenario(
        {
            "players": TWO,
            "regions": {**BORDERLANDS, "Wasteland": "legion W", "Ashen Peaks": "legion castle"},
            "markers": {"legion": "mountains"},
        }
    )
    with pytest.raises(IllegalAction, match="Recruit: the Wasteland has no castle of yours"):
        GAME.apply(s, Action("recruit", (R("Wasteland"), 0)))
    before = s.reserve[LEGION]
    s = step(s, "recruit", R("Boundless Expanse"), 1)
    assert s.units[R("Boundless Expanse")] == (1, 1, 1)
    assert s.reserve[LEGION] == (before[0], before[1] - 1, before[2])
    full = scenario(
        {
            "players": TWO,
            "regions": {
                **BORDERLANDS,
                "Boundless Expanse": "legion castle WWM",
                "Ashen Peaks": "legion castle",
            },
            "markers": {"legion": "mountains"},
        }
    )
    with pytest.raises(IllegalAction, match="unit limit"):
        GAME.apply(full, Action("recruit", (R("Boundless Expanse"), 1)))


def test_support_distribution_examples() -> None:
    """Saxum Ridge: a warrior and the mage to a 2-arrow token; the others split theirs."""
    s = scenario(
        {
            "players": ["legion", "alliance", "order", "brotherhood"],
            "phase": "support",
            "regions": {
                **BORDERLANDS,
                "Boundless Expanse": "legion castle M",
                "Wasteland": "legion WW",
                "Amber Steppe": "legion W",
                "Sacrificial Forest": "alliance castle WMM",
                "Mossy Ridge": "alliance castle D",
                "Forest's Edge": "alliance castle W",
                "Shattered Peaks": "alliance W",
                "Groves": "order castle DD",
                "Cliff of Sorrow": "order castle WD",
                "Great Sea": "order W",
            },
            "melee": [
                ("brotherhood", 1, "Howling Wilds", "Wasteland"),
                ("alliance", 1, "Forest's Edge", "Groves"),
                ("legion", 1, "Amber Steppe", "Mossy Ridge"),
                ("alliance", 2, "Shattered Peaks", "Great Sea"),
            ],
            "ranged": [
                ("alliance", 3, "Sacrificial Forest", "Mossy Ridge"),
                ("alliance", 1, "Sacrificial Forest", "Forest's Edge"),
                ("order", 1, "Cliff of Sorrow", "Great Sea"),
                ("order", 2, "Cliff of Sorrow", "Groves"),
                ("brotherhood", 2, "Saxum Ridge", "Howling Wilds"),
            ],
        }
    )
    assert GAME.seat_name(s, GAME.to_move(s)) == "Alliance of Nature"
    assert Action("support", (1, 0, 2, 0)) in GAME.legal_actions(s)  # it could have sent the warrior too
    s = step(s, "support", 0, 0, 2, 0)  # two mages to the Mossy Ridge
    s = step(s, "support", 1, 0, 0, 0)  # the warrior to the Forest's Edge
    assert GAME.seat_name(s, GAME.to_move(s)) == "Order of Light"
    s = step(s, "support", 1, 0, 0, 0)  # warriors support the Great Sea
    assert Action("support", (1, 0, 0, 0)) not in GAME.legal_actions(s)  # one unit supports one region
    s = step(s, "support", 0, 1, 0, 0)  # defenders support the Groves
    assert GAME.seat_name(s, GAME.to_move(s)) == "Brotherhood of the Mountains"
    legal = GAME.legal_actions(s)
    assert Action("support", (1, 0, 1, 0)) in legal
    assert Action("support", (2, 0, 1, 0)) not in legal  # only 2 arrows
    with pytest.raises(IllegalAction, match="as many units as arrows"):
        GAME.apply(s, Action("support", (2, 0, 1, 0)))
    supports = {(t[2], t[3]): t[4:7] for t in s.ranged}
    assert supports[(R("Sacrificial Forest"), R("Mossy Ridge"))] == (0, 0, 2)
    assert supports[(R("Cliff of Sorrow"), R("Groves"))] == (0, 1, 0)
    s = step(s, "support", 1, 0, 1, 0)
    assert s.phase != "support"


def test_unused_ranged_token_is_removed() -> None:
    s = scenario(
        {
            "players": TWO,
            "phase": "support",
            "regions": {**BORDERLANDS, "Wasteland": "legion WW"},
            "melee": [("brotherhood", 1, "Howling Wilds", "Wasteland")],
            "ranged": [
                ("legion", 1, "Boundless Expanse", "Wasteland"),
                ("brotherhood", 2, "Saxum Ridge", "Howling Wilds"),
            ],
        }
    )
    s = step(s, "support", 0, 0, 0, 0)
    assert all(t[0] != LEGION for t in s.ranged)


def test_battle_order() -> None:
    """Battles by token strength 3, 2, 1, and by initiative within each strength."""
    s = scenario(
        {
            "players": ["legion", "alliance", "order", "brotherhood"],
            "phase": "attack",
            "regions": {
                "Wolfwood": "legion W",
                "Forest's Edge": "alliance W",
                "Storm Crags": "alliance W",
                "Cliff of Sorrow": "order W",
                "Saxum Ridge": "brotherhood W",
                "Elderwood": "brotherhood W",
                "Wasteland": "order castle",
                "Golden Fields": "alliance castle",
                "Groves": "brotherhood castle",
                "Amber Steppe": "legion castle",
                "Thornmarch": "legion castle",
                "Frostfang Heights": "alliance castle",
            },
            "melee": [
                ("brotherhood", 1, "Saxum Ridge", "Wasteland"),
                ("order", 3, "Cliff of Sorrow", "Thornmarch"),
                ("legion", 2, "Wolfwood", "Golden Fields"),
                ("alliance", 3, "Storm Crags", "Amber Steppe"),
                ("brotherhood", 2, "Elderwood", "Frostfang Heights"),
                ("alliance", 1, "Forest's Edge", "Groves"),
            ],
        }
    )
    order = []
    while s.phase == ATTACK:
        order.append((s.battle[1], s.battle[6]))
        s = step(s, "advance", 0, 0, 0)  # every battle is unopposed: decline the victory march
    assert order == [
        (ALLIANCE, 3),
        (ORDER, 3),
        (LEGION, 2),
        (BROTHERHOOD, 2),
        (ALLIANCE, 1),
        (BROTHERHOOD, 1),
    ]
    assert s.castle[R("Wasteland")] == ORDER  # declining the march leaves the castle standing


BATTLE = {
    "players": ["legion", "alliance", "order", "brotherhood"],
    "phase": "attack",
    "regions": {
        "Forest's Edge": "alliance castle WM",
        "Sacrificial Forest": "alliance castle WDM",
        "Groves": "order castle DD",
        "Cliff of Sorrow": "order castle WD",
    },
    "melee": [("alliance", 1, "Forest's Edge", "Groves")],
    "ranged": [
        ("alliance", 3, "Sacrificial Forest", "Forest's Edge", "WDM"),
        ("order", 2, "Cliff of Sorrow", "Groves", "WD"),
    ],
    "creatures": [
        ("Aquus", "Forest's Edge", "Sacrificial Forest", "Mossy Ridge"),
        ("Architectus", "Groves", "Cliff of Sorrow", "Dawn Pine Forest"),
    ],
}


def test_alliance_against_order_battle() -> None:
    """Strengths 10 and 9; the Order loses both defenders; the victory march destroys the castle."""
    s = scenario(BATTLE)
    assert s.battle[9:11] == (10, 9)
    assert GAME.view(s, 0)["battle_strengths"] == [10, 9]
    assert s.units[R("Groves")] == (0, 0, 0)  # both defenders went to the reserve: nowhere to retreat
    assert s.reserve[ORDER] == (2, 2, 3)
    assert s.units[R("Forest's Edge")] == (1, 0, 1)  # the Alliance lost nothing (9 < 10)
    assert s.battle[0] == B_ADVANCE and GAME.to_move(s) == 1
    forest_tokens = s.track[ORDER][2]
    s = step(s, "advance", 1, 0, 0)  # one warrior marches into the Groves
    assert s.occupant[R("Groves")] == ALLIANCE and s.units[R("Groves")] == (1, 0, 0)
    assert s.castle[R("Groves")] == -1
    assert s.track[ORDER][2] == forest_tokens + 1  # the token returns to the forest segment
    assert not s.melee and not s.ranged and not s.creatures  # the war phase ended
    assert s.phase == PEACE and s.round == 2


def test_same_battle_without_creatures_and_flight() -> None:
    """Without the auras: 8 against 6; the Order loses one defender and the other must flee."""
    s = scenario({**BATTLE, "creatures": []})
    assert s.battle[9:11] == (8, 6)
    assert s.battle[0] == B_FLEE
    assert s.units[R("Groves")] == (0, 1, 0)
    legal = GAME.legal_actions(s)
    assert Action("flee", (R("Cliff of Sorrow"), 1)) in legal
    assert Action("flee", (R("Forest's Edge"), 1)) not in legal  # march rules: enemy units there
    s = step(s, "flee", R("Cliff of Sorrow"), 1)
    assert s.units[R("Cliff of Sorrow")] == (1, 2, 0)
    assert s.battle[0] == B_ADVANCE


def test_armus_removes_the_legion_token() -> None:
    s = scenario(
        {
            "players": TWO,
            "regions": {**BORDERLANDS, "Wasteland": "legion WW"},
            "melee": [("legion", 1, "Wasteland", "Saxum Ridge")],
            "markers": {"brotherhood": "forests"},
            "turn": "brotherhood",
        }
    )
    j = junction("Saxum Ridge", "Wasteland", "Howling Wilds")
    s = step(s, "summon", creature("Armus"), j)
    assert s.pending[0] == P_ABILITY
    s = step(s, "ability", R("Wasteland"), R("Saxum Ridge"))
    assert s.melee == ()
    assert (creature("Armus"), j) in s.creatures
    assert C.border(R("Wasteland"), R("Saxum Ridge")) in s.blocked


def test_arboruus_moves_three_units_into_the_sacrificial_forest() -> None:
    s = scenario(
        {
            "players": ["alliance", "order"],
            "regions": {
                "Forest's Edge": "alliance castle WMD",
                "Sacrificial Forest": "alliance castle",
                "Mossy Ridge": "alliance castle",
            },
            "markers": {"alliance": "forests"},
        }
    )
    s = step(
        s, "summon", creature("Arboruus"), junction("Forest's Edge", "Sacrificial Forest", "Mossy Ridge")
    )
    s = step(s, "ability", R("Forest's Edge"), R("Sacrificial Forest"), 1, 1, 1)
    assert s.units[R("Sacrificial Forest")] == (1, 1, 1)


def test_architectus_builds_in_the_groves() -> None:
    s = scenario(
        {
            "players": ["alliance", "order"],
            "regions": {
                "Groves": "order D",
                "Cliff of Sorrow": "order castle D",
                "Dawn Pine Forest": "order castle",
            },
            "markers": {"order": "forests"},
            "turn": "order",
        }
    )
    forests = s.track[ORDER][2]
    s = step(s, "summon", creature("Architectus"), junction("Groves", "Cliff of Sorrow", "Dawn Pine Forest"))
    s = step(s, "ability", R("Groves"))
    assert s.castle[R("Groves")] == ORDER
    assert s.track[ORDER][2] == forests - 1
