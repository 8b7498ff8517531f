"""What one seat knows: its information set, and a generator seeded only from that knowledge.

A seat never holds the true state of a game with hidden information.  What it holds is an *information
set*: the set of full states it cannot tell apart from the true one.  :class:`InformationSet` is how
every consumer above the kernel — bots and search, the server's log, the terminal — receives it: the
seat's view, its legal actions, and a sampler of full states consistent with them (``Game.sample_state``).
The true state stays inside the object and is reachable only through that sampler.

:func:`knowledge_rng` seeds a generator from what an observer sees, so that every decision derived from
samples of an information set (is this step visible to you? does this refusal give a secret away?) is
the same for every true state the observer cannot tell apart: such a decision can teach it nothing.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from ludorum.engine.actions import Action
from ludorum.engine.config import Config
from ludorum.engine.game import Game
from ludorum.engine.state import GameState

S = TypeVar("S", bound=GameState)

Observer = int | None
"""A seat, or ``None`` for a spectator."""


def hides_information(game: Game[Any]) -> bool:
    """Whether a seat may not know the whole state: the game draws its information sets
    (``Game.sample_state`` overridden); otherwise each information set is the state itself."""
    return type(game).sample_state is not Game.sample_state


def view_text(view: Mapping[str, Any]) -> str:
    """A view's canonical JSON text (equal views, equal texts)."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def knowledge_rng(*knowledge: Any) -> random.Random:
    """A generator seeded only from ``knowledge`` (views, actions, labels: what an observer has)."""
    text = json.dumps(knowledge, sort_keys=True, separators=(",", ":"), default=str)
    return random.Random(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big"))


class InformationSet(Generic[S]):
    """One seat's knowledge at a decision: its view, its legal actions, and states consistent with them.

    Bots receive this instead of the state.  ``sample`` draws a full state from those the seat cannot
    tell apart from the true one; search runs on such samples (determinizations), never on the truth.
    """

    __slots__ = ("_legal", "_state", "_view", "game", "seat")

    def __init__(self, game: Game[S], state: S, seat: int) -> None:
        self.game = game
        """The rules (a forward model for search)."""
        self.seat = seat
        """The seat whose knowledge this is."""
        self._state = state
        self._view: dict[str, Any] | None = None
        self._legal: Sequence[Action] | None = None

    @property
    def config(self) -> Config:
        """The game's configuration (public)."""
        return self._state.config

    @property
    def view(self) -> Mapping[str, Any]:
        """The seat's view, exactly what a human in this seat is shown (computed on first use)."""
        if self._view is None:
            self._view = self.game.view(self._state, self.seat)
        return self._view

    @property
    def legal(self) -> Sequence[Action]:
        """The seat's legal actions (the kit checks they follow from its information)."""
        if self._legal is None:
            self._legal = self.game.legal_actions(self._state)
        return self._legal

    def open_kinds(self) -> Mapping[str, str]:
        """Action kinds the seat may also take with free arguments (``Game.open_kinds``)."""
        return self.game.open_kinds(self._state)

    def sample(self, rng: random.Random) -> S:
        """A full state drawn from those the seat cannot tell apart from the true one.

        Games whose ``sample_state`` is canonical (the kit checks it) make the draw depend only on the
        seat's knowledge and ``rng``: two true states the seat cannot tell apart give the same samples.
        """
        return self.game.sample_state(self._state, self.seat, rng)
