"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any

from ludorum.engine import Action
from ludorum.engine.conformance import random_choice
from ludorum.engine.information import InformationSet


class RandomBot:
    """Chooses uniformly among the legal actions (backing out of pending decisions only rarely)."""

    def decide(self, info: InformationSet[Any], rng: random.Random) -> Action:
        """Any legal action (the view is never computed: this bot does not need it)."""
        return random_choice(info.legal, rng)
