"""Reliquium's content: the map of Sigillum, the factions and the legendary creatures, loaded from ``data/``.

Everything static is computed here once (adjacency, borders, junctions, the board edge) and shared by
every state.  The loader validates each file and names file, entry and field in its errors.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ludorum.engine import LudorumError
from ludorum.engine.i18n import T

DATA = Path(__file__).parent / "data"

TERRAINS = ("plains", "mountains", "forests", "water")
PLAINS, MOUNTAINS, FORESTS, WATER = range(4)
CLASSES = ("warrior", "defender", "mage")
WARRIOR, DEFENDER, MAGE = range(3)
CREATURE_CLASSES = ("agility", "strength", "intellect")  # same index as the unit class they strengthen
ABILITIES = (
    "burn_ranged", "slay", "raise", "tide", "defect", "gather",
    "recall", "build", "call", "push", "remove_melee", "freeze",
)  # fmt: skip
PROVENANCES = ("rulebook", "designed")


class ContentError(LudorumError, ValueError):
    """A content file that does not describe a valid Reliquium set."""


@dataclass(frozen=True, slots=True)
class Faction:
    """One faction: its key, name, initiative and designed starting lands and units."""

    key: str
    name: str
    initiative: int
    starting_lands: tuple[int, ...]
    starting_units: tuple[int, ...]
    provenance: str


@dataclass(frozen=True, slots=True)
class Creature:
    """A legendary creature: its faction, class (= the unit class it strengthens) and ability."""

    name: str
    faction: int
    cls: int
    ability: str
    text: str
    """What its ability does (a message: the catalog's Russian is the entry's ``text_ru``)."""
    provenance: str
    ability_provenance: str


@dataclass(frozen=True, slots=True)
class Content:
    """The whole static content set, with the map topology derived from its polygons."""

    width: int
    height: int
    vertices: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    terrain: tuple[int, ...]
    """Each region's terrain on the board's side for two and four players."""
    three_players_terrain: tuple[int, ...]
    """Each region's terrain on the board's three-player side (designed, rules version 5)."""
    sides: dict[int, tuple[int, ...]]
    """The terrains each number of players plays on (:meth:`terrains`; a lookup the rules make inline)."""
    polygons: tuple[tuple[int, ...], ...]
    labels: tuple[tuple[int, int], ...]
    region_provenance: tuple[str, ...]
    index: dict[str, int]
    adj: tuple[tuple[int, ...], ...]
    adj_set: tuple[frozenset[int], ...]
    borders: tuple[tuple[int, int], ...]
    border_id: dict[tuple[int, int], int]
    region_borders: tuple[tuple[int, ...], ...]
    junctions: tuple[tuple[int, int, int], ...]
    junction_points: tuple[tuple[int, int], ...]
    region_junctions: tuple[tuple[int, ...], ...]
    on_edge: frozenset[int]
    factions: tuple[Faction, ...]
    creatures: tuple[Creature, ...]
    faction_creatures: tuple[tuple[int, ...], ...]

    def terrains(self, players: int) -> tuple[int, ...]:
        """Each region's terrain on the side of the board ``players`` play on."""
        return self.sides[players]

    def border(self, a: int, b: int) -> int:
        """The id of the border between neighbouring regions ``a`` and ``b``."""
        return self.border_id[(a, b) if a < b else (b, a)]

    def region(self, name: str) -> int:
        """A region's number from its name (exact, case-insensitive)."""
        r = self.index.get(name.lower())
        if r is None:
            raise KeyError(f"Sigillum has no region called {name!r}")
        return r


def _load(name: str) -> dict[str, Any]:
    path = DATA / name
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ContentError(f"{name}: cannot read: {e}") from None


def _field(file: str, entry: str, data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise ContentError(f"{file}: {entry}: missing field {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ContentError(f"{file}: {entry}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _effect(file: str, entry: str, data: dict[str, Any], key: str) -> str:
    """An effect text or its Russian (``text``, ``text_ru``): every entry says what it does, in both
    languages."""
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{file}: {entry}: no effect text {key!r} (every entry says what it does)")
    return value


def _choice(file: str, entry: str, data: dict[str, Any], key: str, options: tuple[str, ...]) -> str:
    value = _field(file, entry, data, key, str)
    if value not in options:
        raise ContentError(f"{file}: {entry}: field {key!r} is {value!r}, not one of {', '.join(options)}")
    return str(value)


def _three_players_terrain(entry: str, reg: dict[str, Any], terrain: int) -> int:
    """A region's terrain on the three-player side: ``three_players_terrain`` if given, else its terrain.

    Only a designed land may differ (the rulebook's lands keep the terrain it gives them), and land stays
    land: water is the same on both sides."""
    if "three_players_terrain" not in reg:
        return terrain
    three = TERRAINS.index(_choice("map.toml", entry, reg, "three_players_terrain", TERRAINS))
    if reg.get("provenance") != "designed":
        raise ContentError(f"map.toml: {entry}: only a designed land may have another three-player terrain")
    if WATER in (terrain, three):
        raise ContentError(f"map.toml: {entry}: water is water on both sides of the board")
    return three


def _topology(
    polygons: tuple[tuple[int, ...], ...], vertices: tuple[tuple[int, int], ...]
) -> tuple[Any, ...]:
    """Adjacency, borders, junctions and board-edge regions, derived from shared polygon edges."""
    edges: dict[tuple[int, int], list[int]] = {}
    for r, poly in enumerate(polygons):
        for i, a in enumerate(poly):
            b = poly[(i + 1) % len(poly)]
            edges.setdefault((min(a, b), max(a, b)), []).append(r)
    adj: list[set[int]] = [set() for _ in polygons]
    boundary_vertices: set[int] = set()
    on_edge: set[int] = set()
    for (a, b), rs in edges.items():
        if len(rs) == 2:
            adj[rs[0]].add(rs[1])
            adj[rs[1]].add(rs[0])
        elif len(rs) == 1:
            boundary_vertices |= {a, b}
            on_edge.add(rs[0])
        else:
            raise ContentError(
                f"map.toml: the edge between vertices {a} and {b} belongs to {len(rs)} regions"
            )
    at_vertex: dict[int, set[int]] = {}
    for r, poly in enumerate(polygons):
        for v in poly:
            at_vertex.setdefault(v, set()).add(r)
    junctions: list[tuple[int, int, int]] = []
    points: list[tuple[int, int]] = []
    for v in sorted(at_vertex):
        at = at_vertex[v]
        if len(at) > 3:
            raise ContentError(f"map.toml: {len(at)} regions meet at vertex {v}; junctions join three")
        if len(at) == 3 and v not in boundary_vertices:
            a, b, c = sorted(at)
            junctions.append((a, b, c))
            points.append(vertices[v])
    return adj, on_edge, junctions, points


@cache
def content() -> Content:
    """Load and validate the base content set (cached: loaded once per process)."""
    m = _load("map.toml")
    width = _field("map.toml", "the map", m, "width", int)
    height = _field("map.toml", "the map", m, "height", int)
    raw_vertices = _field("map.toml", "the map", m, "vertices", list)
    vertices = tuple((int(p[0]), int(p[1])) for p in raw_vertices)
    names: list[str] = []
    terrain: list[int] = []
    three: list[int] = []
    polygons: list[tuple[int, ...]] = []
    labels: list[tuple[int, int]] = []
    provs: list[str] = []
    for i, reg in enumerate(_field("map.toml", "the map", m, "region", list)):
        entry = f"region {i + 1} ({reg.get('name', '?')})"
        names.append(T(_field("map.toml", entry, reg, "name", str)))
        terrain.append(TERRAINS.index(_choice("map.toml", entry, reg, "terrain", TERRAINS)))
        three.append(_three_players_terrain(entry, reg, terrain[-1]))
        poly = tuple(_field("map.toml", entry, reg, "polygon", list))
        if len(poly) < 3 or not all(isinstance(v, int) and 0 <= v < len(vertices) for v in poly):
            raise ContentError(f"map.toml: {entry}: field 'polygon' must list 3 or more vertex numbers")
        polygons.append(poly)
        lab = _field("map.toml", entry, reg, "label", list)
        labels.append((int(lab[0]), int(lab[1])))
        provs.append(_choice("map.toml", entry, reg, "provenance", PROVENANCES))
    if len(set(names)) != len(names):
        raise ContentError("map.toml: two regions share a name")
    adj, on_edge, junctions, points = _topology(tuple(polygons), vertices)
    index = {n.lower(): i for i, n in enumerate(names)}
    borders = tuple(sorted((a, b) for a in range(len(names)) for b in adj[a] if a < b))
    border_id = {p: i for i, p in enumerate(borders)}
    region_borders = tuple(
        tuple(border_id[(min(r, n), max(r, n))] for n in sorted(adj[r])) for r in range(len(names))
    )
    region_junctions = tuple(tuple(j for j, t in enumerate(junctions) if r in t) for r in range(len(names)))
    factions = _factions(index)
    creatures = _creatures(factions)
    return Content(
        width=width,
        height=height,
        vertices=vertices,
        names=tuple(names),
        terrain=tuple(terrain),
        three_players_terrain=tuple(three),
        sides={
            2: tuple(terrain),
            3: tuple(three),
            4: tuple(terrain),
        },  # three players have a side of their own
        polygons=tuple(polygons),
        labels=tuple(labels),
        region_provenance=tuple(provs),
        index=index,
        adj=tuple(tuple(sorted(a)) for a in adj),
        adj_set=tuple(frozenset(a) for a in adj),
        borders=borders,
        border_id=border_id,
        region_borders=region_borders,
        junctions=tuple(junctions),
        junction_points=tuple(points),
        region_junctions=region_junctions,
        on_edge=frozenset(on_edge),
        factions=factions,
        creatures=creatures,
        faction_creatures=tuple(
            tuple(i for i, c in enumerate(creatures) if c.faction == f) for f in range(len(factions))
        ),
    )


def _factions(index: dict[str, int]) -> tuple[Faction, ...]:
    data = _load("factions.toml")
    out: list[Faction] = []
    for i, f in enumerate(_field("factions.toml", "the file", data, "faction", list)):
        entry = f"faction {i + 1} ({f.get('key', '?')})"
        lands = _field("factions.toml", entry, f, "starting_lands", list)
        units = _field("factions.toml", entry, f, "starting_units", list)
        if len(lands) != 3 or len(units) != 3:
            raise ContentError(f"factions.toml: {entry}: three starting lands and three starting units")
        for land in lands:
            if str(land).lower() not in index:
                raise ContentError(f"factions.toml: {entry}: field 'starting_lands': no region {land!r}")
        for u in units:
            if u not in CLASSES:
                raise ContentError(f"factions.toml: {entry}: field 'starting_units': no unit class {u!r}")
        out.append(
            Faction(
                key=_field("factions.toml", entry, f, "key", str),
                name=T(_field("factions.toml", entry, f, "name", str)),
                initiative=_field("factions.toml", entry, f, "initiative", int),
                starting_lands=tuple(index[str(x).lower()] for x in lands),
                starting_units=tuple(CLASSES.index(u) for u in units),
                provenance=_choice("factions.toml", entry, f, "provenance", PROVENANCES),
            )
        )
    if [f.initiative for f in out] != [1, 2, 3, 4]:
        raise ContentError("factions.toml: the four factions must be listed in initiative order 1–4")
    return tuple(out)


def _creatures(factions: tuple[Faction, ...]) -> tuple[Creature, ...]:
    data = _load("creatures.toml")
    keys = tuple(f.key for f in factions)
    out: list[Creature] = []
    for i, c in enumerate(_field("creatures.toml", "the file", data, "creature", list)):
        entry = f"creature {i + 1} ({c.get('name', '?')})"
        _effect("creatures.toml", entry, c, "text_ru")
        out.append(
            Creature(
                name=T(_field("creatures.toml", entry, c, "name", str)),
                faction=keys.index(_choice("creatures.toml", entry, c, "faction", keys)),
                cls=CREATURE_CLASSES.index(_choice("creatures.toml", entry, c, "class", CREATURE_CLASSES)),
                ability=_choice("creatures.toml", entry, c, "ability", ABILITIES),
                text=T(_effect("creatures.toml", entry, c, "text")),
                provenance=_choice("creatures.toml", entry, c, "provenance", PROVENANCES),
                ability_provenance=_choice("creatures.toml", entry, c, "ability_provenance", PROVENANCES),
            )
        )
    for f in range(len(factions)):
        classes = sorted(c.cls for c in out if c.faction == f)
        if classes != [0, 1, 2]:
            raise ContentError(f"creatures.toml: {keys[f]} needs one creature of each class")
    return tuple(out)


def map_geometry() -> dict[str, Any]:
    """The map as JSON data for renderers: polygons, terrain, labels, borders and junction points."""
    c = content()
    return {
        "width": c.width,
        "height": c.height,
        "regions": [
            {
                "id": r,
                "name": c.names[r],
                "terrain": TERRAINS[c.terrain[r]],
                "three_players_terrain": TERRAINS[c.three_players_terrain[r]],
                "polygon": [list(c.vertices[v]) for v in c.polygons[r]],
                "label": list(c.labels[r]),
                "neighbours": list(c.adj[r]),
                "on_edge": r in c.on_edge,
                "provenance": c.region_provenance[r],
            }
            for r in range(len(c.names))
        ],
        "borders": [{"id": i, "regions": [a, b]} for i, (a, b) in enumerate(c.borders)],
        "junctions": [
            {"id": j, "regions": list(t), "point": list(c.junction_points[j])}
            for j, t in enumerate(c.junctions)
        ],
    }


PIECES = (*CLASSES, "castle", "melee", "ranged")
"""The pieces of the board whose effect pieces.toml says: the unit classes, castles, combat tokens."""


@cache
def pieces() -> dict[str, tuple[str, str]]:
    """pieces.toml: each piece's name and what it does (English; the catalog holds the Russian)."""
    data = _load("pieces.toml")
    out: dict[str, tuple[str, str]] = {}
    for i, p in enumerate(_field("pieces.toml", "the file", data, "piece", list)):
        entry = f"piece {i + 1} ({p.get('key', '?')})"
        key = _choice("pieces.toml", entry, p, "key", PIECES)
        _choice("pieces.toml", entry, p, "provenance", PROVENANCES)
        _effect("pieces.toml", entry, p, "name_ru")
        _effect("pieces.toml", entry, p, "text_ru")
        out[key] = (_field("pieces.toml", entry, p, "name", str), _effect("pieces.toml", entry, p, "text"))
    missing = [k for k in PIECES if k not in out]
    if missing:
        raise ContentError(f"pieces.toml: no effect text for {', '.join(missing)}")
    return out


def effects() -> dict[str, dict[str, str]]:
    """What each thing of the game does, for the table's tooltips, as messages (rendered in the reader's
    language): the creatures by name (English, as the renderer names them), the pieces by key."""
    out = {c.name: {"name": c.name, "text": c.text} for c in content().creatures}
    for key, (name, text) in pieces().items():
        out[key] = {"name": T(name), "text": T(text)}
    return out
