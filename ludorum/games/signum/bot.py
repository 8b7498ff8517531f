"""The heuristic bot (placeholder until the full heuristic lands): random among legal actions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import Action


class HeuristicBot:
    """Chooses among the legal actions using only its view."""

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """Pick one of ``legal``."""
        return rng.choice(list(legal))
