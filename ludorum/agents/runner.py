"""Playing whole games with bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ludorum.engine import CHANCE, Config, Game, Playthrough
from ludorum.engine.bots import Bot


def bot_move(game: Game[Any], play: Playthrough, bot: Bot, rng: random.Random) -> None:
    """Let ``bot`` decide for the seat to move, showing it only that seat's view."""
    seat = play.to_move()
    legal = game.legal_actions(play.state)
    view = game.view(play.state, seat) if getattr(bot, "needs_view", True) else {}
    play.play(bot.choose(view, legal, seat, rng))


def play_game(game: Game[Any], config: Config, seed: int, bots: Sequence[Bot]) -> Playthrough:
    """Play one game to its end with one bot per seat; chance decides from the state's generator."""
    play = Playthrough(game, config, seed)
    rng = random.Random(seed)
    while not play.is_over():
        if play.to_move() == CHANCE:
            play.resolve_chance()
            continue
        bot_move(game, play, bots[play.to_move()], rng)
    return play
