"""``Game.view_equals`` answers exactly ``view(state, seat) == view`` for every game, including a game's
own faster answer (Legends of Signum compares its derived fields one by one,
``engine.state.derived_view_matches``): the disclosure's readings rest on it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludorum.engine import Game
from ludorum.engine.playout import random_states
from ludorum.engine.state import derived_view_matches
from ludorum.games import registry
from tests.fixtures.face_down import FaceDown


def states(game: Game[Any], players: int, seeds: range, limit: int = 400) -> list[Any]:
    """Every state of a few seeded random games."""
    return [s for seed in seeds for s in random_states(game, game.config(players), seed, limit)]


@pytest.mark.parametrize(
    ("name", "players"),
    [("signum", 2), ("signum", 4), ("reliquium", 3), ("medieval-realms", 3)],
)
def test_view_equals_agrees_with_comparing_whole_views(name: str, players: int) -> None:
    game = registry().get(name)
    pool = states(game, players, range(2))
    rng = random.Random(0)
    equal = 0
    for _ in range(1500):
        a = rng.choice(pool)
        b = a if rng.random() < 0.3 else rng.choice(pool)
        seat = rng.choice([None, *range(players)])
        view = game.view(b, seat)
        same = game.view_equals(a, seat, view)
        assert same == (game.view(a, seat) == view)
        equal += same
    assert equal > 300  # both answers were exercised


@pytest.mark.parametrize("name", ["signum", "reliquium", "medieval-realms"])
def test_a_view_differing_in_any_one_key_or_in_its_keys_is_not_equal(name: str) -> None:
    game = registry().get(name)
    state = states(game, 2, range(1), limit=60)[-1]
    view = game.view(state, 0)
    assert game.view_equals(state, 0, view)
    for key in view:
        changed = dict(view)
        changed[key] = ["not", "this"]
        assert not game.view_equals(state, 0, changed), key
        missing = {k: v for k, v in view.items() if k != key}
        assert not game.view_equals(state, 0, missing), key
    assert not game.view_equals(state, 0, {**view, "extra": 1})


def test_derived_view_matches_learns_which_field_differs_and_stays_exact() -> None:
    """The comparison order adapts to the fields that differ most; the answers do not change with it."""
    game = FaceDown()
    pool = states(game, 2, range(3), limit=200)
    rng = random.Random(1)
    for _ in range(2000):
        a, b = rng.choice(pool), rng.choice(pool)
        seat = rng.choice([None, 0, 1])
        view = game.view(b, seat)
        whole = all(view.get(k) == v for k, v in game.view(a, seat).items())
        assert derived_view_matches(a, seat, view) == whole
