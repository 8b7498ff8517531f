"""What a step discloses: the log entry each observer may read, safe labels, safe refusals.

One place decides, for the server's log, the terminal and the bots alike, what each observer (a seat,
or ``None`` for a spectator) may learn from a step, and it decides **only from what that observer can
know**: the step is shown to an observer when no state of its information set (drawn with
``Game.sample_state``) offers another action that would have left it the very same view afterwards.
If one does, the observer cannot tell which was taken, and reads only that a secret decision was made.
A step of a kind the game declares private (``Game.private_kinds``: what the rules hide, a card set face
down) is secret to every other observer without sampling.  A step of a kind the game declares public
(``Game.public_kinds``: no other action could have left an observer the same view) is judged on the
same draws, but only the action taken is stepped in each: the reading is exactly the full judgement's,
which the conformance kit compares it with on every step it checks.  A public kind whose label the game
declares public too (``Game.public_labels``: it names only what every observer sees) is read as its
label at once, without drawing; the kit compares that with the full judgement as well
(:func:`ludorum.engine.conformance.check_public_step`).
The true state is never consulted for that decision: its legal actions depend on what the observer
cannot see (a hand with one tactic card offers one ``set``; judged from it, the card would show).

Every generator used here is seeded from the observer's own views (:func:`knowledge_rng`), and games
draw their samples canonically (the kit checks both), so two true states an observer cannot tell apart
yield the same entry for it: the entry can teach it nothing.  The conformance kit checks exactly that
(:func:`ludorum.engine.conformance.check_game`).

A label or refusal is the game's text computed on the full state, so it could name a secret ("the
Wasteland holds Violet's hidden leader"); it is shown only if it reads the same in every sampled state
consistent with what the observer sees, otherwise the bare action or a plain refusal is shown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ludorum.engine.actions import Action
from ludorum.engine.errors import IllegalAction
from ludorum.engine.game import CANCEL, CHANCE, Game
from ludorum.engine.i18n import T
from ludorum.engine.information import Observer, hides_information, knowledge_rng, view_text
from ludorum.engine.pickling import by_fields
from ludorum.engine.record import is_handover, time_up, timed_out_seat
from ludorum.engine.state import GameState

SAMPLES = 6
"""How many states of an observer's information set a label or refusal is judged on."""

CONSISTENT = 24
"""How many sampled states consistent with what the observer sees after a step it is judged on."""

MAX_DRAWS = 48
"""How many states of the observer's information set may be drawn to find them."""

SECRET = None
"""An observer's reading of a step it may not learn."""


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One step of a game: its index in the record, the state before it, who took it (a seat, or
    ``CHANCE``), the action and the state after it — what every judgement of a step is given."""

    game: Game[Any]
    index: int
    before: GameState
    actor: int
    action: Action
    after: GameState


@by_fields
@dataclasses.dataclass(frozen=True, slots=True)
class LogEntry:
    """One step of the game log: who decided, what, its label, and what each other observer reads.

    ``readings`` maps every observer other than the actor to the label it reads — the game's label, or
    the bare action when the label says more than that observer may know — or to :data:`SECRET`.
    ``stage`` is the round and turn the step was taken in (``Game.stage``: public), for the log's
    markers; ``opens`` says that the step left its actor in the middle of a compound decision (``cancel``
    is then among its choices), so that a later ``cancel`` shows which steps it backed out of.
    """

    index: int
    seat: int
    who: str
    action: Action
    label: str
    readings: Mapping[Observer, str | None]
    stage: str = ""
    opens: bool = False

    def reading(self, observer: Observer, public: bool = False) -> str | None:
        """The label ``observer`` reads (``public``: the game is over, nothing is secret)."""
        if public or observer == self.seat:
            return self.label
        return self.readings.get(observer, SECRET)

    def to_json(self, observer: Observer, public: bool) -> dict[str, Any]:
        """The entry as ``observer`` receives it."""
        label = self.reading(observer, public)
        if label is SECRET:
            return {
                "index": self.index,
                "seat": self.seat,
                "who": self.who,
                "label": T("{who} made a secret decision", who=self.who),
                "action": None,
                "stage": self.stage,
            }
        return {
            "index": self.index,
            "seat": self.seat,
            "who": self.who,
            "label": label,
            "action": self.action.to_json(),
            "stage": self.stage,
            "opens": self.opens,
        }


def timeout_entry(game: Game[Any], index: int, state: GameState, step: Action) -> LogEntry:
    """The log entry of a ``timeout`` step (``record.TIMEOUT``, made by ``record.timeout_step``): the seat
    it names ran out of time and lost, or a bot took it over.  Everyone reads it: the clocks are public.

    The step says both (a record's timeouts are checked to name the deciding seat), so nothing is
    derived again from ``state``."""
    seat, handover = timed_out_seat(step), is_handover(step)
    label = time_up(game, state, seat, handover)
    readings = {o: label for o in observers(state.config.players) if o != seat}
    return LogEntry(index, seat, game.seat_name(state, seat), step, label, readings, game.stage(state))


def observers(players: int) -> list[Observer]:
    """The spectator, then every seat."""
    return [None, *range(players)]


def _samples(
    game: Game[Any], state: GameState, observer: Observer, *knowledge: Any, count: int = SAMPLES
) -> Iterator[GameState]:
    """Distinct states of ``observer``'s information set at ``state`` (of ``count`` drawn from its
    knowledge); just the state itself in a game of perfect information."""
    if not hides_information(game):
        yield state
        return
    rng = knowledge_rng(*knowledge)
    drawn: list[GameState] = []
    for _ in range(count):
        s = game.sample_state(state, observer, rng)
        if s not in drawn:
            drawn.append(s)
            yield s


@dataclasses.dataclass(frozen=True, slots=True)
class Judgement:
    """What an observer reads of a step (``reading``) and the actions its drawn states found to explain
    its view afterwards (``explaining``; empty when no drawn state could have led to that view)."""

    reading: str | None
    explaining: frozenset[Action]


def step_samples(
    game: Game[Any], before: GameState, actor: int, after: GameState, observer: Observer
) -> Iterator[GameState]:
    """The states of ``observer``'s information set before a step that :func:`judge` draws (at most
    :data:`MAX_DRAWS`), from a generator seeded by what it sees before and after the step."""
    knowledge = _step_knowledge(game, before, actor, game.view(after, observer), observer)
    return _samples(game, before, observer, *knowledge, count=MAX_DRAWS)


def _step_knowledge(
    game: Game[Any], before: GameState, actor: int, seen_after: Mapping[str, Any], observer: Observer
) -> tuple[Any, ...]:
    """What ``observer`` knows of a step: its views before and after, and who took it."""
    return ("step", view_text(game.view(before, observer)), view_text(seen_after), actor)


def judge(step: Step, observer: Observer, label: str, shortcuts: bool = True) -> Judgement:
    """What ``observer`` reads of ``step`` (labelled ``label``), and which actions explained its view.

    States of the observer's information set are drawn (at most :data:`MAX_DRAWS`) and in each every
    legal action is tried: the actions that would have left the observer the very view it has are the
    ones it cannot tell apart.  Drawing stops once two such actions are found (the step is secret) or
    :data:`CONSISTENT` states could have led to that view.  The step is shown only if exactly one
    action explains the view, and it is the one taken.  Which actions explain the view is found from
    the observer's knowledge alone, so two true states it cannot tell apart give it the same reading;
    a step that no drawn state explains (a reveal the information set cannot account for) stays
    secret.

    A kind the game declares public (``Game.public_kinds``) has no other action explaining the view in
    any state: only the action taken is stepped in each draw, which finds the same states consistent,
    hence the same reading (``shortcuts=False``: every legal action, as the kit's comparison does).
    A kind whose label is declared public too (``Game.public_labels``) reads as its label at once: no
    other action explains the view and the label reads the same in every state the observer cannot
    tell apart, so the draws could only confirm it (or, finding no state that explains the view, hide
    the step for want of a draw, not for a leak).
    """
    game, before, actor, action, after = step.game, step.before, step.actor, step.action, step.after
    if action.kind in game.private_kinds:
        # decided by the kind, which every state of the information set shares
        return Judgement(SECRET, frozenset())
    if shortcuts and action.kind in game.public_kinds and action.kind in game.public_labels:
        # the declarations say what the draws would find (the kit compares, step by step)
        return Judgement(label, frozenset((action,)))
    only_taken = shortcuts and action.kind in game.public_kinds
    seen_after = game.view(after, observer)
    knowledge = _step_knowledge(game, before, actor, seen_after, observer)
    samples = _samples(game, before, observer, *knowledge, count=MAX_DRAWS)
    shared = _SHARED.get()
    earlier: list[_Drawn] = []
    now: list[_Drawn] | None = None  # what this reading drew, kept only for a later one to share
    if shared is not None:
        key = (game.name, observer, knowledge, only_taken)  # a shortcut's draws record less
        earlier = shared.get(key, [])
        now = shared[key] = []
    explaining: set[Action] = set()
    consistent: list[GameState] = []
    for i, s in enumerate(samples):
        if i < len(earlier) and earlier[i].complete and earlier[i].state == s:
            # An equal state drawn from the same knowledge: it explains the view by the same actions.
            found = earlier[i].explaining
            if now is not None:
                now.append(earlier[i])
            explaining.update(found)
            if len(explaining) > 1:
                return Judgement(SECRET, frozenset(explaining))
        else:
            found = ()
            legal = game.legal_actions(s)
            if only_taken:  # no other action of any draw explains the view (the declaration, checked)
                legal = (action,) if action in legal else ()
            for a in legal:
                if leads_to(game, s, a, observer, seen_after):
                    found = (*found, a)
                    explaining.add(a)
                    if len(explaining) > 1:
                        if now is not None:
                            now.append(_Drawn(s, found, False))
                        # the observer cannot tell which of these was taken
                        return Judgement(SECRET, frozenset(explaining))
            if now is not None:
                now.append(_Drawn(s, found, True))
        if found:
            consistent.append(s)
            if len(consistent) >= CONSISTENT:
                break
    if explaining != {action}:
        return Judgement(SECRET, frozenset(explaining))
    # The action is determined; its label is shown if it reads the same wherever it could have been.
    if all(game.describe(s, action) == label for s in consistent):
        return Judgement(label, frozenset(explaining))
    return Judgement(str(action), frozenset(explaining))


@dataclasses.dataclass(frozen=True, slots=True)
class _Drawn:
    """One state a reading drew, the actions that explain the observer's view from it, and whether
    all its legal actions were tried (a reading that stops at a second explanation stops mid-state)."""

    state: GameState
    explaining: tuple[Action, ...]
    complete: bool


_SHARED: ContextVar[dict[tuple[Any, ...], list[_Drawn]] | None] = ContextVar(
    "ludorum_shared_readings", default=None
)


@contextmanager
def shared_readings() -> Iterator[None]:
    """Within this block, a reading from the same knowledge (same game, observer, views and actor)
    as an earlier one reuses what each drawn state explained, wherever it draws an *equal* state.

    The result is exactly what a fresh reading gives: the states are still drawn, each is compared
    with the earlier draw, and only an equal state (whose steps and views are then equal too) is not
    stepped again.  The conformance kit judges a step and a twin the observer cannot tell from it
    (:func:`ludorum.engine.conformance.check_game`): when the game draws from the observer's knowledge
    the twin draws the same states, and its reading costs the draws alone; when it draws from the
    true state, the states differ and are judged afresh, so the leak still shows.
    """
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def leads_to(
    game: Game[Any], state: GameState, action: Action, observer: Observer, view: Mapping[str, Any]
) -> bool:
    """Whether ``action`` is possible in ``state`` and leaves ``observer`` the view ``view``."""
    try:
        nxt = game.step(state, action)
    except IllegalAction:
        return False
    return game.view_equals(nxt, observer, view)


def actor_name(game: Game[Any], state: GameState, actor: int) -> str:
    """Who took a step, as the log names them: the seat's name, or chance (both in the reader's language)."""
    return T("Chance") if actor == CHANCE else game.seat_name(state, actor)


def disclose(step: Step, only: Collection[Observer] | None = None, shortcuts: bool = True) -> LogEntry:
    """The log entry of one step, with every other observer's reading.

    A spectator knows no more than any seat, so a step the spectator may read every seat may read too
    (with the same label): it is judged once.  Otherwise each seat is judged on its own knowledge.
    ``only`` judges just those observers (the conformance kit checks one per step: each reading costs
    many views); every other observer of that entry then reads the step as secret.  ``shortcuts=False``
    judges the kinds declared public like any other (:func:`judge`).
    """
    game, before, actor, action, after = step.game, step.before, step.actor, step.action, step.after
    who = actor_name(game, before, actor)
    label = game.describe(before, action)
    players = before.config.players
    spectator = judge(step, None, label, shortcuts).reading
    readings: dict[Observer, str | None] = {}
    for o in observers(players):
        if o == actor or (only is not None and o not in only):
            continue
        if o is None or spectator is not SECRET:
            readings[o] = spectator
        else:
            readings[o] = judge(step, o, label, shortcuts).reading
    opens = (
        actor != CHANCE
        and not game.is_over(after)
        and game.to_move(after) == actor
        and CANCEL in game.legal_actions(after)
    )
    return LogEntry(step.index, actor, who, action, label, readings, game.stage(before), opens)


def safe_labels(
    game: Game[Any], state: GameState, seat: int, shortcuts: bool = True
) -> list[tuple[Action, str]]:
    """The deciding seat's legal actions with labels that tell it nothing it cannot see.

    A label is shown when it reads the same in every state drawn from the seat's information set;
    a game that declares ``plain_labels`` (checked by the conformance kit) has every label so, and its
    information set is not drawn (``shortcuts=False``: drawn all the same, as the kit's comparison does).
    """
    legal = game.legal_actions(state)
    labels = [game.describe(state, a) for a in legal]
    if shortcuts and game.plain_labels:
        return list(zip(legal, labels, strict=True))
    leaky = [False] * len(legal)
    for s in _samples(game, state, seat, "labels", view_text(game.view(state, seat))):
        for i, action in enumerate(legal):
            if not leaky[i] and game.describe(s, action) != labels[i]:
                leaky[i] = True
    return [(a, str(a) if bad else label) for a, label, bad in zip(legal, labels, leaky, strict=True)]


def safe_refusal(
    game: Game[Any], state: GameState, seat: int, action: Action, refusal: IllegalAction
) -> IllegalAction:
    """``refusal`` if it reads the same in every sampled state ``seat`` cannot tell apart from
    ``state``; otherwise a plain refusal that reveals nothing."""
    plain = IllegalAction(f"{action} is not one of your possible actions now")
    view = view_text(game.view(state, seat))
    try:
        for s in _samples(game, state, seat, "refusal", view, action.to_json()):
            again = game.describe_error(s, action)
            if again is None or (again.message, again.rule) != (refusal.message, refusal.rule):
                return plain
    except Exception:  # a game that cannot redraw this state: say nothing more than needed
        return plain
    return refusal
