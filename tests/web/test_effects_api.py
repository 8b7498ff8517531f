"""The effect texts served to the game page: once per game kind, in the reader's language."""

from __future__ import annotations

import warnings
from pathlib import Path

from ludorum.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_each_game_serves_its_effect_texts_in_the_readers_language(tmp_path: Path) -> None:
    with TestClient(create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}")) as client:
        english = client.get("/api/effects/signum").json()["effects"]
        russian = client.get("/api/effects/signum", headers={"Accept-Language": "ru"}).json()["effects"]
        assert english["shield_wall"]["name"] == "Shield Wall"
        assert english["shield_wall"]["text"].startswith("Tactic, face down: when an enemy declares a melee")
        assert russian["shield_wall"] == {
            "name": "Стена щитов",
            "text": "Тактика, рубашкой вверх: когда враг объявляет атаку в ближнем бою на Ваше существо, "
            "оно получает +2 кубика защиты.",
        }
        assert "Сила 3, движение 10 см, здоровье 3." in russian["grypharim_knight"]["text"]
        arboruus = client.get("/api/effects/reliquium").json()["effects"]["Arboruus"]
        assert arboruus["text"].startswith("Gathering: moves up to three of your units")
        market = client.get("/api/effects/medieval-realms", headers={"Accept-Language": "ru"}).json()
        assert market["effects"]["Market"]["text"].startswith("Конец игры: 1 ПО за каждый разный цвет")
        missing = client.get("/api/effects/chess")
        assert missing.status_code == 404 and "chess" in missing.json()["error"]["message"]
