"""Labels read as words: no internal ids ("Marshal Aurelian #0") and no coordinates as ids ("x=42")."""

from __future__ import annotations

import random
import re

import pytest

from ludorum.games import registry

INTERNAL = re.compile(r"#\d|\b[xy]=\d|\(\d+(\.\d+)?, \d+(\.\d+)?\)")


@pytest.mark.parametrize("name", sorted(g.name for g in registry()))
def test_no_label_shows_an_internal_id(name: str) -> None:
    game = registry().get(name)
    rng = random.Random(7)
    state = game.new(game.config(game.min_players), 7)
    seen = 0
    for _ in range(250):
        if game.is_over(state):
            break
        legal = list(game.legal_actions(state))
        for action in legal:
            label = game.describe(state, action)
            assert not INTERNAL.search(label), f"{name}: {label!r} shows an internal id"
            seen += 1
        state = game.step(state, rng.choice(legal))
    assert seen > 100


def test_the_check_catches_the_old_signum_labels() -> None:
    assert INTERNAL.search("Activate Marshal Aurelian #0")
    assert INTERNAL.search("Bring Sellsword onto the Battlefield at x=42")
    assert INTERNAL.search("Lay Ruined Tower at (48, 20)")
