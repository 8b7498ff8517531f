"""The game log as a player reads it: stage markers, no taken-back steps, short names, a filter; the
page title says whose turn it is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludorum.games import registry
from tests.browser.lobby import start_from_lobby, wait_for_turn
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def games_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The three games, bots moving at once."""
    with LiveServer(f"sqlite:///{tmp_path / 'log.sqlite3'}", registry=registry(), bot_delay=0.0) as srv:
        yield srv


def test_a_taken_back_march_leaves_the_log_and_stages_show(page: Page, games_server: LiveServer) -> None:
    start_from_lobby(page, games_server.url, "reliquium", 2)
    assert wait_for_turn(page)
    expect(page).to_have_title("▶ Your turn · Reliquium — Ludorum")
    page.locator("#actions button", has_text="March from").first.click()
    page.locator("#actions button", has_text="Cancel").click()
    expect(page.locator("#log li.cancelled")).to_have_count(2)  # the march and its cancel: kept, not shown
    expect(page.locator("#log li:visible", has_text="Cancel")).to_have_count(0)
    page.locator("#actions button", has_text="Pass").first.click()
    assert wait_for_turn(page)  # the bot (the Order of Light) has played
    first = page.locator("#log li:visible").first
    expect(first.locator(".stage")).to_have_text("Round 1 · Peace phase")
    expect(first).to_contain_text("Alliance of Nature: Pass")
    expect(page.locator("#log li:visible", has_text="Order of Light:")).to_have_count(1)  # then "Order:"
    page.select_option("#log-filter", label="Order of Light")
    expect(page.locator("#log li:visible", has_text="Alliance")).to_have_count(0)
    expect(page.locator("#log li:visible")).not_to_have_count(0)


def test_medieval_realms_shows_one_order_of_players(page: Page, games_server: LiveServer) -> None:
    start_from_lobby(page, games_server.url, "medieval-realms", 3)
    expect(page.locator(".mr-order li")).to_have_count(3)
    texts = page.locator(".mr-order li").all_inner_texts()
    track = [t.split(". ", 1)[1].split(" (")[0].strip() for t in texts]
    players = [t.split(" (", 1)[0] for t in page.locator("#players li").all_inner_texts()]
    assert players == track, (players, track)  # the frame's players follow the Turn Order Track
