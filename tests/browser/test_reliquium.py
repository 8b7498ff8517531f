"""Reliquium in real chromium: the map drawn from the engine's polygons, and a full 4-player game (you + 3
heuristic bots) from the lobby to the end, played by clicks on the board (regions, borders, junctions, the
track, the marker), the frame's list only when the board offers nothing.

Screenshots are named reliquium-*.png (``make screenshots`` refreshes docs/screenshots/).  The map
reaches the browser as ``ludorum/web/static/games/reliquium-map.json`` (written by
``ludorum/games/reliquium/browser_map.py``): the first test keeps it equal to ``map_geometry()``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from ludorum.engine import Registry
from ludorum.games.reliquium import GAME, map_geometry
from ludorum.games.reliquium.bot import HeuristicBot
from ludorum.games.reliquium.browser_map import TARGET, geometry_json
from ludorum.games.reliquium.content import TERRAINS
from ludorum.games.reliquium.mapdesign import THREE_PLAYERS
from ludorum.games.reliquium.rules import C
from ludorum.games.reliquium.state import P_ABILITY
from ludorum.server import security
from tests.browser.conftest import shot
from tests.browser.lobby import log_length, start_from_lobby, wait_for_turn
from tests.server.support import LiveServer

RENDERER = TARGET.with_name("reliquium.js")


def test_the_map_file_is_map_geometry() -> None:
    """The browser's map is the engine's (else run ``python -m ludorum.games.reliquium.browser_map``)."""
    assert json.loads(TARGET.read_text(encoding="utf-8")) == map_geometry()
    assert TARGET.read_text(encoding="utf-8") == geometry_json()


def test_the_renderers_creature_table_is_the_games() -> None:
    """reliquium.js names each creature's ability by its number (the pending summoning gives only that)."""
    block = RENDERER.read_text(encoding="utf-8").split("const CREATURES = [", 1)[1].split("];", 1)[0]
    table = re.findall(r'\["(\w+)", "(\w+)"\]', block)
    assert table == [(c.name, c.ability) for c in C.creatures]
    # the renderer derives faction and class from the number: three per faction, in class order
    assert [(c.faction, c.cls) for c in C.creatures] == [(i // 3, i % 3) for i in range(12)]


SEED = 9
"""Every seed this test's server draws — each game's and its bots' — is this one: a game dealt at random
often ends before our seat has a war-phase decision to make (with the seeds 1 to 5, four games of five
did; CI saw one on 2 December 2026): a test of the war phase's clicks must see that phase.  Rules version 4
changed the bots' play (seeds 1 to 8 no longer reach our seat's war; 9 does)."""


@pytest.fixture
def reliquium_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """A live server holding only Reliquium, bots moving at once, every game the same from run to run."""
    monkeypatch.setattr(security, "new_seed", lambda: SEED)
    reg = Registry()
    reg.register(GAME)
    with LiveServer(f"sqlite:///{tmp_path / 'reliquium.sqlite3'}", registry=reg, bot_delay=0.0) as srv:
        yield srv


def start_four_player_game(page: Page, base: str, variants: tuple[str, ...] = ()) -> str:
    """From the lobby: Reliquium, 4 players, you in seat 1 (the Legion) and three heuristic bots."""
    return start_from_lobby(page, base, "reliquium", 4, variants)


def my_turn(page: Page) -> bool:
    """Wait until it is this page's turn or the game is over; True if it is our turn."""
    return wait_for_turn(page, "#board .rl-map")


def check_drawing(page: Page, view: dict) -> None:
    """What the board shows matches the view: units, castles, combat tokens, creature tokens, markers."""
    board = page.locator("#board .rl-map")
    units = sum(sum(u) for r, u in enumerate(view["units"]) if view["occupant"][r] != -1)
    expect(board.locator(".rl-content .rl-unit")).to_have_count(units)
    expect(board.locator(".rl-content .rl-castle")).to_have_count(sum(c != -1 for c in view["castle"]))
    expect(board.locator(".rl-token.rl-melee")).to_have_count(len(view["melee"]))
    expect(board.locator(".rl-token.rl-ranged")).to_have_count(len(view["ranged"]))
    expect(board.locator(".rl-creature:not(.rl-ghost)")).to_have_count(len(view["creature_tokens"]))
    for t in view["tokens"]:
        token = board.locator(f".rl-token[data-border='{t['border']}']")
        expect(token).to_have_attribute("data-value", str(t["value"]))
    for f in view["factions"]:
        if view["marker"][f] != -1:
            marker = page.locator(f"#board .rl-tracks .rl-marker[data-faction='{f}']")
            expect(marker).to_have_attribute("data-division", str(view["marker"][f]))


class Player:
    """Our seat, deciding by board clicks; it notes what it clicked in which phase."""

    # Board things in the order we prefer them: building and attacking move the game towards its end.
    PREFERENCE = (
        ("segment", ".rl-tracks .rl-segment.rl-hot"),
        ("junction", ".rl-map .rl-junction.rl-hot"),
        ("border", ".rl-map .rl-border.rl-hot"),
        ("region", ".rl-map .rl-region.rl-hot"),
        ("marker", ".rl-tracks .rl-marker.rl-hot"),
    )
    # Menu entries we like best, in order (the first of the menu otherwise).
    LIKED = ("Build", "Melee combat", "Victory march with", "Send", "Summon", "March from", "Recruit")

    def __init__(self, page: Page, base: str, game_id: str, shots: bool) -> None:
        self.page = page
        self.take_shots = shots
        self.base = base
        self.game_id = game_id
        self.rng = random.Random(7)
        self.clicks: dict[tuple[str, str], int] = {}
        self.listed = 0
        self.shots: set[str] = set()

    def view(self) -> dict:
        return httpx.get(f"{self.base}/api/games/{self.game_id}").json()["view"]

    def note(self, phase: str, what: str) -> None:
        self.clicks[(phase, what)] = self.clicks.get((phase, what), 0) + 1

    def shot_once(self, name: str) -> None:
        if self.take_shots and name not in self.shots:
            self.shots.add(name)
            shot(self.page, f"reliquium-{name}.png")

    def move(self, decisions: int) -> None:
        page = self.page
        phase = page.locator("#board .rl").get_attribute("data-phase") or ""
        borders = page.locator(".rl-map .rl-border.rl-hot").count()
        if phase == "peace" and decisions >= 4 and (borders or decisions >= 12):
            self.shot_once("peace")  # preferably with borders to march across or attack highlighted
        if phase in ("support", "attack"):
            self.shot_once("war")
        marker = page.locator(".rl-tracks .rl-marker.rl-hot")
        if marker.count() and decisions % 6 == 5:  # now and then pass, by clicking our action marker
            marker.click()
            self.note(phase, "marker")
            return
        for what, selector in self.PREFERENCE:
            hot = page.locator(selector)
            if not hot.count():
                continue
            target = hot.nth(self.rng.randrange(hot.count())) if what == "region" else hot.first
            target.click()
            self.note(phase, what)
            self.choose_in_menu(phase)
            return
        tools = page.locator(".rl-tools button")
        if tools.count():
            tools.first.click()
            self.note(phase, "tool")
            return
        page.locator("#actions button").first.click()  # the frame's list: the board offers nothing
        self.listed += 1

    def choose_in_menu(self, phase: str) -> None:
        """If the click opened the board's menu, take the entry we like best."""
        page = self.page
        items = page.locator(".rl-menu button[role=menuitem]")
        if not items.count():
            return
        labels = items.all_inner_texts()
        for word in self.LIKED:
            for i, label in enumerate(labels):
                if label.startswith(word):
                    items.nth(i).click()
                    self.note(phase, "menu")
                    return
        items.first.click()
        self.note(phase, "menu")


def play_to_the_end(page: Page, base: str, game_id: str, shots: bool) -> Player:
    """Our seat decides on the board until the game is over; the drawing is checked now and then."""
    expect(page.locator("#title")).to_have_text("Reliquium")
    expect(page.locator("#board .rl-map")).to_be_visible()
    # the map: 31 regions in their terrain, 74 borders, four tracks
    expect(page.locator("#board .rl-region")).to_have_count(31)
    expect(page.locator("#board .rl-region[data-terrain='water']")).to_have_count(3)
    expect(page.locator("#board .rl-border")).to_have_count(74)
    expect(page.locator("#board .rl-track")).to_have_count(4)
    me = Player(page, base, game_id, shots)
    decisions = 0
    while my_turn(page):
        expect(page.locator("#error")).to_have_text("")  # drawn without the fallback, nothing refused
        if decisions % 5 == 0:
            check_drawing(page, me.view())
        before = log_length(page)
        me.move(decisions)
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
        decisions += 1
        assert decisions < 400
    expect(page.locator("#status")).to_contain_text("Game over")
    record = httpx.get(f"{base}/api/games/{game_id}/record").json()
    over = page.locator("#board .rl-over")
    expect(over).to_be_visible()
    expect(over.locator(".rl-reason")).to_have_text(record["result"]["reason"])
    expect(page.locator("#board .rl[data-phase='over']")).to_be_visible()
    check_drawing(page, me.view())
    # the replay below draws the start on the same map, with nothing to click
    expect(page.locator("#replay-board .rl-map")).to_be_visible()
    expect(page.locator("#replay-board .rl-hot")).to_have_count(0)
    print(f"our decisions: {decisions}; board clicks: {me.clicks}; from the list: {me.listed}")
    assert me.listed == 0  # every decision had its place on the board (or its button above the map)
    return me


@pytest.mark.browser
def test_a_four_player_game_against_bots_played_on_the_map(page: Page, reliquium_server: LiveServer) -> None:
    base = reliquium_server.url
    game_id = start_four_player_game(page, base)
    me = play_to_the_end(page, base, game_id, shots=True)
    shot(page, "reliquium-end.png")
    phases = {phase for phase, _ in me.clicks}
    assert "peace" in phases
    assert {"support", "attack"} & phases, me.clicks  # a war-phase decision was made on the board
    kinds = {what for _, what in me.clicks}
    assert {"border", "marker", "junction"} <= kinds, me.clicks
    assert {"peace", "war"} <= me.shots


@pytest.mark.browser
def test_a_game_with_every_variant_is_played_on_the_map(page: Page, reliquium_server: LiveServer) -> None:
    """Single March, Militia and Allies add onward marches, militia support, pacts and consents."""
    base = reliquium_server.url
    game_id = start_four_player_game(page, base, ("allies", "militia", "single-march"))
    snapshot = httpx.get(f"{base}/api/games/{game_id}").json()
    assert snapshot["view"]["config"]["variants"] == ["allies", "militia", "single-march"], snapshot["view"]
    play_to_the_end(page, base, game_id, shots=False)


@pytest.mark.browser
def test_the_map_fits_a_phone_and_works_by_keyboard(page: Page, reliquium_server: LiveServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start_four_player_game(page, reliquium_server.url)
    assert my_turn(page)
    expect(page.locator("#board .rl-tracks")).to_be_visible()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    # The Legion's marker starts on the plains segment: borders to march across are highlighted.
    borders = page.locator("#board .rl-border.rl-hot")
    assert borders.count() > 0
    expect(page.locator("#board .rl-junction.rl-hot")).to_have_count(0)
    # Keyboard: focus a border and press Enter; a march takes a second step (which units), by a click.
    before = log_length(page)
    march = page.locator("#board .rl-border.rl-hot[aria-label^='March from']")
    if march.count():
        march.first.focus()
        page.keyboard.press("Enter")
    else:
        borders.first.focus()
        page.keyboard.press("Enter")
        page.locator(".rl-menu button[role=menuitem]", has_text="March from").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    expect(page.locator("#board .rl-hint")).to_contain_text("choose the units")
    shot(page, "reliquium-phone.png")
    # Zoomed in (its viewBox; test_phone.py pans and resets it), the page still does not scroll sideways.
    before_zoom = page.locator("#board .rl-map").get_attribute("viewBox")
    page.click("#board .rl-zoom-in")
    expect(page.locator("#board .rl-map")).not_to_have_attribute("viewBox", before_zoom or "")
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
    target = page.locator("#board .rl-region.rl-hot")
    expect(target).to_have_count(1)  # the destination: its click offers the units that may march
    target.click()
    items = page.locator(".rl-menu button[role=menuitem]")
    if items.count():
        box = page.locator(".rl-menu").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        items.first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before + 1}")
    expect(page.locator("#log li").nth(before + 1)).to_contain_text("March with")


def decision_samples() -> list[dict[str, Any]]:
    """One position for every kind of decision (and every creature's ability, both sides' losses, militia
    support), found by seeded 4-player games of heuristic and random choices, with and without variants."""
    bot = HeuristicBot()
    found: dict[str, dict[str, Any]] = {}
    for seed in range(48):  # the last eight on the board's three-player side
        variants = ("allies", "militia", "single-march") if seed % 2 else ()
        s = GAME.new(GAME.config(players=4 if seed < 40 else 3, variants=variants), seed)
        rng = random.Random(seed)
        steps = 0
        while not GAME.is_over(s) and steps < 3000:
            seat = GAME.to_move(s)
            legal = GAME.legal_actions(s)
            for key in sample_keys(s, legal):
                if key not in found:
                    found[key] = {
                        "key": key,
                        "seat": seat,
                        "version": steps,
                        "view": json.loads(json.dumps(GAME.view(s, seat))),
                        "legal": [{"action": a.to_json(), "label": GAME.describe(s, a)} for a in legal],
                    }
            a = rng.choice(legal) if rng.random() < 0.4 else bot.choose(GAME.view(s, seat), legal, seat, rng)
            s = GAME.apply(s, a)
            steps += 1
    return list(found.values())


def sample_keys(s: Any, legal: list[Any]) -> set[str]:
    keys = {a.kind for a in legal}
    if s.pending and s.pending[0] == P_ABILITY:
        keys.add(f"ability of {C.creatures[s.pending[1]].name}")
    if s.battle and any(a.kind == "lose" for a in legal):
        keys.add(f"losses at battle stage {s.battle[0]}")
    if any(a.kind == "support" and a.args[3] for a in legal):
        keys.add("militia support")
    sided = any(a.kind == "build" and C.names[a.args[0]] in THREE_PLAYERS for a in legal)
    if s.config.players == 3 and sided:
        keys.add("build on the three-player side")  # its castle's segment is the three-player terrain's
    return keys


# Draws each sample on a board of its own with a ctx that records submissions, then clicks every
# highlighted thing (and every entry of the menu it opens) and every button above the map.
CLICK_EVERYTHING = """
async (samples) => {
  const renderer = await Ludorum.loadRenderer("reliquium");
  const results = [];
  for (const sample of samples) {
    const board = document.createElement("div");
    board.style.width = "900px";
    document.body.append(board);
    const submitted = [];
    const legal = sample.legal;
    const ctx = {
      game: "reliquium", seat: sample.seat, toMove: sample.seat, players: [], version: sample.version,
      replay: false, legal,
      isLegal: (a) => legal.some((l) => Ludorum.sameAction(l.action, a)),
      labelOf: (a) => {
        const l = legal.find((x) => Ludorum.sameAction(x.action, a));
        return l ? l.label : null;
      },
      submit: (a) => submitted.push(a),
    };
    renderer.draw(board, sample.view, ctx);
    for (let i = 0; i < 200 && !board.querySelector(".rl-map"); i++) {
      await new Promise((r) => setTimeout(r, 20)); // the map is fetched on the first drawing
    }
    const click = (node) => node.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: 50 }));
    const hot = [...board.querySelectorAll(".rl-hot")];
    // every clickable junction can be hit at its dot (close junctions are drawn apart)
    board.scrollIntoView();
    const hidden = [...board.querySelectorAll(".rl-junction.rl-hot")].filter((node) => {
      const box = node.querySelector("circle").getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !top || top.closest(".rl-junction") !== node;
    }).map((node) => node.dataset.junction);
    const count = (selector) => board.querySelectorAll(selector).length;
    const drawn = [".rl-content .rl-unit", ".rl-content .rl-castle", ".rl-token.rl-melee",
      ".rl-token.rl-ranged", ".rl-creature:not(.rl-ghost)"].map(count);
    for (const node of hot) {
      click(node);
      const n = board.querySelectorAll(".rl-menu button[role=menuitem]").length;
      for (let i = 0; i < n; i++) {
        if (i) click(node);
        board.querySelectorAll(".rl-menu button[role=menuitem]")[i].click();
      }
    }
    for (const button of board.querySelectorAll(".rl-tools button")) button.click();
    results.push({ key: sample.key, submitted, hidden, drawn });
    board.remove();
  }
  return results;
}
"""


@pytest.mark.browser
def test_every_legal_action_is_reachable_on_the_board(page: Page, reliquium_server: LiveServer) -> None:
    """For a position of every kind of decision: the highlighted regions, borders, junctions, track
    segments, marker and buttons together offer exactly the legal actions, and nothing else."""
    samples = decision_samples()
    keys = {s["key"] for s in samples}
    kinds = {"march", "units", "melee", "recruit", "ranged", "build", "summon", "ability", "forgo", "cancel"}
    kinds |= {"pass", "support", "lose", "flee", "advance", "onward", "halt", "pact", "accept", "decline"}
    kinds |= {"consent", "refuse", "militia support", "losses at battle stage 1", "losses at battle stage 2"}
    kinds |= {"build on the three-player side"}
    assert kinds <= keys, kinds - keys
    assert {f"ability of {c.name}" for c in C.creatures} <= keys
    page.goto(reliquium_server.url + "/")
    results = page.evaluate(CLICK_EVERYTHING, samples)
    for sample, result in zip(samples, results, strict=True):
        legal = {json.dumps(item["action"], sort_keys=True) for item in sample["legal"]}
        reached = {json.dumps(a, sort_keys=True) for a in result["submitted"]}
        assert reached == legal, (sample["key"], legal - reached, reached - legal)
        assert result["hidden"] == [], (sample["key"], result["hidden"])
        view = sample["view"]
        units = sum(sum(u) for r, u in enumerate(view["units"]) if view["occupant"][r] != -1)
        castles = sum(c != -1 for c in view["castle"])
        expected = [units, castles, len(view["melee"]), len(view["ranged"]), len(view["creature_tokens"])]
        assert result["drawn"] == expected, (sample["key"], result["drawn"], expected)


DRAWN_TERRAINS = """
async (view) => {
  const renderer = await Ludorum.loadRenderer("reliquium");
  const board = document.createElement("div");
  document.body.append(board);
  const ctx = { game: "reliquium", seat: null, toMove: null, players: [], version: 0, replay: false,
    legal: [], isLegal: () => false, labelOf: () => null, submit: () => {} };
  renderer.draw(board, view, ctx);
  for (let i = 0; i < 200 && !board.querySelector(".rl-map"); i++) {
    await new Promise((r) => setTimeout(r, 20)); // the map is fetched on the first drawing
  }
  const drawn = [...board.querySelectorAll(".rl-region")].map((node) => node.dataset.terrain);
  board.remove();
  return drawn;
}
"""


@pytest.mark.browser
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_map_is_drawn_on_the_side_of_the_board_in_play(
    page: Page, reliquium_server: LiveServer, players: int
) -> None:
    """Three players play on the board's three-player side (docs/reliquium.md): its terrains are drawn."""
    view = json.loads(json.dumps(GAME.view(GAME.new(GAME.config(players), 1), None)))
    page.goto(reliquium_server.url + "/")
    drawn = page.evaluate(DRAWN_TERRAINS, view)
    assert drawn == [TERRAINS[t] for t in C.terrains(players)]
