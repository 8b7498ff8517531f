"""The scenario builder: a compact description → a legal state (models, positions, wounds, zones).

Example::

    state = scenario({
        "heroes": ("marshal_aurelian", "burgomaster_orvin"),
        "models": [
            {"card": "marshal_aurelian", "owner": 0, "x": 30, "y": 20},
            {"card": "musketeer", "owner": 1, "x": 30, "y": 40, "wounds": 1},
        ],
        "terrain": [("forest", 30, 30)],
        "hands": (["tithe"], []),
        "prosperity": (10, 10),
    })

The state is in the active player's activation phase unless ``phase`` says otherwise.  Heroes not listed
among the models stand on their owners' table edges.  Bases may not overlap and must lie on the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.game import SignumGame
from ludorum.games.signum.setup import edge_point
from ludorum.games.signum.state import Model, Placed, SignumState

MODEL_FLAGS = ("wounds", "activated", "fresh", "hidden", "relics", "granted", "controller", "pursuits")


def scenario(spec: Mapping[str, Any], game: SignumGame | None = None) -> SignumState:
    """Build the state the description asks for; a bad description raises ``ValueError`` saying why."""
    game = game or SignumGame()
    players = int(spec.get("players", 2))
    defaults = ("marshal_aurelian", "burgomaster_orvin", "gryphon_lord_kassian", "engineer_bram")
    heroes = tuple(spec.get("heroes", defaults[:players]))
    decks = {
        seat: spec.get(f"deck{seat}", f"{hero}: " + ", ".join(_filler(cr.CARDS[hero].faction)))
        for seat, hero in enumerate(heroes)
    }
    options = {f"deck{seat}": deck for seat, deck in decks.items()}
    config = game.config(players, spec.get("variants", ()), **options)
    s = game.new(config, int(spec.get("seed", 0)))
    s.phase = spec.get("phase", "activation")
    s.turn = int(spec.get("turn", 3))
    s.first = 0
    s.active = int(spec.get("active", 0))
    models: list[Model] = []
    uid = 0
    listed = {(m["card"], m["owner"]) for m in spec.get("models", ())}
    for seat, hero in enumerate(heroes):
        if (hero, seat) not in listed:
            x, y = edge_point(seat, 30.0, cr.CARDS[hero].base / 20.0)
            models.append(Model(uid, hero, seat, x, y))
            uid += 1
    for m in spec.get("models", ()):
        flags: dict[str, Any] = {
            k: (tuple(v) if isinstance(v, list) else v) for k, v in m.items() if k in MODEL_FLAGS
        }
        unknown = set(m) - {"card", "owner", "x", "y", *MODEL_FLAGS}
        if unknown:
            raise ValueError(f"scenario model has unknown fields {sorted(unknown)}")
        if m["card"] not in cr.CARDS or not cr.CARDS[m["card"]].is_creature:
            raise ValueError(f"scenario: {m['card']!r} is not a creature card")
        models.append(Model(uid, m["card"], int(m["owner"]), float(m["x"]), float(m["y"]), **flags))
        uid += 1
    for i, a in enumerate(models):
        if not bf.on_board(cr.disc(a)):
            raise ValueError(f"scenario: {a.card} is off the Battlefield")
        for b in models[i + 1 :]:
            if bf.overlaps(cr.disc(a), cr.disc(b)):
                raise ValueError(f"scenario: {a.card} and {b.card} overlap")
    s.models = tuple(models)
    s.next_uid = uid
    s.terrain = tuple(Placed(t, float(x), float(y)) for t, x, y in spec.get("terrain", ()))
    s.heroes = heroes
    for key in ("hands", "tactics", "city", "graveyard", "terrain_hands", "building_hands"):
        if key in spec:
            setattr(s, key, tuple(tuple(z) for z in spec[key]))
    if "decks" in spec:
        s.decks = tuple(tuple(z) for z in spec["decks"])
    s.deck_sizes = tuple(len(d) for d in s.decks)
    for key in ("prosperity", "kills", "overlong"):
        if key in spec:
            setattr(s, key, tuple(spec[key]))
    return s


def _filler(faction: str) -> Sequence[str]:
    from ludorum.games.signum.content import base_content

    deck = {"empire": "empire_dawn", "vallor": "vallor_muskets"}[faction]
    return base_content().decks[deck].cards
