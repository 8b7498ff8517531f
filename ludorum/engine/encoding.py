"""What the RL layer (:mod:`ludorum.rl`) needs from a game, as plain data: standard library only.

A game that wants to be an RL environment declares a :class:`GameEncoding` in ``Game.provides.encoding``
(by custom ``ENCODING`` in ``ludorum/games/<game>/encoding.py``).  It says two things, both derived from
the game's content where possible:

* **actions** — every action kind with every argument tuple it can take (:class:`Kind`); the kinds in order
  make one fixed ``Discrete(N)`` space (:class:`ActionSpace`): kind ``k``'s argument tuple ``i`` has index
  ``offset(k) + i``.  Open kinds (free placements, ``Game.open_kinds``) are discretised onto a grid the game
  documents, with the legal grid points given by :meth:`GameEncoding.open_actions`;
* **observations** — a schema (:class:`Record` of :class:`Spec` nodes, defined in
  :mod:`ludorum.engine.schema` and re-exported here) that turns a seat's JSON view into a fixed-length
  vector of floats, with a named layout.  It reads only the view: a seat's observation can never hold more
  than its view does.

This module is the contract between a game and the adapters.  It does not import numpy, so the games stay
installable without the ``rl`` extra; the adapters turn its lists into arrays.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ludorum.engine.actions import Action, Arg
from ludorum.engine.config import Config
from ludorum.engine.schema import Both, Computed, Counts, Fixed, Num, OneHot, Present, Record, Spec
from ludorum.engine.schema_compiler import compiled

if TYPE_CHECKING:
    from ludorum.engine.game import Game
    from ludorum.engine.state import GameState

__all__ = [
    "ActionSpace",
    "Both",
    "Computed",
    "Counts",
    "Fixed",
    "GameEncoding",
    "Kind",
    "Num",
    "OneHot",
    "Present",
    "Record",
    "Spec",
]

# -- actions -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """One action kind and every argument tuple it can take, in index order (duplicates dropped)."""

    name: str
    args: tuple[tuple[Arg, ...], ...] = ((),)
    doc: str = ""

    @staticmethod
    def product(name: str, *domains: Iterable[Arg], doc: str = "") -> Kind:
        """The kind whose arguments are every combination of one value per domain (none: no arguments)."""
        return Kind(name, tuple(itertools.product(*(tuple(d) for d in domains))), doc)

    @staticmethod
    def union(name: str, *forms: Iterable[tuple[Arg, ...]], doc: str = "") -> Kind:
        """The kind whose arguments are the argument tuples of several forms, first occurrence first."""
        return Kind(name, tuple(dict.fromkeys(a for form in forms for a in form)), doc)


class ActionSpace:
    """A fixed ``Discrete(N)`` numbering of every action the kinds list: a stable, two-way map."""

    def __init__(self, kinds: Sequence[Kind]) -> None:
        self.kinds = tuple(kinds)
        self.actions: list[Action] = []
        self.offsets: dict[str, tuple[int, int]] = {}
        for k in self.kinds:
            if k.name in self.offsets:
                raise ValueError(f"action kind {k.name!r} is listed twice")
            start = len(self.actions)
            self.actions.extend(Action(k.name, a) for a in dict.fromkeys(k.args))
            self.offsets[k.name] = (start, len(self.actions))
        self.index: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}

    @property
    def n(self) -> int:
        """The size ``N`` of the space."""
        return len(self.actions)

    def ranges(self) -> list[tuple[str, int, int, str]]:
        """``(kind, first index, end index, description)`` for each kind, in order (for the docs)."""
        return [(k.name, *self.offsets[k.name], k.doc) for k in self.kinds]


# -- the contract ---------------------------------------------------------------------------------------


class GameEncoding:
    """A game's action numbering and observation schema.  Games subclass it in their ``encoding.py``."""

    seeded_setup: bool = True
    """Whether ``Game.new`` draws anything from the seed (a shuffle, a deal): OpenSpiel then starts with a
    chance node choosing the deal."""

    def action_kinds(self, config: Config) -> Sequence[Kind]:
        """Every action kind a seat may take under ``config``, with its argument domain."""
        raise NotImplementedError

    def chance_kinds(self, config: Config) -> Sequence[Kind]:
        """Every explicit chance outcome (``to_move == CHANCE``) under ``config`` (none by default)."""
        return ()

    def action_key(self, action: Action) -> Action:
        """The representative of ``action`` in the kinds' enumeration (itself unless the game maps
        arguments onto a coarser grid)."""
        return action

    def open_actions(self, game: Game[Any], state: GameState, kind: str) -> Sequence[tuple[Action, Action]]:
        """For an open kind now allowed: ``(grid action as listed in the kinds, concrete action)`` for
        every grid point that is legal now."""
        return ()

    def observation(self, config: Config) -> Record:
        """The schema that turns a seat's view (``Game.view``) into the observation vector.

        The view gets one extra key before encoding, ``"_seat"``: the observing seat (views of some
        games do not name it).
        """
        raise NotImplementedError

    def prepare(self, view: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
        """What the schema reads: the view with ``"_seat"`` added.  A game may add parts it derives from
        the view alone (never from the state)."""
        return {**view, "_seat": seat}

    def encode_view(self, schema: Record, view: Mapping[str, Any], seat: int) -> Sequence[float]:
        """The observation of ``seat`` as floats, from its view only: the compiled schema over
        :meth:`prepare` (an ``array('f')``; ``schema.encode`` gives the same floats, slower)."""
        return compiled(schema)(self.prepare(view, seat))
