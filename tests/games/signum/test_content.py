"""Content data: counts, provenance, names in both languages, deck validation, loader errors."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from ludorum.engine import ConfigError
from ludorum.games.signum import GAME
from ludorum.games.signum.content import DATA, ContentError, base_content, deck_problems, load


def test_the_collection_holds_what_the_issue_asks() -> None:
    cards = base_content().cards.values()
    kinds = Counter((c.kind, c.faction) for c in cards)
    for f in ("empire", "vallor"):
        assert kinds[("hero", f)] == 3
        assert kinds[("character", f)] >= 12
        assert kinds[("spell", f)] and kinds[("relic", f)] and kinds[("tactic", f)]
    assert kinds[("character", "mercenary")] >= 12
    buildings = [c for c in cards if c.kind == "building"]
    assert sum(not b.unique for b in buildings) >= 9 and sum(b.unique for b in buildings) >= 4
    assert sum(c.kind == "terrain" for c in cards) >= 8
    decks = Counter(d.faction for d in base_content().decks.values())
    assert decks["empire"] == 2 and decks["vallor"] == 2


def test_every_entry_has_provenance_and_two_names() -> None:
    for c in base_content().cards.values():
        assert c.provenance in ("rulebook", "designed")
        assert c.name_en and c.name_ru and c.name_en != c.name_ru


def test_starter_decks_are_legal() -> None:
    content = base_content()
    for d in content.decks.values():
        for players in (2, 3, 4):
            assert deck_problems(content.cards, d.hero, d.cards_for(players)) == []


def test_an_invalid_deck_lists_every_reason() -> None:
    deck = (
        "musketeer",
        "grypharim_knight",
        "grypharim_knight",
        "tithe",
        "tithe",
        "tithe",
        "troll",
        "harpy",
        "assassin",
    )
    problems = deck_problems(base_content().cards, "marshal_aurelian", deck)
    text = " | ".join(problems)
    assert "30–40 cards" in text
    assert "Musketeer belongs to the Free City of Vallor" in text
    assert "Grypharim Knight appears 2 times" in text
    assert "Tithe appears 3 times" in text
    assert "3 mercenaries outnumber the 2 characters" in text
    assert len(problems) == 5


def test_a_config_with_an_invalid_deck_is_refused_with_reasons() -> None:
    with pytest.raises(ConfigError, match=r"deck of player 1: .*30–40"):
        GAME.config(2, deck0="marshal_aurelian: tithe*2")
    assert GAME.config(2, deck0="empire_wings", deck1="vallor_steam")


def test_loader_names_file_entry_and_field(tmp_path: Path) -> None:
    for f in DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    text = (tmp_path / "characters.toml").read_text(encoding="utf-8")
    (tmp_path / "characters.toml").write_text(
        text.replace('properties = ["shot 4"]', 'properties = ["shot"]', 1)
    )
    with pytest.raises(
        ContentError, match=r"characters.toml \[\[character\]\] #13 \(musketeer\): field 'properties'"
    ):
        load(tmp_path)
    (tmp_path / "characters.toml").write_text(
        text.replace('provenance = "designed"', 'provenance = "guess"', 1)
    )
    with pytest.raises(ContentError, match="field 'provenance'"):
        load(tmp_path)


def _with_decks(tmp_path: Path, deck: str, swaps: str) -> Path:
    """A copy of the base content whose ``deck`` carries the TOML line ``swaps``."""
    for f in DATA.iterdir():
        shutil.copy(f, tmp_path / f.name)
    text = (tmp_path / "decks.toml").read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("swaps ="))
    at = text.index("hero = ", text.index(f'id = "{deck}"'))
    (tmp_path / "decks.toml").write_text(text[:at] + swaps + "\n" + text[at:], encoding="utf-8")
    return tmp_path


def test_a_deck_swap_changes_the_deck_at_its_player_count_only(tmp_path: Path) -> None:
    content = load(_with_decks(tmp_path, "vallor_steam", 'swaps = { 3 = { troll = "ogre_brute" } }'))
    deck = content.decks["vallor_steam"]
    assert deck.cards_for(2) == deck.cards and deck.cards_for(4) == deck.cards
    changed = Counter(deck.cards_for(3))
    changed.subtract(deck.cards)
    assert +changed == Counter({"ogre_brute": 1}) and -changed == Counter({"troll": 1})


@pytest.mark.parametrize(
    ("swaps", "message"),
    [
        (
            'swaps = { 2 = { troll = "ogre_brute" } }',
            r"\(vallor_steam\): field 'swaps': '2' is not a table for 3 or 4",
        ),
        ('swaps = { 3 = { harpy = "ogre_brute" } }', r"field 'swaps.3': 'harpy' is not a card of the deck"),
        ('swaps = { 4 = { troll = "musketeer" } }', r"field 'swaps.4': Musketeer appears 2 times"),
        ('swaps = { 3 = { troll = "seraph" } }', r"field 'swaps.3': Seraph belongs to the Holy Empire"),
        ("swaps = 3", r"field 'swaps' is a table of player counts"),
    ],
)
def test_an_invalid_deck_swap_is_refused_naming_deck_and_field(
    tmp_path: Path, swaps: str, message: str
) -> None:
    with pytest.raises(ContentError, match=message):
        load(_with_decks(tmp_path, "vallor_steam", swaps))
