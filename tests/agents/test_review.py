"""Advice and after-game analysis: best moves found, mistakes measured, only what the seat knows used."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from ludorum.agents.review import advise, analyse, spread
from ludorum.agents.search import bot as bot_module
from ludorum.engine import CHANCE, Action, Playthrough, Record, replay_states
from ludorum.engine.information import InformationSet
from tests.agents.tiny import ODDS, Gamble, Nim
from tests.fixtures.sealed_bids import SealedBids

NIM = Nim()
TAKE1, TAKE2 = Action("take", (1,)), Action("take", (2,))


def nim_record(*takes: int) -> Record:
    return Record("nim", NIM.config(2), 1, [(i % 2, Action("take", (n,))) for i, n in enumerate(takes)])


def test_a_losing_move_is_marked_with_the_better_move_and_both_win_chances() -> None:
    # From 7 stones taking 1 leaves 6 (a multiple of 3: a win); taking 2 leaves 5, which the opponent
    # answers by taking 2.  Seat 0's first move is the game's one mistake.
    analysis = analyse(NIM, nim_record(2, 2, 1, 2), seconds=None)
    first = analysis.judgements[0]
    assert (first.step, first.seat, first.played, first.best) == (0, 0, TAKE2, TAKE1)
    assert first.after is not None and first.before > 0.8 and first.after < 0.5
    assert first.loss == first.before - first.after
    assert [j.step for j in analysis.mistakes(0)] == [0]
    assert analysis.mistakes(1) == []  # seat 1 won by playing the best move each time
    assert all(j.loss == 0 for j in analysis.judgements[1:])
    data = analysis.to_json(2)
    assert data["mistakes"] == {"0": [0], "1": []}
    assert data["judgements"][0]["best_label"] == NIM.describe(NIM.new(NIM.config(2), 1), TAKE1)


def test_the_win_chance_is_the_searchs_estimate_of_the_odds() -> None:
    game = Gamble()
    record = Record("gamble", game.config(2), 3, [(0, Action("dice")), (CHANCE, Action("winner", (0,)))])
    (judged,) = analyse(game, record, seconds=None).judgements
    assert judged.best == Action("coin")
    assert abs(judged.before - ODDS["coin"]) < 0.1
    assert judged.after is not None and judged.after < ODDS["coin"] - 0.3


def test_forced_moves_chance_and_cancels_are_not_judged_and_the_count_is_bounded() -> None:
    game = SealedBids()
    play = Playthrough(game, game.config(2), 5)
    rng = random.Random(0)
    while not play.is_over():
        play.resolve_chance()
        if not play.is_over():
            play.play(rng.choice([a for a in game.legal_actions(play.state) if a.kind != "cancel"]))
    analysis = analyse(game, play.record, iterations=30, seconds=None)
    states = list(replay_states(game, play.record))
    # a confirm (the only move but cancel) is forced, and so is a bid with no coins left
    bids = [
        i
        for i, (seat, a) in enumerate(play.record.steps)
        if a.kind == "bid" and len(game.legal_actions(states[i])) > 1
    ]
    assert len(bids) >= 4
    assert [j.step for j in analysis.judgements] == bids
    assert analysis.complete and analysis.decisions == len(bids)
    few = analyse(game, play.record, iterations=30, max_decisions=2, seconds=None)
    assert len(few.judgements) == 2 and few.decisions == len(bids)
    assert analyse(game, play.record, iterations=30, seconds=0.0).complete is False


def test_spread_keeps_the_ends_and_the_limit() -> None:
    assert spread(list(range(10)), 3) == [0, 3, 6]
    assert spread([4, 5], 3) == [4, 5]
    assert spread([1, 2, 3], 0) == []


def test_advice_depends_only_on_what_the_seat_knows() -> None:
    # Seat 1 decides after seat 0's secret bid.  Knowing it, the best answer would differ (outbid a
    # bid of 0 by one coin, bid nothing against 5 coins); advice from seat 1's information set cannot
    # tell the two apart, so it must be the same move with the same estimate.
    game = SealedBids()
    answers = []
    for secret in (0, 5):
        s = game.new(game.config(2), 9)
        s = game.step(s, Action("prize", (6,)))
        s = game.step(game.step(s, Action("bid", (secret,))), Action("confirm"))
        assert game.to_move(s) == 1
        advice = advise(InformationSet(game, s, 1), iterations=200, step=3)
        answers.append((advice.action, advice.win, advice.values))
    assert answers[0] == answers[1]


def test_advice_with_a_set_number_of_iterations_runs_them_all_however_slow_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock that jumps a minute at every reading: a level's wall-clock cap would end the search at
    # its first check.  Given iterations, advice (and so analysis) must not depend on the machine.
    ticks = itertools.count()  # (the search's own clock only: the rest of the process keeps the real one)
    monkeypatch.setattr(bot_module, "time", SimpleNamespace(perf_counter=lambda: 60.0 * next(ticks)))
    game = SealedBids()
    s = game.step(game.new(game.config(2), 9), Action("prize", (6,)))
    advice = advise(InformationSet(game, s, 0), iterations=200)
    assert sum(visits for visits, _ in advice.values.values()) == 200


def test_a_forced_move_is_advised_without_search() -> None:
    s = NIM.new(NIM.config(2), 0)
    s.pile = 1
    advice = advise(InformationSet(NIM, s, 0))
    assert advice.action == TAKE1 and advice.win is None
