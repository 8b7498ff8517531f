"""The guide (the heuristic a search starts from): its move is expanded first and favoured by a
progressive bias that fades with visits, so enough search still overrules a wrong guide."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from ludorum.agents.search.ismcts import ISMCTS
from ludorum.agents.search.mcts import MCTS
from ludorum.agents.search.rollout import make_guide, random_policy
from ludorum.engine import Action
from ludorum.engine.evaluation import Evaluation
from ludorum.engine.information import InformationSet
from tests.agents.tiny import Nim

NIM = Nim()
TAKE1, TAKE2 = Action("take", (1,)), Action("take", (2,))


def always_take_one(state: Any, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """A wrong guide at a pile of 8 (taking two leaves 6, a multiple of three, and wins)."""
    return TAKE1 if TAKE1 in legal else None


def pile(n: int) -> Any:
    s = NIM.new(NIM.config(2), 0)
    s.pile = n
    return s


def test_the_guides_move_is_expanded_first_in_both_trees() -> None:
    for seed in range(6):  # without a guide the first expansion is random; with one, always the hint
        engine = MCTS(NIM, random_policy, None, None, 0.7, always_take_one, 1.0)
        rng = random.Random(seed)
        root = engine.root(pile(8), rng)
        engine.iterate(root, rng)
        assert list(root.children) == [TAKE1] and root.hint == TAKE1
        info = ISMCTS(NIM, random_policy, None, None, 0.7, always_take_one, 1.0)
        iroot = info.root(2)
        info.iterate(iroot, pile(8), rng)
        assert list(iroot.children) == [TAKE1] and iroot.hint == TAKE1


def visits(engine: MCTS | ISMCTS, iterations: int, seed: int) -> dict[Action, int]:
    rng = random.Random(seed)
    if isinstance(engine, MCTS):
        root = engine.root(pile(8), rng)
        for _ in range(iterations):
            engine.iterate(root, rng)
        return {a: n for a, (n, _) in engine.stats(root).items()}
    iroot = engine.root(2)
    for _ in range(iterations):
        engine.iterate(iroot, pile(8), rng)
    return {a: n for a, (n, _) in engine.stats(iroot, 0).items()}


@pytest.mark.parametrize("cls", [MCTS, ISMCTS])
def test_the_bias_favours_the_guide_early_and_fades_so_search_overrules_it(cls: type[MCTS | ISMCTS]) -> None:
    plain = cls(NIM, random_policy, None, None, 0.7)
    guided = cls(NIM, random_policy, None, None, 0.7, always_take_one, 3.0)
    early_plain = sum(visits(plain, 20, s)[TAKE1] for s in range(5))
    early_guided = sum(visits(guided, 20, s)[TAKE1] for s in range(5))
    assert early_guided > early_plain
    late = visits(guided, 600, 0)
    assert late[TAKE2] > late[TAKE1]


def test_no_bias_means_no_guide() -> None:
    engine = MCTS(NIM, random_policy, None, None, 0.7, always_take_one, 0.0)
    rng = random.Random(0)
    root = engine.root(pile(8), rng)
    assert engine.guide is None and root.hint is None


class GuidedNim(Nim):
    """Nim whose evaluation offers a guide bot (``Evaluation.guide``) and no bot kind."""

    def evaluation(self) -> Evaluation[Any]:
        return Evaluation(lambda s: (0.5, 0.5), guide=TakeOne)


class TakeOne:
    """A bot that always takes one stone."""

    def decide(self, info: InformationSet[Any], rng: random.Random) -> Action:
        return TAKE1


def test_guide_game_asks_the_evaluations_guide_and_none_without_one() -> None:
    guided = GuidedNim()
    guide = make_guide(guided, "game")
    assert guide is not None and guide(pile(8), [TAKE1, TAKE2], random.Random(0)) == TAKE1
    assert make_guide(NIM, "game") is None  # no evaluation, no guide: searched unguided
    assert make_guide(guided, "heuristic") is None  # the guide is not a bot kind of the game
