"""Kinds a game declares public (``Game.public_kinds``): the disclosure steps only the action taken in
each state it draws, reads exactly what the full judgement (every legal action) reads, and a wrong
declaration fails the conformance kit."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ludorum.engine import Action, Game, GameState, disclosure
from ludorum.engine.conformance import check_game, check_public_step, random_choice
from ludorum.engine.disclosure import Step
from ludorum.engine.game import CHANCE
from ludorum.games import registry
from tests.fixtures import kit_refuses, two_and_three
from tests.fixtures.face_down import FaceDown
from tests.fixtures.sealed_bids import SealedBids


class PublicBids(SealedBids):
    """Declares the sealed bid public, which it is not: another bid leaves the others the same view."""

    public_kinds = frozenset({"bid"})


class PublicDraws(FaceDown):
    """Declares drawing and passing public, rightly: no other action leaves anyone the same view."""

    public_kinds = frozenset({"draw", "pass"})


class CountingDraws(PublicDraws):
    """Counts the actions the disclosure steps."""

    def __init__(self) -> None:
        super().__init__()
        self.stepped: Counter[Action] = Counter()

    def step(self, state: Any, action: Action) -> Any:
        self.stepped[action] += 1
        return super().step(state, action)


def test_a_kind_wrongly_declared_public_fails_the_kit() -> None:
    game = PublicBids()
    kit_refuses(game, "declares 'bid' public")


def test_a_kind_rightly_declared_public_passes_the_kit() -> None:
    game = PublicDraws()
    report = check_game(game, two_and_three(game), games=20, seed=1)
    assert report.games == 20


def steps(game: Game[Any], games: int, players: int = 2) -> list[tuple[GameState, int, Action, GameState]]:
    """(before, actor, action, after) of every step of ``games`` random games."""
    out = []
    for seed in range(games):
        state, rng = game.new(game.config(players + seed % 2), seed), random.Random(seed)
        while not game.is_over(state):
            actor = game.to_move(state)
            legal = game.legal_actions(state)
            action = game.sample_chance(state) if actor == CHANCE else random_choice(legal, rng)
            after = game.step(state, action)
            out.append((state, actor, action, after))
            state = after
    return out


def test_a_public_kind_is_judged_by_stepping_only_the_action_taken() -> None:
    game = CountingDraws()
    judged = 0
    for before, actor, action, after in steps(game, 10):
        if action.kind not in game.public_kinds:
            continue
        game.stepped.clear()
        quick = disclosure.disclose(Step(game, 0, before, actor, action, after))
        assert set(game.stepped) <= {action}, "only the action taken is stepped"
        game.stepped.clear()
        full = disclosure.disclose(Step(game, 0, before, actor, action, after), shortcuts=False)
        judged += len(set(game.stepped) - {action}) > 0  # the full judgement tries the others too
        assert quick.readings == full.readings
    assert judged > 10


@pytest.mark.parametrize("name", [g.name for g in registry() if g.public_kinds])
def test_the_games_declared_kinds_read_as_the_full_judgement(name: str) -> None:
    """Every observer of every step of a declared kind in random games reads what the full judgement
    reads, as the kit compares them (one observer per checked step; this, all of them)."""
    game = registry().get(name)
    seen: Counter[str] = Counter()
    for before, actor, action, after in steps(game, 2 if name == "signum" else 4):
        if action.kind not in game.public_kinds:
            continue
        seen[action.kind] += 1
        for o in disclosure.observers(before.config.players):
            if o != actor:
                check_public_step(Step(game, 0, before, actor, action, after), o, name)
    assert set(seen) == set(game.public_kinds)
