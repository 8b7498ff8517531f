"""What the lab reads of a Reliquium game: the faction of each seat and the creatures summoned.

Seats follow faction initiative (Rulebook › Faction initiative), so a faction cannot move to another
seat; what rotates is which factions are in play: every subset of the four, equally often.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from ludorum.engine import Action, Config
from ludorum.engine.actions import Scalar
from ludorum.engine.facts import FactReader

from .content import content
from .state import ReliquiumState

C = content()


class ReliquiumFacts(FactReader[ReliquiumState]):
    """Factions as the seat dimension, creatures as the content elements, rounds as the length."""

    dimensions = {"faction": "the faction a seat leads (seats follow initiative)"}
    length_unit = "rounds"

    def setups(self, config: Config) -> Sequence[Mapping[str, Scalar]]:
        """Every set of ``players`` factions, unless the config already names them."""
        if config.option("factions") is not None:
            return [{}]
        keys = [f.key for f in C.factions]
        return [{"factions": ",".join(chosen)} for chosen in combinations(keys, config.players)]

    def seat_labels(self, config: Config, state: ReliquiumState, seat: int) -> Mapping[str, str]:
        """The seat's faction."""
        return {"faction": C.factions[state.factions[seat]].name}

    def uses(self, state: ReliquiumState, seat: int, action: Action) -> Iterable[tuple[str, str]]:
        """A summon uses its creature (Rulebook › Legendary creatures)."""
        if action.kind == "summon" and action.args and isinstance(action.args[0], int):
            return [("creature", C.creatures[action.args[0]].name)]
        return ()

    def length(self, last: ReliquiumState) -> int | None:
        """The round the game ended in."""
        return last.round


FACTS = ReliquiumFacts()
