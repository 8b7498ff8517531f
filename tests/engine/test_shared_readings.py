"""Shared readings (``disclosure.shared_readings``) give exactly the readings a fresh judgement gives,
for a game that samples from what the observer knows and for one that samples from the true state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludorum.engine import Game, disclosure
from ludorum.engine.conformance import random_choice
from ludorum.engine.disclosure import Step
from tests.fixtures.face_down import FaceDown, TrueOrderFaceDown


def twins(game: Game[Any], games: int) -> list[tuple[Any, ...]]:
    """(before, actor, action, after, observer, twin, alt, twin_after) of random steps: a twin the
    observer cannot tell from ``before`` and an action leaving it the same view."""
    out = []
    for seed in range(games):
        config = game.config(2 + seed % 2)
        state, rng = game.new(config, seed), random.Random(seed)
        while not game.is_over(state):
            actor = game.to_move(state)
            action = random_choice(game.legal_actions(state), rng)
            after = game.step(state, action)
            for o in disclosure.observers(config.players):
                if o == actor:
                    continue
                twin = game.sample_state(state, o, rng)
                for alt in game.legal_actions(twin):
                    nxt = game.step(twin, alt)
                    if game.view(nxt, o) == game.view(after, o):
                        out.append((state, actor, action, after, o, twin, alt, nxt))
                        break
            state = after
    return out


def reading_of(game: Game[Any], step: tuple[Any, ...], twin: bool) -> dict[str, Any]:
    before, actor, action, after, o, *rest = step
    if twin:
        before, action, after = rest
    return disclosure.disclose(Step(game, 0, before, actor, action, after), only=(o,)).to_json(
        o, public=False
    )


@pytest.mark.parametrize("game", [FaceDown(), TrueOrderFaceDown()], ids=["knowledge", "true-order"])
def test_a_shared_reading_is_the_fresh_reading(game: Game[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    steps = twins(game, 30)
    assert len(steps) > 100
    fresh = [(reading_of(game, s, False), reading_of(game, s, True)) for s in steps]
    tried: list[int] = []
    leads_to = disclosure.leads_to

    def counting(*args: Any) -> bool:
        tried.append(1)
        return leads_to(*args)

    monkeypatch.setattr(disclosure, "leads_to", counting)
    saved = 0
    for step, (real, twin) in zip(steps, fresh, strict=True):
        with disclosure.shared_readings():
            assert reading_of(game, step, False) == real
            before = len(tried)
            assert reading_of(game, step, True) == twin
        alone = len(tried)
        reading_of(game, step, True)
        saved += (len(tried) - alone) - (alone - before)
    if game.unseen_order is FaceDown.unseen_order:  # the twin draws the states the real step drew
        assert saved > 0


def test_a_reading_outside_shared_readings_keeps_no_record_of_its_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a reading drew is kept only for a later reading in the same ``shared_readings`` block:
    with none open, no record of the drawn states is built (the readings are the same)."""
    game = FaceDown()
    steps = twins(game, 6)
    assert steps
    readings = [reading_of(game, s, False) for s in steps]
    built: list[int] = []
    drawn = disclosure._Drawn

    def counted(*args: Any) -> Any:
        built.append(1)
        return drawn(*args)

    monkeypatch.setattr(disclosure, "_Drawn", counted)
    assert [reading_of(game, s, False) for s in steps] == readings
    assert built == []
    with disclosure.shared_readings():  # (and inside one they are kept)
        assert [reading_of(game, s, False) for s in steps] == readings
    assert built
