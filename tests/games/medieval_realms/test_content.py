"""The content data: 109 cards, the map, the realms; and the loader's clear errors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludorum.games.medieval_realms import content
from ludorum.games.medieval_realms.content import CARDS, CONTENT, ContentError


def test_the_deck_holds_109_event_cards_of_every_rulebook_type() -> None:
    assert len(CARDS) == 109
    assert [c.id for c in CARDS] == list(range(109))
    types = Counter(c.type for c in CARDS)
    assert set(types) == set(content.load_types())
    # No single type dominates the deck.
    assert max(types.values()) <= 10


def test_card_types_keep_the_rulebook_costs_and_colours() -> None:
    by_type = {c.type: c for c in CARDS}
    assert (by_type["castle"].colour, by_type["castle"].cost) == ("orange", 6)
    assert by_type["castle"].cost_resource == content.RAW_MATERIAL
    assert by_type["market"].cost_resource == content.PRODUCTION
    assert by_type["war"].cost == -2 and by_type["war"].vp == 6
    assert by_type["tithe"].colour == "white" and by_type["tithe"].cost == 5
    assert by_type["inquisition"].cost == 4
    assert {by_type[t].colour for t in ("gunpowder", "university", "docking_bay", "scientist")} == {"blue"}
    assert by_type["territory"].kind == "auction" and by_type["realm_leader"].kind == "auction"


def test_variable_parts_are_named_on_every_card_that_needs_them() -> None:
    for c in CARDS:
        assert c.provenance in ("rulebook", "designed")
        if c.type in ("city", "territory", "scientific_development"):
            assert c.resource >= 0, c.name
        if c.type == "city":
            assert c.city_colour and c.city_colour != "green"
        if c.type == "island":
            assert c.condition and c.amount > 0
        if c.type == "realm_leader":
            assert c.leader in ("mayor", "general", "admiral")


def test_map_has_ten_rewarded_areas_and_five_realm_colours() -> None:
    assert len(CONTENT.area_rewards) == 11
    assert all(sum(r) > 0 for r in CONTENT.area_rewards[1:])
    assert CONTENT.realm_colours[:4] == ("Black", "Violet", "Blue", "Yellow")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the content data, which the loader reads instead while the test runs (edit it, then
    call ``content.load()``); the loader's cache is cleared before and after."""
    for name in ("card_types.toml", "deck.toml", "realms_map.toml", "realms.toml"):
        (tmp_path / name).write_text((content.DATA / name).read_text())
    monkeypatch.setattr(content, "DATA", tmp_path)
    content.load.cache_clear()
    try:
        yield tmp_path
    finally:
        content.load.cache_clear()


def test_a_bad_entry_is_refused_naming_file_entry_and_field(data: Path) -> None:
    deck = (data / "deck.toml").read_text().replace('resource = "gold"', 'resource = "silver"', 1)
    (data / "deck.toml").write_text(deck)
    with pytest.raises(ContentError, match=r"deck.toml: card \d+ \(.*\): field 'resource'"):
        content.load()


def test_a_missing_provenance_is_refused(data: Path) -> None:
    text = (data / "realms_map.toml").read_text().replace('provenance = "designed"', "", 1)
    (data / "realms_map.toml").write_text(text)
    with pytest.raises(ContentError, match=r"realms_map\.toml: area 1: field .provenance."):
        content.load()


def test_the_box_holds_a_leader_for_every_leader_card_even_with_five_players() -> None:
    # Rulebook › Game Components: 26 Mayors, 13 Generals, 11 Admirals.  Set-Up › Starting Capital: each
    # player starts with 4 Mayors, 1 General and 1 Admiral (6 Mayors with two players).  Whatever the
    # number of players, every card that gives a leader must find one left in the box.
    box = {"mayor": 26, "general": 13, "admiral": 11}
    given = Counter(content.leader_given(c) for c in CARDS)
    for players in (2, 3, 4, 5):
        start = {"mayor": 6 if players == 2 else 4, "general": 1, "admiral": 1}
        for leader, in_box in box.items():
            spare = in_box - players * start[leader]
            assert given[leader] <= spare, (players, leader, given[leader], spare)


def test_a_deck_giving_more_leaders_than_the_box_holds_is_refused(data: Path) -> None:
    deck = (data / "deck.toml").read_text()
    # one Tithe more and one Inquisition (a General) more: still 109 cards, but 9 Generals for 8 spare
    deck = deck.replace('type = "tithe"\ncount = 7', 'type = "tithe"\ncount = 6')
    deck = deck.replace('type = "inquisition"\ncount = 2', 'type = "inquisition"\ncount = 3')
    (data / "deck.toml").write_text(deck)
    with pytest.raises(ContentError, match=r"deck.toml: 9 cards give a general, but a 5-player game"):
        content.load()
