"""Choosing in short steps: a long list of choices (Medieval Realms' 21 pairs of extra resources) is
grouped in the frame's list — which resource, then which — and the keyboard hints hide on touch screens."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from ludorum.engine import Registry
from ludorum.games import registry as product_registry
from tests.browser.conftest import shot
from tests.browser.lobby import log_length, start_from_lobby, wait_for_turn
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


@pytest.fixture
def realms_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server holding only Medieval Realms."""
    reg = Registry()
    reg.register(product_registry().get("medieval-realms"))
    with LiveServer(f"sqlite:///{tmp_path / 'realms.sqlite3'}", registry=reg) as srv:
        yield srv


def test_the_extra_resources_are_chosen_in_two_short_steps(page: Page, realms_server: LiveServer) -> None:
    game_id = start_from_lobby(page, realms_server.url, "medieval-realms", 2)
    assert wait_for_turn(page)
    legal = httpx.get(f"{realms_server.url}/api/games/{game_id}", cookies=_cookies(page)).json()["legal"]
    extras = [entry for entry in legal if entry["action"]["kind"] == "extra"]
    assert len(extras) == len(legal) >= 15  # the set-up's first choice: two resources, 20 or 21 pairs
    firsts = list(dict.fromkeys(entry["action"]["args"][0] for entry in extras))
    sizes = [sum(e["action"]["args"][0] == r for e in extras) for r in firsts]
    groups = page.locator("#actions button.group")
    # step one: which resource (6 entries, not 21); a resource with one pair left is that pair
    expect(page.locator("#actions button")).to_have_count(len(firsts))
    expect(groups).to_have_count(sum(n > 1 for n in sizes))
    expect(groups.first).to_contain_text(f"Extra resources: {words(firsts[0])} and…")
    groups.first.click()
    # step two: which second resource, in a few words, and a way back
    pairs = [e["action"]["args"] for e in extras if e["action"]["args"][0] == firsts[0]]
    expect(page.locator("#actions button:not(.back)")).to_have_text(
        [f"{i + 1} {words(a)} and {words(b)}" for i, (a, b) in enumerate(pairs)]
    )
    page.locator("#actions button.back").click()
    expect(page.locator("#actions button")).to_have_count(len(firsts))
    groups.first.click()
    shot(page, "choosing-extras.png")
    before = log_length(page)
    page.keyboard.press("1")  # keys still choose within the opened group
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}")
    taken = page.locator("#log li").nth(before)
    expect(taken).to_contain_text(f"Take one {words(pairs[0][0])} and one {words(pairs[0][1])} token")


def test_keyboard_hints_are_hidden_on_touch_screens(phone: Page, realms_server: LiveServer) -> None:
    start_from_lobby(phone, realms_server.url, "medieval-realms", 2)
    assert wait_for_turn(phone)
    expect(phone.locator("#actions button").first).to_be_visible()
    expect(phone.locator(".key-hint")).to_be_hidden()
    expect(phone.locator("#actions kbd").first).to_be_hidden()


def words(resource: str) -> str:
    """A resource as the rulebook names it: ``raw_material`` → "Raw Material"."""
    return resource.replace("_", " ").title()


def _cookies(page: Page) -> dict[str, str]:
    return {c["name"]: c["value"] for c in page.context.cookies()}
