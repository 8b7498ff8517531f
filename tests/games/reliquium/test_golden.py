"""Golden playthroughs: recorded games replay to the same final state (guards against silent rule changes).

When a rule is changed on purpose, regenerate the files (the generator is in the commit that changes
them) and say why in the commit message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludorum.engine import Record, replay
from ludorum.games.reliquium import GAME

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_playthrough(path: Path) -> None:
    data = json.loads(path.read_text())
    record = Record.from_json(data["record"])
    state = replay(GAME, record)
    assert GAME.is_over(state)
    assert state.reason == data["reason"]
    assert state.digest() == data["digest"]
