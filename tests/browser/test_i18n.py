"""Each game's screens in Russian: the language chosen in the lobby's menu (and remembered), the lobby with
the game chosen, the game page with its board and log, and a refusal — no untranslated text is left."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludorum.games import registry
from tests.browser.lobby import start_from_lobby
from tests.server.support import LiveServer

LATIN = re.compile(r"[A-Za-z]{2,}")
PROPER = frozenset(
    {
        "Ludorum",
        "English",
        "Reliquium",
        "Medieval",
        "Realms",
        "Legends",
        "of",
        "Signum",
        "JSON",
        "Tab",
        "Enter",
        "XL",  # Legends of Signum's longest distance, which its Russian rulebook writes in Latin letters
    }
    | {"random", "heuristic", "easy", "medium", "hard", "expert"}  # the bots' names, as the API knows them
)
"""Latin words a Russian reader may see: the product's and the games' names, the language menu's
"English", keys, the bots' names."""

TRANSLATED = {"reliquium", "medieval-realms", "signum"}
"""Games whose every text is translated (docs/i18n.md); the others' walk is expected to fail."""


@pytest.fixture
def product_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server with the three games, bots moving at once."""
    with LiveServer(f"sqlite:///{tmp_path / 'i18n.sqlite3'}", registry=registry(), bot_delay=0.0) as srv:
        yield srv


def untranslated(page: Page) -> dict[str, str]:
    """The Latin words the page shows (its text, title, and the labels of its controls), each with where."""
    texts: list[str] = page.evaluate(
        """() => [document.title, document.body.innerText,
                  ...[...document.querySelectorAll('[aria-label], [title]')].flatMap(
                      (e) => [e.getAttribute('aria-label'), e.getAttribute('title')]).filter(Boolean)]"""
    )
    found: dict[str, str] = {}
    for text in texts:
        for word in LATIN.findall(text):
            if word not in PROPER:
                at = text.find(word)
                found.setdefault(word, text[max(0, at - 40) : at + 40])
    return found


def choose_russian(page: Page, base: str) -> None:
    """Pick Русский in the lobby's menu: the page reloads in Russian and remembers it."""
    page.goto(base + "/")
    page.select_option("#language", "ru")
    expect(page.locator("#new-title")).to_have_text("Новая партия")
    page.goto(base + "/")
    expect(page.locator("#new-title")).to_have_text("Новая партия")
    assert {c["name"]: c["value"] for c in page.context.cookies()}["ludorum_lang"] == "ru"


@pytest.mark.parametrize(
    "game",
    [
        pytest.param(g, marks=() if g in TRANSLATED else pytest.mark.xfail(strict=True, reason="not yet"))
        for g in ("reliquium", "medieval-realms", "signum")
    ],
)
def test_each_game_reads_in_russian(page: Page, product_server: LiveServer, game: str) -> None:
    base = product_server.url
    choose_russian(page, base)
    page.select_option("#game-select", game)
    expect(page.locator("#game-blurb")).not_to_be_empty()
    left = untranslated(page)
    start_from_lobby(page, base, game, registry().get(game).min_players)
    # The game's own board, not the raw view shown until its renderer has loaded (a busy machine is slow).
    expect(page.locator("#board svg").first).to_be_visible(timeout=30_000)
    expect(page.locator("#actions button").first).to_be_enabled(timeout=60_000)
    left |= untranslated(page)
    page.locator("#actions button").first.click()  # a step of ours, unless it opened a group of choices
    if page.locator("#log li").count() == 0 and page.locator("#actions button").first.is_enabled():
        page.wait_for_timeout(500)  # the step's answer may be on its way
        if page.locator("#log li").count() == 0:
            page.locator("#actions button").first.click()  # the group's first choice: now a step
    expect(page.locator("#log li").first).to_be_attached(timeout=60_000)
    left |= untranslated(page)
    game_id = page.url.rsplit("/", 1)[1]
    version = page.request.get(f"{base}/api/games/{game_id}").json()["version"]  # the page's cookie: Russian
    for _ in range(10):  # a bot may move between reading the version and refusing: then at the new one
        refusal = page.request.post(
            f"{base}/api/games/{game_id}/actions",
            data={"version": version, "action": {"kind": "x", "args": [99]}},
        )
        if refusal.status != 409:
            break
        left |= {w: "conflict" for w in LATIN.findall(refusal.json()["error"]["message"]) if w not in PROPER}
        version = refusal.json()["error"]["version"]
        page.wait_for_timeout(200)
    assert refusal.status == 422, refusal.text()
    left |= {
        w: "refusal"
        for w in LATIN.findall(str(refusal.json()["error"].get("message", "")))
        if w not in PROPER
    }
    assert not left, f"untranslated: {left}"


def test_the_rules_pages_in_russian(page: Page, product_server: LiveServer) -> None:
    """Every game's rules page is written in Russian; a page that is not (the server answers ``lang``
    English) is shown with a note, in Russian, that it is English."""
    base = product_server.url
    choose_russian(page, base)
    for game, words in (("signum", "Одержать победу в стандартном режиме"), ("reliquium", "Кряж Саксум"),
                        ("medieval-realms", "Личная выкладка")):  # fmt: skip
        page.goto(base + f"/static/rules.html?game={game}")
        expect(page.locator("#rules")).to_contain_text(words)
        assert page.locator("#rules").get_attribute("lang") == "ru"
        expect(page.locator("#rules [role=note]")).to_have_count(0)
    english = {"game": "signum", "title": "Legends of Signum", "html": "<h1>The rules</h1>", "lang": "en"}
    page.route("**/api/rules/signum", lambda route: route.fulfill(json=english))
    page.goto(base + "/static/rules.html?game=signum")
    note = "Эти правила ещё не переведены на ваш язык: здесь они на английском."
    expect(page.locator("#rules [role=note]")).to_have_text(note)
    assert page.locator("#rules").get_attribute("lang") == "en"
