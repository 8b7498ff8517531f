"""Content: the card types, the 109 Event Cards, the Realm's Map and the realms' colours, from data/*.toml.

Loaded once and validated on load: a bad entry raises :class:`ContentError` naming file, entry and field.
Everything static is precomputed here, outside the state, so the rules only index tuples.
"""

from __future__ import annotations

import functools
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludorum.engine import LudorumError
from ludorum.engine.i18n import T, Text

DATA = Path(__file__).parent / "data"

RESOURCES = ("production", "science", "culture", "religion", "gold", "raw_material", "battle_point")
"""The seven resources, in the order every resource tuple of the state uses."""
PRODUCTION, SCIENCE, CULTURE, RELIGION, GOLD, RAW_MATERIAL, BATTLE_POINT = range(7)
RESOURCE_INDEX = {name: i for i, name in enumerate(RESOURCES)}
RESOURCE_LABEL = ("Production", "Science", "Culture", "Religion", "Gold", "Raw Material", "Battle Point")

SQUARES = RESOURCES[:6]
"""The Management Zone's resource squares (designed: the six resources other than Battle Points)."""

COLOURS = ("orange", "black", "red", "violet", "white", "blue", "yellow", "green", "grey", "turquoise")
"""The stamp colours of the card types."""
KINDS = ("realm", "majority", "auction")
LEADERS = ("mayor", "general", "admiral")
BOX = (26, 13, 11)
"""Leaders in the box: Mayors, Generals, Admirals (Rulebook › Game Components)."""
LEADER_CARDS = {
    "inquisition": "general",
    "gunpowder": "general",
    "university": "mayor",
    "docking_bay": "admiral",
}
"""The leader each leader card gives (Rulebook › Inquisition Cards: a General; Gunpowder, University and
Docking Bay Cards: "an extra Mayor, an extra Admiral or an extra General, depending on the card" — which
card gives which is designed, by theme)."""
ISLAND_CONDITIONS = ("admirals", "generals", "mayors", "colours", "colour_cards", "resources")
PROVENANCES = ("rulebook", "designed")


class ContentError(LudorumError):
    """A content file is malformed; the message names file, entry and field."""


@dataclass(frozen=True, slots=True)
class Card:
    """One Event Card: its type's rules plus the parts this card names."""

    id: int
    type: str
    name: str
    colour: str
    kind: str
    cost_resource: int  # -1: none (Island)
    cost: int  # -1: the winning bid; -2: War's cost by player count; -3: Islands' admirals
    vp: int
    great_person: bool
    resource: int  # the resource a Scientific Development, Territory or City names; -1 otherwise
    leader: str  # the leader a Realm Leader gives; "" otherwise
    city_colour: str  # the colour that triggers a City; "" otherwise
    condition: str  # an Island's end-of-game condition; "" otherwise
    amount: int
    condition_colour: str
    provenance: str
    text: str = ""
    """What the card does: its type's effect text, ``{resource}``, ``{leader}`` and ``{colour}`` standing for
    the parts this card names (:func:`effect`)."""
    condition_text: str = ""
    """An Island's end-of-game condition in words; "" otherwise."""


@dataclass(frozen=True, slots=True)
class Content:
    """A whole content set, ready for the rules."""

    cards: tuple[Card, ...]
    area_rewards: tuple[tuple[int, ...], ...]  # index = area number (0 unused): 7 resource amounts
    realm_colours: tuple[str, ...]
    realm_cards: tuple[str, ...]


def _fail(file: str, entry: str, field: str, message: str) -> ContentError:
    return ContentError(f"{file}: {entry}: field {field!r}: {message}")


def _get(
    file: str,
    entry: str,
    data: dict[str, Any],
    field: str,
    kind: type,
    choices: Any = None,
    default: Any = ...,
) -> Any:
    if field not in data:
        if default is not ...:
            return default
        raise _fail(file, entry, field, "is missing")
    value = data[field]
    if type(value) is not kind:
        raise _fail(file, entry, field, f"must be a {kind.__name__}, not {value!r}")
    if choices is not None and value not in choices:
        raise _fail(file, entry, field, f"must be one of {', '.join(map(str, choices))}, not {value!r}")
    return value


def _read(name: str, table: str) -> list[dict[str, Any]]:
    path = DATA / name
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ContentError(f"{name}: cannot be read: {e}") from None
    entries = data.get(table)
    if not isinstance(entries, list) or not entries:
        raise ContentError(f"{name}: needs a list of [[{table}]] entries")
    for i, entry in enumerate(entries):
        _get(name, f"{table} {i + 1}", entry, "provenance", str, PROVENANCES)
    return entries


def _effect(file: str, entry: str, data: dict[str, Any], field: str) -> str:
    """An effect text and its Russian (``field`` and ``field``_ru): both present and not blank."""
    for key in (field, f"{field}_ru"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise _fail(file, entry, key, "is missing: every card says what it does, in English and Russian")
    return str(data[field])


def _cost(file: str, entry: str, value: Any) -> int:
    special = {"bid": -1, "war": -2, "admirals": -3}
    if isinstance(value, str) and value in special:
        return special[value]
    if type(value) is int and value >= 0:
        return value
    raise _fail(file, entry, "cost", f"must be a whole number or one of {', '.join(special)}, not {value!r}")


def load_types() -> dict[str, dict[str, Any]]:
    """The card types of card_types.toml, by key, validated."""
    file = "card_types.toml"
    types: dict[str, dict[str, Any]] = {}
    for i, t in enumerate(_read(file, "type")):
        entry = f"type {i + 1}"
        key = _get(file, entry, t, "key", str)
        entry = f"type {key!r}"
        types[key] = {
            "name": _get(file, entry, t, "name", str),
            "colour": _get(file, entry, t, "colour", str, COLOURS),
            "kind": _get(file, entry, t, "kind", str, KINDS),
            "cost_resource": _get(file, entry, t, "cost_resource", str, (*RESOURCES, "none")),
            "cost": _cost(file, entry, t.get("cost")),
            "vp": _get(file, entry, t, "vp", int),
            "great_person": _get(file, entry, t, "great_person", bool, default=False),
            "text": _effect(file, entry, t, "text"),
        }
    return types


def _deck(types: dict[str, dict[str, Any]]) -> tuple[Card, ...]:
    file = "deck.toml"
    cards: list[Card] = []
    for i, c in enumerate(_read(file, "card")):
        entry = f"card {i + 1}"
        key = _get(file, entry, c, "type", str, tuple(types))
        name = _get(file, entry, c, "name", str)
        entry = f"card {i + 1} ({name})"
        count = _get(file, entry, c, "count", int)
        if count < 1:
            raise _fail(file, entry, "count", "must be at least 1")
        t = types[key]
        resource, leader, city_colour, condition, amount, ccolour, said = -1, "", "", "", 0, "", ""
        if key in ("scientific_development", "territory", "city"):
            resource = RESOURCE_INDEX[_get(file, entry, c, "resource", str, RESOURCES)]
        if key == "realm_leader":
            leader = _get(file, entry, c, "leader", str, LEADERS)
        if key == "city":
            city_colour = _get(file, entry, c, "colour", str, COLOURS)
        if key == "island":
            condition = _get(file, entry, c, "condition", str, ISLAND_CONDITIONS)
            amount = _get(file, entry, c, "amount", int)
            said = _effect(file, entry, c, "condition_text")
            if condition == "colour_cards":
                ccolour = _get(file, entry, c, "colour", str, COLOURS)
        cost_res = t["cost_resource"]
        for _ in range(count):
            cards.append(
                Card(
                    id=len(cards),
                    type=key,
                    name=name,
                    colour=t["colour"],
                    kind=t["kind"],
                    cost_resource=-1 if cost_res == "none" else RESOURCE_INDEX[cost_res],
                    cost=t["cost"],
                    vp=t["vp"],
                    great_person=t["great_person"],
                    resource=resource,
                    leader=leader,
                    city_colour=city_colour,
                    condition=condition,
                    amount=amount,
                    condition_colour=ccolour,
                    provenance=c["provenance"],
                    text=t["text"],
                    condition_text=said,
                )
            )
    if len(cards) != 109:
        raise ContentError(f"{file}: the deck holds {len(cards)} cards; Medieval Realms has 109 Event Cards")
    _leaders_fit(file, cards)
    return tuple(cards)


LEADER_LABEL = {"mayor": "Mayor", "general": "General", "admiral": "Admiral"}
"""The leaders' names as messages (the catalog has their Russian)."""


def effect(card: Card) -> Text:
    """What ``card`` does, as a message: its type's text with the parts the card names, and an Island's
    condition after it."""
    said = T(
        card.text,
        resource=T(RESOURCE_LABEL[card.resource]) if card.resource >= 0 else "",
        leader=T(LEADER_LABEL[card.leader]) if card.leader else "",
        colour=T(card.city_colour) if card.city_colour else "",
    )
    return (
        T("{effect} {condition}", effect=said, condition=T(card.condition_text)) if card.condition else said
    )


def effects() -> dict[str, dict[str, Any]]:
    """What each Event Card does, for the table's tooltips: by card name (as the view names it), its name
    and its effect text, as messages (rendered in the reader's language)."""
    return {c.name: {"name": T(c.name), "text": effect(c)} for c in CARDS}


def starting_leaders(players: int) -> tuple[int, int, int]:
    """Each player's Mayors, Generals and Admirals at the start (Rulebook › Set-Up › Starting Capital)."""
    return (6 if players == 2 else 4, 1, 1)


def leader_given(card: Card) -> str:
    """The leader ``card``'s Immediate Effect gives ("mayor", "general", "admiral"), or ""."""
    return card.leader if card.type == "realm_leader" else LEADER_CARDS.get(card.type, "")


def _leaders_fit(file: str, cards: list[Card]) -> None:
    """Every card that gives a leader must find one left in the box, with any number of players (2–5)."""
    given = Counter(leader_given(c) for c in cards)
    for i, leader in enumerate(LEADERS):
        for players in range(2, 6):
            spare = BOX[i] - players * starting_leaders(players)[i]
            if given[leader] > spare:
                raise ContentError(
                    f"{file}: {given[leader]} cards give a {leader}, but a {players}-player game leaves only "
                    f"{spare} in the box ({BOX[i]} less {starting_leaders(players)[i]} per player)"
                )


def _areas() -> tuple[tuple[int, ...], ...]:
    file = "realms_map.toml"
    rewards: list[tuple[int, ...] | None] = [None] * 11
    for i, a in enumerate(_read(file, "area")):
        entry = f"area {i + 1}"
        number = _get(file, entry, a, "number", int, range(1, 11))
        reward = _get(file, f"area {number}", a, "reward", dict)
        amounts = [0] * 7
        for res, n in reward.items():
            if res not in RESOURCE_INDEX:
                raise _fail(file, f"area {number}", "reward", f"{res!r} is not a resource")
            if type(n) is not int or n < 1:
                raise _fail(file, f"area {number}", "reward", f"{res} must be a positive whole number")
            amounts[RESOURCE_INDEX[res]] = n
        rewards[number] = tuple(amounts)
    missing = [n for n in range(1, 11) if rewards[n] is None]
    if missing:
        raise ContentError(f"{file}: areas {missing} are missing; the Realm's Map has areas 1–10")
    rewards[0] = (0,) * 7
    return tuple(r for r in rewards if r is not None)


@functools.cache
def load(content: str = "base") -> Content:
    """The content set ``content`` (only "base" exists), loaded and validated once."""
    realms = _read("realms.toml", "realm")
    if len(realms) != 5:
        raise ContentError("realms.toml: there are 5 King and Queen cards")
    colours = tuple(_get("realms.toml", f"realm {i + 1}", r, "colour", str) for i, r in enumerate(realms))
    names = tuple(_get("realms.toml", f"realm {i + 1}", r, "card", str) for i, r in enumerate(realms))
    return Content(_deck(load_types()), _areas(), colours, names)


CONTENT = load()
CARDS = CONTENT.cards
"""Every Event Card by id (0–108)."""
