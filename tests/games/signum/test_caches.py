"""Signum's one-entry memos stay right when two threads use the rules at once.

The server runs heuristic bots in threads beside its event loop, and both ask the rules.  Each memo
remembers its last key (a Battlefield, a state) with its answer; if a thread can be interrupted between
storing the key and storing the answer, another thread's key ends up beside this thread's answer, and a
later question about that key gets the wrong answer.  Each test here stops a first thread just before
each store it makes inside the memo's function, runs a second thread's question to the end meanwhile,
lets the first one finish, and then asks again about both keys.
"""

from __future__ import annotations

import dataclasses
import dis
import random
import sys
import threading
from collections.abc import Callable
from functools import partial
from types import CodeType, FrameType
from typing import Any

import pytest

from ludorum.games import registry
from ludorum.games.signum import creatures, movement, turn, victory
from ludorum.games.signum.game import SignumGame
from ludorum.games.signum.state import SignumState

GAME = registry().get("signum")
STORES = {"STORE_SUBSCR", "STORE_GLOBAL", "STORE_ATTR"}


def _played(seed: int, steps: int) -> SignumState:
    state: SignumState = GAME.new(GAME.config(2), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        seat = GAME.to_move(state)
        action = rng.choice(list(GAME.legal_actions(state))) if seat >= 0 else GAME.sample_chance(state)
        state = GAME.step(state, action)
    assert not GAME.is_over(state)
    return state


def fresh(s: SignumState) -> SignumState:
    """The same state made of new objects, so that no memo keyed by identity recognises it."""
    new: SignumState = s.clone()
    for f in dataclasses.fields(new):
        value = getattr(new, f.name)
        if isinstance(value, tuple):
            setattr(new, f.name, (*value,))  # a new tuple (tuple(value) is the same object)
    return new


def stopped_before_store(
    code: CodeType, store: int, first: Callable[[], Any], meanwhile: Callable[[], Any]
) -> bool:
    """Run ``first`` in a thread, stop it just before its ``store``-th store (into a subscript, a global
    or an attribute) inside ``code``, run ``meanwhile`` to the end, then let ``first`` finish.  Whether
    ``first`` got that far."""
    reached, resume = threading.Event(), threading.Event()
    seen = 0

    def opcodes(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal seen
        if event == "opcode" and dis.opname[frame.f_code.co_code[frame.f_lasti]] in STORES:
            seen += 1
            if seen == store:
                reached.set()
                resume.wait(10)
        return opcodes

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code is not code:
            return None
        frame.f_trace_opcodes = True
        return opcodes

    def run() -> None:
        sys.settrace(calls)
        try:
            first()
        finally:
            sys.settrace(None)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        while not reached.wait(0.005) and thread.is_alive():
            pass
        if reached.is_set():
            meanwhile()
    finally:
        resume.set()
        thread.join(10)
    return reached.is_set()


A, B = _played(11, 40), _played(12, 55)
SHARED_UID = min({m.uid for m in A.models} & {m.uid for m in B.models})


def _won(s: SignumState) -> SignumState:
    """``s`` with seat 0 at 51 prosperity: the game is decided."""
    won = fresh(s)
    won.prosperity = (51, *s.prosperity[1:])
    return won


def _heroless(s: SignumState) -> SignumState:
    """``s`` without seat 1's hero on the Battlefield."""
    fallen = fresh(s)
    fallen.models = tuple(m for m in s.models if not (m.owner == 1 and m.card == s.heroes[1]))
    return fallen


def _model(s: SignumState) -> Any:
    return s.model(SHARED_UID)


QUESTIONS: dict[str, tuple[Callable[..., Any], Callable[[SignumState], Any]]] = {
    "legal actions": (SignumGame.legal_actions, lambda s: GAME.legal_actions(s)),
    "find": (SignumState.find, lambda s: s.find(SHARED_UID)),
    "props": (creatures.props, lambda s: creatures.props(s, _model(s))),
    "aura holders": (creatures._aura_holders, creatures._aura_holders),
    "obstacles": (creatures.obstacles, lambda s: creatures.obstacles(s.terrain)),
    "others": (creatures.others, lambda s: creatures.others(s, SHARED_UID)),
    "enemies": (creatures.enemies, lambda s: creatures.enemies(s, _model(s))),
    "destinations": (movement._scope, lambda s: movement.destinations(s, _model(s), False)),
    "entry points": (turn._entry_points, lambda s: turn._entry_points(s, 0, s.heroes[0])),
    "heroes standing": (victory._heroes_on_battlefield, victory._heroes_on_battlefield),
    "undecided": (victory._undecided, victory._undecided),
}


def _armoured(s: SignumState) -> SignumState:
    """``s`` with the shared model granted Armour 2."""
    armoured = fresh(s)
    armoured.models = tuple(m.but(granted=("armour 2",)) if m.uid == SHARED_UID else m for m in s.models)
    return armoured


PAIRS = {"heroes standing": (A, _heroless(B)), "undecided": (A, _won(B)), "props": (A, _armoured(B))}
"""The two states asked, where A and B give the same answer."""


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_memo_interrupted_by_another_thread_answers_each_battlefield_rightly(name: str) -> None:
    function, ask = QUESTIONS[name]
    first, second = PAIRS.get(name, (A, B))
    truth_first, truth_second = ask(fresh(first)), ask(fresh(second))
    assert truth_first != truth_second, "the two states must tell a wrong memo from a right one"
    stops = 0
    for store in range(1, 7):
        a, b = fresh(first), fresh(second)  # neither is remembered yet: both threads store
        stops += stopped_before_store(function.__code__, store, partial(ask, a), partial(ask, b))
        assert ask(b) == truth_second, f"{name}: stopped before store {store}"
        assert ask(a) == truth_first, f"{name}: stopped before store {store}"
    assert stops >= 1  # the first thread did store something inside the memo's function
