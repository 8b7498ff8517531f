"""Rules beyond the worked examples: the track and marker, the ninth castle, neutral lands, the variants,
creatures' refusals, the round limit, content validation and the views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludorum.engine import Action, ConfigError, IllegalAction
from ludorum.games.reliquium import GAME
from ludorum.games.reliquium.content import DATA, ContentError, content
from ludorum.games.reliquium.scenario import ScenarioError, scenario
from ludorum.games.reliquium.state import ATTACK, B_ADVANCE, OVER, P_CONSENT, P_PACT, PEACE, ReliquiumState

C = content()
R = C.region
LEGION, ALLIANCE, ORDER, BROTHERHOOD = range(4)


def step(s: ReliquiumState, kind: str, *args: object) -> ReliquiumState:
    a = Action(kind, args)  # type: ignore[arg-type]
    assert a in GAME.legal_actions(s), (a, GAME.legal_actions(s))
    return GAME.apply(s, a)


def creature(name: str) -> int:
    return next(i for i, c in enumerate(C.creatures) if c.name == name)


def junction(*names: str) -> int:
    return C.junctions.index(tuple(sorted(R(n) for n in names)))  # type: ignore[arg-type]


# -- setup and the peace phase -------------------------------------------------------------------------


def test_setup() -> None:
    s = GAME.new(GAME.config(4), 0)
    for f in range(4):
        assert s.track[f] == (2, 2, 2)  # one last division of each segment left free
        assert s.marker[f] == 2  # the first free division, on the plains segment
        assert sum(s.reserve[f]) == 6  # the army reserve
        assert sum(1 for c in s.castle if c == f) == 3
    assert s.turn == LEGION and s.phase == PEACE


def test_initiative_order_and_wrapping() -> None:
    s = GAME.new(GAME.config(3), 0)
    turns = []
    while s.round == 1:
        turns.append(s.turn)
        s = step(s, "pass")
    assert turns == [LEGION, ALLIANCE, ORDER] * 3  # three free divisions: three turns each
    assert s.round == 2 and s.phase == PEACE  # no tokens: the war phase ends at once
    assert s.marker == (2, 2, 2, 2)


def test_player_who_wrapped_is_skipped() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle W",
                "Wasteland": "legion castle W",
                "Wolfwood": "legion castle W",
                "Saxum Ridge": "brotherhood castle D",
            },
        }
    )
    # The Brotherhood has one free division (mountains); the Legion has three on the plains and more.
    turns = []
    while s.round == 1:
        turns.append(s.turn)
        s = step(s, "pass")
    assert turns.count(BROTHERHOOD) == 1 and turns.count(LEGION) == 3


def test_segment_limits_actions() -> None:
    s = GAME.new(GAME.config(2), 0)
    with pytest.raises(IllegalAction, match="not offered by the plains segment"):
        GAME.apply(s, Action("recruit", (R("Boundless Expanse"), 0)))
    assert {a.kind for a in GAME.legal_actions(s)} <= {"pass", "march", "melee"}


def test_build_takes_the_rightmost_token_and_ninth_castle_wins() -> None:
    lands = [
        "Boundless Expanse",
        "Wasteland",
        "Golden Fields",
        "Ashen Peaks",
        "Iron Crags",
        "Frostfang Heights",
    ]
    lands += ["Blackthorn Wood", "Howling Wilds"]
    regions = dict.fromkeys(lands, "legion castle")
    regions["Elderwood"] = "legion W"
    regions["Saxum Ridge"] = "brotherhood castle D"
    s = scenario({"players": ["legion", "brotherhood"], "regions": regions, "markers": {"legion": "forests"}})
    assert s.track[LEGION] == (0, 0, 1)
    s = step(s, "build", R("Elderwood"))
    assert s.phase == OVER and s.winner == LEGION
    assert GAME.result(s).winners == (0,)
    assert "ninth castle" in GAME.result(s).reason


@pytest.mark.parametrize("players", [["legion", "brotherhood"], ["legion", "alliance", "order"], None])
def test_three_players_build_on_the_boards_three_player_side(players: list[str] | None) -> None:
    """Designed, rules version 5 (docs/reliquium.md, "The three-player side"): with three players the
    Elderwood is a mountain land, so a castle there takes a mountain token; with two or four a forest one."""
    regions = dict.fromkeys(["Boundless Expanse", "Ashen Peaks", "Blackthorn Wood"], "legion castle")
    regions["Elderwood"] = "legion W"
    everyone = ["legion", "alliance", "order", "brotherhood"]
    s = scenario({"players": players or everyone, "regions": regions, "markers": {"legion": "forests"}})
    three = len(s.factions) == 3
    kind = "mountain" if three else "forest"
    assert GAME.describe(s, Action("build", (R("Elderwood"),))).startswith(f"Build a {kind} castle")
    assert s.track[LEGION] == (2, 2, 2)
    s = step(s, "build", R("Elderwood"))
    assert s.track[LEGION] == ((2, 1, 2) if three else (2, 2, 1))


def test_build_refusals() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle W",
                "Blackthorn Wood": "legion castle",
                "Great Sea": "legion W",
                "Wasteland": "order castle",
                "Golden Fields": "legion W",
            },
            "markers": {"legion": "forests"},
        }
    )
    with pytest.raises(IllegalAction, match="Build castle: a castle cannot be built on water"):
        GAME.apply(s, Action("build", (R("Great Sea"),)))
    with pytest.raises(IllegalAction, match="already has a castle"):
        GAME.apply(s, Action("build", (R("Boundless Expanse"),)))
    with pytest.raises(IllegalAction, match="holds none of your units"):
        GAME.apply(s, Action("build", (R("Iron Crags"),)))
    s = step(s, "build", R("Golden Fields"))
    assert s.castle[R("Golden Fields")] == LEGION and s.track[LEGION][0] == 1


def test_neutral_lands() -> None:
    s = GAME.new(GAME.config(2, factions="legion,order"), 0)
    neutral = [r for r, c in enumerate(s.castle) if c in (ALLIANCE, BROTHERHOOD)]
    assert neutral
    assert all(s.occupant[r] == -1 for r in neutral)
    # A neutral land is like an unoccupied one: marching in is allowed; building never.
    w = scenario(
        {
            "players": ["legion", "order"],
            "regions": {"Boundless Expanse": "legion castle W", "Wasteland": "brotherhood castle"},
        }
    )
    w = step(w, "march", R("Boundless Expanse"), R("Wasteland"))
    w = step(w, "units", 1, 0, 0)
    assert w.occupant[R("Wasteland")] == LEGION and w.castle[R("Wasteland")] == BROTHERHOOD


def test_castle_destruction_shifts_the_marker() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "regions": {
                "Boundless Expanse": "legion castle WW",
                "Wasteland": "brotherhood castle",
                "Saxum Ridge": "brotherhood castle D",
                "Valley of Volcanoes": "brotherhood castle D",
            },
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
            "markers": {"brotherhood": 1},
        }
    )
    assert s.battle[0] == B_ADVANCE  # nobody defends: the victory march may follow at once
    assert s.track[BROTHERHOOD][0] == 1 and s.marker[BROTHERHOOD] == 1
    s = step(s, "advance", 1, 0, 0)
    assert s.castle[R("Wasteland")] == -1
    assert s.track[BROTHERHOOD][0] == 2  # the token returned to division 1, where the marker stood
    assert s.marker[BROTHERHOOD] == 2


def test_attacking_region_without_units_removes_the_token() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "regions": {"Boundless Expanse": "legion castle", "Wasteland": "brotherhood castle D"},
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
        }
    )
    assert s.phase == PEACE and s.castle[R("Wasteland")] == BROTHERHOOD and s.round == 2


def test_draw_and_losses_per_ten() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "regions": {"Boundless Expanse": "legion castle W", "Wasteland": "brotherhood D"},
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
        }
    )
    # 2 + 1 sword against 2: the attacker wins; the defender loses one unit and has none left.
    assert s.units[R("Wasteland")] == (0, 0, 0) and s.battle[0] == B_ADVANCE
    d = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "regions": {"Boundless Expanse": "legion castle M", "Wasteland": "brotherhood D"},
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
        }
    )
    # 1 + 1 against 2: a draw, nobody moves, nobody loses.
    assert d.units[R("Wasteland")] == (0, 1, 0) and d.units[R("Boundless Expanse")] == (0, 0, 1)
    assert d.phase == PEACE


# -- variants ---------------------------------------------------------------------------------------------


def test_militia() -> None:
    desc = {
        "players": ["legion", "alliance", "order"],
        "phase": "peace",
        "variants": ["militia"],
        "regions": {
            "Raven Heights": "legion W",
            "Groves": "alliance castle",
            "Forest's Edge": "alliance castle W",
            "Dawn Pine Forest": "order W",
            "Cliff of Sorrow": "order castle",
        },
        "melee": [("legion", 1, "Raven Heights", "Groves"), ("order", 1, "Dawn Pine Forest", "Groves")],
        "done": ["legion", "order"],
        "turn": "alliance",
        "markers": {"alliance": 2},
    }
    s = scenario(desc)
    while s.phase == PEACE:
        s = step(s, "pass")
    assert s.militia[ALLIANCE]  # attacked by two players at once
    # The Groves hold only a militia castle: strength 1 against 2 + 1: lost, but militia takes no losses.
    assert s.phase == ATTACK and s.battle[0] == B_ADVANCE and s.battle[9:11] == (3, 1)


def test_allies_pact_and_consent() -> None:
    s = scenario(
        {
            "players": ["legion", "alliance", "brotherhood"],
            "variants": ["allies"],
            "regions": {
                "Boundless Expanse": "legion castle W",
                "Ashen Peaks": "legion castle W",
                "Wasteland": "alliance W",
                "Saxum Ridge": "brotherhood castle WD",
            },
            "melee": [("brotherhood", 1, "Saxum Ridge", "Wasteland")],
            "markers": {"legion": "mountains"},
        }
    )
    with pytest.raises(IllegalAction, match="supported region"):
        GAME.apply(s, Action("ranged", (R("Boundless Expanse"), R("Wasteland"))))
    s = step(s, "pact", ALLIANCE)
    assert s.pending[0] == P_PACT and GAME.to_move(s) == 1
    s = step(s, "accept")
    assert s.pacts == ((LEGION, ALLIANCE),) and s.turn == LEGION
    s = step(s, "ranged", R("Boundless Expanse"), R("Wasteland"))
    assert s.pending[0] == P_CONSENT and GAME.to_move(s) == 1
    refused = step(s, "refuse")
    assert refused.turn == LEGION and not refused.ranged and refused.refused
    assert Action("ranged", (R("Boundless Expanse"), R("Wasteland"))) not in GAME.legal_actions(refused)
    s = step(s, "consent")
    assert s.ranged[-1][:4] == (LEGION, 1, R("Boundless Expanse"), R("Wasteland"))
    assert s.turn == BROTHERHOOD  # the Alliance has no castle, hence no free division


def test_allied_support_counts_but_aura_does_not() -> None:
    s = scenario(
        {
            "players": ["legion", "alliance", "brotherhood"],
            "variants": ["allies"],
            "phase": "attack",
            "pacts": [("legion", "alliance")],
            "regions": {
                "Boundless Expanse": "legion castle M",
                "Wasteland": "alliance D",
                "Saxum Ridge": "brotherhood castle WW",
            },
            "melee": [("brotherhood", 1, "Saxum Ridge", "Wasteland")],
            "ranged": [("legion", 1, "Boundless Expanse", "Wasteland", "M")],
        }
    )
    # Attack 2+2+1 = 5; defence: defender 2 + the Legion's supporting mage 2 = 4.
    assert s.battle[9:11] == (5, 4)


# -- creatures -----------------------------------------------------------------------------------------


def test_summon_refusals() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {
                "Boundless Expanse": "legion castle W",
                "Blackthorn Wood": "legion castle",
                "Saxum Ridge": "brotherhood castle D",
            },
            "markers": {"legion": "forests"},
        }
    )
    far = junction("Groves", "Cliff of Sorrow", "Dawn Pine Forest")
    with pytest.raises(IllegalAction, match="none of the three regions"):
        GAME.apply(s, Action("summon", (creature("Ignifer"), far)))
    with pytest.raises(IllegalAction, match="not in your part of the Bestiary"):
        GAME.apply(s, Action("summon", (creature("Armus"), far)))
    # "A token cannot be placed on the edge of the game board": no junction lies on it.
    assert all(0 < x < C.width and 0 < y < C.height for x, y in C.junction_points)
    j = C.region_junctions[R("Boundless Expanse")][0]
    s2 = step(s, "summon", creature("Ignifer"), j)
    s2 = step(s2, "forgo")
    assert (creature("Ignifer"), j) in s2.creatures and j in s2.used_junctions


@pytest.mark.parametrize("name", [c.name for c in C.creatures])
def test_every_creature_has_its_ability_offered_somewhere(name: str) -> None:
    """Each ability is reachable in random play (its options appear in some seeded game)."""
    import random

    c = creature(name)
    fac = C.factions[C.creatures[c].faction].key
    others = [f.key for f in C.factions if f.key != fac]
    seen = False
    for seed in range(40):
        cfg = GAME.config(4, ["allies"] if seed % 2 else [])
        s = GAME.new(cfg, seed)
        rng = random.Random(seed)
        steps = 0
        while not GAME.is_over(s) and steps < 1500 and not seen:
            legal = GAME.legal_actions(s)
            if (
                s.pending
                and s.pending[0] == 3
                and s.pending[1] == c
                and any(a.kind == "ability" for a in legal)
            ):
                seen = True
                pick = next(a for a in legal if a.kind == "ability")
                GAME.apply(s, pick)  # and it applies
                break
            s = GAME.apply(s, legal[rng.randrange(len(legal))])
            steps += 1
        if seen:
            break
    assert seen, (name, others)


def _heartwood(dawn_pine_forest: str) -> ReliquiumState:
    s = scenario(
        {
            "players": ["alliance", "order"],
            "regions": {
                "Groves": "alliance castle W",
                "Cliff of Sorrow": "order castle DD",
                "Dawn Pine Forest": dawn_pine_forest,
            },
            "markers": {"alliance": "forests"},
            "turn": "alliance",
        }
    )
    return step(s, "summon", creature("Lignum"), junction("Groves", "Cliff of Sorrow", "Dawn Pine Forest"))


def test_heartwood_turns_an_enemy_unit_into_one_of_yours() -> None:
    """Lignum's text: "an enemy unit in a region of its presence goes back to its army reserve, and a unit of
    its class from your reserve joins your units in another region of its presence, or takes its place if
    it was alone there and no enemy castle stands there"."""
    s = _heartwood("order M")
    groves, cliff, pines = R("Groves"), R("Cliff of Sorrow"), R("Dawn Pine Forest")
    targets = {a.args for a in GAME.legal_actions(s) if a.kind == "ability"}
    assert targets == {(pines, 2), (pines, 2, groves), (cliff, 1, groves)}
    with pytest.raises(IllegalAction, match="Lignum cannot"):
        GAME.apply(s, Action("ability", (cliff, 1)))  # two defenders there: one of yours cannot stand
    taken = step(s, "ability", pines, 2)
    assert taken.occupant[pines] == ALLIANCE and taken.units[pines] == (0, 0, 1)
    assert taken.reserve[ORDER][2] == s.reserve[ORDER][2] + 1
    assert taken.reserve[ALLIANCE][2] == s.reserve[ALLIANCE][2] - 1
    joined = step(s, "ability", cliff, 1, groves)
    assert joined.units[cliff] == (0, 1, 0) and joined.occupant[cliff] == ORDER
    assert joined.units[groves] == (1, 1, 0) and joined.reserve[ORDER][1] == s.reserve[ORDER][1] + 1
    # alone but in its castle: yours may not stand in an enemy castle, so it can only join you elsewhere
    castle = _heartwood("order castle M")
    assert (pines, 2) not in {a.args for a in GAME.legal_actions(castle) if a.kind == "ability"}
    assert (pines, 2, groves) in {a.args for a in GAME.legal_actions(castle) if a.kind == "ability"}


def _summoned_between_two_tokens(faction: str, name: str) -> ReliquiumState:
    """``faction`` summons ``name`` at the junction of the Groves (the Alliance's), the Cliff of Sorrow and
    the Dawn Pine Forest (the Order's), each side's melee token on a border of them."""
    s = scenario(
        {
            "players": ["alliance", "order"],
            "regions": {
                "Groves": "alliance castle W",
                "Cliff of Sorrow": "order castle D",
                "Dawn Pine Forest": "order castle W",
            },
            "melee": [
                ("alliance", 1, "Groves", "Cliff of Sorrow"),
                ("order", 2, "Dawn Pine Forest", "Groves"),
            ],
            "markers": {faction: "forests"},
            "turn": faction,
        }
    )
    return step(s, "summon", creature(name), junction("Groves", "Cliff of Sorrow", "Dawn Pine Forest"))


def test_rewind_takes_back_any_token_into_its_owners_supply() -> None:
    """Tempus's text: "takes a combat token, yours or an enemy's, from a border of a region of its presence
    back into its owner's supply"; the border then takes no token this round, as for every removed token."""
    s = _summoned_between_two_tokens("order", "Tempus")
    targets = {a.args for a in GAME.legal_actions(s) if a.kind == "ability"}
    assert targets == {(R("Groves"), R("Cliff of Sorrow")), (R("Dawn Pine Forest"), R("Groves"))}
    enemy = step(s, "ability", R("Groves"), R("Cliff of Sorrow"))
    assert [t[0] for t in enemy.melee] == [ORDER]
    assert enemy.melee_used[ALLIANCE] == s.melee_used[ALLIANCE] & ~(1 << 1)  # back in the Alliance's supply
    assert enemy.melee_used[ORDER] == s.melee_used[ORDER]
    assert C.border(R("Groves"), R("Cliff of Sorrow")) in enemy.blocked
    own = step(s, "ability", R("Dawn Pine Forest"), R("Groves"))
    assert [t[0] for t in own.melee] == [ALLIANCE]
    assert own.melee_used[ORDER] == s.melee_used[ORDER] & ~(1 << 2)


def test_tide_washes_an_enemy_token_from_a_border_of_its_presence() -> None:
    """Aquus's text (designed, rules version 4): "carries some or all of your units from one region of its
    presence into another (march rules), or washes away an enemy combat token from a border of one"; the
    token is spent for the round and the border takes no token again, as for every removed token."""
    s = _summoned_between_two_tokens("alliance", "Aquus")
    targets = {a.args for a in GAME.legal_actions(s) if a.kind == "ability"}
    assert (R("Dawn Pine Forest"), R("Groves")) in targets  # the enemy's token
    assert (R("Groves"), R("Cliff of Sorrow")) not in targets  # not its own
    washed = step(s, "ability", R("Dawn Pine Forest"), R("Groves"))
    assert [t[0] for t in washed.melee] == [ALLIANCE]
    assert washed.melee_used[ORDER] == s.melee_used[ORDER]  # spent, not back in the supply
    assert C.border(R("Dawn Pine Forest"), R("Groves")) in washed.blocked


# -- ending, content, views ------------------------------------------------------------------------------


def test_round_limit_result() -> None:
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "rounds": 1,
            "regions": {
                "Boundless Expanse": "legion castle W",
                "Wasteland": "legion castle",
                "Saxum Ridge": "brotherhood castle D",
            },
        }
    )
    while not GAME.is_over(s):
        s = step(s, "pass")
    res = GAME.result(s)
    assert res.winners == (0,) and "round limit" in res.reason
    assert res.scores == (2.0, 1.0)


def test_config_options() -> None:
    with pytest.raises(ConfigError, match="factions"):
        GAME.config(2, factions="legion,legion")
    with pytest.raises(ConfigError, match="rounds"):
        GAME.config(2, rounds=0)
    s = GAME.new(GAME.config(2, factions="alliance,brotherhood"), 0)
    assert s.factions == (ALLIANCE, BROTHERHOOD)


def test_scenario_refuses_impossible_positions() -> None:
    with pytest.raises(ScenarioError, match="unit limit"):
        scenario({"players": ["legion", "order"], "regions": {"Wasteland": "legion WWDD"}})
    with pytest.raises(ScenarioError, match="water"):
        scenario({"players": ["legion", "order"], "regions": {"Great Sea": "legion castle"}})
    with pytest.raises(ScenarioError, match="no region"):
        scenario({"players": ["legion", "order"], "regions": {"Atlantis": "legion W"}})
    with pytest.raises(ScenarioError, match="junction"):
        scenario(
            {"players": ["legion", "order"], "creatures": [("Ignifer", "Wasteland", "Groves", "Great Sea")]}
        )
    with pytest.raises(ScenarioError, match="two tokens"):
        scenario(
            {
                "players": ["legion", "order"],
                "regions": {"Wasteland": "legion W", "Boundless Expanse": "order W"},
                "melee": [
                    ("legion", 1, "Wasteland", "Boundless Expanse"),
                    ("order", 1, "Boundless Expanse", "Wasteland"),
                ],
            }
        )


def test_content_errors_name_file_entry_and_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for f in ("map.toml", "factions.toml", "creatures.toml"):
        (tmp_path / f).write_text((DATA / f).read_text())
    text = (tmp_path / "creatures.toml").read_text().replace('class = "agility"', 'class = "speed"', 1)
    (tmp_path / "creatures.toml").write_text(text)
    monkeypatch.setattr("ludorum.games.reliquium.content.DATA", tmp_path)
    from ludorum.games.reliquium.content import content as loader

    with pytest.raises(ContentError, match=r"creatures.toml: creature 1 \(Ignifer\): field 'class'"):
        loader.__wrapped__()


@pytest.mark.parametrize(
    ("old", "new", "refusal"),
    [
        ('name = "Saxum Ridge"\nterrain = "mountains"\n', 'name = "Saxum Ridge"\nterrain = "mountains"\n'
         'three_players_terrain = "plains"\n', "Saxum Ridge.*only a designed land"),
        ('three_players_terrain = "forests"', 'three_players_terrain = "water"', "water is water"),
        ('three_players_terrain = "forests"', 'three_players_terrain = "hills"', "three_players_terrain"),
    ],
)  # fmt: skip
def test_a_three_player_terrain_is_checked_on_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, refusal: str
) -> None:
    for f in ("map.toml", "factions.toml", "creatures.toml"):
        (tmp_path / f).write_text((DATA / f).read_text())
    text = (tmp_path / "map.toml").read_text()
    assert old in text
    (tmp_path / "map.toml").write_text(text.replace(old, new, 1))
    monkeypatch.setattr("ludorum.games.reliquium.content.DATA", tmp_path)
    from ludorum.games.reliquium.content import content as loader

    with pytest.raises(ContentError, match=refusal):
        loader.__wrapped__()


def test_view_has_what_a_renderer_needs() -> None:
    s = scenario({"players": ["legion", "order"], "regions": {"Wasteland": "legion castle W"}})
    v = GAME.view(s, 0)
    json.dumps(v)
    for key in ("occupant", "units", "castle", "track", "marker", "melee", "ranged", "creatures", "reserve"):
        assert key in v
    assert v["castles_on_board"][LEGION] == 1
    fight = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {"Wasteland": "legion castle W", "Saxum Ridge": "brotherhood castle D"},
            "melee": [("legion", 1, "Wasteland", "Saxum Ridge")],
            "creatures": [("Armus", "Saxum Ridge", "Wasteland", "Howling Wilds")],
        }
    )
    fv = GAME.view(fight, 1)
    assert fv["tokens"][0]["border"] == C.border(R("Wasteland"), R("Saxum Ridge"))
    assert fv["creature_tokens"][0]["name"] == "Armus"
    assert sorted(fv["creature_tokens"][0]["regions"]) == sorted(
        R(n) for n in ("Saxum Ridge", "Wasteland", "Howling Wilds")
    )
    text = GAME.render_text(s, 0)
    assert "Wasteland" in text and "Legion of Chaos" in text
    for a in GAME.legal_actions(s):
        assert GAME.describe(s, a)


def test_the_text_names_the_war_phase_in_its_stages() -> None:
    """Support and attack are the war phase's stages: the table says "war phase" (translatable), never the
    internal stage name."""
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "regions": {"Wasteland": "legion castle W", "Saxum Ridge": "brotherhood castle D"},
            "melee": [("legion", 1, "Wasteland", "Saxum Ridge")],
            "phase": "support",
        }
    )
    assert "round 1/20, war phase" in GAME.render_text(s, 0)


def test_ability_on_allied_units_needs_consent() -> None:
    s = scenario(
        {
            "players": ["legion", "alliance", "order"],
            "variants": ["allies"],
            "pacts": [("alliance", "order")],
            "regions": {
                "Forest's Edge": "alliance castle W",
                "Storm Crags": "alliance castle",
                "Groves": "alliance castle",  # a forest on both sides of the board
                "Sacrificial Forest": "order DD",
            },
            "markers": {"alliance": "forests"},
            "turn": "alliance",
        }
    )
    j = junction("Forest's Edge", "Sacrificial Forest", "Mossy Ridge")
    s = step(s, "summon", creature("Aquus"), j)
    s = step(s, "ability", R("Sacrificial Forest"), R("Mossy Ridge"), 0, 2, 0)  # the Order's defenders
    assert s.pending[0] == P_CONSENT and GAME.seat_name(s, GAME.to_move(s)) == "Order of Light"
    moved = step(s, "consent")
    assert moved.occupant[R("Mossy Ridge")] == ORDER and moved.units[R("Mossy Ridge")] == (0, 2, 0)
    assert moved.reserve[ORDER] == s.reserve[ORDER]
    refused = step(s, "refuse")
    assert refused.pending[0] == 3 and refused.units[R("Sacrificial Forest")] == (0, 2, 0)
    assert all(
        R("Sacrificial Forest") != a.args[0] for a in GAME.legal_actions(refused) if a.kind == "ability"
    )


def test_scenario_from_toml_text() -> None:
    text = """
    players = ["legion", "brotherhood"]
    phase = "attack"
    melee = [["legion", 1, "Boundless Expanse", "Wasteland"]]
    [regions]
    "Boundless Expanse" = "legion castle WW"
    "Wasteland" = "brotherhood castle D"
    """
    s = scenario(text)
    same = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
            "regions": {"Boundless Expanse": "legion castle WW", "Wasteland": "brotherhood castle D"},
        }
    )
    assert s == same and s.battle[9:11] == (5, 2)
    with pytest.raises(ScenarioError, match="TOML"):
        scenario("players = [")


def test_battle_in_a_neutral_land() -> None:
    """A player's units in a neutral land can be attacked; the neutral castle survives the victory march."""
    s = scenario(
        {
            "players": ["legion", "order"],
            "phase": "attack",
            "regions": {"Wasteland": "brotherhood castle; order D", "Boundless Expanse": "legion castle WW"},
            "melee": [("legion", 1, "Boundless Expanse", "Wasteland")],
        }
    )
    assert s.battle[9:11] == (5, 2) and s.occupant[R("Wasteland")] == -1  # the defender had to go
    s = step(s, "advance", 1, 0, 0)
    assert s.occupant[R("Wasteland")] == LEGION and s.castle[R("Wasteland")] == BROTHERHOOD
    with pytest.raises(ScenarioError, match="another player's castle"):
        scenario({"players": ["legion", "order"], "regions": {"Wasteland": "order castle; legion W"}})
    with pytest.raises(ScenarioError, match="different factions"):
        scenario({"players": ["legion", "order"], "regions": {"Wasteland": "order W; legion W"}})
