"""Phones (390×844, a touch screen) for each game: the board comes first and fits the screen's width, its
words are at least :data:`MIN_PX` on the screen, the choices sit in a bottom sheet, a board pop-up stays
clear of the thing it is about, and Reliquium's map zooms and pans (its viewBox) and resets.

Screenshots (the screen as seen, not the whole page): phone-<game>.png, phone-<game>-menu.png and
phone-reliquium-zoomed.png (``make screenshots`` refreshes docs/screenshots/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ludorum.engine import Registry
from ludorum.games import registry as product_registry
from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.lobby import log_length, start_from_lobby, wait_for_turn
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = PHONE["width"], PHONE["height"]  # the ``phone`` fixture's screen
MIN_PX = 9  # the smallest a board's word may be on the screen, in CSS pixels
GAMES = {
    "reliquium": (4, "#board .rl-map"),
    "medieval-realms": (2, "#board .mr"),
    "signum": (2, "#board .sg-field-svg"),
}

BOXES = """() => Object.fromEntries(['#board', '#actions-panel', '#players'].map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [s, { left: r.left, right: r.right, top: r.top, bottom: r.bottom }]; }))"""

SMALLEST_TEXT = """() => { const sizes = [...document.querySelectorAll('#board svg text')]
  .filter((t) => t.getBoundingClientRect().width > 0)
  .map((t) => { const m = t.getScreenCTM();
    return [parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b), t.textContent]; });
  sizes.sort((a, b) => a[0] - b[0]); return [sizes.length, sizes[0]]; }"""

# The part of an element the player sees: its box clipped by its SVG and by what scrolls or clips it.
VISIBLE = """(node) => { const r = node.getBoundingClientRect();
  let a = [r.left, r.top, r.right, r.bottom];
  for (let p = node.parentElement; p; p = p.parentElement) {
    if (getComputedStyle(p).overflow === 'visible' && p.tagName.toLowerCase() !== 'svg') continue;
    const q = p.getBoundingClientRect();
    a = [Math.max(a[0], q.left), Math.max(a[1], q.top), Math.min(a[2], q.right), Math.min(a[3], q.bottom)];
  }
  return a; }"""

# A board thing with several choices (its click opens a pop-up), scrolled to show it above the sheet:
# the point to tap on it.
PICK = f"""() => {{ const visible = {VISIBLE};
  const sheet = document.querySelector('#actions-panel').getBoundingClientRect().top;
  for (const node of document.querySelectorAll('#board [role=button][aria-label$=" choices"]')) {{
    node.scrollIntoView({{ block: 'start' }});
    window.scrollBy(0, -40);
    const [l, t, r, b] = visible(node);
    if (r - l < 16 || b - t < 16 || t > sheet - 16) continue;
    for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {{
      const x = l + (r - l) * i / 8, y = t + (b - t) * j / 8, hit = document.elementFromPoint(x, y);
      if (hit && node.contains(hit)) {{ node.setAttribute('data-phone-test', ''); return [x, y]; }}
    }}
  }}
  return null; }}"""


# A clickable place of Reliquium's map whose middle is outside the view, marked (or false).
MARK_FAR = """() => { const v = document.querySelector('#board .rl-map').getBoundingClientRect();
  const far = [...document.querySelectorAll('#board .rl-map .rl-hot')].find((n) => {
    const r = n.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    return x < v.left || x > v.right || y < v.top || y > v.bottom; });
  if (far) far.setAttribute('data-far', ''); return Boolean(far); }"""


@pytest.fixture
def games_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server holding the three games, bots moving at once."""
    reg = Registry()
    products = product_registry()
    for name in GAMES:
        reg.register(products.get(name))
    with LiveServer(f"sqlite:///{tmp_path / 'phone.sqlite3'}", registry=reg, bot_delay=0.0) as srv:
        yield srv


def screen(page: Page, name: str) -> None:
    """A screenshot of the screen as the player sees it (the sheet at its foot)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name))


def assert_legible(page: Page) -> None:
    count, smallest = page.evaluate(SMALLEST_TEXT)
    assert count > 0 and smallest[0] >= MIN_PX, smallest


def test_the_lobby_fits_the_phone_for_every_game(phone: Page, games_server: LiveServer) -> None:
    """Every game's lobby form fits the screen's width (a wide select or a nowrap line once made the page
    wider than the phone, zoomed it out and put the start button under the clock's fieldset)."""
    phone.goto(games_server.url + "/")
    for game in GAMES:
        expect(phone.locator(f"#game-select option[value='{game}']")).to_have_count(1)
        phone.select_option("#game-select", game)
        expect(phone.locator("#seats select[data-seat]").first).to_be_visible()
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH, game
        box = phone.locator("#create").bounding_box()
        assert box is not None and box["x"] + box["width"] <= WIDTH, (game, box)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_board_comes_first_and_pop_ups_stay_clear(
    phone: Page, games_server: LiveServer, game: str
) -> None:
    players, drawn = GAMES[game]
    start_from_lobby(phone, games_server.url, game, players)
    assert wait_for_turn(phone, drawn)
    boxes = phone.evaluate(BOXES)
    board, sheet = boxes["#board"], boxes["#actions-panel"]
    # the board first: above the players, and starting on the first screen above the choices' sheet
    assert board["top"] < boxes["#players"]["top"] and board["top"] < sheet["top"] < HEIGHT, boxes
    assert abs(sheet["bottom"] - HEIGHT) <= 1 and sheet["left"] <= 0 and sheet["right"] >= WIDTH, sheet
    assert board["left"] >= 0 and board["right"] <= WIDTH, board
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    assert_legible(phone)
    screen(phone, f"phone-{game}.png")
    # the sheet folds to its title and back
    phone.locator("#sheet-toggle").tap()
    expect(phone.locator("#actions")).to_be_hidden()
    phone.locator("#sheet-toggle").tap()
    expect(phone.locator("#actions")).to_be_visible()
    # a board thing with several choices: its pop-up does not cover it
    if game == "signum":
        return  # the first turns' choices are buttons above the field (test_signum.py opens its menus)
    point = phone.evaluate(PICK)
    assert point, "no board thing with several choices on the first turn"
    before = log_length(phone)
    phone.touchscreen.tap(*point)
    menu = phone.locator("#board [role=menu]")
    expect(menu).to_be_visible()
    left, top, right, bottom = phone.evaluate(VISIBLE, phone.locator("[data-phone-test]").element_handle())
    m = menu.bounding_box()
    assert m is not None
    apart = m["x"] >= right or m["x"] + m["width"] <= left or m["y"] >= bottom or m["y"] + m["height"] <= top
    assert apart, (m, [left, top, right, bottom])
    assert m["x"] >= 0 and m["x"] + m["width"] <= WIDTH, m
    assert log_length(phone) == before  # several choices: nothing was sent yet
    screen(phone, f"phone-{game}-menu.png")


def test_the_reliquium_map_zooms_pans_and_resets(phone: Page, games_server: LiveServer) -> None:
    start_from_lobby(phone, games_server.url, "reliquium", 4)
    assert wait_for_turn(phone, "#board .rl-map")
    svg = phone.locator("#board .rl-map")
    view = lambda: [float(v) for v in svg.get_attribute("viewBox").split()]  # noqa: E731
    start = view()
    phone.locator("#board .rl-zoom-out").tap()  # the whole map: the names grow to stay legible
    whole = view()
    assert whole[2] > start[2] and whole[:2] == [0, 0], (start, whole)
    assert_legible(phone)
    # two fingers spread apart zoom in
    box = svg.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = phone.context.new_cdp_session(phone)
    for kind, d in [("touchStart", 20), *[("touchMove", d) for d in (40, 60, 80)], ("touchEnd", 0)]:
        points = [{"x": x - d, "y": y, "id": 0}, {"x": x + d, "y": y, "id": 1}] if d else []
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
    pinched = view()
    assert pinched[2] < whole[2] / 2, (whole, pinched)
    phone.locator("#board .rl-zoom-in").tap()
    zoomed = view()
    assert zoomed[2] < pinched[2] and zoomed[2] < start[2], (start, pinched, zoomed)
    # a drag pans the map, and is no click on what it started on
    before = log_length(phone)
    phone.mouse.move(x, y)
    phone.mouse.down()
    phone.mouse.move(x - 60, y - 40, steps=5)
    phone.mouse.up()
    panned = view()
    assert panned[0] > zoomed[0] and panned[1] > zoomed[1] and panned[2] == zoomed[2], (zoomed, panned)
    expect(phone.locator("#board .rl-menu")).to_have_count(0)
    assert log_length(phone) == before
    assert_legible(phone)
    screen(phone, "phone-reliquium-zoomed.png")
    # a clickable place reached by keyboard outside the view: the view moves to it
    assert phone.evaluate(MARK_FAR), "every clickable place is in view"
    phone.locator("#board [data-far]").focus()
    assert view()[:2] != panned[:2]
    # Ctrl + wheel (a trackpad's pinch) zooms out again; the reset brings back the first view
    phone.keyboard.down("Control")
    phone.mouse.wheel(0, 300)
    phone.keyboard.up("Control")
    assert view()[2] > panned[2]
    phone.locator("#board .rl-zoom-reset").tap()
    assert view() == start
