"""Browser fixtures: Debian's chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.server.support import LiveServer

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("LUDORUM_SCREENSHOTS", ROOT / "build" / "screenshots"))
"""Where screenshots go: an ignored folder, so that ``make test`` changes no tracked file; ``make
screenshots`` points this at docs/screenshots/ to refresh the documentation's pictures."""
RENDERERS = Path(__file__).resolve().parent / "renderers"

expect.set_options(timeout=15_000)  # a loaded CI machine is slow; a real failure still fails


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One chromium for the run."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is needed at /usr/bin/chromium (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server for the fixture game, bots moving briskly, no board renderer (the fallback)."""
    with LiveServer(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.05) as srv:
        yield srv


@pytest.fixture
def server_with_renderer(tmp_path: Path) -> Iterator[LiveServer]:
    """The same, with the fixture game's board renderer from tests/browser/renderers."""
    with LiveServer(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.05, renderers_dir=RENDERERS) as srv:
        yield srv


PHONE = {"width": 390, "height": 844}
"""A phone's screen, in CSS pixels (the ``phone`` fixture's)."""


def _page(browser: Browser, **settings: Any) -> Iterator[Page]:
    """A fresh browser context with ``settings`` (its own cookies) and a page in it; JavaScript errors
    fail the test."""
    context = browser.new_context(**settings)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
    assert errors == [], errors


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser context (its own cookies) and page; JavaScript errors fail the test."""
    yield from _page(browser, viewport={"width": 1200, "height": 820})


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone: 390×844, touch, mobile; JavaScript errors fail the test."""
    yield from _page(browser, viewport=PHONE, has_touch=True, is_mobile=True)


def shot(page: Page, name: str) -> None:
    """Save a screenshot under :data:`SCREENSHOTS`."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
