"""What the lab reads of a Legends of Signum game: each seat's deck and hero, and the cards it plays.

The four starter decks rotate through the seats: every subset of ``players`` decks, each turned
through the seats once (a Latin square per subset), unless the config already names the decks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ludorum.engine import Action, Config
from ludorum.engine.actions import Scalar
from ludorum.engine.facts import FactReader, all_setups

from .content import base_content
from .setup import DEFAULT_DECKS
from .state import SignumState

CONTENT = base_content()
PLAYED = {"recruit": "card", "cast": "card", "set": "card", "equip": "card", "build": "building"}
"""Action kinds that put a card from hand (or a building) onto the table, and its category."""


class SignumFacts(FactReader[SignumState]):
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


FACTS = SignumFacts()
