"""The strength match against OpenSpiel's MCTSBot runs and reports a well-formed result (tiny budgets,
seeded; who wins is not asserted: it depends on the machine's speed)."""

from __future__ import annotations

import pytest

from ludorum.bench.strength import action_id, play_match
from ludorum.engine import Action


def test_a_short_match_is_played_to_the_end_with_seats_swapped() -> None:
    m = play_match("reliquium", games=2, move_seconds=0.002, calibrate_seconds=0.05, seed=3)
    assert (m.game, m.level, m.games, m.cut) == ("reliquium", "hard", 2, 0)
    assert m.spiel_simulations >= 1
    assert m.ours in (0.0, 0.5, 1.0, 1.5, 2.0)  # two games, each a win, a draw or a loss
    line = m.line()
    assert "won" in line and "of 2 games" in line and "MCTSBot" in line and "seats swapped" in line


def test_games_past_the_move_limit_are_cut_and_counted_as_draws() -> None:
    m = play_match("medieval-realms", games=2, move_seconds=0.002, calibrate_seconds=0.05, max_moves=3)
    assert (m.games, m.cut, m.ours) == (2, 2, 1.0)
    assert "2 cut at the move limit, counted as draws" in m.line()


@pytest.mark.parametrize(("games", "seconds", "moves"), [(0, 0.05, 10), (2, 0.0, 10), (2, 0.05, 0)])
def test_a_match_without_games_time_or_moves_is_refused(games: int, seconds: float, moves: int) -> None:
    with pytest.raises(ValueError, match="at least one game, a positive move time and move limit"):
        play_match("reliquium", games=games, move_seconds=seconds, max_moves=moves)


def test_an_action_the_adapter_does_not_offer_has_no_id() -> None:
    legal = {3: Action("end_turn"), 7: Action("pass")}
    assert action_id(legal, Action("pass")) == 7
    with pytest.raises(ValueError, match="not among the adapter's legal actions"):
        action_id(legal, Action("build", ("farm",)))
