"""The seat views of Medieval Realms and Reliquium, byte for byte: a digest of every view (each seat and a
spectator, in English and in Russian) over the states of seeded random games, recorded from the views as
they were before they were made faster.  A view that is restructured for speed must give the same bytes;
a view changed on purpose changes the digest (regenerate with ``python tests/games/test_view_digests.py``
and say why in the commit).  Views are also the caller's to change: changing one changes no other.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from ludorum.engine.i18n import localize
from ludorum.engine.playout import random_states
from ludorum.games import registry

CASES = {
    ("medieval-realms", 2): "1cf803c45b2caeaf",
    ("medieval-realms", 3): "144ea9061512e048",
    ("medieval-realms", 4): "7ae0872b2b690c8d",
    ("medieval-realms", 5): "edb42b5b66253e86",
    ("reliquium", 2): "7cde3a0b16037f73",
    ("reliquium", 3): "1eea3e4ff22ecea6",  # rules version 5: three players play on their own side
    ("reliquium", 4): "5f69721762372a4d",
}
"""(game, players) → the digest of its views (:func:`digest`)."""


def sampled_states(name: str, players: int) -> list[Any]:
    """Every 3rd state of two seeded random games, the last included."""
    game = registry().get(name)
    out = []
    for seed in (11, 12):
        states = list(random_states(game, game.config(players), seed))
        out += states[::3] + states[-1:]
    return out


def digest(name: str, players: int) -> str:
    """The first 16 hex digits of the SHA-256 of every view's JSON text, English then Russian."""
    game = registry().get(name)
    h = hashlib.sha256()
    for s in sampled_states(name, players):
        for seat in (*range(players), None):
            v = game.view(s, seat)
            h.update(json.dumps(v, ensure_ascii=False).encode())
            h.update(json.dumps(localize(v, "ru"), ensure_ascii=False).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("name", "players"), list(CASES))
def test_views_are_unchanged_byte_for_byte(name: str, players: int) -> None:
    assert digest(name, players) == CASES[(name, players)]


def _scribble(value: Any) -> None:
    """Change every list and dict inside ``value`` in place."""
    if isinstance(value, dict):
        for v in value.values():
            _scribble(v)
        value["scribbled"] = True
    elif isinstance(value, list):
        for v in value:
            _scribble(v)
        value.append("scribbled")


@pytest.mark.parametrize("name", ["medieval-realms", "reliquium"])
def test_changing_a_view_changes_no_other(name: str) -> None:
    game = registry().get(name)
    states = sampled_states(name, 3)[::4]
    seats = (0, 1, 2, None)
    before = [json.dumps(game.view(s, seat)) for s in states for seat in seats]
    for s in states:
        for seat in seats:
            _scribble(game.view(s, seat))
    assert [json.dumps(game.view(s, seat)) for s in states for seat in seats] == before


if __name__ == "__main__":
    for name, players in CASES:
        print(f'    ("{name}", {players}): "{digest(name, players)}",')
