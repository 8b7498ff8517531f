"""Playing through the page: start a game from the lobby, wait for our turn, count the log."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect


def start_from_lobby(page: Page, base: str, game: str, players: int, variants: tuple[str, ...] = ()) -> str:
    """From the lobby: ``game`` for ``players``, you in seat 1 and heuristic bots elsewhere; its id."""
    page.goto(base + "/")
    expect(page.locator(f"#game-select option[value='{game}']")).to_have_count(1)
    page.select_option("#game-select", game)
    page.locator("#players").fill(str(players))
    page.locator("#players").dispatch_event("change")
    expect(page.locator("#seats select[data-seat]")).to_have_count(players)
    expect(page.locator("#seats select[data-seat]").nth(0)).to_have_value("you")
    for i in range(1, players):  # the game's own heuristic bot: quicker than the default search bot
        page.locator("#seats select[data-seat]").nth(i).select_option("bot:heuristic")
    for name in variants:
        page.locator(f"#variants input[value='{name}']").check()
    expect(page.locator("#variants input:checked")).to_have_count(len(variants))
    page.click("#create")
    page.wait_for_url(re.compile(r".*/game/[0-9a-f]+$"))
    return page.url.rsplit("/", 1)[1]


def wait_for_turn(page: Page, board: str | None = None, choices: bool = False) -> bool:
    """Wait until it is this page's turn (with ``board`` drawn, if given; with a choice in the list that can
    be clicked, if ``choices``) in the game's current position, or the game is over.

    True if it is our turn.  "Current" is what makes a seeded game play the same every run: the page
    says "Your turn" until the answer to our last move arrives, so the page must show the version the
    server holds (nobody else moves while it is our turn, so that position is the one we decide in)."""
    drawn = f" && document.querySelector('{board}')" if board else ""
    # While our last move is on its way the status still says "Your turn" with every choice disabled, and
    # the game may end meanwhile: a page played through its list of choices waits for one it can click.
    if choices:
        drawn += " && document.querySelector('#actions button:not([disabled])')"
    game_id = page.url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 60
    while True:
        # One reading decides: reading the status again afterwards raced a push that had just changed it
        # (right after our move the status may still say "Your turn", then "Waiting for …").
        found = page.wait_for_function(
            "() => { const s = document.querySelector('#status').textContent;"
            f" if (s.startsWith('Your turn'){drawn}) return 'turn:' + document.body.dataset.version;"
            " return s.startsWith('Game over') ? 'over' : false; }",
            timeout=60_000,
        ).json_value()
        if found == "over":
            return False
        held = page.evaluate(
            f"() => fetch('/api/games/{game_id}').then((r) => r.json()).then((s) => s.version)"
        )
        if found == f"turn:{held}":
            return True
        if time.monotonic() > deadline:
            raise AssertionError(f"the page shows version {found}, the server holds {held}")
        page.wait_for_timeout(20)


def log_length(page: Page) -> int:
    """How many entries the game log shows."""
    return int(page.evaluate("() => document.querySelectorAll('#log li').length"))
