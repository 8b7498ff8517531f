"""Bots, generic over the ``Game`` protocol; each sees only its seat's view and the legal actions."""

from ludorum.agents.kinds import bot_kinds, make_bot
from ludorum.agents.random_bot import RandomBot
from ludorum.engine.bots import play_game

__all__ = ["RandomBot", "bot_kinds", "make_bot", "play_game"]
