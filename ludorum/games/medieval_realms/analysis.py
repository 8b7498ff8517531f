"""What the lab reads of a Medieval Realms game: the Event Cards each realm takes or plays.

Realms are colours fixed to seats, so there is nothing to rotate; the start player is drawn at set-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ludorum.engine import Action
from ludorum.engine.analysis import Analysis, Tunable

from .content import CARDS
from .state import RealmsState


class RealmsAnalysis(Analysis[RealmsState]):
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

    def tunables(self) -> Mapping[str, Tunable]:
        """The search evaluation's weights (``evaluation.py``), which the search bots read as they decide."""
        return {
            "resource": self.weight(
                "RESOURCE",
                0.0,
                1.0,
                "a stored resource beyond its end value, with every action phase to come",
            ),
            "leader": self.weight(
                "LEADER",
                0.0,
                1.5,
                "a Mayor per round it still produces in (Generals, Admirals in proportion)",
            ),
            "temperature_end": self.weight(
                "TEMPERATURE_END",
                0.5,
                8.0,
                "the VP lead that makes a realm e times likelier to win at the end",
                log=True,
            ),
            "temperature_round": self.weight(
                "TEMPERATURE_ROUND",
                0.2,
                5.0,
                "how much less sure a lead is per round left",
                log=True,
            ),
        }


ANALYSIS = RealmsAnalysis()
