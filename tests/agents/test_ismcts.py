"""IS-MCTS: it plays hidden-information games from its information set only, and a search bot's choice
depends only on what its seat knows — states that differ only in what it cannot see give the same action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludorum.agents.search import SearchBot, SearchSettings, hides_information
from ludorum.agents.search.rollout import searchable
from ludorum.engine import CHANCE, Game, Playthrough
from ludorum.engine.conformance import random_choice
from ludorum.engine.information import InformationSet
from ludorum.games import registry
from tests.fixtures.sealed_bids import SealedBids

GAMES = list(registry())


def decision_points(game: Game[Any], players: int, seed: int, every: int, count: int) -> list[Any]:
    """States of a random game where a seat decides among several actions, every ``every`` steps."""
    play = Playthrough(game, game.config(players), seed)
    rng = random.Random(seed)
    out: list[Any] = []
    step = 0
    while not play.is_over() and len(out) < count:
        if play.to_move() == CHANCE:
            play.resolve_chance()
            continue
        legal = game.legal_actions(play.state)
        if step % every == 0 and len(searchable(legal)) > 1:
            out.append(play.state)
        play.play(random_choice(legal, rng))
        step += 1
    return out


def test_which_games_need_information_sets() -> None:
    kinds = {g.name: hides_information(g) for g in GAMES}
    assert kinds == {"reliquium": False, "medieval-realms": True, "signum": True}
    assert hides_information(SealedBids())


def test_ismcts_bids_to_win_the_last_prize_it_can_afford() -> None:
    # Last round, a prize of 6; seat 1 has 1 coin, seat 0 has 3: bidding 2 or 3 wins the prize.
    game = SealedBids()
    s = game.new(game.config(2), 0)
    s.round, s.prize, s.coins, s.points = 3, 6, (3, 1), (2, 4)
    bot = SearchBot(SearchSettings(iterations=600, depth=None))
    choice = bot.decide(InformationSet(game, s, 0), random.Random(0))
    assert bot.mode(game) == "ismcts"
    assert choice.kind == "bid" and int(choice.args[0]) >= 2  # type: ignore[arg-type]


def test_ismcts_plays_whole_games_of_the_fixture_legally() -> None:
    game = SealedBids()
    from ludorum.agents import RandomBot, play_game

    play = play_game(
        game, game.config(3), 4, [SearchBot(SearchSettings(iterations=40)), RandomBot(), RandomBot()]
    )
    assert game.is_over(play.state)


@pytest.mark.parametrize("guided", [False, True], ids=["plain", "guided"])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_indistinguishable_states_give_the_same_action(game: Game[Any], guided: bool) -> None:
    # Guided, the heuristic is also asked inside the tree: it too must see only determinizations.
    guide = {"guide": "heuristic", "bias": 4.0} if guided else {}
    settings = SearchSettings(iterations=12 if game.name == "signum" else 30, depth=8, **guide)
    points = decision_points(game, 2, seed=21, every=37, count=3)
    assert points
    for state in points:
        seat = game.to_move(state)
        twins = [state, *(game.sample_state(state, seat, random.Random(k)) for k in (1, 2))]
        if hides_information(game):
            assert any(t != state for t in twins[1:]), "the twins should differ in what the seat cannot see"
        choices = {
            SearchBot(settings).decide(InformationSet(game, twin, seat), random.Random(99)) for twin in twins
        }
        assert len(choices) == 1, (
            f"{game.name}: the choice depends on what seat {seat} cannot see "
            "(if only sample_state is not canonical, the game's sampler is at fault)"
        )
