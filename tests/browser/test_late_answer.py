"""The answer to our own move can arrive after the push that already carries the next steps (the bot's
reply): the page keeps the newer snapshot and its choices stay usable.  Before, the push was drawn while
our move was on its way (every choice disabled) and the older answer, ignored, never drew them again:
the page sat on "Your turn" with nothing to click."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.lobby import log_length, wait_for_turn
from tests.browser.test_web import start_from_lobby
from tests.server.support import LiveServer


@pytest.fixture
def slow_bot_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The fixture game with a bot that thinks half a second: our move's answer is made before its reply."""
    with LiveServer(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.5) as srv:
        yield srv


def test_an_answer_older_than_the_push_leaves_the_choices_usable(
    page: Page, slow_bot_server: LiveServer
) -> None:
    start_from_lobby(page, slow_bot_server.url)
    assert wait_for_turn(page, choices=True)
    page.locator("#actions button").first.click()  # a bid: ours to confirm, the bot waits
    expect(page.locator("#actions button", has_text="confirm")).to_be_enabled()
    before = log_length(page)

    def late(route: Route) -> None:
        """Hold our move's answer until the pushes of the bot's reply, back to our turn, have been drawn."""
        answer = route.fetch()
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length >= {before + 3}"
            " && document.querySelector('#status.yours')"
        )
        route.fulfill(response=answer)

    page.route("**/api/games/*/actions", late)
    page.locator("#actions button", has_text="confirm").click()  # the bot bids at once: a push
    assert wait_for_turn(page, choices=True)
    expect(page.locator("#actions button").first).to_be_enabled()
