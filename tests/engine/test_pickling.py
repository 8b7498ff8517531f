"""Frozen, slotted dataclasses that cross process boundaries pickle as their constructor and fields."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from ludorum.engine import Action, Config
from ludorum.engine.disclosure import LogEntry
from ludorum.engine.pickling import by_fields
from ludorum.games import registry


@by_fields
@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Point3(Point):
    z: int = 0


def test_an_object_comes_back_equal_without_asking_dataclasses_for_its_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    things = (
        Point(1, 2),
        Point3(1, 2, 3),  # a subclass pickles its own fields too
        Config(3, ("militia",), "base", (("factions", "legion,order,alliance"),)),
        LogEntry(4, 1, "P2", Action("play", ("x", 2)), "P2 plays", {None: "P2 plays", 0: None}, "round 1"),
    )
    for thing in things:  # a class is checked the first time it is pickled
        pickle.dumps(thing)

    def asked(*_: object) -> None:
        raise AssertionError("dataclasses.fields() was called for one object (the slow pickling)")

    monkeypatch.setattr(dataclasses, "fields", asked)
    for thing in things:
        again = pickle.loads(pickle.dumps(thing, pickle.HIGHEST_PROTOCOL))
        assert again == thing and type(again) is type(thing)


def test_only_classes_whose_fields_are_all_positional() -> None:
    with pytest.raises(TypeError, match="positional"):

        @by_fields
        @dataclasses.dataclass(frozen=True, slots=True)
        class Keyword:
            a: int = dataclasses.field(kw_only=True)

    with pytest.raises(TypeError, match="not a dataclass"):
        by_fields(int)


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms", "signum"])
def test_every_game_state_and_game_round_trips_after_play(name: str) -> None:
    game = registry().get(name)
    state = game.new(game.config(2), 3)
    rng = random.Random(3)
    for _ in range(60):
        if game.is_over(state):
            break
        seat = game.to_move(state)
        action = rng.choice(list(game.legal_actions(state))) if seat >= 0 else game.sample_chance(state)
        state = game.step(state, action)
    assert pickle.loads(pickle.dumps(state)) == state
    # a game is pickled with every job a worker runs: none carries what it remembered of the last state
    assert len(pickle.dumps(game)) < 200
