"""What the lab reads of a Legends of Signum game: each seat's deck and hero, and the cards it plays.

The four starter decks rotate through the seats: every subset of ``players`` decks, each turned
through the seats once (a Latin square per subset), unless the config already names the decks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ludorum.engine import Action, Config
from ludorum.engine.actions import Scalar
from ludorum.engine.analysis import Analysis, Tunable, all_setups

from .content import base_content
from .setup import DEFAULT_DECKS
from .state import SignumState

CONTENT = base_content()
PLAYED = {"recruit": "card", "cast": "card", "set": "card", "equip": "card", "build": "building"}
"""Action kinds that put a card from hand (or a building) onto the table, and its category."""


class SignumAnalysis(Analysis[SignumState]):
    """Decks and heroes as the seat dimensions, cards and buildings as content, turns as the length."""

    dimensions = {"deck": "the starter deck a seat plays", "hero": "the deck's hero"}
    length_unit = "turns"

    def setups(self, config: Config) -> Sequence[Mapping[str, Scalar]]:
        """Starter decks rotated through the seats, unless any deck is chosen in the config."""
        if any(config.option(f"deck{i}") is not None for i in range(4)):
            return [{}]
        return [
            {f"deck{i}": deck for i, deck in enumerate(seating)}
            for seating in all_setups(list(CONTENT.decks), config.players)
        ]

    def seat_labels(self, config: Config, state: SignumState, seat: int) -> Mapping[str, str]:
        """The seat's starter deck (or "custom") and hero."""
        chosen = str(config.option(f"deck{seat}", DEFAULT_DECKS[seat]))
        deck = CONTENT.decks[chosen].name_en if chosen in CONTENT.decks else "custom deck"
        return {"deck": deck, "hero": CONTENT.cards[state.heroes[seat]].name_en}

    def uses(self, state: SignumState, seat: int, action: Action) -> Iterable[tuple[str, str]]:
        """Recruiting, casting, setting or equipping a card, or building a building, uses it."""
        category = PLAYED.get(action.kind)
        card = action.args[0] if action.args else None
        if category is None or not isinstance(card, str) or card not in CONTENT.cards:
            return ()
        return [(category, CONTENT.cards[card].name_en)]

    def first_player(self, first: SignumState, last: SignumState) -> int:
        """The seat that won the first-player roll and took the first turn."""
        return last.first

    def length(self, last: SignumState) -> int | None:
        """The turn the game ended on."""
        return last.turn

    def tunables(self) -> Mapping[str, Tunable]:
        """The search evaluation's weights (``evaluation.py``), which the search bots read as they decide."""
        return {
            "hero": self.weight("HERO", 0.0, 15.0, "the hero alive"),
            "creature": self.weight("CREATURE", 0.0, 0.5, "a creature's worth per point of cost"),
            "prosperity": self.weight("PROSPERITY", 0.0, 10.0, "prosperity's weight"),
            "income": self.weight("INCOME", 0.0, 0.5, "income's weight"),
            "danger": self.weight("DANGER", 0.0, 2.0, "how much of a hero's expected wounds count as taken"),
            "later": self.weight("LATER", 0.0, 1.0, "the weight of a threat that cannot strike first"),
            "temperature": self.weight(
                "TEMPERATURE",
                0.5,
                8.0,
                "the score lead that makes a seat e times likelier to win",
                log=True,
            ),
        }


ANALYSIS = SignumAnalysis()
