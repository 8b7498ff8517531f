"""The history of an OpenSpiel state: a persistent trail of steps, each seat's recall, and resampling.

Every step of a history is a :class:`Trail` node holding the Ludorum state after it, the OpenSpiel action
id that led there and who took it; clones share nodes, and nothing is ever changed in place except the
memos.  From the trail come:

* **the record** (:meth:`Trail.record`): the action ids from the start — what a state is serialised as,
  and replayed (:func:`replay`) to rebuild it, every step checked as it was played;
* **each seat's recall** (:meth:`Trail.recall`): what the seat did and saw, step by step — its own action
  where it decided, then the parts of its view that changed (the whole view the first time);
* **the seat's own actions** (:meth:`Trail.own_actions`), for the information-state tensor;
* **the histories a seat cannot tell apart** (:meth:`Trail.consistent`): the same action ids from every
  other deal, kept while each step is legal and the seat's view stays the same.
"""

from __future__ import annotations

import json
from typing import Any

from ludorum.engine import CHANCE, Action
from ludorum.rl.core import Table, masked_out

DEAL = -2
"""Who took a deal step (OpenSpiel's chance player is -1; a deal is chance too, told apart for the record)."""


RECALLED = 256
"""How many recall strings are kept (the latest asked): a string is as long as the history it tells, so
keeping one per node would hold the square of a game's length."""
_RECALLED: dict[tuple[Trail, int], str] = {}


class IllegalStep(ValueError):
    """An action id that is not legal where it is played (the adapter turns it into a ``SpielError``)."""


class Trail:
    """One step of a history: the state after it, the id and mover that led there, and memos."""

    __slots__ = ("action_id", "alternatives", "deals", "mover", "parent", "seen", "state", "table")

    def __init__(
        self,
        table: Table,
        deals: int,
        state: Any,
        parent: Trail | None = None,
        action_id: int = -1,
        mover: int = 0,
    ) -> None:
        self.table = table
        self.deals = deals
        """How many deals the opening chance node offers (0: the game starts without one)."""
        self.state = state
        """The Ludorum state after this step (``None`` before the deal)."""
        self.parent = parent
        self.action_id = action_id
        self.mover = mover
        """The seat that took the step, ``CHANCE`` or :data:`DEAL` (unused at the start)."""
        self.seen: dict[int, tuple[dict[str, int], str]] = {}
        """Per seat: a fingerprint of each part of its view here, and what this step adds to its recall."""
        self.alternatives: dict[int, list[Trail]] = {}
        """Per seat: the trails :meth:`consistent` found."""

    def __deepcopy__(self, memo: Any) -> Trail:
        return self  # persistent: OpenSpiel's clones share the trail

    def __reduce__(self) -> tuple[Any, ...]:
        # Serialised as the record (the action ids), replayed when loaded: never the game's states.
        return (_replayed, (self.table, self.deals, self.record()))

    # -- steps -----------------------------------------------------------------------------------------

    def step(self, action_id: int) -> Trail:
        """The trail after ``action_id`` here (a deal's seed, a chance outcome or a seat's action); an id
        that is not legal here raises :class:`IllegalStep` naming it."""
        t, s = self.table, self.state
        if s is None:
            if not 0 <= action_id < self.deals:
                raise IllegalStep(f"deal {action_id} is not one of 0…{self.deals - 1}")
            return Trail(t, self.deals, t.game.new(t.config, action_id), self, action_id, DEAL)
        if t.game.to_move(s) == CHANCE:
            outcome = t.chance.actions[action_id] if 0 <= action_id < t.chance.n else None
            if outcome is None or outcome not in t.game.legal_actions(s):
                raise IllegalStep(f"chance outcome {action_id} is not possible now")
            return Trail(t, self.deals, t.game.apply_chance(s, outcome), self, action_id, CHANCE)
        legal = t.legal(s)
        a: Action | None = legal.get(action_id)
        if a is None:
            raise IllegalStep(masked_out(action_id, legal))
        return Trail(t, self.deals, t.game.apply(s, a), self, action_id, t.game.to_move(s))

    def nodes(self) -> list[Trail]:
        """The nodes from the start to this one."""
        out: list[Trail] = []
        node: Trail | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        out.reverse()
        return out

    def record(self) -> list[int]:
        """The action ids from the start: replayed by :func:`replay`, they give this trail again."""
        return [n.action_id for n in self.nodes()[1:]]

    # -- a seat's recall -------------------------------------------------------------------------------

    def recall(self, seat: int) -> str:
        """What ``seat`` did and saw from the start, one line per step that showed it anything: its own
        action (``"you: …"``), then the parts of its view that changed, as JSON."""
        known = _RECALLED.get((self, seat))
        if known is not None:
            return known
        # From the nearest node whose recall was asked lately (searches ask along a path, so most often
        # the parent's): a step costs its own lines, not a walk to the start.
        below: list[Trail] = []
        node: Trail | None = self
        prefix = ""
        while node is not None:
            cached = _RECALLED.get((node, seat))
            if cached is not None:
                prefix = cached
                break
            below.append(node)
            node = node.parent
        self._seen(seat)
        lines = [e for e in (n.seen[seat][1] for n in reversed(below)) if e]
        out = "\n".join([prefix, *lines] if prefix else lines)
        if len(_RECALLED) >= RECALLED:
            _RECALLED.pop(next(iter(_RECALLED)))
        _RECALLED[(self, seat)] = out
        return out

    def _seen(self, seat: int) -> tuple[dict[str, int], str]:
        known = self.seen.get(seat)
        if known is not None:
            return known
        # Computed from the start down, so that no long history recurses.
        for node in self.nodes():
            if seat not in node.seen:
                node.seen[seat] = node._compute_seen(seat)
        return self.seen[seat]

    def _compute_seen(self, seat: int) -> tuple[dict[str, int], str]:
        if self.state is None:
            return {}, ""
        view = self.table.game.view(self.state, seat)
        parts = {k: json.dumps(v, sort_keys=True, ensure_ascii=False) for k, v in view.items()}
        prints = {k: hash(v) for k, v in parts.items()}
        before = self.parent.seen[seat][0] if self.parent is not None else {}
        changed = [f"{k}={parts[k]}" for k in sorted(parts) if before.get(k) != prints[k]]
        changed += [f"{k} gone" for k in sorted(before) if k not in parts]
        lines = []
        if self.mover == seat:
            lines.append(f"you: {self.table.actions.actions[self.action_id]}")
        if changed:
            lines.append("; ".join(changed))
        return prints, "\n".join(lines)

    def own_actions(self, seat: int) -> list[int]:
        """The action ids ``seat`` took, in order."""
        return [n.action_id for n in self.nodes() if n.mover == seat and n.parent is not None]

    # -- resampling --------------------------------------------------------------------------------------

    def consistent(self, seat: int) -> list[Trail]:
        """Every trail with the same action ids from another deal (this one included) along which each
        step is legal and ``seat``'s view is the same as here at every step: histories ``seat`` cannot
        tell from this one.  Found step by step from the parent's, so each step costs one move per
        history still in the running."""
        known = self.alternatives.get(seat)
        if known is not None:
            return known
        chain = self.nodes()
        out: list[Trail] = [chain[0]]
        for node in chain[1:]:
            if seat in node.alternatives:
                out = node.alternatives[seat]
                continue
            if node.mover == DEAL:
                candidates = [(chain[0], d) for d in range(self.deals)]
            else:
                candidates = [(alt, node.action_id) for alt in out]
            view = node.table.game.view(node.state, seat)
            kept = []
            for alt, action_id in candidates:
                nxt = node if alt is node.parent and action_id == node.action_id else _try(alt, action_id)
                if nxt is not None and (nxt is node or node.table.game.view_equals(nxt.state, seat, view)):
                    kept.append(nxt)
            node.alternatives[seat] = out = kept
        return out


def _try(node: Trail, action_id: int) -> Trail | None:
    try:
        return node.step(action_id)
    except IllegalStep:
        return None


def start(table: Table, deals: int) -> Any:
    """The state before the first step: ``None`` before a deal, else the one set-up (its seed changes
    nothing)."""
    return None if deals else table.game.new(table.config, 0)


def replay(table: Table, deals: int, record: list[int], first: Any = None) -> Trail:
    """The trail of ``record`` from the start (``first``: the start's state when already built); an id
    that is not legal where it comes raises :class:`IllegalStep`."""
    node = Trail(table, deals, start(table, deals) if first is None and deals == 0 else first)
    for action_id in record:
        node = node.step(int(action_id))
    return node


REPLAYED = 64
"""How many replayed trails are kept, by their record: loading the states of one history in order (as
OpenSpiel's ``random_sim_test`` does) then replays each step once, not the whole history each time."""
_REPLAYED: dict[tuple[str, int, tuple[int, ...]], Trail] = {}


def _replayed(table: Table, deals: int, record: list[int]) -> Trail:
    """Unpickling a trail: its record replayed (from the longest kept replay of a prefix one step
    shorter, when there is one)."""
    game = repr(table._args)
    key = (game, deals, tuple(record))
    known = _REPLAYED.get(key)
    if known is None:
        before = _REPLAYED.get((game, deals, key[2][:-1])) if record else None
        known = before.step(int(record[-1])) if before is not None else replay(table, deals, record)
        if len(_REPLAYED) >= REPLAYED:
            _REPLAYED.pop(next(iter(_REPLAYED)))
        _REPLAYED[key] = known
    return known
