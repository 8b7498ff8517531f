"""What the lab may ask of a game beyond its rules: who played what, and what they used.

The lab (tournaments, balance reports) is generic over games and never reads a game's state.  A game
that wants richer reports defines, in ``ludorum/games/<game>/analysis.py``, a module attribute
``ANALYSIS`` — an instance of a subclass of :class:`Analysis` — and the lab finds it there by that
convention.  A game without one gets these defaults: no factions or decks to rotate, no content
elements, seat 0 moves first, length counted in decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import ClassVar, Generic, TypeVar

from ludorum.engine.actions import Action, Scalar
from ludorum.engine.config import Config
from ludorum.engine.state import GameState

S = TypeVar("S", bound=GameState)


@dataclass(frozen=True, slots=True)
class Tunable:
    """A number the game's bots or evaluation read at decision time, which ``ludorum tune`` may vary.

    It is a module-level constant (``module.attribute``), read when a bot decides, so the lab can give
    one seat other values than another by setting it only while that seat's bot decides.
    """

    module: str
    attribute: str
    low: float
    high: float
    description: str = ""
    log: bool = False
    """Search on a logarithmic scale (for positive scales such as temperatures)."""


class Analysis(Generic[S]):
    """A game's answers to the lab's questions; every method has a neutral default."""

    dimensions: ClassVar[Mapping[str, str]] = {}
    """What a seat plays besides its position (``{"deck": "the starter deck a seat plays"}``)."""

    length_unit: ClassVar[str] = ""
    """What :meth:`length` counts (``"rounds"``); empty when the game has no such measure."""

    def setups(self, config: Config) -> Sequence[Mapping[str, Scalar]]:
        """Option sets that, played equally often, rotate factions or decks through the seats.

        ``config`` is the base configuration (its options as the user chose them); return ``[{}]``
        when there is nothing to rotate, or when the user already fixed what would be rotated.
        """
        return [{}]

    def seat_labels(self, config: Config, state: S, seat: int) -> Mapping[str, str]:
        """The value of each of :attr:`dimensions` for ``seat`` (``{"deck": "Knights of the Dawn"}``)."""
        return {}

    def uses(self, state: S, seat: int, action: Action) -> Iterable[tuple[str, str]]:
        """Content elements ``seat`` uses by taking ``action`` in ``state``, as ``(category, name)``."""
        return ()

    def first_player(self, first: S, last: S) -> int:
        """The seat that moved first, given the initial and the final state."""
        return 0

    def length(self, last: S) -> int | None:
        """The game's length in :attr:`length_unit` (rounds, turns), from its final state."""
        return None

    def tunables(self) -> Mapping[str, Tunable]:
        """Weights ``ludorum tune`` may vary, by name (none by default); each made by :meth:`weight`."""
        return {}

    def weight(self, attribute: str, low: float, high: float, description: str, log: bool = False) -> Tunable:
        """The constant ``attribute`` of the game's evaluation module as a :class:`Tunable`.

        The evaluation module is ``evaluation.py`` beside the game's ``analysis.py`` (the module that defines
        this class), as the game's ``evaluation()`` finds it.
        """
        module = type(self).__module__.rpartition(".")[0] + ".evaluation"
        return Tunable(module, attribute, low, high, description, log)


def all_setups(keys: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every way of seating ``players`` of ``keys``: each subset of ``players`` keys in every order.

    ``C(len(keys), players) * players!`` arrangements.  Each key sits in each seat equally often, and so
    does each ordered pair of keys in each pair of seats: with three or more players a key meets every
    other key as its neighbour on each side and, at four, across the table (a cyclic turn alone would
    always seat the same two keys opposite each other).
    """
    return [order for chosen in combinations(keys, players) for order in permutations(chosen)]


__all__ = ["Analysis", "Tunable", "all_setups"]
