"""Named values (``SearchSettings.value``): a level may score its leaves with another estimate the game
offers (``Evaluation.values``) than the game's own; an unknown name is a clear error."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from ludorum.agents.search import SearchBot, SearchSettings
from ludorum.agents.search.rollout import make_value
from ludorum.engine import Action
from ludorum.engine.evaluation import Evaluation
from ludorum.engine.information import InformationSet
from tests.agents.tiny import Nim, NimState

TAKE1, TAKE2 = Action("take", (1,)), Action("take", (2,))


def knows_nim(s: NimState) -> Sequence[float]:
    """Right: the seat to move from a multiple of three loses (whatever it takes, the other restores it)."""
    loser = s.mover if s.pile % 3 == 0 else 1 - s.mover
    return tuple(0.0 if p == loser else 1.0 for p in range(2))


def misreads_nim(s: NimState) -> Sequence[float]:
    """Wrong: the very opposite."""
    return tuple(1.0 - v for v in knows_nim(s))


class ValuedNim(Nim):
    """Nim whose own value misreads the game and whose value named ``right`` knows it."""

    def evaluation(self) -> Evaluation[Any]:
        return Evaluation(misreads_nim, values={"right": knows_nim})


def choice(value: str) -> Action:
    game = ValuedNim()
    s = game.new(game.config(2), 0)
    s.pile = 8  # taking two leaves six, a multiple of three: the winning move
    bot = SearchBot(SearchSettings(iterations=60, depth=0, value=value, reuse=False))
    return bot.decide(InformationSet(game, s, 0), random.Random(0))


def test_a_named_value_scores_the_leaves_instead_of_the_games_own() -> None:
    assert choice("right") == TAKE2
    assert choice("") == TAKE1  # the game's own value, misreading the pile


def test_make_value_finds_the_games_values_by_name_and_refuses_an_unknown_one() -> None:
    game = ValuedNim()
    assert make_value(game, "") is misreads_nim and make_value(game, "right") is knows_nim
    assert make_value(Nim(), "") is None  # no evaluation: rollouts play to the end
    with pytest.raises(ValueError, match=r"no value 'wrong' for Nim; its named values are: right"):
        make_value(game, "wrong")
    with pytest.raises(ValueError, match=r"its named values are: none"):
        make_value(Nim(), "right")
