"""The lobby's "You" panel: a guest, an account made and signed into through its forms (issue 36)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.server.support import LiveServer

pytestmark = pytest.mark.browser


def open_account_forms(page: Page) -> None:
    """Open the panel's forms, as a person clicks its summary (once: a second click closes them)."""
    if page.locator("#account-more").get_attribute("open") is None:
        page.locator("#account-more summary").click()


def test_a_guest_becomes_an_account_and_signs_back_in(page: Page, server: LiveServer) -> None:
    page.goto(server.url)
    who = page.locator("#account-who")
    expect(who).to_contain_text("Playing needs no account")
    page.get_by_role("button", name="Play as a guest").click()
    expect(who).to_contain_text("You play as the guest")
    open_account_forms(page)
    keep = page.locator("form", has_text="Keep your games")
    keep.get_by_label("Name").fill("Gertrud")
    keep.get_by_label("Password").fill("a long enough password")
    keep.get_by_role("button", name="Create the account").click()
    expect(who).to_contain_text("Signed in as Gertrud.")
    page.get_by_role("button", name="Sign out").click()
    expect(who).to_contain_text("Playing needs no account")
    open_account_forms(page)
    sign_in = page.locator("form", has_text="Sign in")
    sign_in.get_by_label("Name").fill("Gertrud")
    sign_in.get_by_label("Password").fill("not the password")
    sign_in.get_by_role("button", name="Sign in").click()
    expect(page.locator("#account-note")).to_contain_text("wrong name or password")
    sign_in.get_by_label("Password").fill("a long enough password")
    sign_in.get_by_role("button", name="Sign in").click()
    expect(who).to_contain_text("Signed in as Gertrud.")
