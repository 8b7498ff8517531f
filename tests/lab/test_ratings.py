"""Ratings, head-to-head shares and win-rate intervals, on games whose outcomes the test decides."""

from __future__ import annotations

import pytest

from ludorum.engine import Config, Record, Result
from ludorum.lab.facts import Facts
from ludorum.lab.ratings import head_to_head, standings
from ludorum.lab.results import Line
from ludorum.lab.stats import Rate


def line(index: int, bots: tuple[str, ...], ranking: tuple[int, ...]) -> Line:
    """A finished game with the given bots and finishing ranks."""
    n = len(bots)
    record = Record("x", Config(n), index, [], Result((0.0,) * n, ranking, "test"))
    facts = Facts(tuple({} for _ in bots), tuple(() for _ in bots), 0, None, 0)
    return Line(index, record, bots, {}, facts, "")


def test_the_bot_that_always_finishes_ahead_rates_higher_and_wins_head_to_head() -> None:
    lines = [
        line(i, ("a", "b", "c") if i % 2 else ("c", "b", "a"), (1, 2, 3) if i % 2 else (3, 2, 1))
        for i in range(30)
    ]
    table = {s.bot: s for s in standings(["a", "b", "c"], lines)}
    assert table["a"].mu > table["b"].mu > table["c"].mu
    assert [s.bot for s in standings(["c", "b", "a"], lines)] == ["a", "b", "c"]
    assert table["a"].wins.rate == 1.0 and table["c"].wins.rate == 0.0
    low, high = table["a"].interval
    assert low < table["a"].mu < high
    matrix = head_to_head(["a", "b", "c"], lines)
    assert matrix["a"]["c"].rate == 1.0 and matrix["c"]["a"].rate == 0.0 and matrix["a"]["b"].n == 30


def test_a_kind_in_two_seats_is_rated_once_per_game_and_ties_share() -> None:
    lines = [line(i, ("a", "a", "b"), (1, 1, 3)) for i in range(10)]
    table = {s.bot: s for s in standings(["a", "b"], lines)}
    assert table["a"].wins.wins == pytest.approx(10.0)  # two seats, half a win each, per game
    assert table["a"].wins.n == 20
    assert head_to_head(["a", "b"], lines)["a"]["b"].n == 20
    assert Result((1, 1, 0), (1, 1, 3), "").shares == (0.5, 0.5, 0.0)


def test_wilson_interval_matches_the_textbook_and_flags_unfair_shares() -> None:
    low, high = Rate(5, 10, 0.5).interval
    assert (round(low, 3), round(high, 3)) == (0.237, 0.763)
    assert not Rate(5, 10, 0.5).flagged
    assert Rate(47, 50, 1 / 3).flagged
    assert Rate(0, 0, 0.5).interval == (0.0, 1.0)
