"""Each game's fact reader, on real games: seat labels, content used, first player, length."""

from __future__ import annotations

import pytest

from ludorum.agents import make_bot, play_game
from ludorum.games import registry
from ludorum.lab.facts import derive_facts

CATEGORIES = {"reliquium": {"creature"}, "medieval-realms": {"card"}, "signum": {"card", "building"}}
KINDS = {
    "reliquium": {"summon"},
    "medieval-realms": {"activate", "play"},
    "signum": {"recruit", "cast", "set", "equip", "build"},
}


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms", "signum"])
def test_facts_of_a_random_game(name: str) -> None:
    game = registry().get(name)
    reader = game.provides.load_facts()
    config = game.config(game.min_players)
    record = play_game(game, config, 11, [make_bot(game, "random") for _ in range(config.players)]).record
    facts = derive_facts(game, record)
    assert all(set(labels) == set(reader.dimensions) for labels in facts.labels)
    assert 0 <= facts.first < config.players
    assert facts.length is not None and facts.length >= 1 and facts.decisions == len(record.steps)
    for seat, used in enumerate(facts.uses):
        assert {category for category, _ in used} <= CATEGORIES[name]
        acted = any(s == seat and a.kind in KINDS[name] for s, a in record.steps)
        if not acted:
            assert not used  # nothing is used without an action that uses it
    assert any(facts.uses), "a random game of any of these uses some content"


def test_signum_labels_follow_the_decks_rotated_into_the_seats() -> None:
    game = registry().get("signum")
    reader = game.provides.load_facts()
    setups = reader.setups(game.config(2))
    assert len(setups) == 12
    config = game.config(2, **setups[1])
    record = play_game(game, config, 3, [make_bot(game, "random") for _ in range(2)]).record
    labels = derive_facts(game, record).labels
    names = {
        "empire_dawn": "Knights of the Dawn",
        "empire_wings": "Wings of the Gryphon",
        "vallor_muskets": "Guild Muskets",
        "vallor_steam": "Steam and Steel",
    }
    assert [x["deck"] for x in labels] == [names[str(setups[1][f"deck{s}"])] for s in range(2)]
    assert reader.setups(game.config(2, deck0="empire_dawn")) == [{}]


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms", "signum"])
def test_every_tunable_weight_exists_and_its_value_lies_in_its_range(name: str) -> None:
    tunables = registry().get(name).provides.load_tunables()
    assert tunables
    for t in tunables.values():
        assert t.low <= t.read() <= t.high, (t.attribute, t.read())
