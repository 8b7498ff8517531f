"""Chapter 4, card types (Типы карт), loaded from ``data/*.toml`` and validated once per content set.

A bad entry is refused with a :class:`ContentError` naming the file, the entry and the field.  Every
entry carries ``provenance = "rulebook"`` or ``"designed"``.  Chapter 5's deck-building rules are
:func:`deck_problems`, which lists every reason a deck is refused.
"""

from __future__ import annotations

import functools
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludorum.engine.i18n import N_, Glossed, Joined, T, Text
from ludorum.games.signum import battlefield as bf
from ludorum.games.signum.glossary import GRANTABLE, PROPERTIES, Prop, label, parse

DATA = Path(__file__).parent / "data"
FACTIONS = {"empire": "Holy Empire of the Grypharims", "vallor": "Free City of Vallor"}
FACTIONS_RU = {"empire": "Священная Империя Грифаримов", "vallor": "Вольный город Валлор"}
KIND_NAMES = {
    "hero": N_("hero"),
    "character": N_("character"),
    "spell": N_("spell"),
    "relic": N_("relic"),
    "tactic": N_("tactic"),
    "building": N_("building"),
    "terrain": N_("terrain"),
}
"""The card types (chapter 4) as a refusal names them."""
SPELL_EFFECTS = ("bolt", "mend", "bless", "tithe", "insight")
TRIGGERS = (
    "enemy_enters",
    "melee_declared_against",
    "shot_at",
    "hero_wounded",
    "spell_cast",
    "enemy_builds",
    "character_died",
)
TACTIC_EFFECTS = ("wound", "defence", "cover", "prosperity", "counter", "draw")
BENEFITS = (
    "",
    "discount_characters",
    "discount_mercenaries",
    "heal_hero",
    "draw",
    "hero_strength",
    "hero_armour",
)

DECK_MIN, DECK_MAX, MAX_COPIES = 30, 40, 2
"""Deck building (DESIGN.md §5): 30–40 cards, at most 2 copies of any card but a character."""
SWAP_PLAYERS = (3, 4)
"""The player counts a starter deck's designed ``swaps`` may name (the three- and four-player games)."""


class ContentError(ValueError):
    """A data file holds an invalid entry."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of any type; fields a type does not use keep their defaults."""

    id: str
    kind: str  # hero, character, spell, relic, tactic, building, terrain
    faction: str  # empire, vallor, mercenary, neutral
    name_en: str
    name_ru: str
    provenance: str
    cost: int = 0
    strength: int = 0
    movement: float = 0.0
    health: int = 0
    base: int = 30
    props: tuple[Prop, ...] = ()
    slots: tuple[str, ...] = ()
    effect: str = ""
    amount: int = 0
    arg: str = ""
    slot: str = ""
    trigger: str = ""
    income: int = 0
    unique: bool = False
    radius: float = 0.0
    impassable: bool = False
    difficult: bool = False
    blocks_sight: bool = False
    text: str = ""
    """What a spell, relic, tactic, building or terrain does (English; the catalog's Russian is the entry's
    ``text_ru``).  A creature's effect is its properties' (:func:`effect`)."""
    propmap: dict[str, Prop] = field(default_factory=dict, compare=False)

    @property
    def is_creature(self) -> bool:
        """Heroes and characters are creatures (they stand on the Battlefield)."""
        return self.kind in ("hero", "character")

    @property
    def name(self) -> Text:
        """The card's name as a message (the catalog's Russian is its ``name_ru``)."""
        return T(self.name_en)

    def label(self) -> str:
        """English name with the Russian beside it; a Russian reader reads the Russian alone."""
        return Glossed(self.name, self.name_ru)


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: its hero and its battle deck (card ids, copies repeated).

    ``swaps`` holds the designed changes for games of more players (issue 14's balance): for a player
    count, which card leaves the deck and which comes in (every copy of it).  Two-player games always
    play ``cards`` as written.
    """

    id: str
    faction: str
    name_en: str
    name_ru: str
    hero: str
    cards: tuple[str, ...]
    swaps: dict[int, dict[str, str]] = field(default_factory=dict, compare=False)

    def cards_for(self, players: int) -> tuple[str, ...]:
        """The battle deck played in a game of ``players`` players (its swaps applied in place)."""
        swap = self.swaps.get(players, {})
        return tuple(swap.get(c, c) for c in self.cards)


@dataclass(slots=True)
class Content:
    """Every card and starter deck of one content set, indexed by id."""

    cards: dict[str, Card]
    decks: dict[str, Deck]
    property_texts: dict[str, str] = field(default_factory=dict)
    """What each property does (English, by property id; properties.toml), ``{x}`` standing for its X."""


def _need(entry: dict[str, Any], key: str, tp: type | tuple[type, ...], where: str) -> Any:
    if key not in entry:
        raise ContentError(f"{where}: missing field {key!r}")
    value = entry[key]
    if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
        raise ContentError(f"{where}: field {key!r} has the wrong type ({value!r:.40})")
    return value


def _effect_text(entry: dict[str, Any], where: str) -> str:
    """An entry's effect text, ``text`` and its Russian ``text_ru``: both there, neither blank."""
    for key in ("text", "text_ru"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise ContentError(
                f"{where}: no effect text {key!r} (every card says what it does, in both languages)"
            )
    return str(entry["text"])


def _props(entry: dict[str, Any], where: str) -> tuple[Prop, ...]:
    out = []
    for text in entry.get("properties", []):
        try:
            out.append(parse(text))
        except ValueError as e:
            raise ContentError(f"{where}: field 'properties': {e}") from None
    return tuple(out)


def _card(kind: str, entry: dict[str, Any], where: str) -> Card:
    common: dict[str, Any] = {
        "id": _need(entry, "id", str, where),
        "kind": kind,
        "faction": _need(entry, "faction", str, where),
        "name_en": _need(entry, "name_en", str, where),
        "name_ru": _need(entry, "name_ru", str, where),
        "provenance": _need(entry, "provenance", str, where),
    }
    where = f"{where} ({common['id']})"
    if common["provenance"] not in ("rulebook", "designed"):
        raise ContentError(f"{where}: field 'provenance' is 'rulebook' or 'designed'")
    if common["faction"] not in (*FACTIONS, "mercenary", "neutral"):
        raise ContentError(f"{where}: field 'faction' is not a faction: {common['faction']!r}")
    if kind in ("hero", "character"):
        mv = _need(entry, "movement", str, where)
        if mv not in bf.DISTANCES:
            raise ContentError(f"{where}: field 'movement' is one of S, M, L, XL")
        base = _need(entry, "base", int, where)
        if base not in (30, 50, 60):
            raise ContentError(f"{where}: field 'base' is 30, 50 or 60 (mm)")
        props = _props(entry, where)
        return Card(
            **common,
            cost=entry.get("cost", 0),
            strength=_need(entry, "strength", int, where),
            movement=bf.DISTANCES[mv],
            health=_need(entry, "health", int, where),
            base=base,
            props=props,
            slots=tuple(entry.get("slots", ())),
            propmap={p.name: p for p in props},
        )
    cost = _need(entry, "cost", int, where)
    common["text"] = _effect_text(entry, where)
    if kind == "spell":
        words = _need(entry, "effect", str, where).split()
        if not words or words[0] not in SPELL_EFFECTS or len(words) != 2:
            raise ContentError(f"{where}: field 'effect' is '<{'|'.join(SPELL_EFFECTS)}> <X or property>'")
        if words[0] == "bless":
            if words[1] not in GRANTABLE:
                raise ContentError(f"{where}: field 'effect': cannot bless with {words[1]!r}")
            return Card(**common, cost=cost, effect="bless", arg=words[1])
        if not words[1].isdigit():
            raise ContentError(f"{where}: field 'effect' needs a number")
        return Card(**common, cost=cost, effect=words[0], amount=int(words[1]))
    if kind == "relic":
        props = _props(entry, where)
        return Card(
            **common,
            cost=cost,
            slot=_need(entry, "slot", str, where),
            strength=entry.get("strength", 0),
            movement=float(entry.get("movement", 0)),
            health=entry.get("health", 0),
            props=props,
            propmap={p.name: p for p in props},
        )
    if kind == "tactic":
        trigger = _need(entry, "trigger", str, where)
        if trigger not in TRIGGERS:
            raise ContentError(f"{where}: field 'trigger' is one of {', '.join(TRIGGERS)}")
        words = _need(entry, "effect", str, where).split()
        if not words or words[0] not in TACTIC_EFFECTS:
            raise ContentError(f"{where}: field 'effect' is one of {', '.join(TACTIC_EFFECTS)}")
        amount = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
        return Card(**common, cost=cost, trigger=trigger, effect=words[0], amount=amount)
    if kind == "building":
        benefit = _need(entry, "benefit", str, where)
        if benefit not in BENEFITS:
            raise ContentError(f"{where}: field 'benefit' is one of {', '.join(b for b in BENEFITS if b)}")
        return Card(
            **common,
            cost=cost,
            income=_need(entry, "income", int, where),
            effect=benefit,
            amount=_need(entry, "amount", int, where),
            unique=_need(entry, "unique", bool, where),
        )
    raise ContentError(f"{where}: unknown card type {kind!r}")  # pragma: no cover


def _terrain(entry: dict[str, Any], where: str) -> Card:
    card_id = _need(entry, "id", str, where)
    return Card(
        id=card_id,
        kind="terrain",
        faction="neutral",
        name_en=_need(entry, "name_en", str, where),
        name_ru=_need(entry, "name_ru", str, where),
        provenance=_need(entry, "provenance", str, where),
        radius=float(_need(entry, "radius", (int, float), where)),
        impassable=_need(entry, "impassable", bool, where),
        difficult=_need(entry, "difficult", bool, where),
        blocks_sight=_need(entry, "blocks_sight", bool, where),
        text=_effect_text(entry, where),
    )


FILES = {
    "heroes.toml": ("hero",),
    "characters.toml": ("character",),
    "cards.toml": ("spell", "relic", "tactic"),
    "buildings.toml": ("building",),
    "terrain.toml": ("terrain",),
}


def load(directory: Path = DATA) -> Content:
    """Load and validate every data file of a content set."""
    cards: dict[str, Card] = {}
    for name, kinds in FILES.items():
        path = directory / name
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ContentError(f"{name}: {e}") from None
        for kind in kinds:
            for i, entry in enumerate(data.get(kind, [])):
                where = f"{name} [[{kind}]] #{i + 1}"
                card = _terrain(entry, where) if kind == "terrain" else _card(kind, entry, where)
                if card.id in cards:
                    raise ContentError(f"{where}: duplicate id {card.id!r}")
                cards[card.id] = card
    decks: dict[str, Deck] = {}
    data = tomllib.loads((directory / "decks.toml").read_text(encoding="utf-8"))
    for i, entry in enumerate(data.get("deck", [])):
        where = f"decks.toml [[deck]] #{i + 1}"
        deck_id = _need(entry, "id", str, where)
        cards_written = expand(_need(entry, "cards", list, where))
        where = f"{where} ({deck_id})"
        deck = Deck(
            id=deck_id,
            faction=_need(entry, "faction", str, where),
            name_en=_need(entry, "name_en", str, where),
            name_ru=_need(entry, "name_ru", str, where),
            hero=_need(entry, "hero", str, where),
            cards=cards_written,
            swaps=_swaps(entry, cards_written, where),
        )
        _need(entry, "provenance", str, where)
        for players, field_name in ((2, "cards"), *((n, f"swaps.{n}") for n in deck.swaps)):
            problems = deck_problems(cards, deck.hero, deck.cards_for(players))
            if problems:
                raise ContentError(f"{where}: field {field_name!r}: " + "; ".join(problems))
        decks[deck.id] = deck
    return Content(cards, decks, _property_texts(directory))


def _property_texts(directory: Path) -> dict[str, str]:
    """properties.toml: what each property of the glossary does, every one of them and no other."""
    name = "properties.toml"
    try:
        data = tomllib.loads((directory / name).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ContentError(f"{name}: {e}") from None
    texts: dict[str, str] = {}
    for i, entry in enumerate(data.get("property", [])):
        where = f"{name} [[property]] #{i + 1}"
        prop = _need(entry, "id", str, where)
        where = f"{where} ({prop})"
        if prop not in PROPERTIES:
            raise ContentError(f"{where}: field 'id': the glossary has no property {prop!r}")
        _need(entry, "provenance", str, where)
        texts[prop] = _effect_text(entry, where)
    missing = sorted(set(PROPERTIES) - set(texts))
    if missing:
        raise ContentError(f"{name}: no effect text for the properties {', '.join(missing)}")
    return texts


def _swaps(entry: dict[str, Any], deck: tuple[str, ...], where: str) -> dict[int, dict[str, str]]:
    """A deck's ``swaps = { 3 = { out = "in" } }``: each key a player count, each card out in the deck."""
    out: dict[int, dict[str, str]] = {}
    swaps = entry.get("swaps", {})
    if not isinstance(swaps, dict):
        raise ContentError(f"{where}: field 'swaps' is a table of player counts ({swaps!r:.40})")
    for key, swap in swaps.items():
        if not (key.isdigit() and int(key) in SWAP_PLAYERS) or not isinstance(swap, dict):
            raise ContentError(f"{where}: field 'swaps': {key!r} is not a table for 3 or 4 players")
        for card_out, card_in in swap.items():
            if card_out not in deck or not isinstance(card_in, str):
                raise ContentError(
                    f"{where}: field 'swaps.{key}': {card_out!r} is not a card of the deck "
                    "to swap for a card id"
                )
        out[int(key)] = dict(swap)
    return out


def expand(items: list[str]) -> tuple[str, ...]:
    """Turn ``["a", "b*2"]`` into ``("a", "b", "b")``."""
    out: list[str] = []
    for item in items:
        name, _, times = str(item).partition("*")
        out.extend([name.strip()] * (int(times) if times.strip().isdigit() else 1))
    return tuple(out)


def faction_name(faction: str) -> Text | str:
    """A faction id as players read it, ``"Free City of Vallor"`` (the catalog holds its Russian,
    :data:`FACTIONS_RU`); mercenaries and neutral cards belong to no faction and keep their id.  Public so
    that every place naming a faction says it through this one (a seat's name, a deck's description)."""
    return T(FACTIONS[faction]) if faction in FACTIONS else faction


def deck_problems(cards: dict[str, Card], hero: str, deck: tuple[str, ...]) -> list[str]:
    """Every reason the deck breaks the deck-building rules (DESIGN.md §5); empty if it is legal."""
    problems: list[str] = []
    h = cards.get(hero)
    if h is None or h.kind != "hero":
        problems.append(T("{hero} is not a hero", hero=repr(hero)))
        return problems
    faction = h.faction
    if not DECK_MIN <= len(deck) <= DECK_MAX:
        problems.append(
            T(
                "a battle deck holds {low}–{high} cards, this one {n}",
                low=DECK_MIN,
                high=DECK_MAX,
                n=len(deck),
            )
        )
    counts = Counter(deck)
    own = mercs = 0
    for card_id, n in sorted(counts.items()):
        c = cards.get(card_id)
        if c is None:
            problems.append(T("there is no card {card}", card=repr(card_id)))
            continue
        if c.kind not in ("character", "spell", "relic", "tactic"):
            problems.append(
                T(
                    "{card} is a {kind} card, which is not part of a battle deck",
                    card=c.name,
                    kind=T(KIND_NAMES[c.kind]),
                )
            )
            continue
        if c.faction not in (faction, "mercenary"):
            problems.append(
                T("{card} belongs to the {faction}", card=c.name, faction=faction_name(c.faction))
            )
        if c.kind == "character":
            if n > 1:
                problems.append(T("{card} appears {n} times; characters may not repeat", card=c.name, n=n))
            if c.faction == "mercenary":
                mercs += n
            elif c.faction == faction:
                own += n
        elif n > MAX_COPIES:
            problems.append(
                T(
                    "{card} appears {n} times; at most {max} copies are allowed",
                    card=c.name,
                    n=n,
                    max=MAX_COPIES,
                )
            )
    if mercs > own:
        problems.append(
            T("{mercs} mercenaries outnumber the {own} characters of the faction", mercs=mercs, own=own)
        )
    return problems


@functools.cache
def base_content() -> Content:
    """The base set, loaded once per process."""
    return load()


def effect(content: Content, card: Card) -> Text | Joined:
    """What ``card`` does, as a message: a creature's strength, movement and health and each of its
    properties with what it does; any other card's own text."""
    if not card.is_creature:
        return T(card.text)
    lines: list[Text] = [
        T(
            "Strength {strength}, movement {movement} cm, health {health}.",
            strength=card.strength,
            movement=f"{card.movement:g}",
            health=card.health,
        )
    ]
    for p in card.props:
        lines.append(
            T(
                "{property}: {text}",
                property=label(p, gloss=False),
                text=T(content.property_texts[p.name], x=p.x),
            )
        )
    return Joined(" ", lines)


def effects() -> dict[str, dict[str, Any]]:
    """What each thing of the game does, for the table's tooltips: every card by its id, and every property
    as ``property:<id>``; names and texts as messages (rendered in the reader's language)."""
    content = base_content()
    out: dict[str, dict[str, Any]] = {
        c.id: {"name": c.name, "text": effect(content, c)} for c in content.cards.values()
    }
    for prop, text in content.property_texts.items():
        out[f"property:{prop}"] = {
            "name": T(PROPERTIES[prop][0].replace("X", "{x}"), x="X"),
            "text": T(text, x="X"),
        }
    return out
