"""Bounded options: no option makes the server expand anything large, and each bad one gets a clear 422."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludorum.engine import Config, ConfigError, Registry
from ludorum.engine.config import MAX_OPTION_NUMBER, MAX_OPTION_TEXT
from ludorum.server import create_app
from tests.server.support import new_game_body

HERO = "marshal_aurelian"


@pytest.fixture
def signum_client(sqlite_url: str) -> Iterator[TestClient]:
    """A server offering Legends of Signum (whose deck options spell out card counts)."""
    from ludorum.games.signum import GAME

    reg = Registry()
    reg.register(GAME)
    with TestClient(create_app(reg, sqlite_url)) as c:
        yield c


def signum_body(deck: Any) -> dict[str, Any]:
    return {
        "game": "signum",
        "config": {"players": 2, "options": {"deck0": deck}},
        "seats": [{"kind": "human"}, {"kind": "human"}],
    }


@pytest.mark.parametrize(
    "count", ["50000000", "1000000000000000", "10**15", "9" * 1500, "-3", "0", "x", "", "²", "٣"]
)
def test_a_card_count_is_bounded_before_anything_is_expanded(signum_client: TestClient, count: str) -> None:
    started = time.monotonic()
    r = signum_client.post("/api/games", json=signum_body(f"{HERO}: temple_guard*{count}"))
    assert time.monotonic() - started < 2
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "bad_config"
    assert "temple_guard" in r.json()["error"]["message"]
    assert signum_client.get("/api/games").json() == []


def test_the_deck_parser_refuses_huge_counts_without_expanding_them() -> None:
    from ludorum.games.signum.setup import parse_deck

    with pytest.raises(ConfigError, match="copies"):
        parse_deck(f"{HERO}: temple_guard*{10**15}")
    # a count within the rules still expands (and an over-the-rules one is left to the deck rules)
    hero, cards = parse_deck(f"{HERO}: temple_guard*2, crossbowman")
    assert hero == HERO and cards == ("temple_guard", "temple_guard", "crossbowman")


def test_a_legal_custom_deck_is_still_accepted(signum_client: TestClient) -> None:
    from ludorum.games.signum.content import base_content

    deck = base_content().decks["empire_dawn"]
    text = f"{deck.hero}: " + ", ".join(deck.cards)
    r = signum_client.post("/api/games", json=signum_body(text))
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("x" * (MAX_OPTION_TEXT + 1), f"at most {MAX_OPTION_TEXT} characters"),
        (MAX_OPTION_NUMBER + 1, f"less than or equal to {MAX_OPTION_NUMBER}"),
        (-MAX_OPTION_NUMBER - 1, f"greater than or equal to {-MAX_OPTION_NUMBER}"),
        (10**40, "less than or equal to"),
    ],
)
def test_every_option_value_is_bounded_in_the_api(client: TestClient, value: Any, words: str) -> None:
    body = new_game_body()
    body["config"]["options"] = {"any": value}
    r = client.post("/api/games", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", r.text
    assert "options" in r.json()["error"]["message"] and words in r.json()["error"]["message"]
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"any": "x" * (MAX_OPTION_TEXT + 1)}, f"at most {MAX_OPTION_TEXT} characters"),
        ({"any": MAX_OPTION_NUMBER + 1}, f"from {-MAX_OPTION_NUMBER} to {MAX_OPTION_NUMBER}"),
        ({"any": 10**400}, f"from {-MAX_OPTION_NUMBER} to {MAX_OPTION_NUMBER}"),
        ({f"o{i}": 1 for i in range(40)}, "at most 32 options"),
        ({"y" * 65: 1}, "at most 64 characters"),
    ],
)
def test_every_option_value_is_bounded_in_records(client: TestClient, options: Any, words: str) -> None:
    """Records reach the engine's Config directly: the same bounds hold there, for every game."""
    record = {
        "format": 1,
        "game": "sealed-bids",
        "config": {"players": 2, "options": options},
        "seed": 1,
        "steps": [],
        "result": None,
    }
    r = client.post("/api/records", json={"record": record})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_record", r.text
    assert words in r.json()["error"]["message"]
    with pytest.raises(ConfigError, match=re.escape(words)):
        Config.from_json(record["config"])
    assert client.get("/api/games").json() == []
