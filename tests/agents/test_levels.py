"""The levels: registered for every game beside heuristic and random, budgets growing with the level,
medium the default, and a quick game at every level."""

from __future__ import annotations

from typing import Any

import pytest

from ludorum.agents import make_bot, play_game
from ludorum.agents.kinds import bot_kinds, default_kind
from ludorum.agents.search import LEVELS, SearchBot, level_settings
from ludorum.engine import Game
from ludorum.games import registry
from tests.fixtures.sealed_bids import SealedBids

GAMES = list(registry())


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_game_offers_the_levels_heuristic_and_random_with_medium_first_choice(game: Game[Any]) -> None:
    kinds = bot_kinds(game)
    assert {*LEVELS, "heuristic", "random"} <= set(kinds)
    assert default_kind(game) == "medium"
    budgets = [level_settings(level, game.name).iterations for level in LEVELS]
    assert budgets == sorted(budgets) and len(set(budgets)) == len(budgets)
    for level in LEVELS:
        bot = make_bot(game, level)
        assert isinstance(bot, SearchBot) and bot.settings == level_settings(level, game.name)
        assert bot.settings.seconds is not None and bot.settings.seconds <= 2.0


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="no level"):
        level_settings("grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_a_quick_game_at_each_level(level: str) -> None:
    game = SealedBids()
    play = play_game(game, game.config(2), 7, [make_bot(game, level), make_bot(game, "random")])
    assert game.is_over(play.state)
