"""The lobby: what each game is, its rules page, and its options chosen per game and per seat."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from ludorum.games import registry
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def games_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server with the three games; bots wait (their moves are not what is tested)."""
    with LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", registry=registry(), bot_delay=5.0) as srv:
        yield srv


def test_a_reliquium_seat_chooses_its_faction_and_seats_follow_initiative(
    page: Page, games_server: LiveServer
) -> None:
    page.goto(games_server.url + "/")
    page.select_option("#game-select", "reliquium")
    expect(page.locator("#game-blurb")).to_contain_text("nine castles")
    expect(page.locator("#game-blurb a")).to_have_text("Rules of Reliquium")
    expect(page.locator("#options input[data-option=rounds]")).to_have_value("20")
    page.fill("#options input[data-option=rounds]", "12")
    faction = page.locator("#seats select[data-option=factions]")
    expect(faction).to_have_count(2)
    expect(faction.nth(1)).to_have_value("order")
    faction.nth(0).select_option("order")  # seat 1 takes the Order: seat 2 gets seat 1's Alliance
    expect(faction.nth(1)).to_have_value("alliance")
    faction.nth(0).select_option("brotherhood")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    # the Alliance has the higher initiative, so the bot's Alliance is seat 1 and you are the Brotherhood
    expect(page.locator("#players li.you")).to_contain_text("Brotherhood")
    config = httpx.get(f"{games_server.url}/api/games/{game_id}").json()["config"]
    assert config["options"] == {"factions": "alliance,brotherhood", "rounds": 12}


def test_a_signum_seat_picks_a_starter_deck_or_writes_its_own(page: Page, games_server: LiveServer) -> None:
    page.goto(games_server.url + "/")
    page.select_option("#game-select", "signum")
    deck = page.locator("#seats select[data-option=deck1]")
    expect(deck).to_have_value("vallor_muskets")
    deck.select_option("")
    page.fill("#seats input[data-own=deck1]", "nobody: crossbowman")
    page.click("#create")
    expect(page.locator("#lobby-error")).to_contain_text("deck of player 2")  # the game's words, in the lobby
    expect(page).to_have_url(games_server.url + "/")


def test_the_rules_page_shows_the_rulebook_and_what_is_designed(page: Page, games_server: LiveServer) -> None:
    page.goto(games_server.url + "/static/rules.html?game=medieval-realms")
    expect(page).to_have_title("Rules of Medieval Realms — Ludorum")
    expect(page.locator("#rules h2", has_text="Designed by the project")).to_be_visible()
    expect(page.locator("#rules-contents a", has_text="Goal of the Game")).to_be_visible()
