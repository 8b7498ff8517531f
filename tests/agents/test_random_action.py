"""A game's random action, the draw of a random rollout: uniform over the legal actions but CANCEL.

Legends of Signum draws a moving creature's action without listing every destination (rejection over
slots, ``actions.random_stage_action``): its distribution must be exactly the legal list's, since the
equal-settings comparison with OpenSpiel's MCTSBot (which draws from the whole list) needs equal work.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ludorum.agents.search.rollout import random_policy
from ludorum.engine import CANCEL, CHANCE, Action, Playthrough
from ludorum.engine.conformance import random_choice
from ludorum.games import registry
from ludorum.games.signum import GAME, movement
from ludorum.games.signum import actions as act


def moving_states(players: int, seeds: range, every: int = 3) -> list[Any]:
    """Every ``every``-th state of seeded random games where a creature may still choose where to move."""
    found: list[Any] = []
    for seed in seeds:
        play = Playthrough(GAME, GAME.config(players), seed)
        rng = random.Random(seed)
        seen = 0
        while not play.is_over():
            if play.to_move() == CHANCE:
                play.resolve_chance()
                continue
            if GAME._moving(play.state):
                seen += 1
                if seen % every == 0:
                    found.append(play.state)
            play.play(random_choice(GAME.legal_actions(play.state), rng))
    return found


STATES = moving_states(2, range(3)) + moving_states(3, range(1)) + moving_states(4, range(4), every=5)
"""About 330 states; with four players the other decks bring magic shots, control and healing."""


class _Slot(random.Random):
    """A generator whose first ``randrange`` answers ``slot`` and whose second raises: one round of the
    rejection sampler, its slot chosen."""

    def __init__(self, slot: int) -> None:
        super().__init__(0)
        self.slot = slot
        self.n = -1

    def randrange(self, n: int, *_: Any, **__: Any) -> int:  # type: ignore[override]
        if self.n >= 0:
            raise _Redrawn
        self.n = n
        return self.slot


class _Redrawn(Exception):
    """The round was rejected: the sampler asked for another slot."""


def slot_outcomes(state: Any) -> tuple[int, Counter[Action]]:
    """The number of slots of one round and the actions its accepted slots give (each slot equally
    likely, a rejected slot redrawn: the sampler's distribution is the uniform one over this multiset)."""
    n = _Slot(0)
    act.random_stage_action(state, n)
    drawn: Counter[Action] = Counter()
    for k in range(n.n):
        try:
            drawn[act.random_stage_action(state, _Slot(k))] += 1
        except _Redrawn:
            continue
    return n.n, drawn


def test_the_states_cover_moves_contacts_runs_and_rejections() -> None:
    assert len(STATES) >= 100
    kinds = Counter(a.kind for s in STATES for a in GAME.legal_actions(s))
    assert {"move", "contact", "run", "melee", "shoot", "magic_shot", "control", "heal", "done"} <= set(kinds)
    assert any(slot_outcomes(s)[0] > sum(slot_outcomes(s)[1].values()) for s in STATES[:10])


@pytest.mark.parametrize("index", range(len(STATES)))
def test_the_signum_draw_is_exactly_uniform_over_the_legal_list_but_cancel(index: int) -> None:
    state = STATES[index]
    _, drawn = slot_outcomes(state)
    legal = Counter(a for a in GAME.legal_actions(state) if a != CANCEL)
    assert drawn == legal  # every legal action but CANCEL has exactly one accepted slot


def test_a_moving_creature_draws_without_the_legal_list(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(act, "random_stage_action", lambda s, rng: calls.append(s) or Action("done"))
    state = STATES[0]
    assert GAME.random_action(state, random.Random(0)) == Action("done") and calls == [state]


def test_a_drawn_move_applies_as_it_does_with_every_destination_known() -> None:
    """The move's point found from its one direction is the one the whole list gives."""
    rng = random.Random(7)
    for state in STATES[::4]:
        for _ in range(5):
            movement._cache = (None, None, {})
            a = GAME.random_action(state, rng)
            alone = GAME.apply(state, a)
            movement._cache = (None, None, {})
            m = state.model(state.acting)
            for run in (False, True):  # every destination known: apply looks the point up in the index
                movement.destination_index(state, m, run)
            assert GAME.apply(state, a).to_json() == alone.to_json()


@pytest.mark.parametrize(
    "name", [(0, 80), (8, 80), (-1, 80), (1.0, 80), (True, 80), ("1", 80), (0,), (7,), (9,), (0, "80")]
)
def test_a_destination_named_alone_is_the_one_the_index_names(name: tuple[Any, ...]) -> None:
    for state in STATES[:20]:
        m = state.model(state.acting)
        run = len(name) == 1
        movement._cache = (None, None, {})
        alone = movement.destination_point(state, m, run, name)
        assert alone == movement.destination_index(state, m, run).get(name)


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms"])
def test_the_engine_draws_as_the_random_policy(name: str) -> None:
    game = registry().get(name)
    play = Playthrough(game, game.config(game.min_players), 3)
    for step in range(40):
        if play.is_over():
            break
        if play.to_move() == CHANCE:
            play.resolve_chance()
            continue
        legal = game.legal_actions(play.state)
        a = game.random_action(play.state, random.Random(step))
        assert a == random_policy(play.state, legal, random.Random(step))
        play.play(a)
