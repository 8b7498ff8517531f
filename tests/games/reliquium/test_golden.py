"""Golden playthroughs: recorded games replay to the same final state (guards against silent rule changes).

When a rule is changed on purpose, regenerate the files (``regenerate()`` below: run this file) and say
why in the commit message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludorum.engine import Playthrough, Record, replay
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


def regenerate() -> None:
    """Record the golden playthroughs anew (``python tests/games/reliquium/test_golden.py``): 4 heuristic
    bots on seed 2026, 2 heuristic bots with the default factions on seed 2026 (so that a change of the
    default factions changes the rules fingerprint), and the first 3-player game with every variant
    (heuristic, random, heuristic bots, seed 2026 on) that makes a pact, asks consent, marches twice, flees
    and supports, and ends by the ninth castle."""
    from ludorum.agents import make_bot, play_game

    def save(name: str, play: Playthrough) -> None:
        state = play.state
        data = {"record": play.record.to_json(), "digest": state.digest(), "reason": state.reason}
        (GOLDEN / name).write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    bots = [make_bot(GAME, "heuristic") for _ in range(4)]
    save("heuristic_4p.json", play_game(GAME, GAME.config(4), 2026, bots))
    save("heuristic_2p_default.json", play_game(GAME, GAME.config(2), 2026, bots[:2]))
    config = GAME.config(3, ["allies", "militia", "single-march"])
    for seed in range(2026, 2200):
        play = play_game(
            GAME, config, seed, [make_bot(GAME, k) for k in ("heuristic", "random", "heuristic")]
        )
        kinds = {a.kind for _, a in play.record.steps}
        if {
            "pact",
            "accept",
            "consent",
            "onward",
            "flee",
            "support",
        } <= kinds and "ninth" in play.state.reason:
            save("mixed_3p_variants.json", play)
            return


if __name__ == "__main__":
    regenerate()
