"""The bot interface: a bot decides from its seat's information set, never from the true state; and the
loop that plays a whole game with one bot per seat."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ludorum.engine.actions import Action
from ludorum.engine.config import Config
from ludorum.engine.game import CHANCE, Game
from ludorum.engine.information import InformationSet
from ludorum.engine.record import Playthrough


class Bot(Protocol):
    """Something that chooses an action for one seat.

    A bot is never given the full state: it receives its seat's :class:`InformationSet` — the seat's
    view (exactly what a human client receives), its legal actions, and a sampler of full states the
    seat cannot tell apart from the true one, which search uses as its forward model.
    """

    def decide(self, info: InformationSet[Any], rng: random.Random) -> Action:
        """Pick one of ``info.legal``."""
        ...


class ViewBot(ABC):
    """A bot that needs only the seat's view and legal actions (hand-written heuristics)."""

    def decide(self, info: InformationSet[Any], rng: random.Random) -> Action:
        """Choose from the view and the legal actions."""
        return self.choose(info.view, info.legal, info.seat, rng)

    @abstractmethod
    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """Pick one of ``legal`` from what ``seat`` sees."""


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
