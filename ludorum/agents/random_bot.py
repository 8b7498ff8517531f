"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import Action
from ludorum.engine.conformance import random_choice


class RandomBot:
    """Chooses uniformly among the legal actions (backing out of pending decisions only rarely)."""

    needs_view = False

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Action], seat: int, rng: random.Random
    ) -> Action:
        """Any legal action."""
        return random_choice(legal, rng)
