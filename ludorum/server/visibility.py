"""Which observers may learn which step: the game log without leaks.

A step's label ("bid 3 coins") may reveal a secret: another seat's sealed bid, a card drawn face down.
The server decides, for every observer (each seat and the spectator), whether the step is *determined
by what that observer sees afterwards*: the step is shown to the observer only if every other action
that was legal at that point would have left the observer a different view.  If some alternative
leaves the very same view, the observer cannot tell which was taken, so the log shows only that a
secret decision was made.  The seat that decided always sees its own step; once the game is over
every step is public (the full record can then be downloaded).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ludorum.engine import CHANCE, Action, Game, GameState, IllegalAction

Observer = int | None
"""A seat, or ``None`` for a spectator."""


@dataclasses.dataclass(frozen=True, slots=True)
class LogEntry:
    """One step of the game log: who decided, what, its label, and who may see it."""

    index: int
    seat: int
    who: str
    action: Action
    label: str
    visible: frozenset[Observer]

    def to_json(self, observer: Observer, public: bool) -> dict[str, Any]:
        """The entry as ``observer`` receives it (``public``: the game is over, nothing is secret)."""
        if public or observer in self.visible:
            return {
                "index": self.index,
                "seat": self.seat,
                "who": self.who,
                "label": self.label,
                "action": self.action.to_json(),
            }
        return {
            "index": self.index,
            "seat": self.seat,
            "who": self.who,
            "label": f"{self.who} made a secret decision",
            "action": None,
        }


def observers(players: int) -> list[Observer]:
    """Every seat and the spectator."""
    return [None, *range(players)]


def visible_to(
    game: Game[Any], before: GameState, action: Action, after: GameState, actor: int
) -> frozenset[Observer]:
    """The observers that may learn ``action`` (taken by ``actor`` in ``before``, leading to ``after``)."""
    others = [o for o in observers(before.config.players) if o != actor]
    seen = {o: game.view(after, o) for o in others}
    undecided = set(others)
    hidden: set[Observer] = set()
    for alt in game.legal_actions(before):
        if alt == action:
            continue
        try:
            alt_after = game.step(before, alt)
        except IllegalAction:
            continue
        for o in list(undecided):
            if game.view(alt_after, o) == seen[o]:
                hidden.add(o)
                undecided.discard(o)
        if not undecided:
            break
    return frozenset(o for o in observers(before.config.players) if o not in hidden)


def entry(
    game: Game[Any], index: int, before: GameState, seat: int, action: Action, after: GameState
) -> LogEntry:
    """The log entry of one step."""
    who = "Chance" if seat == CHANCE else game.seat_name(before, seat)
    return LogEntry(
        index, seat, who, action, game.describe(before, action), visible_to(game, before, action, after, seat)
    )
