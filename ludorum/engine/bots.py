"""The bot interface: a bot sees only its seat's view and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ludorum.engine.actions import Action


class Bot(Protocol):
    """Something that chooses an action for one seat.

    A bot is never given the full state: it receives the JSON view of its own seat (exactly what a
    human client receives) and the list of legal actions.
    """

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """Pick one of ``legal``."""
        ...
