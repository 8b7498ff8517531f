"""Several trees per decision (``SearchSettings.trees``): their root visits are summed, each tree has its
own seed and keeps its own subtree, and the ensemble is as reproducible and as blind to hidden
information as one tree."""

from __future__ import annotations

import random

from ludorum.agents.search import SearchBot, SearchSettings
from ludorum.agents.search.bot import _summed
from ludorum.engine import Action, Playthrough
from ludorum.engine.information import InformationSet
from tests.agents.tiny import Gamble, Nim
from tests.fixtures.sealed_bids import SealedBids

NIM = Nim()


def test_the_trees_root_statistics_are_summed_visits_and_visit_weighted_means() -> None:
    a, b, c = Action("a"), Action("b"), Action("c")
    summed = _summed({a: (3, 1.0), b: (1, 0.0)}, {a: (1, 0.0), c: (2, 0.5)})
    assert summed == {a: (4, 0.75), b: (1, 0.0), c: (2, 0.5)}


def test_each_tree_runs_the_whole_budget_from_its_own_seed() -> None:
    game = Gamble()
    s = game.new(game.config(2), 0)
    one = SearchBot(SearchSettings(iterations=60, mode="mcts", reuse=False))
    three = SearchBot(SearchSettings(iterations=60, mode="mcts", reuse=False, trees=3))
    one.decide(InformationSet(game, s, 0), random.Random(4))
    three.decide(InformationSet(game, s, 0), random.Random(4))
    assert one.last.iterations == 60 and three.last.iterations == 180
    # A fresh tree's root children share its iterations: the summed visits are every tree's.
    assert sum(v for v, _ in three.last.values.values()) == 180
    # The trees are not copies of one search: three times one tree's visits is not what they add up to.
    assert three.last.values != {a: (3 * v, m) for a, (v, m) in one.last.values.items()}


def test_an_ensemble_is_reproducible_from_its_seed() -> None:
    game = Gamble()
    s = game.new(game.config(2), 0)
    settings = SearchSettings(iterations=40, mode="mcts", trees=3)
    first, second = SearchBot(settings), SearchBot(settings)
    assert first.decide(InformationSet(game, s, 0), random.Random(7)) == second.decide(
        InformationSet(game, s, 0), random.Random(7)
    )
    assert first.last.values == second.last.values


def test_each_tree_keeps_its_subtree_for_the_next_decision() -> None:
    NIM.start = 10
    try:
        for mode in ("mcts", "ismcts"):
            bot = SearchBot(SearchSettings(iterations=200, depth=None, mode=mode, trees=2))
            play = Playthrough(NIM, NIM.config(2), 0)
            rng = random.Random(0)
            play.play(bot.decide(InformationSet(NIM, play.state, 0), rng))
            assert bot.last.reused == 0 and len(bot._kept) == 2
            play.play(Action("take", (1,)))  # the opponent
            play.play(bot.decide(InformationSet(NIM, play.state, 0), rng))
            # Each tree's kept subtree had visits of its own: more than one tree's worth was reused.
            assert bot.last.reused > 0
            assert all(node is not None and node.visits > 0 for node, _ in bot._kept)
    finally:
        NIM.start = 7


def test_an_ensemble_decides_from_the_information_set_only() -> None:
    game = SealedBids()
    play = Playthrough(game, game.config(2), 3)
    seat = game.to_move(play.state)
    twins = [play.state, *(game.sample_state(play.state, seat, random.Random(k)) for k in (1, 2, 3))]
    assert any(t != play.state for t in twins[1:])
    settings = SearchSettings(iterations=40, depth=None, trees=3)
    choices = {
        SearchBot(settings).decide(InformationSet(game, twin, seat), random.Random(11)) for twin in twins
    }
    assert len(choices) == 1
