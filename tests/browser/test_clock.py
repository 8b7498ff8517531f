"""Clocks in the browser: chosen in the lobby, shown ticking beside the players, and the end on time.
The server reads an injected clock, so its deadline comes when the test says."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludorum.server.play.clocks import ManualClock
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def clock() -> ManualClock:
    """The time the server reads."""
    return ManualClock()


@pytest.fixture
def clock_server(tmp_path: Path, clock: ManualClock) -> Iterator[LiveServer]:
    """A live server of the fixture game on the manual clock."""
    with LiveServer(f"sqlite:///{tmp_path / 'clock.sqlite3'}", clock=clock) as srv:
        yield srv


def test_the_clock_is_chosen_shown_ticking_and_ends_the_game(
    page: Page, clock_server: LiveServer, clock: ManualClock
) -> None:
    page.goto(clock_server.url + "/")
    expect(page.locator("#clock-base")).to_be_hidden()  # no clock by default
    page.select_option("#clock-mode", "fischer")
    page.fill("#clock-base", "1")
    page.fill("#clock-increment", "3")
    page.select_option("#clock-expiry", "lose")
    page.click("#create")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"))
    mine = page.locator('#players [data-clock-seat="0"]')
    expect(mine).to_have_text(re.compile(r"⏱ (1:00|0:5\d)"))
    expect(mine).to_have_class(re.compile(r"running"))
    expect(mine).to_have_attribute("title", re.compile(r"1:00 \+ 3 s per turn"))
    first = mine.inner_text()
    expect(mine).not_to_have_text(first, timeout=5_000)  # the page counts down by itself
    clock.advance(61)  # the server's deadline: seat 1 (you) loses on time
    expect(page.locator("#status")).to_contain_text("ran out of time")
    expect(mine).to_have_text("⏱ 0:00")
    page.goto(clock_server.url + "/")
    page.locator(".tabs [data-status=finished]").click()
    expect(page.locator("#game-list li").first).to_contain_text(
        "clock: 1:00 + 3 s per turn (out of time loses)"
    )
