"""What the lab reads of a Medieval Realms game: the Event Cards each realm takes or plays.

Realms are colours fixed to seats, so there is nothing to rotate; the start player is drawn at set-up.
"""

from __future__ import annotations

from collections.abc import Iterable

from ludorum.engine import Action
from ludorum.engine.facts import FactReader

from .content import CARDS
from .state import RealmsState


class RealmsFacts(FactReader[RealmsState]):
    """Event Cards as the content elements, rounds as the length, the drawn start player."""

    length_unit = "rounds"

    def uses(self, state: RealmsState, seat: int, action: Action) -> Iterable[tuple[str, str]]:
        """Activating a square of the Current Events Panel, or putting a card into play, uses that card."""
        arg = action.args[0] if action.args else None
        if not isinstance(arg, int) or isinstance(arg, bool):
            return ()
        if action.kind == "activate" and 1 <= arg <= len(state.panel) and state.panel[arg - 1] >= 0:
            return [("card", CARDS[state.panel[arg - 1]].name)]
        if action.kind == "play" and 0 <= arg < len(CARDS):
            return [("card", CARDS[arg].name)]
        return ()

    def first_player(self, first: RealmsState, last: RealmsState) -> int:
        """The start player drawn at set-up (Rulebook › Set-Up)."""
        return first.order[0]

    def length(self, last: RealmsState) -> int | None:
        """The round the game ended in."""
        return last.round


FACTS = RealmsFacts()
