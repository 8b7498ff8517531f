"""Chapter 4.1–4.2, the creature cards: a model's strength, movement, health and properties in play.

DESIGN.md §5: strength is the number of dice a creature uses in melee, movement its maximum move,
health the wounds it can take before it goes to the Graveyard.  Relics, City buildings, Auras, Clink of
Coins and spells add to what the card prints; Berserk adds strength while wounded.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from ludorum.games.signum import battlefield as bf
from ludorum.games.signum.content import Card, base_content
from ludorum.games.signum.glossary import Prop, parse
from ludorum.games.signum.state import Model, Placed, SignumState

CARDS = base_content().cards
AURAS = {c.id: c.propmap["aura"] for c in CARDS.values() if "aura" in c.propmap}
RADIUS = {c.id: c.base / 20.0 for c in CARDS.values()}


def card(card_id: str) -> Card:
    """The card with this id."""
    return CARDS[card_id]


@functools.cache
def parsed(text: str) -> Prop:
    """A granted property string, parsed once."""
    return parse(text)


def disc(m: Model) -> bf.Disc:
    """The model's base as geometry."""
    return bf.Disc(m.x, m.y, RADIUS[m.card])


def disc_of(s: SignumState, m: Model) -> bf.Disc:
    """The model's base, from the per-Battlefield cache when the model stands there unchanged."""
    if _discs[0] is not s.models:
        _refresh(s)
    found = _discs[2].get(m.uid)
    return found if found is not None and found.x == m.x and found.y == m.y else disc(m)


def city_benefit(s: SignumState, seat: int, benefit: str) -> int:
    """The sum of a benefit over the buildings of a seat's City (Chapter 6.2, designed)."""
    return _benefit(s.city[seat], benefit)


@functools.lru_cache(maxsize=4096)
def _benefit(city: tuple[str, ...], benefit: str) -> int:
    return sum(CARDS[b].amount for b in city if CARDS[b].effect == benefit)


def is_hero(s: SignumState, m: Model) -> bool:
    """Whether the model is its owner's hero."""
    return m.card == s.heroes[m.owner]


_props_cache: list[Any] = [None, None, {}]
"""The last Battlefield (models and cities, both immutable tuples) and its models' properties."""


def props(s: SignumState, m: Model) -> dict[str, Prop]:
    """Every property the model has now: its card, relics, granted ones, Auras of friends, the City."""
    cache = _props_cache
    if cache[0] is not s.models or cache[1] is not s.city:
        cache[0], cache[1], cache[2] = s.models, s.city, {}
    found = cache[2].get(m.uid)
    if found is None or found[0] is not m:
        found = cache[2][m.uid] = (m, _props(s, m))
    return found[1]  # type: ignore[no-any-return]


def _props(s: SignumState, m: Model) -> dict[str, Prop]:
    c = CARDS[m.card]
    out = dict(c.propmap)
    extra: list[Prop] = []
    for r in m.relics:
        extra.extend(CARDS[r].props)
    for g in m.granted:
        extra.append(parsed(g))
    # Rulebook › Glossary › Aura X: "all your creatures at distance X or less receive the property;
    # the holder of the Aura cannot receive it."
    side = m.side()
    me = None
    for o in s.models:
        aura = AURAS.get(o.card)
        if aura is None or o.uid == m.uid or o.side() != side:
            continue
        if me is None:
            me = disc(m)
        if bf.distance(me, disc(o)) <= bf.DISTANCES[aura.dist] + bf.EPS:
            extra.append(parsed(aura.arg))
    if is_hero(s, m):
        armour = city_benefit(s, m.owner, "hero_armour")
        if armour:
            extra.append(Prop("armour", armour))
    for p in extra:
        have = out.get(p.name)
        if have is None or p.x > have.x:
            out[p.name] = p
    return out


def has(s: SignumState, m: Model, name: str) -> bool:
    """Whether the model has the property now."""
    return name in props(s, m)


def x_of(s: SignumState, m: Model, name: str) -> int:
    """The property's X (0 if the model lacks it)."""
    p = props(s, m).get(name)
    return p.x if p else 0


def health(m: Model) -> int:
    """Wounds the model can take before it goes to the Graveyard (card plus relics)."""
    return CARDS[m.card].health + sum(CARDS[r].health for r in m.relics)


def strength(s: SignumState, m: Model) -> int:
    """Melee dice: the card's strength, relics, the City's Smithy for a hero and Berserk X when wounded."""
    value = CARDS[m.card].strength + sum(CARDS[r].strength for r in m.relics)
    if is_hero(s, m):
        value += city_benefit(s, m.owner, "hero_strength")
    if m.wounds:
        # Rulebook › Glossary › Berserk X: "while wounded it gets +X strength".
        value += x_of(s, m, "berserk")
    return value


def movement(m: Model) -> float:
    """The model's movement in cm (card plus relics)."""
    return CARDS[m.card].movement + sum(CARDS[r].movement for r in m.relics)


def run_distance(m: Model) -> float:
    """Run: one distance step further than movement (DESIGN.md §5: S→M→L→XL)."""
    mv = movement(m)
    for step in bf.STEPS:
        if step > mv + 1e-9:
            return step
    return bf.XL


@functools.lru_cache(maxsize=256)
def obstacles(terrain: tuple[Placed, ...]) -> tuple[bf.Obstacle, ...]:
    """The terrain on the Battlefield as geometry."""
    out = []
    for t in terrain:
        c = CARDS[t.card]
        out.append(bf.Obstacle(bf.Disc(t.x, t.y, c.radius), c.impassable, c.difficult, c.blocks_sight))
    return tuple(out)


_discs: list[Any] = [None, (), {}]


def _refresh(s: SignumState) -> None:
    pairs = tuple((o.uid, disc(o)) for o in s.models)
    _discs[0], _discs[1], _discs[2] = s.models, pairs, dict(pairs)


def others(s: SignumState, uid: int) -> list[bf.Disc]:
    """Every base on the Battlefield except the model's own."""
    if _discs[0] is not s.models:
        _refresh(s)
    return [d for u, d in _discs[1] if u != uid]


def enemies_in_contact(s: SignumState, m: Model, include_hidden: bool = False) -> list[Model]:
    """Enemy models whose bases touch this one (hidden ones only if asked)."""
    side = m.side()
    x, y, r = m.x, m.y, RADIUS[m.card] + bf.EPS
    return [
        o
        for o in s.models
        if abs(o.x - x) < 6.1
        and abs(o.y - y) < 6.1
        and s.hostile(o.side(), side)
        and (include_hidden or not o.hidden)
        and math.hypot(o.x - x, o.y - y) <= r + RADIUS[o.card]
    ]


def sees(s: SignumState, a: Model, b: Model) -> bool:
    """Clear line of sight between two models (terrain blocks it; bases do not — designed)."""
    return bf.sees(disc(a), disc(b), obstacles(s.terrain))


def dist(a: Model, b: Model) -> float:
    """Edge-to-edge distance between two models."""
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - RADIUS[a.card] - RADIUS[b.card])


def enemies(s: SignumState, m: Model) -> Sequence[Model]:
    """The models of the other side."""
    side = m.side()
    if "teams" not in s.config.variants:
        return [o for o in s.models if (o.owner if o.controller < 0 else o.controller) != side]
    return [o for o in s.models if s.hostile(o.side(), side)]
