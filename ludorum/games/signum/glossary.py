"""Chapter 11, the Glossary (Глоссарий): the properties of creatures, with their English and Russian names.

A property on a card is written ``"name"``, ``"name X"``, ``"aura <distance> <property>"``,
``"clink_of_coins <property>"``, ``"steam_boiler <property>"``, ``"first_word <effect> X"`` or
``"last_word <effect> X"``.  The rules that each property changes live where the rulebook would state
them (melee, shooting, movement); this module only names and parses them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludorum.engine.i18n import N_, Glossed, T, Text

PROPERTIES: dict[str, tuple[str, str, bool]] = {
    # id: (English name, Russian name, takes X)
    "aura": ("Aura X", "Аура Х", True),
    "berserk": ("Berserk X", "Берсерк Х", True),
    "battle_mage": ("Battle Mage", "Боевой маг", False),
    "quick_shooter": ("Quick Shooter", "Быстрый стрелок", False),
    "warlike": ("Warlike X", "Воинственный Х", True),
    "shot": ("Shot X", "Выстрел Х", True),
    "defender": ("Defender", "Защитник", False),
    "clink_of_coins": ("Clink of Coins", "Звон монет", False),
    "initiative": ("Initiative", "Инициатива", False),
    "buckshot": ("Buckshot", "Картечь", False),
    "control": ("Control X", "Контроль Х", True),
    "agile": ("Agile", "Ловкий", False),
    "magic_shot": ("Magic Shot X", "Магический выстрел Х", True),
    "master_attack": ("Master of Attack X", "Мастер атаки Х", True),
    "master_defence": ("Master of Defence X", "Мастер защиты Х", True),
    "master_magic": ("Master of Magic X", "Мастер магии Х", True),
    "master_shooting": ("Master of Shooting X", "Мастер стрельбы Х", True),
    "master_healing": ("Master Healer X", "Мастер-целитель Х", True),
    "slow": ("Slow", "Медлительный", False),
    "seasoned_fighter": ("Seasoned Fighter", "Опытный боец", False),
    "cautious": ("Cautious X", "Осторожный Х", True),
    "steam_boiler": ("Steam Boiler", "Паровой котёл", False),
    "first_word": ("First Word", "Первое слово", False),
    "flight": ("Flight", "Полёт", False),
    "last_word": ("Last Word", "Последнее слово", False),
    "predictable": ("Predictable", "Предсказуемый", False),
    "pursuit": ("Pursuit X", "Преследование Х", True),
    "nimble": ("Nimble", "Проворный", False),
    "momentum": ("Momentum", "Разгон", False),
    "regeneration": ("Regeneration X", "Регенерация Х", True),
    "rush": ("Rush", "Рывок", False),
    "hidden": ("Hidden", "Скрытый", False),
    "sniper": ("Sniper", "Снайпер", False),
    "stalwart": ("Stalwart", "Стойкий", False),
    "hard_target": ("Hard Target", "Трудная цель", False),
    "healer": ("Healer X", "Целитель Х", True),
    "attack_expert": ("Attack Expert", "Эксперт атаки", False),
    "defence_expert": ("Defence Expert", "Эксперт защиты", False),
    # From DESIGN.md §5 rather than the glossary:
    "armour": ("Armour X", "Броня Х", True),
    "minus_attack": ("−X from attacks", "−Х к атакам", True),
    "magical_strike": ("Magical Strike X", "Магический удар Х", True),
}
"""Every property: English name, Russian name, whether it takes a number X."""

GRANTABLE = frozenset(p for p in PROPERTIES if p not in ("aura", "clink_of_coins", "first_word", "last_word"))
"""Properties that an Aura, Clink of Coins, a relic or a spell may grant."""

WORD_EFFECTS = ("prosperity", "heal_hero", "wound_contact", "draw")
"""Effects of First Word and Last Word (designed, § 7.4)."""

DISTANCE_NAMES = ("S", "M", "L", "XL")


@dataclass(frozen=True, slots=True)
class Prop:
    """One parsed property: its id, its number X (0 if none) and its argument.

    The argument is the granted property of an Aura (``"stalwart"``) or of Clink of Coins, the powered
    property of a Steam Boiler, the effect of First/Last Word; ``dist`` is an Aura's distance name.
    """

    name: str
    x: int = 0
    arg: str = ""
    dist: str = ""


def parse(text: str) -> Prop:
    """Parse a property as written in the data files; a bad one raises ``ValueError`` saying why."""
    words = text.split()
    if not words or words[0] not in PROPERTIES:
        raise ValueError(f"unknown property {text!r}; the glossary knows {', '.join(sorted(PROPERTIES))}")
    name, rest = words[0], words[1:]
    if name == "aura":
        if len(rest) < 2 or rest[0] not in DISTANCE_NAMES:
            raise ValueError(f"an Aura is written 'aura <S|M|L|XL> <property>', not {text!r}")
        inner = parse(" ".join(rest[1:]))
        if inner.name not in GRANTABLE:
            raise ValueError(f"an Aura cannot grant {inner.name!r}")
        return Prop("aura", inner.x, " ".join(rest[1:]), rest[0])
    if name == "steam_boiler":
        if len(rest) != 1 or rest[0] not in ("shot", "magic_shot", "magical_strike"):
            raise ValueError(f"a Steam Boiler powers shot, magic_shot or magical_strike: {text!r}")
        return Prop(name, 0, rest[0])
    if name == "clink_of_coins":
        if not rest or parse(" ".join(rest)).name not in GRANTABLE:
            raise ValueError(f"Clink of Coins names the property it grants: {text!r}")
        return Prop(name, 0, " ".join(rest))
    if name in ("first_word", "last_word"):
        if len(rest) != 2 or rest[0] not in WORD_EFFECTS or not rest[1].isdigit():
            raise ValueError(f"{name} is written '{name} <{'|'.join(WORD_EFFECTS)}> X', not {text!r}")
        return Prop(name, int(rest[1]), rest[0])
    takes_x = PROPERTIES[name][2]
    if takes_x:
        if len(rest) != 1 or not rest[0].isdigit():
            raise ValueError(f"{PROPERTIES[name][0]} needs its number X: {text!r}")
        return Prop(name, int(rest[0]))
    if rest:
        raise ValueError(f"{PROPERTIES[name][0]} takes no number: {text!r}")
    return Prop(name)


POWERED: dict[str, str] = {
    "shot": N_("Shot"),
    "magic_shot": N_("Magic Shot"),
    "magical_strike": N_("Magical Strike"),
}
"""What a Steam Boiler powers, by name without its X."""

WORD_EFFECT_NAMES: dict[str, str] = {
    "prosperity": N_("prosperity"),
    "heal_hero": N_("heal hero"),
    "wound_contact": N_("wound contact"),
    "draw": N_("draw"),
}
"""The effects of First Word and Last Word, in words."""


def term(name: str, x: int = 0) -> Text:
    """A property's name as a message (the rulebook's Russian term is its translation): ``"Shot 3"``."""
    en, _ru, takes_x = PROPERTIES[name]
    return T(en.replace("X", "{x}"), x=x) if takes_x else T(en)


def label(p: Prop, gloss: bool = True) -> str:
    """The property as players read it: ``"Shot 3 (Выстрел 3)"`` in English, ``"Выстрел 3"`` in Russian;
    without the ``gloss``, ``"Shot 3"`` (an effect text, which explains the term in the reader's words)."""
    _en, ru, takes_x = PROPERTIES[p.name]
    if p.name == "aura":
        return T("Aura {dist}: {property}", dist=p.dist, property=label(parse(p.arg), gloss))
    if p.name == "clink_of_coins":
        return T("Clink of Coins ({property})", property=label(parse(p.arg), gloss))
    if p.name == "steam_boiler":
        return T("Steam Boiler ({property})", property=T(POWERED[p.arg]))
    if p.name in ("first_word", "last_word"):
        return T("{word}: {effect} {x}", word=term(p.name), effect=T(WORD_EFFECT_NAMES[p.arg]), x=p.x)
    if not gloss:
        return term(p.name, p.x)
    return Glossed(term(p.name, p.x), ru.replace("Х", str(p.x)) if takes_x else ru)
