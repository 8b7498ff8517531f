"""UCT on tiny games whose answers are known: the winning move, chance nodes, max^n, determinism, reuse."""

from __future__ import annotations

import random

from ludorum.agents.search import SearchBot, SearchSettings
from ludorum.agents.search.mcts import MCTS
from ludorum.agents.search.rollout import random_policy
from ludorum.engine import Action, Playthrough
from ludorum.engine.information import InformationSet
from tests.agents.tiny import ODDS, Gamble, Nim

NIM = Nim()
TAKE1, TAKE2 = Action("take", (1,)), Action("take", (2,))


def decide(bot: SearchBot, game: object, state: object, seed: int = 0) -> Action:
    info = InformationSet(game, state, game.to_move(state))  # type: ignore[attr-defined, arg-type]
    return bot.decide(info, random.Random(seed))


def test_nim_leaves_a_multiple_of_three() -> None:
    bot = SearchBot(SearchSettings(iterations=400, depth=None, mode="mcts"))
    for pile, best in ((7, TAKE1), (8, TAKE2), (5, TAKE2), (4, TAKE1)):
        s = NIM.new(NIM.config(2), 0)
        s.pile = pile
        assert decide(SearchBot(bot.settings), NIM, s) == best, pile


def test_max_n_each_seat_plays_for_its_own_reward() -> None:
    # Three players, 2 stones, seat 2 to move: taking both wins for seat 2, while taking one would hand
    # the last stone, and the win, to seat 0.  A search that scored seat 0's reward would take one.
    s = NIM.new(NIM.config(3), 0)
    s.pile, s.mover = 2, 2
    assert decide(SearchBot(SearchSettings(iterations=100, depth=None, mode="mcts")), NIM, s) == TAKE2
    s.mover = 1
    bot = SearchBot(SearchSettings(iterations=100, depth=None, mode="ismcts"))
    assert decide(bot, NIM, s) == TAKE2


def test_chance_nodes_draw_outcomes_with_their_probabilities_and_back_up_expectations() -> None:
    game = Gamble()
    s = game.new(game.config(2), 0)
    engine = MCTS(game, random_policy, None, None, 0.7)
    rng = random.Random(5)
    root = engine.root(s, rng)
    for _ in range(4000):
        engine.iterate(root, rng)
    stats = engine.stats(root)
    assert max(stats, key=lambda a: stats[a][0]) == Action("coin")
    coin = root.children[Action("coin")]
    assert abs(coin.mean(0) - ODDS["coin"]) < 0.05
    draws = {a.args[0]: child.visits for a, child in coin.children.items()}
    assert abs(draws[0] / coin.visits - ODDS["coin"]) < 0.05


def test_a_seed_gives_the_same_search_and_the_same_action() -> None:
    game = Gamble()
    s = game.new(game.config(2), 0)
    settings = SearchSettings(iterations=50, mode="mcts")
    first, second = SearchBot(settings), SearchBot(settings)
    assert decide(first, game, s, seed=3) == decide(second, game, s, seed=3)
    a, b = MCTS(game, random_policy, None, None, 0.7), MCTS(game, random_policy, None, None, 0.7)
    ra, rb = random.Random(9), random.Random(9)
    ta, tb = a.root(s, ra), b.root(s, rb)
    for _ in range(100):
        a.iterate(ta, ra)
        b.iterate(tb, rb)
    assert a.stats(ta) == b.stats(tb)
    rc = random.Random(10)
    tc = a.root(s, rc)
    for _ in range(100):
        a.iterate(tc, rc)
    assert a.stats(tc) != a.stats(ta)  # the seed matters


def test_the_tree_is_reused_after_the_opponent_moves() -> None:
    NIM.start = 10
    try:
        bot = SearchBot(SearchSettings(iterations=300, depth=None, mode="mcts"))
        play = Playthrough(NIM, NIM.config(2), 0)
        rng = random.Random(0)
        play.play(bot.decide(InformationSet(NIM, play.state, 0), rng))
        assert bot.last.reused == 0
        play.play(TAKE1)  # the opponent
        play.play(bot.decide(InformationSet(NIM, play.state, 0), rng))
        assert bot.last.reused > 0
        fresh = SearchBot(SearchSettings(iterations=300, depth=None, mode="mcts", reuse=False))
        fresh.decide(InformationSet(NIM, play.state, 0), rng)
        assert fresh.last.reused == 0
    finally:
        NIM.start = 7


def test_a_single_choice_is_instant() -> None:
    s = NIM.new(NIM.config(2), 0)
    s.pile = 1
    bot = SearchBot(SearchSettings(iterations=10**9))
    assert decide(bot, NIM, s) == TAKE1 and bot.last.iterations == 0
