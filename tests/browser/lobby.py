"""Playing through the page: start a game from the lobby, wait for our turn, count the log."""

from __future__ import annotations

import re

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
    be clicked, if ``choices``) or the game is over.

    True if it is our turn."""
    drawn = f" && document.querySelector('{board}')" if board else ""
    # While our last move is on its way the status still says "Your turn" with every choice disabled, and
    # the game may end meanwhile: a page played through its list of choices waits for one it can click.
    if choices:
        drawn += " && document.querySelector('#actions button:not([disabled])')"
    # One reading decides: reading the status again afterwards raced a push that had just changed it
    # (right after our move the status may still say "Your turn", then "Waiting for …").
    found = page.wait_for_function(
        "() => { const s = document.querySelector('#status').textContent;"
        f" if (s.startsWith('Your turn'){drawn}) return 'turn';"
        " return s.startsWith('Game over') ? 'over' : false; }",
        timeout=60_000,
    )
    return bool(found.json_value() == "turn")


def log_length(page: Page) -> int:
    """How many entries the game log shows."""
    return int(page.evaluate("() => document.querySelectorAll('#log li').length"))
