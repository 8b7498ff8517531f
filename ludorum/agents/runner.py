"""Playing whole games with bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ludorum.engine import CHANCE, Config, Game, Playthrough
from ludorum.engine.bots import Bot
from ludorum.engine.information import InformationSet


def bot_move(game: Game[Any], play: Playthrough, bot: Bot, rng: random.Random) -> None:
    """Let ``bot`` decide for the seat to move, from that seat's information set only."""
    play.play(bot.decide(InformationSet(game, play.state, play.to_move()), rng))


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
