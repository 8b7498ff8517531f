"""Clocks (``ludorum.engine.clock``) and the record of a seat that lost on time (``record.TIMEOUT``)."""

from __future__ import annotations

import dataclasses

import pytest

from ludorum.engine import Playthrough, Record, RecordError, replay
from ludorum.engine.clock import ClockError, ClockSpec, ClockState
from ludorum.engine.record import TIMEOUT, timeout_result, timeout_step
from tests.fixtures.sealed_bids import SealedBids

GAME = SealedBids()


def test_short_forms_and_bounds() -> None:
    assert ClockSpec.parse("300+5") == ClockSpec("fischer", 300, 5)
    assert ClockSpec.parse("90") == ClockSpec("fischer", 90, 0)
    assert ClockSpec.parse("move:30", "lose") == ClockSpec("move", per_move=30, on_expiry="lose")
    for bad in ("", "fast", "0+5", "60+-1", "move:", "move:0", "60+3601", "86401"):
        with pytest.raises(ClockError):
            ClockSpec.parse(bad)
    with pytest.raises(ClockError, match="tempo"):
        ClockSpec.from_json({"mode": "fischer", "tempo": 1})
    spec = ClockSpec("move", per_move=20, on_expiry="lose", bot="random")
    assert ClockSpec.from_json(spec.to_json()) == spec


def test_fischer_charges_the_mover_and_credits_a_turn_once() -> None:
    spec = ClockSpec("fischer", 60, 5)
    state = ClockState.initial(spec, 2)
    state.settle(spec, 0, 1000)
    assert state.remaining(0, 11_000) == 50_000 and state.deadline() == 61_000
    state.step(spec, 0, 0, 0, 11_000)  # an atomic step of a compound decision: same seat again
    assert state.left == [50_000, 60_000] and state.running == 0
    state.step(spec, 0, -1, None, 12_000)  # chance in the middle of the turn: nothing yet
    assert state.left == [49_000, 60_000] and state.running is None
    state.step(spec, -1, 1, 1, 12_000)  # seat 1's decision begins: seat 0's turn is over
    assert state.left == [54_000, 60_000] and state.running == 1
    assert state.expired(71_999) is None and state.expired(72_000) == 1
    assert ClockState.from_json(state.to_json()) == state


def test_per_move_gives_each_decision_the_full_time() -> None:
    spec = ClockSpec("move", per_move=10)
    state = ClockState.initial(spec, 2)
    state.settle(spec, 0, 0)
    state.step(spec, 0, 0, 0, 9_000)
    assert state.remaining(0, 9_000) == 10_000


def test_a_record_ended_by_a_timeout_replays_with_its_result() -> None:
    play = Playthrough(GAME, GAME.config(2), 5)
    play.resolve_chance()
    seat = play.to_move()
    play.record.steps.append((TIMEOUT, timeout_step(seat)))
    assert play.is_over()
    state = play.state
    record = dataclasses.replace(play.record, result=timeout_result(GAME, state, seat))
    again = Record.loads(record.dumps())
    replay(GAME, again)
    assert again.result is not None and again.result.ranking == (2, 1)
    wrong = dataclasses.replace(again, result=dataclasses.replace(again.result, ranking=(1, 2)))
    with pytest.raises(RecordError, match="result differs"):
        replay(GAME, wrong)


@pytest.mark.parametrize("where", ["not last", "wrong seat"])
def test_a_misplaced_timeout_is_refused(where: str) -> None:
    play = Playthrough(GAME, GAME.config(2), 5)
    play.resolve_chance()
    seat = play.to_move()
    steps = list(play.record.steps)
    if where == "not last":
        steps += [(TIMEOUT, timeout_step(seat)), (seat, GAME.legal_actions(play.state)[0])]
    else:
        steps += [(TIMEOUT, timeout_step(1 - seat))]
    with pytest.raises(RecordError, match="names the deciding seat, and one that loses is the last step"):
        replay(GAME, dataclasses.replace(play.record, steps=steps))


def test_the_analysis_judges_no_timeout() -> None:
    from ludorum.agents.review import choices
    from ludorum.engine import replay_states

    play = Playthrough(GAME, GAME.config(2), 5)
    play.resolve_chance()
    seat = play.to_move()
    record = dataclasses.replace(play.record, steps=[*play.record.steps, (TIMEOUT, timeout_step(seat))])
    states = list(replay_states(GAME, record))
    assert len(record.steps) - 1 not in choices(GAME, record, states)


def test_a_handover_on_time_replays_and_the_game_goes_on() -> None:
    play = Playthrough(GAME, GAME.config(2), 5)
    play.resolve_chance()
    seat = play.to_move()
    play.time_out(handover=True)  # a bot plays on for the seat
    assert not play.is_over() and play.to_move() == seat
    while not play.is_over():
        play.resolve_chance()
        if not play.is_over():
            play.play(GAME.legal_actions(play.state)[0])
    again = Record.loads(play.record.dumps())
    assert (TIMEOUT, timeout_step(seat, handover=True)) in again.steps
    replay(GAME, again)
