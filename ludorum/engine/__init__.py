"""The game-agnostic kernel: the ``Game`` protocol, actions, states, RNG, records, the conformance kit.

Standard library only; every layer above imports from here.
"""

from ludorum.engine.actions import Action
from ludorum.engine.config import Config
from ludorum.engine.errors import CodecError, ConfigError, IllegalAction, LudorumError, RecordError
from ludorum.engine.game import CANCEL, CHANCE, Game, Result
from ludorum.engine.record import Playthrough, Record, replay, replay_states
from ludorum.engine.registry import Registry
from ludorum.engine.state import GameState, derive_view, hidden, per_seat

__all__ = [
    "CANCEL",
    "CHANCE",
    "Action",
    "CodecError",
    "Config",
    "ConfigError",
    "Game",
    "GameState",
    "IllegalAction",
    "LudorumError",
    "Playthrough",
    "Record",
    "RecordError",
    "Registry",
    "Result",
    "derive_view",
    "hidden",
    "per_seat",
    "replay",
    "replay_states",
]
