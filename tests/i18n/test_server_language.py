"""The server answers each reader in the reader's language: cookie, ``?lang=``, ``Accept-Language``."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludorum.server.http.language import choose

os.environ.setdefault("LUDORUM_WORKERS", "0")
CYRILLIC = re.compile("[а-яА-ЯёЁ]")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[object]:
    """A server with the product's games."""
    from fastapi.testclient import TestClient

    from ludorum.server import create_app

    with TestClient(create_app(None, f"sqlite:///{tmp_path / 'db.sqlite3'}")) as c:
        yield c


def test_choice_order() -> None:
    assert choose("lang=ru", "ludorum_lang=en", "en") == "ru"
    assert choose("", "ludorum_lang=ru", "en-GB") == "ru"
    assert choose("", None, "de, ru;q=0.8, en;q=0.5") == "ru"
    assert choose("lang=xx", "ludorum_lang=zz", None) == "en"


def test_one_game_read_in_two_languages(client) -> None:  # type: ignore[no-untyped-def]
    r = client.post(
        "/api/games",
        json={"game": "reliquium", "config": {"players": 2}, "seats": [{"kind": "human"}] * 2, "claim": 0},
    )
    assert r.status_code in (200, 201), r.text
    game_id = r.json()["id"]
    en = client.get(f"/api/games/{game_id}", headers={"Accept-Language": "en"}).json()
    ru = client.get(f"/api/games/{game_id}?lang=ru").json()
    assert en["legal"] and [x["action"] for x in en["legal"]] == [x["action"] for x in ru["legal"]]
    assert not any(CYRILLIC.search(x["label"]) for x in en["legal"])
    assert all(CYRILLIC.search(x["label"]) for x in ru["legal"])
    assert CYRILLIC.search(ru["players"][0]["name"]) and not CYRILLIC.search(en["players"][0]["name"])
    refused = client.post(
        f"/api/games/{game_id}/actions?lang=ru",
        json={"version": en["version"], "action": {"kind": "march", "args": [0, 99]}},
    )
    assert refused.status_code == 422
    assert CYRILLIC.search(refused.json()["error"]["rule"])


def test_catalogue_in_russian(client) -> None:  # type: ignore[no-untyped-def]
    client.cookies.set("ludorum_lang", "ru")
    games = {g["name"]: g for g in client.get("/api/catalog").json()}
    assert CYRILLIC.search(games["reliquium"]["blurb"])


def test_a_refused_deck_reads_in_the_readers_language(client) -> None:  # type: ignore[no-untyped-def]
    body = {
        "game": "signum",
        "config": {"players": 2, "options": {"deck0": "marshal_aurelian: sellsword*2"}},
        "seats": [{"kind": "human"}] * 2,
    }
    en = client.post("/api/games", json=body, headers={"Accept-Language": "en"})
    ru = client.post("/api/games?lang=ru", json=body)
    assert en.status_code == ru.status_code == 422, en.text
    assert en.json()["error"]["code"] == ru.json()["error"]["code"] == "bad_config"
    english, russian = en.json()["error"]["message"], ru.json()["error"]["message"]
    assert english.startswith("deck of player 1: ") and not CYRILLIC.search(english)
    assert russian.startswith("колода игрока 1: ") and "персонажи не повторяются" in russian, russian


def test_the_rules_page_in_the_readers_language_where_it_is_written(client) -> None:  # type: ignore[no-untyped-def]
    ru = client.get("/api/rules/signum?lang=ru").json()
    en = client.get("/api/rules/signum", headers={"Accept-Language": "en"}).json()
    assert ru["lang"] == "ru" and "Одержать победу в стандартном режиме" in ru["html"]
    assert en["lang"] == "en" and "Victory conditions" in en["html"] and "Одержать победу" not in en["html"]
    for game in ("reliquium", "medieval-realms"):
        assert client.get(f"/api/rules/{game}?lang=ru").json()["lang"] == "ru"


def test_the_servers_own_refusals_read_in_the_readers_language(client) -> None:  # type: ignore[no-untyped-def]
    r = client.post(
        "/api/games",
        json={"game": "reliquium", "config": {"players": 2}, "seats": [{"kind": "human"}] * 2, "claim": 0},
    )
    game_id = r.json()["id"]
    version = client.get(f"/api/games/{game_id}").json()["version"]
    body = {"version": version + 7, "action": {"kind": "pass", "args": []}}
    en = client.post(f"/api/games/{game_id}/actions", json=body, headers={"Accept-Language": "en"})
    ru = client.post(f"/api/games/{game_id}/actions?lang=ru", json=body)
    assert en.status_code == ru.status_code == 409 and ru.json()["error"]["code"] == "stale_version"
    assert en.json()["error"]["message"].startswith("the game has moved on (you saw version")
    assert ru.json()["error"]["message"].startswith("партия ушла вперёд (вы видели версию"), ru.text
    missing = client.get("/api/games/0123456789abcdef?lang=ru")
    assert missing.status_code == 404 and CYRILLIC.search(missing.json()["error"]["message"])


def test_a_refused_record_reads_in_the_readers_language(client) -> None:  # type: ignore[no-untyped-def]
    """An upload's refusals (its seed, its rules version, its length) are messages like any other."""
    record = {"format": 1, "game": "reliquium", "config": {"players": 2}, "seed": 2**70, "steps": []}
    en = client.post("/api/records", json={"record": record}, headers={"Accept-Language": "en"})
    ru = client.post("/api/records?lang=ru", json={"record": record})
    assert en.status_code == ru.status_code == 422, en.text
    assert en.json()["error"]["code"] == ru.json()["error"]["code"] == "bad_record"
    assert en.json()["error"]["message"].startswith("the record's seed is a whole number")
    assert ru.json()["error"]["message"].startswith("зерно записи — целое число"), ru.text
