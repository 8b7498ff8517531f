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
    """The model's base as geometry (remembered per model object: models are immutable and shared by
    the states that follow, and every question about the Battlefield asks for bases)."""
    found = _disc_memo.get(id(m))
    if found is not None and found[0] is m:
        return found[1]
    if len(_disc_memo) > 20_000:
        _disc_memo.clear()
    d = bf.Disc(m.x, m.y, RADIUS[m.card])
    # The entry holds the model, so its id cannot be reused while the entry stands.
    _disc_memo[id(m)] = (m, d)
    return d


_disc_memo: dict[int, tuple[Model, bf.Disc]] = {}


def disc_of(s: SignumState, m: Model) -> bf.Disc:
    """The model's base (:func:`disc`; the state is not needed since bases are remembered per model)."""
    return disc(m)


def city_benefit(s: SignumState, seat: int, benefit: str) -> int:
    """The sum of a benefit over the buildings of a seat's City (Chapter 6.2, designed)."""
    return _benefit(s.city[seat], benefit)


@functools.lru_cache(maxsize=4096)
def _benefit(city: tuple[str, ...], benefit: str) -> int:
    return sum(CARDS[b].amount for b in city if CARDS[b].effect == benefit)


def is_hero(s: SignumState, m: Model) -> bool:
    """Whether the model is its owner's hero."""
    return m.card == s.heroes[m.owner]


_props_cache: tuple[Any, Any, Any, dict[int, Any], Any] = (None, None, None, {}, None)
"""What every model's properties depend on besides the model itself — the Aura holders (their value),
the Cities and the heroes (immutable tuples) — and the properties found under them, by uid; last, the
models (a tuple) the holders were last found for."""


def props(s: SignumState, m: Model) -> dict[str, Prop]:
    """Every property the model has now: its card, relics, granted ones, Auras of friends, the City.

    The answer is shared (by every model whose card, relics, granted properties, Auras received and City
    armour are the same): read it, never change it.
    """
    global _props_cache
    cache = _props_cache
    # A move elsewhere on the Battlefield changes no model's properties unless an Aura holder moved: the
    # answers stand while the holders, the Cities and the heroes do (and the holders while the models do:
    # a creature's legal list asks dozens of times on one Battlefield).  Rebound whole (signum.game._cache).
    if cache[4] is not s.models or cache[1] is not s.city or cache[2] is not s.heroes:
        holders = _aura_holders(s)
        if (
            cache[1] is not s.city
            or cache[2] is not s.heroes
            or (cache[0] is not holders and cache[0] != holders)
        ):
            cache = (holders, s.city, s.heroes, {}, s.models)
        else:
            cache = (cache[0], cache[1], cache[2], cache[3], s.models)
        _props_cache = cache
    found = cache[3].get(m.uid)
    if found is None or found[0] is not m:
        found = cache[3][m.uid] = (m, _props(s, m))
    return found[1]


def _props(s: SignumState, m: Model) -> dict[str, Prop]:
    # Rulebook › Glossary › Aura X: "all your creatures at distance X or less receive the property;
    # the holder of the Aura cannot receive it."
    received: tuple[str, ...] = ()
    holders = _aura_holders(s)
    if holders:
        side = m.side()
        me = disc(m)
        received = tuple(
            arg
            for uid, o_side, o_disc, reach, arg in holders
            if uid != m.uid and o_side == side and bf.distance(me, o_disc) <= reach
        )
    armour = city_benefit(s, m.owner, "hero_armour") if m.card == s.heroes[m.owner] else 0
    return _props_of(m.card, m.relics, m.granted, received, armour)


_holders_cache: tuple[Any, tuple[tuple[int, int, bf.Disc, float, str], ...]] = (None, ())


def _aura_holders(s: SignumState) -> tuple[tuple[int, int, bf.Disc, float, str], ...]:
    """The models holding an Aura on this Battlefield: uid, side, base, reach and the property given
    (found once per Battlefield: most have none, and every model's properties ask)."""
    global _holders_cache
    last = _holders_cache
    if last[0] is not s.models:
        holders = tuple(
            [
                (o.uid, o.side(), disc(o), bf.DISTANCES[a.dist] + bf.EPS, a.arg)
                for o in [o for o in s.models if o.card in AURAS]  # a test in line, no call per model
                for a in (AURAS[o.card],)
            ]
        )
        last = _holders_cache = (s.models, holders)  # rebound whole: see signum.game._cache
    return last[1]


@functools.lru_cache(maxsize=8192)
def _props_of(
    card_id: str, relics: tuple[str, ...], granted: tuple[str, ...], received: tuple[str, ...], armour: int
) -> dict[str, Prop]:
    """The properties a card has with these relics, granted properties, Auras received (in the models'
    order) and City armour: where two give the same property, the larger X counts, the first on a tie."""
    out = dict(CARDS[card_id].propmap)
    extra: list[Prop] = []
    for r in relics:
        extra.extend(CARDS[r].props)
    for g in granted:
        extra.append(parsed(g))
    for arg in received:
        extra.append(parsed(arg))
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
    if not m.relics:  # the common case, without building a generator
        return CARDS[m.card].health
    return CARDS[m.card].health + sum(CARDS[r].health for r in m.relics)


def strength(s: SignumState, m: Model) -> int:
    """Melee dice: the card's strength, relics, the City's Smithy for a hero and Berserk X when wounded."""
    value = CARDS[m.card].strength
    if m.relics:
        value += sum(CARDS[r].strength for r in m.relics)
    if is_hero(s, m):
        value += city_benefit(s, m.owner, "hero_strength")
    if m.wounds:
        # Rulebook › Glossary › Berserk X: "while wounded it gets +X strength".
        value += x_of(s, m, "berserk")
    return value


def movement(m: Model) -> float:
    """The model's movement in cm (card plus relics)."""
    if not m.relics:  # the common case, without building a generator
        return CARDS[m.card].movement
    return CARDS[m.card].movement + sum(CARDS[r].movement for r in m.relics)


def run_distance(m: Model) -> float:
    """Run: one distance step further than movement (DESIGN.md §5: S→M→L→XL)."""
    mv = movement(m)
    for step in bf.STEPS:
        if step > mv + 1e-9:
            return step
    return bf.XL


_obstacles_last: tuple[Any, tuple[bf.Obstacle, ...]] = (None, ())


def obstacles(terrain: tuple[Placed, ...]) -> tuple[bf.Obstacle, ...]:
    """The terrain on the Battlefield as geometry (the last terrain asked is remembered by identity:
    hashing the pieces at every question cost more than building them)."""
    global _obstacles_last
    last = _obstacles_last
    if last[0] is not terrain:
        last = _obstacles_last = (terrain, _obstacles(terrain))  # rebound whole: see signum.game._cache
    return last[1]


@functools.lru_cache(maxsize=256)
def _obstacles(terrain: tuple[Placed, ...]) -> tuple[bf.Obstacle, ...]:
    out = []
    for t in terrain:
        c = CARDS[t.card]
        out.append(bf.Obstacle(bf.Disc(t.x, t.y, c.radius), c.impassable, c.difficult, c.blocks_sight))
    return tuple(out)


_others_last: tuple[Any, int, tuple[bf.Disc, ...]] = (None, -1, ())


def others(s: SignumState, uid: int) -> tuple[bf.Disc, ...]:
    """Every base on the Battlefield except the model's own (the last answer is remembered: a creature's
    moves, contacts and exact points all ask on the same Battlefield)."""
    global _others_last
    last = _others_last
    if last[0] is not s.models or last[1] != uid:
        out = []
        memo = _disc_memo
        for o in s.models:  # disc() inlined for the bases it remembers: every move of every creature asks
            if o.uid != uid:
                found = memo.get(id(o))
                out.append(found[1] if found is not None and found[0] is o else disc(o))
        last = _others_last = (s.models, uid, tuple(out))  # rebound whole: see signum.game._cache
    return last[2]


def enemies_in_contact(s: SignumState, m: Model, include_hidden: bool = False) -> list[Model]:
    """Enemy models whose bases touch this one (hidden ones only if asked)."""
    side = m.side()
    x, y, r = m.x, m.y, RADIUS[m.card] + bf.EPS
    teams = "teams" in s.config.variants
    out = []
    for o in s.models:
        # Cheap tests first: the largest bases touch within 6.1 cm on each axis (abs(d) < 6.1 as a chained
        # comparison: no call per model).
        if not (-6.1 < o.x - x < 6.1 and -6.1 < o.y - y < 6.1) or (o.hidden and not include_hidden):
            continue
        o_side = o.owner if o.controller < 0 else o.controller
        if o_side == side or (teams and o_side % 2 == side % 2):
            continue  # not hostile (SignumState.hostile)
        if math.hypot(o.x - x, o.y - y) <= r + RADIUS[o.card]:
            out.append(o)
    return out


def sees(s: SignumState, a: Model, b: Model) -> bool:
    """Clear line of sight between two models (terrain blocks it; bases do not — designed)."""
    return bf.sees(disc(a), disc(b), obstacles(s.terrain))


def dist(a: Model, b: Model) -> float:
    """Edge-to-edge distance between two models."""
    d = math.hypot(a.x - b.x, a.y - b.y) - RADIUS[a.card] - RADIUS[b.card]
    return d if d > 0.0 else 0.0  # max(0.0, d) without the call: legal lists ask of every enemy


_enemies_last: tuple[Any, dict[int, tuple[Model, ...]]] = (None, {})


def enemies(s: SignumState, m: Model) -> Sequence[Model]:
    """The models of the other side (remembered per side for the last Battlefield: a creature's legal
    list and its contacts both ask)."""
    side = m.side()
    global _enemies_last
    last = _enemies_last
    if last[0] is not s.models:
        last = _enemies_last = (s.models, {})  # rebound whole: see signum.game._cache
    found = last[1].get(side)
    if found is None:
        if "teams" not in s.config.variants:
            found = tuple([o for o in s.models if (o.owner if o.controller < 0 else o.controller) != side])
        else:
            found = tuple(o for o in s.models if s.hostile(o.side(), side))
        last[1][side] = found
    return found
