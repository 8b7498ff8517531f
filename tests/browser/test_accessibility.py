"""axe-core (shipped in the ``axe-playwright-python`` package, injected from disk: nothing fetched) finds
no serious or critical violation on the lobby, a rules page and each game's page."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ludorum.games import registry
from tests.browser.lobby import start_from_lobby, wait_for_turn
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser

_spec = importlib.util.find_spec("axe_playwright_python")
AXE = Path(_spec.origin).with_name("axe.min.js") if _spec and _spec.origin else None
BLOCKING = ("serious", "critical")


def violations(page: Page) -> list[dict[str, Any]]:
    """axe's serious and critical findings on the page as it is now."""
    assert AXE is not None and AXE.is_file(), "axe-playwright-python (the test extra) ships axe.min.js"
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in found
        if v["impact"] in BLOCKING
    ]


@pytest.fixture
def games_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The three games; bots wait, so that the page is checked on the player's own turn."""
    with LiveServer(f"sqlite:///{tmp_path / 'a11y.sqlite3'}", registry=registry(), bot_delay=0.0) as srv:
        yield srv


def test_the_lobby_and_a_rules_page_pass_axe(page: Page, games_server: LiveServer) -> None:
    page.goto(games_server.url + "/")
    page.select_option("#game-select", "reliquium")
    expect(page.locator("#seats select[data-option=factions]")).to_have_count(2)
    assert violations(page) == []
    page.goto(games_server.url + "/static/rules.html?game=reliquium")
    expect(page.locator("#rules-contents a").first).to_be_visible()
    assert violations(page) == []


@pytest.mark.parametrize("game", ["reliquium", "medieval-realms", "signum"])
def test_each_game_page_passes_axe(page: Page, games_server: LiveServer, game: str) -> None:
    start_from_lobby(page, games_server.url, game, 2)
    wait_for_turn(page)
    expect(page.locator("#board *").first).to_be_attached()
    assert violations(page) == []
