"""What a live game computes once per version (the legal actions, the rendered view and labels) is
what it would compute afresh, and a step (or a reload's new state) invalidates it."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ludorum.engine import CHANCE, Action, Game, i18n
from ludorum.engine.disclosure import Step, observers
from ludorum.games import registry as product_registry
from ludorum.server.play.live import LiveGame, provisional_entry
from ludorum.server.store.archive import compact_json
from ludorum.server.store.tables import SeatData
from tests.fixtures.sealed_bids import SealedBids
from tests.server.support import fixture_registry

GAMES = [fixture_registry().get("sealed-bids"), *product_registry()]


def _live(game: Game[Any], seed: int = 7) -> LiveGame:
    config = game.config(players=game.min_players)
    state = game.new(config, seed)
    seats = [SeatData(s, "human", token_hash=f"h{s}") for s in range(config.players)]
    return LiveGame("g1", game, config, seed, seats, state, [], [])


def _step(live: LiveGame, rng: random.Random) -> None:
    """One step as the play core takes it (``Ledger.take``): the state, the step, a provisional log entry."""
    before = live.state
    mover = live.game.to_move(before)
    action = live.game.sample_chance(before) if mover == CHANCE else rng.choice(live.legal())
    after = live.game.step(before, action)
    live.state = after
    live.steps.append((mover, action))
    live.log.append(provisional_entry(Step(live.game, len(live.steps) - 1, before, mover, action, after)))


def _versions(game: Game[Any], seed: int, steps: int = 40) -> Iterator[LiveGame]:
    """The live game at each of its first ``steps`` versions (random play)."""
    live = _live(game)
    rng = random.Random(seed)
    for _ in range(steps):
        if live.over:
            return
        yield live
        _step(live, rng)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_shown_is_the_snapshot_rendered_at_every_version(game: Game[Any]) -> None:
    for live in _versions(game, 1):
        for lang in i18n.LANGUAGES:
            for o in observers(live.config.players):
                for since in {0, max(0, live.version - 1), live.version}:
                    # compared as sent: a text equals its English as a str, whatever it renders
                    localized = i18n.localize(live.snapshot(o, since), lang)
                    rendered = compact_json(localized)
                    # orjson encodes what the standard library would (keys, texts, numbers)
                    assert json.loads(rendered) == json.loads(json.dumps(localized))
                    assert compact_json(live.shown(o, since, lang)) == rendered
                    # asked again (the push after the ack): the same answer, from the cache
                    assert compact_json(live.shown(o, since, lang)) == rendered


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_legal_actions_are_those_of_the_current_state(game: Game[Any]) -> None:
    for live in _versions(game, 2):
        fresh = list(game.legal_actions(live.state))
        assert list(live.legal()) == fresh
        assert all(live.is_legal(a) for a in fresh)
        assert not live.is_legal(Action("no-such-kind", (1,)))
        assert live.legal() is live.legal()  # computed once for this state


def test_a_new_state_at_the_same_version_is_not_served_from_the_cache() -> None:
    """``Ledger.reload`` replaces the state without a step: the cache is keyed by the state itself."""
    game = fixture_registry().get("sealed-bids")
    live = _live(game, seed=1)
    rng = random.Random(3)
    while live.game.to_move(live.state) == CHANCE:
        _step(live, rng)
    first = live.legal()
    replaced = game.new(game.config(players=game.min_players), 2)
    live.state = replaced
    assert list(live.legal()) == list(game.legal_actions(replaced))
    assert live.legal() is not first


class _NamedByCoins(SealedBids):
    """Sealed Bids whose seats are named by what they hold (a name that changes with the state),
    counting the names asked for."""

    asked = 0

    def seat_name(self, state: Any, seat: int) -> str:
        self.asked += 1
        return f"Player {seat + 1} ({state.coins[seat]} coins)"


def test_the_seats_names_are_found_once_per_state_and_follow_it() -> None:
    game = _NamedByCoins()
    live = _live(game)
    rng = random.Random(5)
    for _ in range(12):
        expected = [game.seat_name(live.state, s) for s in range(live.config.players)]
        game.asked = 0
        for observer in observers(live.config.players):
            assert [p["name"] for p in live.snapshot(observer)["players"]] == expected
        assert game.asked == live.config.players  # once for every snapshot of this state
        _step(live, rng)
    live.state = game.new(live.config, 99)  # a reload's new state at the same version
    assert [p["name"] for p in live.snapshot(None)["players"]] == [
        game.seat_name(live.state, s) for s in range(live.config.players)
    ]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_views_a_worker_encoded_are_sent_as_they_are(
    game: Game[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a worker has encoded every observer's view of the current state (with a step's readings),
    what an English reader is sent of that state splices them in: the same JSON, each observer its own
    view, without computing or encoding a view on the loop; a step makes them stale."""
    from ludorum.server.store.archive import encode_views

    for live in _versions(game, 3, steps=25):
        state = live.state
        live.encoded_views(state, encode_views(game, state))
        for o in observers(live.config.players):
            for lang in i18n.LANGUAGES:
                for since in {0, live.version}:
                    expected = compact_json({"type": "state", **live.shown(o, since, lang)})
                    live._views_version = -1  # nothing cached: a view computed now would be seen
                    with monkeypatch.context() as m:
                        if lang == i18n.SOURCE:
                            m.setattr(
                                live.game, "view", lambda *a: pytest.fail("a view computed on the loop")
                            )
                        sent = live.shown_json(o, since, lang, type="state")
                    assert json.loads(sent) == json.loads(expected)
    stale = _live(game)
    first = stale.state
    stale.encoded_views(first, encode_views(game, first))
    _step(stale, random.Random(4))  # the encoded views are of the state before
    for o in observers(stale.config.players):
        assert json.loads(stale.shown_json(o, 0, i18n.SOURCE)) == json.loads(
            compact_json(stale.shown(o, 0, i18n.SOURCE))
        )
