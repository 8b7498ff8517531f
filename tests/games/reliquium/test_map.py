"""The designed map of Sigillum: its shape, the facts of DESIGN.md §5, starting lands and neutral castles."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from ludorum.games.reliquium import GAME, map_geometry
from ludorum.games.reliquium.content import DATA, MOUNTAINS, WATER, content
from ludorum.games.reliquium.mapdesign import RULEBOOK_NAMES, THREE_PLAYERS, to_toml

C = content()
KEYS = ("legion", "alliance", "order", "brotherhood")


def borders(a: str, b: str) -> bool:
    return C.region(b) in C.adj_set[C.region(a)]


def junction(a: str, b: str, c: str) -> bool:
    return tuple(sorted((C.region(a), C.region(b), C.region(c)))) in C.junctions


def test_counts() -> None:
    assert len(C.names) == 31
    terrains = Counter(C.terrain)
    assert terrains[WATER] == 3
    assert sum(terrains[t] for t in range(3)) == 28
    assert all(terrains[t] >= 8 for t in range(3))
    assert set(C.names) >= RULEBOOK_NAMES


def test_map_file_is_the_design() -> None:
    assert (DATA / "map.toml").read_text() == to_toml()


def test_topology_is_symmetric_and_connected() -> None:
    for a in range(31):
        for b in C.adj[a]:
            assert a in C.adj_set[b]
    seen, todo = {0}, [0]
    while todo:
        for n in C.adj[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) == 31
    for trio in C.junctions:
        a, b, c = trio
        assert b in C.adj_set[a] and c in C.adj_set[a] and c in C.adj_set[b]
    assert C.on_edge and len(C.on_edge) < 31


@pytest.mark.parametrize(
    "fact",
    [
        ("Boundless Expanse", "Wasteland"),
        ("Wasteland", "Saxum Ridge"),
        ("Ancestral Thickets", "Saxum Ridge"),
        ("Valley of Volcanoes", "Saxum Ridge"),
        ("Forest's Edge", "Groves"),
        ("Cliff of Sorrow", "Great Sea"),
    ],
)
def test_design_borders(fact: tuple[str, str]) -> None:
    assert borders(*fact)


@pytest.mark.parametrize(
    "trio",
    [
        ("Saxum Ridge", "Wasteland", "Howling Wilds"),
        ("Forest's Edge", "Sacrificial Forest", "Mossy Ridge"),
        ("Groves", "Cliff of Sorrow", "Dawn Pine Forest"),
    ],
)
def test_design_junctions(trio: tuple[str, str, str]) -> None:
    assert junction(*trio)


def test_groves_forest_and_great_sea_water() -> None:
    assert C.terrain[C.region("Groves")] == 2
    assert C.terrain[C.region("Great Sea")] == WATER


def test_starting_lands_one_castle_of_each_type() -> None:
    for fac in C.factions:
        assert sorted(C.terrain[r] for r in fac.starting_lands) == [0, 1, 2]
        assert fac.provenance == "designed"
    units = {tuple(sorted(f.starting_units)) for f in C.factions}
    assert len(units) == 4  # "Factions have different starting sets of units"


def test_examples_holdings_are_starting_lands() -> None:
    keys = {f.key: {C.names[r] for r in f.starting_lands} for f in C.factions}
    assert "Boundless Expanse" in keys["legion"]
    assert {"Saxum Ridge", "Ancestral Thickets", "Valley of Volcanoes"} == keys["brotherhood"]
    assert {"Forest's Edge", "Sacrificial Forest", "Mossy Ridge"} == keys["alliance"]
    assert {"Cliff of Sorrow", "Dawn Pine Forest"} <= keys["order"]


def test_starting_lands_run_clockwise() -> None:
    # Legion top-left, Alliance top-right, Order bottom-right, Brotherhood bottom-left.
    centres = []
    for fac in C.factions:
        xs = [C.labels[r][0] for r in fac.starting_lands]
        ys = [C.labels[r][1] for r in fac.starting_lands]
        centres.append((sum(xs) / 3 > C.width / 2, sum(ys) / 3 > C.height / 2))
    assert centres == [(False, False), (True, False), (True, True), (False, True)]


def test_two_players_play_neighbours_by_default() -> None:
    """Issue 14 (designed): without the factions option two players are the Alliance and the Order, who
    share the Groves and the Raven Heights; the diagonal Legion and Order (the default before) share no land
    and the Legion won 67.9 % of their games (docs/reliquium.md, Fewer players)."""
    s = GAME.new(GAME.config(2), 0)
    assert [C.factions[f].key for f in s.factions] == ["alliance", "order"]
    shared = [
        C.names[r]
        for r in range(len(C.names))
        if all(any(r in C.adj_set[land] for land in C.factions[f].starting_lands) for f in s.factions)
    ]
    assert sorted(shared) == ["Groves", "Raven Heights"]
    # both shared lands stay open (no neutral castle), each player's own bordering land too
    assert all(s.castle[C.region(name)] == -1 for name in shared)


@pytest.mark.parametrize(
    "players", [("legion", "order"), ("alliance", "brotherhood"), ("legion", "alliance")]
)
def test_neutral_factions_hold_five_or_six_castles(players: tuple[str, str]) -> None:
    cfg = GAME.config(2, factions=",".join(players))
    s = GAME.new(cfg, 0)
    for f in range(4):
        n = sum(1 for c in s.castle if c == f)
        if C.factions[f].key in players:
            assert n == 3
        else:
            assert n in (5, 6)


@pytest.mark.parametrize(
    "players",
    [",".join(k) for n in (2, 3) for k in combinations(["legion", "alliance", "order", "brotherhood"], n)],
)
def test_every_neutral_faction_s_castle_tokens_are_on_the_board_or_its_track(players: str) -> None:
    """A faction has 9 castle tokens, 3 of each type: a neutral faction's 5 or 6 castles fit them, and the
    view's castles on the board are what the board shows (issue 14: neutral factions were shown 3)."""
    s = GAME.new(GAME.config(players.count(",") + 1, factions=players), 0)
    view = GAME.view(s, 0)
    for f in range(4):
        n = s.castle.count(f)
        assert view["castles_on_board"][f] == n == 9 - sum(s.track[f])
        assert n == 3 if f in s.factions else n in (5, 6)


def test_the_three_player_side() -> None:
    """Designed, rules version 5 (docs/reliquium.md, "The three-player side"): only designed lands differ,
    land stays land, and each quadrant's two inner lands are mountains, so the neutral quadrant's inner lands
    give the lone player of a trio no terrain its own inner lands do not."""
    differ = {C.names[r] for r in range(len(C.names)) if C.three_players_terrain[r] != C.terrain[r]}
    assert differ == set(THREE_PLAYERS)
    assert all(C.region_provenance[C.region(n)] == "designed" for n in differ)
    assert [t == WATER for t in C.three_players_terrain] == [t == WATER for t in C.terrain]
    for inner in (("Iron Crags", "Wolfwood"), ("Storm Crags", "Whispering Pines"),
                  ("Shattered Peaks", "Silent Moor"), ("Frostfang Heights", "Elderwood")):  # fmt: skip
        assert {C.three_players_terrain[C.region(n)] for n in inner} == {MOUNTAINS}
    assert C.terrains(3) == C.three_players_terrain and C.terrains(2) == C.terrains(4) == C.terrain
    elderwood = next(g for g in map_geometry()["regions"] if g["name"] == "Elderwood")
    assert (elderwood["terrain"], elderwood["three_players_terrain"]) == ("forests", "mountains")


def test_geometry_is_json_and_complete() -> None:
    import json

    g = map_geometry()
    json.dumps(g)
    assert len(g["regions"]) == 31
    assert len(g["junctions"]) == len(C.junctions)
    assert all(len(r["polygon"]) >= 3 for r in g["regions"])


def test_docs_document_the_designed_content() -> None:
    from pathlib import Path

    from ludorum.games.reliquium.setup import DEFAULT_ROUND_LIMIT

    doc = (Path(__file__).parents[3] / "docs" / "reliquium.md").read_text()
    for name in C.names:
        assert name in doc
    for cr in C.creatures:
        assert cr.name in doc and cr.text in doc
    assert f"{DEFAULT_ROUND_LIMIT} rounds by default" in doc


def test_creature_provenance() -> None:
    named = {c.name for c in C.creatures if c.provenance == "rulebook"}
    assert named == {"Armus", "Architectus", "Arboruus", "Aquus", "Fidei"}
    assert sum(c.provenance == "designed" for c in C.creatures) == 7
    assert {c.name for c in C.creatures if c.ability_provenance == "rulebook"} == {
        "Armus",
        "Architectus",
        "Arboruus",
    }
    assert [sorted(c.cls for c in C.creatures if c.faction == f) for f in range(4)] == [[0, 1, 2]] * 4
