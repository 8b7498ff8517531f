"""Medieval Realms in real chromium: a full 4-player game (you + 3 heuristic bots) from the lobby to the
final scores, played by clicks on the board the renderer draws (the frame's list only as a fallback).

Screenshots are named medieval-realms-*.png (``make screenshots`` refreshes docs/screenshots/).  To keep
the wall time short the test takes
at most two board actions per round and then passes; it still clicks resource squares, map areas, panel
squares, display cards, bid controls and the pass/cancel buttons.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from ludorum.engine import Registry
from ludorum.games.medieval_realms import GAME
from tests.browser.conftest import shot
from tests.browser.lobby import log_length, start_from_lobby, wait_for_turn
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser

MINE = ".mr-realm.mine"
ACTIONS_PER_ROUND = 2


@pytest.fixture
def realms_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server holding only Medieval Realms (other games' state does not matter), fast bots."""
    reg = Registry()
    reg.register(GAME)
    with LiveServer(f"sqlite:///{tmp_path / 'realms.sqlite3'}", registry=reg, bot_delay=0.0) as srv:
        yield srv


def start_four_player_game(page: Page, base: str) -> str:
    """From the lobby: Medieval Realms, 4 players, you in seat 1 and three heuristic bots."""
    return start_from_lobby(page, base, "medieval-realms", 4)


def my_turn(page: Page) -> bool:
    """Wait until it is this page's turn or the game is over; True if it is our turn."""
    return wait_for_turn(page)


def click_then_choose(page: Page, selector: str) -> None:
    """Click a board element; if the renderer offers several actions in its menu, take the first."""
    before = log_length(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        f"() => document.querySelector('.mr-menu') || document.querySelectorAll('#log li').length > {before}"
    )
    menu = page.locator(".mr-menu button[role=menuitem]")
    if menu.count():
        menu.first.click()


class Player:
    """Our seat's choices, made on the board; counts what it did so the test can check coverage."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.done: dict[str, int] = {}
        self.round_actions: dict[int, int] = {}
        self.cancelled = False
        self.placed = 0
        self.shots: set[str] = set()

    def note(self, what: str) -> None:
        self.done[what] = self.done.get(what, 0) + 1

    def shot_once(self, name: str) -> None:
        if name not in self.shots:
            self.shots.add(name)
            shot(self.page, f"medieval-realms-{name}.png")

    def move(self) -> None:
        """One decision, by the board where the renderer maps it."""
        page = self.page
        phase = page.locator(".mr").get_attribute("data-phase")
        if phase == "extra resources":
            click_then_choose(page, f"{MINE} .mr-res.mr-hot")
            self.note("extra")
        elif phase == "placing leaders":
            self.place()
        elif page.locator(".mr-auction .mr-bid-controls").count():
            self.bid()
        elif page.locator(f"{MINE} .mr-res.mr-hot").count():
            click_then_choose(page, f"{MINE} .mr-res.mr-hot")  # a token of choice for 5 VP
            self.note("token")
        else:
            self.act(int(page.locator(".mr").get_attribute("data-round") or 0))

    def place(self) -> None:
        page = self.page
        # Others' realms stay behind their walls while we place; ours shows what we placed.
        expect(page.locator(f"{MINE} .mr-wall")).to_have_count(0)
        expect(page.locator(".mr-realm:not(.mine) .mr-wall")).to_have_count(3)
        if self.placed == 1:
            self.shot_once("placement")
        if self.placed == 2 and not self.cancelled:
            # take the leaders back once: the board's button, then place again
            self.cancelled = True
            page.click(".mr-tools .mr-cancel-button")
            self.note("cancel")
            return
        hot = page.locator(f"{MINE} .mr-zone.mr-hot, {MINE} .mr-area.mr-hot")
        hot.nth(self.placed % hot.count()).click()
        self.placed += 1
        self.note("place")

    def bid(self) -> None:
        page = self.page
        self.shot_once("auction")
        expect(page.locator(".mr-auction .mr-bidder")).to_have_count(4)
        history = page.locator(".mr-auction .mr-bid-history li")
        if page.locator(".mr-auction .mr-cancel-button").count():
            expect(history).to_have_count(0)  # nobody has bid yet
            page.click(".mr-auction .mr-bid-button")  # we opened it: the smallest bid
            self.note("bid")
        else:
            # the bids so far are on the board, the opening bid first
            expect(history.first).to_contain_text(re.compile(r"\d"))
            self.note("bid history shown")
            page.click(".mr-auction .mr-pass-button")
            self.note("auction pass")

    def act(self, round_no: int) -> None:
        page = self.page
        self.shot_once("actions")
        # majority awards and auction results are shown on the board as they happen
        awards = page.locator("#board .mr-events li.award, #board .mr-news p")
        if awards.count():
            expect(awards.first).to_contain_text(re.compile("majority card|wins the auction"))
            expect(awards.first).to_have_attribute("data-kind", re.compile("^(majority|auction)$"))
            self.note("award shown")
        # the walls are down: the map challenge shows every realm's combat value in every area
        expect(page.locator("#board .mr-challenge .mr-cell")).to_have_count(4 * 8)
        taken = self.round_actions.get(round_no, 0)
        if taken < ACTIONS_PER_ROUND:
            self.round_actions[round_no] = taken + 1
            if page.locator(f"{MINE} .mr-display-card.mr-hot").count():
                click_then_choose(page, f"{MINE} .mr-display-card.mr-hot")
                self.note("play")
                return
            auction = page.locator(".mr-square.mr-hot:has(.kind-auction)")
            if not self.done.get("activate auction") and auction.count():
                auction.first.click()
                self.note("activate auction")
                return
            squares = page.locator(".mr-square.mr-hot:not(:has(.kind-auction))")
            if squares.count():
                squares.first.click()
                self.note("activate")
                return
        if page.locator(".mr-tools .mr-pass-button").count():
            page.click(".mr-tools .mr-pass-button")
            self.note("pass")
        else:  # the frame's list: the renderer maps every action, so this should not happen
            page.locator("#actions button").first.click()
            self.note("list")


def test_a_four_player_game_against_bots_played_on_the_board(page: Page, realms_server: LiveServer) -> None:
    game_id = start_four_player_game(page, realms_server.url)
    expect(page.locator("#title")).to_have_text("Medieval Realms")
    expect(page.locator(".mr")).to_be_visible()
    me = Player(page)
    decisions = 0
    while my_turn(page):
        # the renderer drew without falling back to the plain view, and nothing was refused
        expect(page.locator("#error")).to_have_text("")
        before = log_length(page)
        me.move()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        decisions += 1
        assert decisions < 600
    # the end: the frame's result and the board's final scoring agree with the server
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#board .mr[data-phase='game over']")).to_be_visible()
    record = httpx.get(f"{realms_server.url}/api/games/{game_id}/record").json()
    scores = record["result"]["scores"]
    rows = page.locator("#board .mr-final tbody tr")
    expect(rows).to_have_count(4)
    for seat, score in enumerate(scores):
        expect(page.locator(f"#board .mr-final tr[data-seat='{seat}'] td").last).to_have_text(str(int(score)))
    expect(page.locator("#board .mr-round.now")).to_have_text("7")
    shot(page, "medieval-realms-end.png")
    print(f"our decisions: {decisions}; board actions: {me.done}")
    # every kind of board click was used at least once
    assert {"extra", "place", "cancel", "pass"} <= me.done.keys(), me.done
    assert me.done.get("activate", 0) + me.done.get("activate auction", 0) >= 1, me.done
    assert "list" not in me.done, me.done
    assert "award shown" in me.done, me.done
    assert "placement" in me.shots and "actions" in me.shots


def test_the_board_fits_a_phone_and_its_clicks_work_there(page: Page, realms_server: LiveServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_four_player_game(page, realms_server.url)
    # the two extra resources: a Manor square offers the pairs holding its resource in a menu
    assert my_turn(page)
    before = log_length(page)
    page.locator(f"{MINE} .mr-res.mr-hot[data-resource='gold']").click()
    expect(page.locator(".mr-menu button[role=menuitem]").first).to_contain_text("Gold")
    expect(page.locator("#board")).to_have_attribute("data-mr-narrow", "true")
    # turning the phone redraws the board in the wide layout; the open menu survives the redraw
    page.set_viewport_size({"width": 1400, "height": 700})
    expect(page.locator("#board")).to_have_attribute("data-mr-narrow", "false")
    expect(page.locator(".mr-menu")).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#board")).to_have_attribute("data-mr-narrow", "true")
    page.locator(".mr-menu button[role=menuitem]").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    assert my_turn(page)
    expect(page.locator("#board .mr[data-phase='placing leaders']")).to_be_visible()
    page.locator(f"{MINE} .mr-zone.mr-hot[data-square='science']").click()
    expect(page.locator(f"{MINE} .mr-zone[data-square='science'] .mr-leader.mayor")).to_have_count(1)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    shot(page, "medieval-realms-phone.png")


def test_escape_closes_the_board_menu(page: Page, realms_server: LiveServer) -> None:
    """As Reliquium's: the menu a board click opens (focus on its first choice) shuts on Escape."""
    start_four_player_game(page, realms_server.url)
    assert my_turn(page)
    page.locator(f"{MINE} .mr-res.mr-hot[data-resource='gold']").click()
    expect(page.locator(".mr-menu button[role=menuitem]").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(".mr-menu")).to_have_count(0)
