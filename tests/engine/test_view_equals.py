"""``Game.view_equals`` answers exactly ``view(state, seat) == view`` for every game, including a game's
own faster answer (Legends of Signum compares its derived fields one by one,
``engine.state.derived_view_matches``; Medieval Realms its keys and realms one by one,
``medieval_realms.render.view_matches``): the disclosure's readings rest on it.

Medieval Realms is checked on the comparisons a disclosure makes (states drawn from an observer's
information set, stepped, against the view it saw), on every observer's view of the same state, and on
views differing from the state's in a single leaf anywhere; and those checks are shown to catch shortcuts
that are wrong (a key left out, the realms judged as another observer sees them, the final tally skipped).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ludorum.engine import Game
from ludorum.engine.disclosure import observers
from ludorum.engine.playout import random_states
from ludorum.engine.state import derived_view_matches
from ludorum.games import registry
from ludorum.games.medieval_realms import GAME as REALMS
from ludorum.games.medieval_realms import render as realms_render
from ludorum.games.medieval_realms.state import OVER, PLACE, RealmsState
from tests.fixtures.face_down import FaceDown


def states(game: Game[Any], players: int, seeds: range, limit: int = 400) -> list[Any]:
    """Every state of a few seeded random games."""
    return [s for seed in seeds for s in random_states(game, game.config(players), seed, limit)]


@pytest.mark.parametrize(
    ("name", "players"),
    [("signum", 2), ("signum", 4), ("reliquium", 3), ("medieval-realms", 3)],
)
def test_view_equals_agrees_with_comparing_whole_views(name: str, players: int) -> None:
    game = registry().get(name)
    pool = states(game, players, range(2))
    rng = random.Random(0)
    equal = 0
    for _ in range(1500):
        a = rng.choice(pool)
        b = a if rng.random() < 0.3 else rng.choice(pool)
        seat = rng.choice([None, *range(players)])
        view = game.view(b, seat)
        same = game.view_equals(a, seat, view)
        assert same == (game.view(a, seat) == view)
        equal += same
    assert equal > 300  # both answers were exercised


@pytest.mark.parametrize("name", ["signum", "reliquium", "medieval-realms"])
def test_a_view_differing_in_any_one_key_or_in_its_keys_is_not_equal(name: str) -> None:
    game = registry().get(name)
    state = states(game, 2, range(1), limit=60)[-1]
    view = game.view(state, 0)
    assert game.view_equals(state, 0, view)
    for key in view:
        changed = dict(view)
        changed[key] = ["not", "this"]
        assert not game.view_equals(state, 0, changed), key
        missing = {k: v for k, v in view.items() if k != key}
        assert not game.view_equals(state, 0, missing), key
    assert not game.view_equals(state, 0, {**view, "extra": 1})


def test_derived_view_matches_learns_which_field_differs_and_stays_exact() -> None:
    """The comparison order adapts to the fields that differ most; the answers do not change with it."""
    game = FaceDown()
    pool = states(game, 2, range(3), limit=200)
    rng = random.Random(1)
    for _ in range(2000):
        a, b = rng.choice(pool), rng.choice(pool)
        seat = rng.choice([None, 0, 1])
        view = game.view(b, seat)
        whole = all(view.get(k) == v for k, v in game.view(a, seat).items())
        assert derived_view_matches(a, seat, view) == whole


Case = tuple[Any, int | None, dict[str, Any]]
"""A comparison: ``view_equals(state, seat, view)``."""


def disclosure_cases(game: Game[Any], players: int, seed: int, every: int) -> Iterator[Case]:
    """The comparisons a disclosure makes at every ``every``-th step of a seeded random game: each
    observer's view after the step, against every legal step of two states drawn from its information set
    before it; and every observer's view of the state after the step, against each observer's."""
    rng = random.Random(seed)
    history = list(random_states(game, game.config(players), seed))
    for before, after in list(itertools.pairwise(history))[::every]:
        for o in observers(players):
            seen = game.view(after, o)
            for _ in range(2):
                drawn = game.sample_state(before, o, rng)
                for action in game.legal_actions(drawn):
                    yield game.step(drawn, action), o, seen
            for other in observers(players):
                yield after, other, seen


def disagreements(game: Game[Any], cases: Iterator[Case]) -> tuple[list[Case], int]:
    """The cases where ``view_equals`` and comparing whole views disagree, and how many views were equal."""
    wrong, equal = [], 0
    for state, seat, view in cases:
        whole = game.view(state, seat) == view
        equal += whole
        if game.view_equals(state, seat, view) != whole:
            wrong.append((state, seat, view))
    return wrong, equal


def changed_leaves(value: Any) -> Iterator[Any]:
    """Copies of ``value`` (JSON data) each changed in one place, anywhere inside it: a leaf replaced by an
    unequal one, a key dropped or added, an item added, a list made a tuple (equal items, unequal list)."""
    if isinstance(value, dict):
        for key, item in value.items():
            for changed in changed_leaves(item):
                yield {**value, key: changed}
            yield {k: v for k, v in value.items() if k != key}
        yield {**value, "not a key": None}
    elif isinstance(value, list):
        for i, item in enumerate(value):
            for changed in changed_leaves(item):
                yield [*value[:i], changed, *value[i + 1 :]]
        yield [*value, None]
        yield tuple(value)
    elif isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
    elif isinstance(value, str):
        yield value + "!"
    else:
        yield ["not", "this"]


def realms_states(players: int) -> list[RealmsState]:
    """A Medieval Realms game's first state of each kind a view shows differently: the extras, a
    placement half made (the placing seat's own leaders shown to it alone), the actions with and without
    an auction, a round's revealed placements, and the end (its final tally)."""
    kinds: dict[tuple[int, bool, bool], RealmsState] = {}
    for s in random_states(REALMS, REALMS.config(players), players):
        assert isinstance(s, RealmsState)
        placing = s.phase == PLACE and any(s.placing)
        kinds.setdefault((s.phase, placing, s.auction is not None), s)
    assert kinds.keys() >= {(PLACE, True, False), (OVER, False, False)}
    return list(kinds.values())


def leaf_disagreements(players: int) -> list[Case]:
    """The views differing in one leaf from a state's (:func:`changed_leaves`) that ``view_equals`` takes
    for equal, or the state's own view it takes for unequal, for every observer of :func:`realms_states`."""
    wrong: list[Case] = []
    for state in realms_states(players):
        for seat in observers(players):
            view = REALMS.view(state, seat)
            if not REALMS.view_equals(state, seat, view):
                wrong.append((state, seat, view))
            for changed in changed_leaves(view):
                assert changed != view
                if REALMS.view_equals(state, seat, changed):
                    wrong.append((state, seat, changed))
    return wrong


@pytest.mark.parametrize(("players", "every"), [(2, 7), (4, 11), (5, 13)])
def test_medieval_realms_answers_the_disclosures_comparisons_exactly(players: int, every: int) -> None:
    wrong, equal = disagreements(REALMS, disclosure_cases(REALMS, players, players, every))
    assert wrong == []
    assert equal > 200  # equal views were exercised, not only differing ones


@pytest.mark.parametrize("players", [2, 5])
def test_medieval_realms_tells_a_view_differing_in_any_one_leaf(players: int) -> None:
    assert leaf_disagreements(players) == []


def _skipping(key: str) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(
            realms_render, "_MATCH_ORDER", tuple(k for k in realms_render._MATCH_ORDER if k != key)
        )

    return patch


def _realms_as_spectator(monkeypatch: pytest.MonkeyPatch) -> None:
    real = realms_render._realms_match
    monkeypatch.setattr(realms_render, "_realms_match", lambda s, seat, seen: real(s, None, seen))


def _last_realm_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    real = realms_render._realms_match

    def shortcut(s: RealmsState, seat: int | None, seen: Any) -> bool:
        last = realms_render._realm(s, s.config.players - 1, seat, False)
        return real(s, seat, [*seen[:-1], last])

    monkeypatch.setattr(realms_render, "_realms_match", shortcut)


def _final_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    real = realms_render.view_matches

    def shortcut(game: Any, s: RealmsState, seat: int | None, seen: Any) -> bool:
        if "final" in seen:
            seen = {**seen, "final": realms_render._final(game, s, seat, False)}
        return real(game, s, seat, seen)

    monkeypatch.setattr("ludorum.games.medieval_realms.game.view_matches", shortcut)


@pytest.mark.parametrize(
    "shortcut",
    [_skipping("rounds"), _skipping("events"), _realms_as_spectator, _last_realm_unchecked, _final_skipped],
    ids=["rounds-skipped", "events-skipped", "realms-as-spectator", "last-realm-unchecked", "final-skipped"],
)
def test_the_checks_catch_a_wrong_shortcut(
    shortcut: Callable[[pytest.MonkeyPatch], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each wrong shortcut (of the comparison only: views are built as before) fails one of the checks."""
    shortcut(monkeypatch)
    wrong, _ = disagreements(REALMS, disclosure_cases(REALMS, 2, 2, 7))
    assert wrong or leaf_disagreements(2)
