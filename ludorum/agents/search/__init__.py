"""Search bots generic over the ``Game`` protocol: UCT (MCTS) and single-observer IS-MCTS.

Nothing here knows a game: what search needs from one — a state evaluation and optionally a fast
rollout policy — the game brings through ``Game.evaluation()`` (:mod:`ludorum.engine.evaluation`).
"""

from ludorum.agents.search.bot import SearchBot, Thought
from ludorum.agents.search.levels import LEVELS, base_level, level_settings, variant_settings
from ludorum.agents.search.settings import SearchSettings
from ludorum.engine.information import hides_information

__all__ = [
    "LEVELS",
    "SearchBot",
    "SearchSettings",
    "Thought",
    "base_level",
    "hides_information",
    "level_settings",
    "variant_settings",
]
