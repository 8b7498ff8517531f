"""Chapter 6, the phases of a turn (Фазы хода): start of turn, building, terrain cards, activation.

6.1 Start of turn: prosperity income (2 plus the City's buildings), the City's benefits, a card drawn
(the first player skips it on the very first turn).  6.2 Building: build at most one building.
6.3 Terrain: play at most one terrain card.  6.4 Activation: Regeneration and Clink of Coins, then play
cards from the hand and activate each creature once, in any order.  All of this is designed (§ 6) from
the chapter titles the rulebook's contents list and the facts of DESIGN.md §5.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from typing import Any

from ludorum.engine import Action
from ludorum.engine.i18n import T
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum import combat, victory
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.content import Card
from ludorum.games.signum.effects import (
    MAX_TACTICS,
    bury_dead,
    draw,
    fire_opponents,
    fire_tactic,
    gain,
    heal,
    word,
    wound,
)
from ludorum.games.signum.setup import edge_point
from ludorum.games.signum.state import Model, Placed, SignumState, new_action, player, set_item

BASE_INCOME = 2
"""Designed (§ 6.1): prosperity every turn before buildings."""

ENTRY_X = (6.0, 18.0, 30.0, 42.0, 54.0)
"""Designed (§ 6.4): a character enters touching its owner's table edge at one of five points."""

TERRAIN_SPOTS = tuple((x, y) for y in (20.0, 30.0, 40.0) for x in (12.0, 30.0, 48.0))
"""Designed (§ 6.3): a terrain card is laid centred on one of nine points of the middle band."""


# -- 6.1 start of turn -------------------------------------------------------------------------------


def begin_turn(s: SignumState, seat: int) -> None:
    """Start a seat's turn: refresh its creatures, collect income, draw."""
    s.active = seat
    s.turn += 1
    s.built = False
    s.acting, s.stage = -1, 0
    s.models = tuple(
        [
            m.but(activated=False, fresh=False, pursuits=0) if m.activated or m.fresh or m.pursuits else m
            for m in s.models
        ]
    )
    income = BASE_INCOME + sum(cr.CARDS[b].income for b in s.city[seat])
    gain(s, (seat,), income)
    s.say(T("Turn {n}: {seat} gains {income} prosperity", n=s.turn, seat=player(seat), income=income))
    if victory.check_end(s):  # Rulebook › 8: 51 wins at once — before this turn's draw can pay anyone
        return
    hero = s.hero_of(seat)
    if hero is not None:
        heal(s, hero.uid, cr.city_benefit(s, seat, "heal_hero"))
    if s.turn > 1:
        draw(s, seat, 1 + cr.city_benefit(s, seat, "draw"))
    if s.config.has("architect") and s.building_decks[seat]:
        deck = s.building_decks[seat]
        s.building_hands = set_item(s.building_hands, seat, (*s.building_hands[seat], deck[0]))
        s.building_decks = set_item(s.building_decks, seat, deck[1:])
    if victory.check_end(s):
        return
    s.phase = "build"
    skip_empty_phases(s)


def skip_empty_phases(s: SignumState) -> None:
    """Pass over a building or terrain phase in which nothing can be done."""
    if s.phase == "build" and not buildable(s):
        s.phase = "terrain"
    if s.phase == "terrain" and not any(_terrain_choices(s)):
        start_activation(s)


# -- 6.2 building --------------------------------------------------------------------------------------


def cost_of_building(s: SignumState, b: str) -> int:
    """A building's cost in prosperity."""
    return cr.CARDS[b].cost


def available_buildings(s: SignumState, seat: int) -> list[str]:
    """Buildings the seat could build: standard game — every basic building and its faction's unique ones
    not yet in its City; Experienced Architect — the open building cards in its hand."""
    city = s.city[seat]
    if s.config.has("architect"):
        return [b for b in dict.fromkeys(s.building_hands[seat]) if b not in city]
    return [b for b in _buildings_of(cr.CARDS[s.heroes[seat]].faction) if b not in city]


@functools.cache
def _buildings_of(faction: str) -> tuple[str, ...]:
    """Every basic building and ``faction``'s unique ones, in card order (looked up once per faction:
    views and legal actions ask at every step, and the whole card list is long)."""
    return tuple(
        c.id for c in cr.CARDS.values() if c.kind == "building" and c.faction in ("neutral", faction)
    )


def buildable(s: SignumState) -> list[Action]:
    """Build actions open to the active seat."""
    seat = s.active
    return [
        Action("build", (b,))
        for b in available_buildings(s, seat)
        if cost_of_building(s, b) <= s.prosperity[seat]
    ]


def build(s: SignumState, b: str) -> None:
    """Pay for a building and add it to the City."""
    seat = s.active
    s.add_prosperity(seat, -cost_of_building(s, b))
    s.city = set_item(s.city, seat, (*s.city[seat], b))
    if s.config.has("architect"):
        hand = list(s.building_hands[seat])
        hand.remove(b)
        s.building_hands = set_item(s.building_hands, seat, tuple(hand))
    s.say(T("{seat} builds {card}", seat=player(seat), card=cr.CARDS[b].name))
    fire_opponents(s, seat, "enemy_builds")
    s.phase = "terrain"
    skip_empty_phases(s)


# -- 6.3 terrain ---------------------------------------------------------------------------------------


def terrain_fits(s: SignumState, t: str, x: float, y: float) -> str | None:
    """Why a terrain card cannot be laid at (x, y), or ``None`` (it may not cover a base or terrain)."""
    d = bf.Disc(x, y, cr.CARDS[t].radius)
    for m in s.models:
        if bf.overlaps(d, cr.disc(m)):
            return T("Terrain: it would cover a creature's base")
    for o in cr.obstacles(s.terrain):
        if bf.overlaps(d, o.disc):
            return T("Terrain: it would overlap other terrain")
    return None


def terrain_actions(s: SignumState) -> list[Action]:
    """Terrain cards the active seat may lay, and where."""
    return list(_terrain_choices(s))


def _terrain_choices(s: SignumState) -> Iterator[Action]:
    """:func:`terrain_actions` one at a time (whether there is any needs only the first)."""
    for t in dict.fromkeys(s.terrain_hands[s.active]):
        for i, (x, y) in enumerate(TERRAIN_SPOTS):
            if terrain_fits(s, t, x, y) is None:
                yield Action("terrain", (t, i))


def lay_terrain(s: SignumState, t: str, spot: int) -> None:
    """Put a terrain card on the Battlefield."""
    seat = s.active
    x, y = TERRAIN_SPOTS[spot]
    s.terrain = (*s.terrain, Placed(t, x, y))
    hand = list(s.terrain_hands[seat])
    hand.remove(t)
    s.terrain_hands = set_item(s.terrain_hands, seat, tuple(hand))
    s.say(T("{seat} lays {card}", seat=player(seat), card=cr.CARDS[t].name))
    start_activation(s)


# -- 6.4 activation ------------------------------------------------------------------------------------


def start_activation(s: SignumState) -> None:
    """Regeneration, then the Clink of Coins offers, then the activation phase proper."""
    seat = s.active
    s.phase = "activation"
    for m in s.models:
        if m.wounds and m.side() == seat:
            # Rulebook › Glossary › Regeneration X: at the start of the activation phase it regenerates X.
            heal(s, m.uid, cr.x_of(s, m, "regeneration"))
    if s.prosperity[seat] >= 1:
        s.coins_due = tuple(
            [
                m.uid
                for m in s.models
                if (m.owner if m.controller < 0 else m.controller) == seat and cr.has(s, m, "clink_of_coins")
            ]
        )


def clink(s: SignumState, uid: int, pay: bool) -> None:
    """Rulebook › Glossary › Clink of Coins: at the start of the activation phase you may pay 1
    prosperity — the character gains an additional property (until the end of the turn)."""
    s.coins_due = s.coins_due[1:]
    if pay:
        m = s.model(uid)
        s.add_prosperity(s.active, -1)
        s.put(m.but(granted=(*m.granted, cr.props(s, m)["clink_of_coins"].arg)))
    if s.prosperity[s.active] < 1:
        s.coins_due = ()


def card_cost(s: SignumState, seat: int, c: str) -> int:
    """What a card costs to play: its cost less the City's discounts (never below 0)."""
    return _cost(cr.CARDS[c], _discounts(s, seat))


def _discounts(s: SignumState, seat: int) -> tuple[int, int]:
    """The City's discounts on characters and on mercenaries (found once for a whole hand)."""
    return cr.city_benefit(s, seat, "discount_characters"), cr.city_benefit(s, seat, "discount_mercenaries")


def _cost(card: Card, discounts: tuple[int, int]) -> int:
    cost = card.cost
    if card.kind == "character":
        cost -= discounts[0]
        if card.faction == "mercenary":
            cost -= discounts[1]
    return cost if cost > 0 else 0


_entry_cache: tuple[Any, Any, dict[Any, Any], dict[Any, Any]] = (None, None, {}, {})
"""The last Battlefield (models and terrain), the entry points found on it by (seat, base radius), and
those found on its terrain by (seat, base radius, the bases near the seat's edge)."""


def entry_point(s: SignumState, seat: int, c: str, spot: int) -> tuple[float, float] | None:
    """Where a character enters at a spot, or ``None`` if a base or impassable terrain is in the way."""
    return _entry_points(s, seat, c)[spot]


def _entry_points(s: SignumState, seat: int, c: str) -> tuple[tuple[float, float] | None, ...]:
    """:func:`entry_point` at every spot, remembered for the last Battlefield (models and terrain) by the
    seat and the size of the base: a hand's characters share them."""
    global _entry_cache
    cache = _entry_cache
    if cache[0] is not s.models or cache[1] is not s.terrain:
        by_bases = {} if cache[1] is not s.terrain or len(cache[3]) > 4096 else cache[3]
        cache = _entry_cache = (s.models, s.terrain, {}, by_bases)  # rebound whole: see signum.game._cache
    key = (seat, cr.RADIUS[c])
    found = cache[2].get(key)
    if found is None:
        r = cr.CARDS[c].base / 20.0
        points, (lo_x, hi_x, lo_y, hi_y) = _entry_frame(seat, r)
        near = [m for m in s.models if lo_x < m.x < hi_x and lo_y < m.y < hi_y]
        # The answer depends on those bases alone (and the terrain): moves far from the edge, which are
        # most moves, leave it standing.
        by_near = (key, tuple([(m.x, m.y, m.card) for m in near]))
        found = cache[3].get(by_near)
        if found is None:
            found = cache[3][by_near] = tuple(_entry_point(s, near, x, y, r) for x, y in points)
        cache[2][key] = found
    return found


@functools.cache
def _entry_frame(
    seat: int, r: float
) -> tuple[tuple[tuple[float, float], ...], tuple[float, float, float, float]]:
    """The five entry points of a base of radius ``r`` at the seat's edge, and the box around them in which
    models can be in the way: wider than the 6.5 cm each point asks (:func:`_entry_point`)."""
    points = tuple(edge_point(seat, along, r) for along in ENTRY_X)
    box = (
        min(x for x, _ in points) - 7.0,
        max(x for x, _ in points) + 7.0,
        min(y for _, y in points) - 7.0,
        max(y for _, y in points) + 7.0,
    )
    return points, box


def _entry_point(
    s: SignumState, near: list[Model], x: float, y: float, r: float
) -> tuple[float, float] | None:
    """(x, y) if a base of radius ``r`` fits there: no base among ``near`` overlaps it, nor impassable
    terrain."""
    radius = cr.RADIUS
    for m in near:
        # bf.overlaps of the two bases, inlined: every spot of every card asks.
        if (
            -6.5 < m.y - y < 6.5
            and -6.5 < m.x - x < 6.5
            and math.hypot(x - m.x, y - m.y) < r + radius[m.card] - bf.EPS
        ):
            return None
    for o in cr.obstacles(s.terrain):
        c = o.disc  # bf.overlaps of a base at (x, y) and the piece, inlined likewise
        if o.impassable and math.hypot(x - c.x, y - c.y) < r + c.r - bf.EPS:
            return None
    return x, y


def spell_targets(s: SignumState, seat: int, c: str) -> list[int]:
    """Targets of a spell cast by the seat's hero (-1: a spell without a target)."""
    card = cr.CARDS[c]
    hero = s.hero_of(seat)
    if hero is None:
        return []
    if card.effect == "bolt":
        return [e.uid for e in cr.enemies(s, hero) if cr.dist(hero, e) <= bf.XL + bf.EPS]
    if card.effect == "mend":
        return [m.uid for m in s.models if m.wounds and m.side() == seat]
    if card.effect == "bless":
        return [m.uid for m in s.models if m.side() == seat and not cr.has(s, m, card.arg)]
    return [-1]


def card_actions(s: SignumState) -> list[Action]:
    """Cards the active seat may play now."""
    seat = s.active
    out: list[Action] = []
    hero = s.hero_of(seat)
    discounts = _discounts(s, seat)
    purse = s.prosperity[seat]
    for c in dict.fromkeys(s.hands[seat]):
        card = cr.CARDS[c]
        if _cost(card, discounts) > purse:
            continue
        if card.kind == "character":
            for i, point in enumerate(_entry_points(s, seat, c)):
                if point is not None:
                    out.append(new_action(("recruit", (c, i))))
        elif card.kind == "spell":
            out.extend(Action("cast", (c, t)) for t in spell_targets(s, seat, c))
        elif card.kind == "relic":
            if (
                hero is not None
                and card.slot in cr.CARDS[hero.card].slots
                and all(cr.CARDS[r].slot != card.slot for r in hero.relics)
            ):
                out.append(Action("equip", (c,)))
        elif card.kind == "tactic" and len(s.tactics[seat]) < MAX_TACTICS:
            out.append(Action("set", (c,)))
    return out


def _from_hand(s: SignumState, c: str) -> None:
    seat = s.active
    hand = list(s.hands[seat])
    hand.remove(c)
    s.hands = set_item(s.hands, seat, tuple(hand))
    s.add_prosperity(seat, -card_cost(s, seat, c))


def play_card(s: SignumState, action: Action) -> None:
    """Play a card from the hand: recruit a character, cast a spell, equip a relic or set a tactic."""
    seat = s.active
    c = str(action.args[0])
    card = cr.CARDS[c]
    _from_hand(s, c)
    if action.kind == "recruit":
        point = entry_point(s, seat, c, int(action.args[1]))  # type: ignore[arg-type]
        assert point is not None
        rush = "rush" in card.propmap  # › Rush: may be activated right after entering the Battlefield
        m = Model(s.next_uid, c, seat, point[0], point[1], fresh=not rush, hidden="hidden" in card.propmap)
        s.next_uid += 1
        s.models = (*s.models, m)
        s.say(T("{seat} brings {card} onto the Battlefield", seat=player(seat), card=card.name))
        word(s, m, "first_word")  # › First Word: when the character enters the Battlefield
        for p in s.opponents(seat):  # an opponent's ambush wounds the newcomer
            hurt = fire_tactic(s, p, "enemy_enters")
            if hurt > 0:
                wound(s, m.uid, hurt, p)
        bury_dead(s)
    elif action.kind == "equip":
        hero = s.hero_of(seat)
        assert hero is not None
        s.put(hero.but(relics=(*hero.relics, c)))
        s.say(T("{seat}'s hero takes up {card}", seat=player(seat), card=card.name))
    elif action.kind == "set":
        s.tactics = set_item(s.tactics, seat, (*s.tactics[seat], c))
        s.say(T("{seat} sets a tactic card face down", seat=player(seat)))
    else:
        cast(s, c, int(action.args[1]))  # type: ignore[arg-type]


def cast(s: SignumState, c: str, target: int) -> None:
    """Cast a spell through the hero (designed § 7.4)."""
    seat = s.active
    card = cr.CARDS[c]
    s.graveyard = set_item(s.graveyard, seat, (*s.graveyard[seat], c))
    s.say(T("{seat} casts {card}", seat=player(seat), card=card.name))
    if any(fire_tactic(s, p, "spell_cast") >= 0 for p in s.opponents(seat)):
        s.say(T("The spell is countered"))
        return
    hero = s.hero_of(seat)
    assert hero is not None
    if card.effect == "bolt":
        combat.start(s, "bolt", hero.uid, target, card.amount)
    elif card.effect == "mend":
        heal(s, target, card.amount)
    elif card.effect == "bless":
        m = s.model(target)
        s.put(m.but(granted=(*m.granted, card.arg)))
    elif card.effect == "tithe":
        gain(s, (seat,), card.amount)
    elif card.effect == "insight":
        draw(s, seat, card.amount)


def activatable(s: SignumState) -> list[Model]:
    """The active seat's creatures that may still be activated this turn (› Rush for fresh ones)."""
    active = s.active
    return [
        m
        for m in s.models
        if not m.activated and not m.fresh and (m.owner if m.controller < 0 else m.controller) == active
    ]


def end_turn(s: SignumState) -> None:
    """End the turn: granted properties and Control lapse; the other player's turn begins."""
    s.models = tuple(
        [m.but(granted=(), controller=-1) if m.granted or m.controller >= 0 else m for m in s.models]
    )
    if s.turn >= victory.limit(s.players):
        victory.turn_limit(s)
        return
    nxt = (s.active + 1) % s.players
    while s.out[nxt]:
        nxt = (nxt + 1) % s.players
    begin_turn(s, nxt)
