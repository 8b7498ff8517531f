"""What the lab may ask of a game beyond its rules: who played what, and what they used.

The lab (tournaments, balance reports) is generic over games and never reads a game's state.  A game
that wants richer reports writes a subclass of :class:`FactReader` (by custom in its ``facts.py``) and
declares the instance in ``Game.provides.facts`` (:mod:`ludorum.engine.provides`).  A game without one
gets these defaults: no factions or decks to rotate, no content elements, seat 0 moves first, length
counted in decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations, permutations
from typing import ClassVar, Generic, TypeVar

from ludorum.engine.actions import Action, Scalar
from ludorum.engine.config import Config
from ludorum.engine.state import GameState

S = TypeVar("S", bound=GameState)


class FactReader(Generic[S]):
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


def all_setups(keys: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every way of seating ``players`` of ``keys``: each subset of ``players`` keys in every order.

    ``C(len(keys), players) * players!`` arrangements.  Each key sits in each seat equally often, and so
    does each ordered pair of keys in each pair of seats: with three or more players a key meets every
    other key as its neighbour on each side and, at four, across the table (a cyclic turn alone would
    always seat the same two keys opposite each other).
    """
    return [order for chosen in combinations(keys, players) for order in permutations(chosen)]


__all__ = ["FactReader", "all_setups"]
