"""The catalog check: every card, creature, building, tactic, hero, property and keyword of the three games
says what it does, in English and in Russian (issue 35), and a content file that leaves one out is refused.

The texts live in the games' data files (``text`` and ``text_ru`` beside each entry); the Russian reaches
players through the message catalog, which ``python -m ludorum.locale.build`` fills from the data files.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from ludorum.engine.i18n import localize
from ludorum.games.medieval_realms import content as realms
from ludorum.games.reliquium import content as reliquium
from ludorum.games.signum import content as signum
from ludorum.games.signum.glossary import PROPERTIES
from ludorum.locale.build import given

EFFECTS: dict[str, Callable[[], Mapping[str, Mapping[str, Any]]]] = {
    "reliquium": reliquium.effects,
    "medieval-realms": realms.effects,
    "signum": signum.effects,
}
LATIN_ALLOWED = frozenset({"S", "M", "L", "XL", "X"})
"""Latin words a Russian text may keep: Legends of Signum's distances (the rulebook prints them so) and
the X of a property's name."""


def problems(effects: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What is wrong with a game's effect texts: each entry needs a name and a text in both languages, the
    Russian translated (different from the English, with no English words left in it), the English free
    of Russian."""
    found = []
    for key, entry in effects.items():
        en, ru = localize(dict(entry), "en"), localize(dict(entry), "ru")
        for field in ("name", "text"):
            if not str(en.get(field, "")).strip() or not str(ru.get(field, "")).strip():
                found.append(f"{key}: no {field}")
        if ru.get("text") == en.get("text"):
            found.append(f"{key}: the Russian text is the English one")
        english = sorted(set(re.findall(r"[A-Za-z]+", str(ru.get("text", "")))) - LATIN_ALLOWED)
        if english:
            found.append(f"{key}: English words in the Russian text: {', '.join(english)}")
        if re.search(r"[А-Яа-яЁё]", str(en.get("text", ""))):
            found.append(f"{key}: Russian in the English text")
    return found


@pytest.mark.parametrize("game", sorted(EFFECTS))
def test_every_entry_says_what_it_does_in_english_and_russian(game: str) -> None:
    effects = EFFECTS[game]()
    assert effects
    assert problems(effects) == []


def test_each_game_covers_its_content() -> None:
    assert len(reliquium.effects()) == len(reliquium.content().creatures) + len(reliquium.PIECES) == 18
    assert len(realms.effects()) == len({c.name for c in realms.CARDS}) == 45
    base = signum.base_content()
    assert len(signum.effects()) == len(base.cards) + len(base.property_texts)
    assert set(base.property_texts) == set(PROPERTIES)


def test_the_check_finds_an_untranslated_or_missing_text() -> None:
    real = dict(signum.effects())
    planted = dict(real)
    planted["made_up"] = {"name": "Made Up", "text": "Does nothing at all."}  # not in the catalog
    planted["blank"] = {"name": "Blank", "text": ""}
    planted["glossed"] = {"name": "Glossed", "text": "Initiative (Инициатива): strikes first."}
    assert problems(planted) == [
        "made_up: the Russian text is the English one",
        "made_up: English words in the Russian text: Does, all, at, nothing",
        "blank: no text",
        "blank: the Russian text is the English one",
        "glossed: the Russian text is the English one",
        "glossed: English words in the Russian text: Initiative, first, strikes",
        "glossed: Russian in the English text",
    ]


def test_the_catalog_says_what_the_data_files_say() -> None:
    """The Russian a player reads is the data file's ``text_ru`` (the catalog is rebuilt from it)."""
    from ludorum.engine.i18n import T

    texts = given()
    assert len(texts) > 100
    for en, ru in texts.items():
        assert T(en).render("ru") == ru, en


def _copy(source: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(source, folder)
    return folder


def _drop(path: Path, line: str) -> None:
    """Take one line (the first that is exactly ``line``'s start) out of a data file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, x in enumerate(lines) if x.startswith(line))
    path.write_text("\n".join(lines[:at] + lines[at + 1 :]), encoding="utf-8")


def test_signum_refuses_a_card_without_its_russian_text(tmp_path: Path) -> None:
    folder = _copy(signum.DATA, tmp_path)
    assert signum.load(folder).cards["shield_wall"].text  # the copy loads as it is
    text = (folder / "cards.toml").read_text(encoding="utf-8")
    start = text.index('id = "shield_wall"')
    cut = text.index("text_ru = ", start)
    end = text.index("\n", cut)
    (folder / "cards.toml").write_text(text[:cut] + text[end + 1 :], encoding="utf-8")
    with pytest.raises(
        signum.ContentError, match=r"cards\.toml \[\[tactic\]\] #2 \(shield_wall\): no effect text 'text_ru'"
    ):
        signum.load(folder)


def test_signum_refuses_a_property_without_its_text(tmp_path: Path) -> None:
    folder = _copy(signum.DATA, tmp_path)
    text = (folder / "properties.toml").read_text(encoding="utf-8")
    start = text.index('id = "sniper"')
    (folder / "properties.toml").write_text(text[: text.rindex("[[property]]", 0, start)], encoding="utf-8")
    with pytest.raises(
        signum.ContentError, match=r"properties\.toml: no effect text for the properties .*sniper"
    ):
        signum.load(folder)


@pytest.mark.parametrize(
    ("file", "line", "refusal"),
    [
        (
            "creatures.toml",
            'text = "Raise the fallen',
            r"creatures\.toml: creature 3 \(Mortum\): no effect text 'text'",
        ),
        (
            "pieces.toml",
            'text_ru = "Сила 1 в атаке, 1 в обороне, 2',
            r"pieces\.toml: piece 3 \(mage\): no effect text 'text_ru'",
        ),
    ],
)
def test_reliquium_refuses_an_entry_without_its_text(
    file: str, line: str, refusal: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(reliquium.DATA, tmp_path)
    monkeypatch.setattr(reliquium, "DATA", folder)
    assert len(reliquium.content.__wrapped__().creatures) == 12  # the copy loads as it is
    assert len(reliquium.pieces.__wrapped__()) == 6
    _drop(folder / file, line)
    with pytest.raises(reliquium.ContentError, match=refusal):
        reliquium.content.__wrapped__()
        reliquium.pieces.__wrapped__()


@pytest.mark.parametrize(
    ("file", "line", "refusal"),
    [
        (
            "card_types.toml",
            'text_ru = "Сразу: 6 ПО.',
            r"card_types\.toml: type 'war': field 'text_ru': is missing",
        ),
        (
            "deck.toml",
            'condition_text = "Condition: at least 3 Generals.',
            r"deck\.toml: card 36 \(Island of the Garrison\): field 'condition_text'",
        ),
    ],
)
def test_medieval_realms_refuses_a_card_without_its_text(
    file: str, line: str, refusal: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _copy(realms.DATA, tmp_path)
    monkeypatch.setattr(realms, "DATA", folder)
    assert len(realms.load.__wrapped__().cards) == 109  # the copy loads as it is
    _drop(folder / file, line)
    with pytest.raises(realms.ContentError, match=refusal):
        realms.load.__wrapped__()
