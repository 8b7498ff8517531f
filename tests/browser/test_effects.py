"""What a thing does, at the moment of choosing (issue 35), in real chromium: for each game, a seeded game
against the heuristic bots, played through the list of choices for a few of our turns.  At each of them
every choice and board piece that names a card, creature, building, property or piece has its effect
text (the server's ``/api/effects/<game>``, fetched here on the side) as its accessible description, the
popover shows it on hover and on keyboard focus, and the page names no card this seat may not see; the
rules link opens beside the game and the player aid opens in a dialog.  In English and in Russian.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from ludorum.engine import Registry
from ludorum.games import registry as all_games
from ludorum.server import security
from tests.browser.lobby import start_from_lobby
from tests.server.support import LiveServer

SEED = 11
"""Every seed the server draws (each game's and its bots'): the same games from run to run."""
TURNS = {"reliquium": 6, "medieval-realms": 12, "signum": 6}
"""How many of our decisions each game is played for: enough to summon, play a card or activate one (a
Medieval Realms round opens with seven decisions of resources and leaders)."""
PIECES = {
    "reliquium": ".rl-unit, .rl-castle, .rl-token, .rl-creature",
    "medieval-realms": ".mr-card, .mr-played",
    "signum": ".sg-model, .sg-card, .sg-ter, .sg-chip",
}
"""The board's pieces that each have an effect text (every one of them must carry it)."""
PLAYERS = {"reliquium": 2, "medieval-realms": 2, "signum": 2}
AID = {"en": "How to win", "ru": "Как победить"}


@pytest.fixture
def games_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """A live server with the three games, bots moving at once, every game the same from run to run."""
    monkeypatch.setattr(security, "new_seed", lambda: SEED)
    reg = Registry()
    for game in all_games():
        if game.name in PLAYERS:
            reg.register(game)
    with LiveServer(f"sqlite:///{tmp_path / 'effects.sqlite3'}", registry=reg, bot_delay=0.0) as srv:
        yield srv


def _our_turn(page: Page) -> bool:
    """Wait until a choice can be clicked (True) or the game is over (False), in any language."""
    found = page.wait_for_function(
        "() => document.querySelector('#status.yours') && document.querySelector('#board svg')"
        " && document.querySelector('#actions button:not([disabled])') ? 'turn'"
        " : !document.querySelector('#replay').hidden ? 'over' : false",
        timeout=60_000,
    )
    return bool(found.json_value() == "turn")


def _effects(base: str, game: str, lang: str) -> dict[str, dict[str, str]]:
    """The effect texts as the server gives them, read beside the page (not through it)."""
    answer = httpx.get(f"{base}/api/effects/{game}", headers={"Accept-Language": lang})
    return answer.json()["effects"]  # type: ignore[no-any-return]


def _described(page: Page, selector: str) -> list[dict[str, Any]]:
    """Each element's effect key, its accessible description's text and its own words."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        selector,
        """nodes => nodes.map(n => ({
            key: n.getAttribute('data-effect'),
            words: n.textContent.trim(),
            described: (n.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean)
                .map(id => document.getElementById(id)).filter(Boolean).map(d => d.textContent).join(' '),
        }))""",
    )


def _check_turn(page: Page, game: str, effects: dict[str, dict[str, str]]) -> int:
    """Every piece and every choice naming a thing has that thing's effect text; how many choices did."""
    # a redrawn board is linked to its texts on the next frame (effects.js): wait for it
    page.wait_for_function(
        "() => (document.querySelector('#effect-texts') || {children: []}).children.length"
        " && [...document.querySelectorAll('#board [data-effect], #actions [data-effect]')]"
        ".every(n => n.hasAttribute('aria-describedby'))"
    )
    pieces = _described(page, f"#board :is({PIECES[game]})")
    assert pieces, f"no {PIECES[game]} on the board"
    for piece in pieces:
        entry = effects.get(piece["key"])
        assert entry, f"a board piece without an effect: {piece}"
        assert piece["described"] == f"{entry['name']}: {entry['text']}"
    named = 0
    for choice in _described(page, "#actions button:not(.back)"):
        names = [e["name"] for e in effects.values() if e["name"] in choice["words"]]
        if choice["key"] is None:
            assert not names, f"the choice {choice['words']!r} names {names} but shows no effect"
            continue
        entry = effects[choice["key"]]
        assert choice["described"] == f"{entry['name']}: {entry['text']}"
        named += 1
    return named


def _hover_and_focus(page: Page, game: str, effects: dict[str, dict[str, str]]) -> None:
    """The popover shows a piece's text on hover and a choice's on keyboard focus, and Escape hides it."""
    piece = page.locator(f"#board :is({PIECES[game]})[data-effect]").first
    piece.hover(force=True)
    entry = effects[str(piece.get_attribute("data-effect"))]
    expect(page.locator("#effect-tip")).to_be_visible()
    expect(page.locator("#effect-tip")).to_contain_text(entry["text"])
    page.keyboard.press("Escape")
    expect(page.locator("#effect-tip")).to_be_hidden()
    choice = page.locator("#actions button[data-effect]").first
    if choice.count():
        choice.focus()
        entry = effects[str(choice.get_attribute("data-effect"))]
        expect(page.locator("#effect-tip")).to_contain_text(entry["text"])
        page.keyboard.press("Escape")


def _visible_strings(base: str, game_id: str, page: Page) -> set[str]:
    """Every string in this seat's view, its keys too (what the seat may see)."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    view = httpx.get(f"{base}/api/games/{game_id}", cookies=cookies).json()["view"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            found.update(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(view)
    return found


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_every_piece_and_choice_says_what_it_does(
    games_server: LiveServer, page: Page, game: str, lang: str
) -> None:
    base = games_server.url
    page.context.add_cookies([{"name": "ludorum_lang", "value": lang, "url": base}])
    effects = _effects(base, game, lang)

    def late(route: Route) -> None:
        """The texts arrive after the first choices are drawn (as on a slow line): they are linked anyway."""
        answer = route.fetch()
        page.wait_for_function("() => document.querySelector('#actions button')")
        route.fulfill(response=answer)

    page.route("**/api/effects/*", late)
    game_id = start_from_lobby(page, base, game, PLAYERS[game])
    named = 0
    for _turn in range(TURNS[game]):
        if not _our_turn(page):
            break
        named += _check_turn(page, game, effects)
        if game == "signum":  # the page names no card the seat cannot see (an opponent's hand, its tactics)
            keys = set(
                page.eval_on_selector_all("[data-effect]", "ns => ns.map(n => n.getAttribute('data-effect'))")
            )
            assert keys <= _visible_strings(base, game_id, page)
        if _turn == 0:
            _hover_and_focus(page, game, effects)
        # take a choice that names a thing when there is one (a summon, a card), else the first
        button = page.locator("#actions button[data-effect]:not([disabled])").first
        if not button.count():
            button = page.locator("#actions button:not([disabled])").first
        button.click()
        if page.locator("#actions .group-title").count():  # a group opened: take its first entry
            page.locator("#actions button:not(.back):not([disabled])").first.click()
    assert named, "no choice named a thing in these turns"
    _rules_and_aid(page, game, lang)


def _rules_and_aid(page: Page, game: str, lang: str) -> None:
    """The rules page opens beside the game; the player aid opens in a dialog and closes."""
    rules = page.locator("#rules-link")
    assert rules.get_attribute("target") == "_blank"
    assert rules.get_attribute("href") == f"/static/rules.html?game={game}"
    page.click("#aid-button")
    dialog = page.locator("dialog#aid")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(AID[lang])
    assert json.loads(page.evaluate("() => JSON.stringify(document.documentElement.lang)")) == lang
    page.click("#aid-close")
    expect(dialog).to_be_hidden()


LONG_PRESS = """([x, y, ms]) => new Promise((done) => {
    const target = document.elementFromPoint(x, y);
    const at = { pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true };
    target.dispatchEvent(new PointerEvent('pointerdown', at));
    setTimeout(() => {
        target.dispatchEvent(new PointerEvent('pointerup', at));
        target.dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }));
        done();
    }, ms);
})"""
"""A touch held ``ms`` milliseconds at (x, y), then lifted: what a phone sends (Playwright only taps)."""


def test_a_long_press_shows_what_a_choice_does_and_chooses_nothing(
    games_server: LiveServer, phone: Page
) -> None:
    """On a phone: a long press on a choice shows its effect text and does not take it; a tap takes it."""
    start_from_lobby(phone, games_server.url, "signum", 2)
    effects = _effects(games_server.url, "signum", "en")
    choice = phone.locator("#actions button[data-effect]:not([disabled])").first
    for _turn in range(TURNS["signum"]):
        assert _our_turn(phone)
        if choice.count():
            break
        phone.locator("#actions button:not([disabled])").first.click()
    assert choice.count(), "no choice named a card in these turns"
    steps = int(phone.evaluate("() => document.querySelectorAll('#log li').length"))
    words = choice.text_content()
    choice.scroll_into_view_if_needed()
    box = choice.bounding_box()
    assert box
    phone.evaluate(LONG_PRESS, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 700])
    expect(phone.locator("#effect-tip")).to_be_visible()
    expect(phone.locator("#effect-tip")).to_contain_text(
        effects[str(choice.get_attribute("data-effect"))]["text"]
    )
    expect(phone.locator("#actions button", has_text=str(words).strip()).first).to_be_enabled()
    assert phone.evaluate("() => document.querySelectorAll('#log li').length") == steps  # nothing was chosen
    phone.locator("#actions button", has_text=str(words).strip()).first.click()  # a plain tap chooses
    expect(phone.locator("#log li")).not_to_have_count(steps)
