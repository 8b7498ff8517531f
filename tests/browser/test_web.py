"""The browser client in real chromium: lobby → game against a bot → the end → replay; reload; errors;
the renderer interface; a phone-sized screen.  Screenshots: ``make screenshots``
refreshes docs/screenshots/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import shot
from tests.browser.lobby import wait_for_turn
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


def start_from_lobby(page: Page, base: str) -> str:
    """Create a 2-player game against a random bot from the lobby; returns the game's id."""
    page.goto(base + "/")
    expect(page.locator("#game-select")).to_have_value("sealed-bids")
    expect(page.locator("#seats select[data-seat]")).to_have_count(2)
    expect(page.locator("#seats select[data-seat]").nth(0)).to_have_value("you")
    page.select_option("#seats select[data-seat] >> nth=1", "bot:random")  # the quickest bot
    return click_start(page)


def click_start(page: Page) -> str:
    page.click("#create")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


def first_choice(page: Page) -> Locator:
    """The first legal action's button, once it is usable."""
    button = page.locator("#actions button").first
    expect(button).to_be_enabled()
    return button


def my_turn(page: Page) -> bool:
    """Wait until it is this page's turn, with a choice to click, or the game is over; True if our turn."""
    return wait_for_turn(page, choices=True)


def test_play_a_game_against_a_bot_to_the_end_reload_and_replay(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#seats select[data-seat]")).to_have_count(2)
    expect(page.locator("#variants label")).to_have_text("rich — every seat starts with 8 coins")
    page.check("#variants input[value=rich]")
    shot(page, "lobby.png")
    game_id = click_start(page)
    expect(page.locator("#board")).to_contain_text("8, 8")  # the variant is in play: 8 coins each
    expect(page.locator("#title")).to_have_text("Sealed Bids")
    turns = 0
    reloaded = False
    while my_turn(page):
        labels = page.locator("#actions button").all_inner_texts()
        assert labels, "our turn shows the legal actions"
        if turns == 1:
            shot(page, "game-fallback.png")
        if turns == 3 and not reloaded:
            # reload mid-game: the seat (cookie), the view and the log come back
            log_before = page.locator("#log li").count()
            page.reload()
            reloaded = True
            assert my_turn(page)
            expect(page.locator("#log li")).to_have_count(log_before)
            expect(page.locator("#players .you")).to_have_count(1)
        version = page.evaluate("() => document.querySelectorAll('#log li').length")
        button = first_choice(page)
        if turns % 2 == 0:
            page.keyboard.press("1")  # keyboard: the first choice
        else:
            button.click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {version}")
        turns += 1
        assert turns < 200
    assert reloaded
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#players li")).to_have_count(2)
    expect(page.locator("#players li").first).to_contain_text("rank")
    # every step is public once the game is over
    expect(page.locator("#log li.secret")).to_have_count(0)
    shot(page, "game-over.png")
    # the record downloads in full now
    record = httpx.get(f"{server.url}/api/games/{game_id}/record").json()
    steps = len(record["steps"])
    assert record["result"] is not None and steps == page.locator("#log li").count()
    # the replay viewer: step through with buttons and arrow keys
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay-caption")).to_contain_text(f"Step 0 of {steps}")
    page.click("#replay-next")
    expect(page.locator("#replay-caption")).to_contain_text(f"Step 1 of {steps} — Chance")
    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-caption")).to_contain_text(f"Step 2 of {steps}")
    page.click("#replay-last")
    expect(page.locator("#replay-caption")).to_contain_text(f"Step {steps} of {steps}")
    page.select_option("#replay-seat", "1")
    expect(page.locator("#replay-board")).to_contain_text("round")
    shot(page, "replay.png")


def test_renderer_turns_board_clicks_into_actions(page: Page, server_with_renderer: LiveServer) -> None:
    start_from_lobby(page, server_with_renderer.url)
    assert my_turn(page)
    expect(page.locator("#board .prize")).to_contain_text("the prize is worth")
    page.click("#board button[data-bid='2']")
    expect(page.locator("#board #seal")).to_be_visible()
    expect(page.locator("#log li").last).to_contain_text("bid(2)")
    shot(page, "board-renderer.png")
    page.click("#board #unseal")
    # taken back: the cancel and the bid it backed out of leave the log as players read it
    expect(page.locator("#log li.cancelled")).to_have_count(2)
    expect(page.locator("#log li", has_text="bid(2)")).to_be_hidden()
    expect(page.locator("#log li", has_text="cancel")).to_be_hidden()
    page.click("#board button[data-bid='1']")
    page.click("#board #seal")
    expect(page.locator("#log li", has_text="Player 1: confirm")).to_have_count(1)
    expect(page.locator("#log li", has_text="bid(1)")).to_be_visible()


def test_a_friend_joins_from_the_lobby_and_errors_show_in_words(
    page: Page, server: LiveServer, browser: object
) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#seats select[data-seat]")).to_have_count(2)
    page.select_option("#seats select[data-seat] >> nth=1", "human")
    game_id = click_start(page)
    expect(page.locator("#players li").nth(1)).to_contain_text("open seat")
    # a friend in another browser context sees the open game in the lobby and joins it
    friend = page.context.browser.new_context().new_page()  # type: ignore[union-attr]
    friend.goto(server.url + "/")
    friend.click(f"li[data-game='{game_id}'] button")
    friend.wait_for_url(f"**/game/{game_id}")
    expect(friend.locator("#players .you")).to_contain_text("Player 2")
    # a third person with a stale lobby tries the taken seat: the refusal is shown in words
    third = page.context.browser.new_context().new_page()  # type: ignore[union-attr]
    third.goto(server.url + "/")
    expect(third.locator(f"li[data-game='{game_id}']")).to_have_count(0)
    third.evaluate(
        f"() => Ludorum.api('POST', '/api/games/{game_id}/seats/1/claim').catch(e => "
        "document.querySelector('#lobby-error').textContent = e.message)"
    )
    expect(third.locator("#lobby-error")).to_have_text("this seat is not free")
    # the first player's page learns by WebSocket that the seat is taken
    expect(page.locator("#players li").nth(1)).to_contain_text("(player)")
    # seat 1 cannot act out of turn: its page shows no choices while Player 1 decides
    expect(friend.locator("#status")).to_contain_text("Waiting for Player 1")
    expect(friend.locator("#actions button")).to_have_count(0)
    first_choice(page)
    page.keyboard.press("1")
    expect(page.locator("#actions button").first).to_contain_text("confirm")
    first_choice(page)
    page.keyboard.press("1")
    expect(friend.locator("#status")).to_have_text("Your turn.")
    friend.context.close()
    third.context.close()


def test_phone_sized_screen(page: Page, server: LiveServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_from_lobby(page, server.url)
    assert my_turn(page)
    expect(page.locator("#actions button").first).to_be_visible()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    shot(page, "phone.png")


def test_resume_a_saved_record_from_the_lobby_then_leave_to_a_bot(
    page: Page, server: LiveServer, tmp_path: Path
) -> None:
    record = {
        "format": 1,
        "game": "sealed-bids",
        "config": {"players": 2, "variants": [], "content": "base", "options": {}},
        "seed": 4242,
        "steps": [[-1, {"kind": "prize", "args": [5]}], [0, {"kind": "bid", "args": [1]}]],
        "result": None,
    }
    save = tmp_path / "ludorum-save.json"
    save.write_text(json.dumps(record))
    page.goto(server.url + "/")
    page.click(".upload summary")  # the lobby has other folded sections (the account panel)
    page.set_input_files("#upload-file", str(save))
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"))
    assert my_turn(page)
    expect(page.locator("#log li")).to_have_count(2)
    expect(page.locator("#actions button").first).to_contain_text("confirm")
    # leaving hands the seat to a bot, which plays the game to its end
    page.click("text=Leave (a bot takes over)")
    expect(page.locator("#players li").first).to_contain_text("bot")
    expect(page.locator("#status")).to_contain_text("Game over", timeout=30_000)


def test_rematch_after_the_end(page: Page, server: LiveServer) -> None:
    start_from_lobby(page, server.url)
    first = page.url
    while my_turn(page):  # only a player may ask for the rematch: play it out by keyboard
        version = page.evaluate("() => document.querySelectorAll('#log li').length")
        page.keyboard.press("1")
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {version}")
    page.click("text=Rematch")
    page.wait_for_url(lambda url: url != first and "/game/" in url)
    expect(page.locator("#players li")).to_have_count(2)
