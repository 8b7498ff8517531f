"""Hints and the analysis in the browser: "Suggest a move" against a bot, none between people by default,
and the search bots' review of a finished game in the replay."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import shot
from tests.browser.lobby import log_length
from tests.browser.test_web import click_start, first_choice, my_turn, start_from_lobby
from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


def test_suggest_a_move_then_analyse_the_game(page: Page, server: LiveServer) -> None:
    start_from_lobby(page, server.url)
    assert my_turn(page)
    page.click("#hint-button")
    expect(page.locator("#hint")).to_contain_text("Suggested: ")
    suggested = page.locator("#actions button.suggested")
    expect(suggested).to_have_count(1)
    label = page.locator("#hint").inner_text().removeprefix("Suggested: ").split(" (estimated")[0]
    expect(suggested).to_contain_text(label)
    expect(page.locator("#hint-button")).to_be_disabled()  # one suggestion per decision
    shot(page, "hint.png")
    suggested.click()
    while my_turn(page):
        steps = log_length(page)
        first_choice(page).click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {steps}")
    expect(page.locator("#replay")).to_be_visible()
    page.click("#analyse-button")
    expect(page.locator("#analysis-result")).to_contain_text("decisions analysed", timeout=60_000)
    expect(page.locator("#analysis-result .mistakes")).to_have_count(2)
    for block in page.locator("#analysis-result .mistakes").all():  # a heading that matches its list
        found = block.locator("li").count()
        expect(block.locator("h3")).to_contain_text("biggest mistakes" if found else "no clear mistake")
    # the judgement of a decision shows beside the caption of the step it is taken from
    page.click("#replay-first")
    page.click("#replay-next")  # step 1: chance has drawn the prize, Player 1 bids next
    expect(page.locator("#replay-judgement")).to_contain_text("Next, Player 1 plays bid(")
    shot(page, "analysis.png")


def test_no_hints_between_people_by_default(page: Page, server: LiveServer) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#seats select[data-seat]")).to_have_count(2)
    page.select_option("#seats select[data-seat] >> nth=1", "human")
    click_start(page)
    assert my_turn(page)
    expect(page.locator("#actions button").first).to_be_visible()
    expect(page.locator("#hint-button")).to_have_count(0)
