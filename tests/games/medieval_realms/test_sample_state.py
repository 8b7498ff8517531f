"""``sample_state`` draws what its first version drew (before a drawn leader stopped being placed on a
copy of the state, commit d3a7366): the same states from the same generator, left in the same state.
Search bots and the disclosure's readings rest on these draws, seeded from what an observer knows, so
the draws of every state of two seeded random games, for every observer, are fingerprinted with that
version's.  The map challenge is checked against the rulebook's area-by-area count on drawn placements."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

import pytest

from ludorum.engine.playout import random_states
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms import placement as pl
from ludorum.games.medieval_realms.state import ADMIRAL, BUFFER, GENERAL, SPOT, RealmsState

FIRST_DRAWS = {2: "dd8213c8b710fdde", 3: "ff0f79e5d0848265", 4: "8e89c3294be951bf", 5: "407a069c53888dbe"}
"""The fingerprint of :func:`draws` by player count, as the first ``sample_state`` drew them."""


def draws(players: int) -> Iterator[tuple[RealmsState, random.Random]]:
    """Each observer's draw from every state of two seeded random games, and the generator after it."""
    for seed in range(2):
        for k, s in enumerate(random_states(GAME, GAME.config(players), seed)):
            assert isinstance(s, RealmsState)
            for seat in [None, *range(players)]:
                rng = random.Random(k)
                yield GAME.sample_state(s, seat, rng), rng


def reference_challenge(revealed: tuple[tuple[int, ...], ...], players: int) -> tuple[tuple[int, ...], ...]:
    """The map challenge counted area by area, leader by leader (Rulebook › Get Resources)."""
    value = {GENERAL: 2, ADMIRAL: 1, BUFFER: 2}
    won: list[list[int]] = [[] for _ in revealed]
    for area in range(1, pl.areas(players) + 1):
        there = [
            [sp // SPOT for sp in spots if sp % SPOT == area and sp // SPOT in value] for spots in revealed
        ]
        strength = [sum(value[k] for k in kinds) for kinds in there]
        for seat, kinds in enumerate(there):
            others = [v for o, v in enumerate(strength) if o != seat]
            if any(k in (GENERAL, ADMIRAL) for k in kinds) and all(strength[seat] > v for v in others):
                won[seat].append(area)
    return tuple(tuple(w) for w in won)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_draws_are_the_first_versions(players: int) -> None:
    h = hashlib.sha256()
    placing = challenged = 0
    for drawn, rng in draws(players):
        h.update(json.dumps([drawn.to_json(), rng.getrandbits(64)], sort_keys=True).encode())
        placing += any(drawn.placing)
        if all(drawn.placing):
            assert pl.map_challenge(drawn.placing, players) == reference_challenge(drawn.placing, players)
            challenged += 1
    assert h.hexdigest()[:16] == FIRST_DRAWS[players]
    assert placing > 100 and challenged > 50  # drawn placements were exercised
