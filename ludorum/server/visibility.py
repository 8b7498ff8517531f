"""What a seat may learn: which steps of the log it may see, and which refusals it may read.

A step's label ("bid 3 coins") may reveal a secret: another seat's sealed bid, a card drawn face down.
The server decides, for every observer (each seat and the spectator), whether the step is *determined
by what that observer sees afterwards*: the step is shown to the observer only if every other action
that was legal at that point would have left the observer a different view.  If some alternative
leaves the very same view, the observer cannot tell which was taken, so the log shows only that a
secret decision was made.  The seat that decided always sees its own step; once the game is over
every step is public (the full record can then be downloaded).

A refusal's explanation is computed on the full state, so it could name a secret ("the Wasteland
holds Violet's hidden leader").  :func:`safe_refusal` redraws the states the seat cannot tell from the
real one (``sample_state``); if the refusal reads differently in any of them, it depends on something
hidden and the seat gets a plain "not possible now" instead.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from typing import Any

from ludorum.engine import CHANCE, Action, Game, GameState, IllegalAction

Observer = int | None
"""A seat, or ``None`` for a spectator."""


@dataclasses.dataclass(frozen=True, slots=True)
class LogEntry:
    """One step of the game log: who decided, what, its label, and who may see it.

    ``shown`` is the label the other observers in ``visible`` read: the game's label, or the bare
    action when the label would say more than those observers may know.
    """

    index: int
    seat: int
    who: str
    action: Action
    label: str
    visible: frozenset[Observer]
    shown: str

    def to_json(self, observer: Observer, public: bool) -> dict[str, Any]:
        """The entry as ``observer`` receives it (``public``: the game is over, nothing is secret)."""
        if public or observer == self.seat or observer in self.visible:
            return {
                "index": self.index,
                "seat": self.seat,
                "who": self.who,
                "label": self.label if public or observer == self.seat else self.shown,
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
    label = game.describe(before, action)
    visible = visible_to(game, before, action, after, seat)
    rng = random.Random(secrets.randbits(64))
    leaky = any(label_leaks(game, before, action, label, o, rng) for o in visible if o != seat)
    return LogEntry(index, seat, who, action, label, visible, str(action) if leaky else label)


LABEL_SAMPLES = 4
"""How many indistinguishable states a label is checked against."""


def label_leaks(
    game: Game[Any], state: GameState, action: Action, label: str, observer: Observer, rng: random.Random
) -> bool:
    """Whether ``label`` (of ``action`` in ``state``) could tell ``observer`` something it cannot see:
    it reads differently in some state ``observer`` cannot tell apart from ``state``."""
    for _ in range(LABEL_SAMPLES):
        try:
            again = game.describe(game.sample_state(state, observer, rng), action)
        except Exception:
            return True
        if again != label:
            return True
    return False


def safe_labels(game: Game[Any], state: GameState, seat: int) -> list[tuple[Action, str]]:
    """The deciding seat's legal actions with labels that tell it nothing it cannot see."""
    rng = random.Random(secrets.randbits(64))
    out = []
    for action in game.legal_actions(state):
        label = game.describe(state, action)
        out.append((action, str(action) if label_leaks(game, state, action, label, seat, rng) else label))
    return out


REFUSAL_SAMPLES = 6
"""How many indistinguishable states a refusal is checked against."""


def safe_refusal(
    game: Game[Any], state: GameState, seat: int, action: Action, refusal: IllegalAction
) -> IllegalAction:
    """``refusal`` if it reads the same in every state ``seat`` cannot tell apart from ``state``;
    otherwise a plain refusal that reveals nothing."""
    rng = random.Random(secrets.randbits(64))
    plain = IllegalAction(f"{action} is not one of your possible actions now")
    for _ in range(REFUSAL_SAMPLES):
        try:
            other = game.sample_state(state, seat, rng)
            again = game.describe_error(other, action)
        except Exception:  # a game that cannot redraw this state: say nothing more than needed
            return plain
        if again is None or (again.message, again.rule) != (refusal.message, refusal.rule):
            return plain
    return refusal
