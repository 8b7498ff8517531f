"""Tournaments: balanced schedules, identical records on every executor, resuming, bad input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from ludorum.engine import Record, replay
from ludorum.games import registry
from ludorum.lab.errors import LabError
from ludorum.lab.executors import ProcessExecutor, SerialExecutor
from ludorum.lab.results import ResultsFile, read_lines
from ludorum.lab.schedule import Schedule, Spec, lineups
from tests.lab import support
from tests.lab.support import SMALL, dying_play, failing_play, play


@pytest.mark.parametrize(
    ("bots", "players"),
    [(("a",), 3), (("a", "b"), 2), (("a", "b"), 3), (("a", "b", "c"), 4), (("a", "b", "c", "d", "e"), 3)],
)
def test_every_bot_sits_in_every_seat_equally_often(bots: tuple[str, ...], players: int) -> None:
    found = lineups(bots, players)
    assert all(len(lineup) == players for lineup in found)
    per_seat = [Counter(lineup[s] for lineup in found) for s in range(players)]
    assert all(set(c) == set(bots) for c in per_seat)
    assert len({n for c in per_seat for n in c.values()}) == 1, per_seat


def test_signum_decks_rotate_through_the_seats() -> None:
    schedule = Schedule(Spec("signum", 3, ("random", "heuristic")))
    decks = [Counter(dict(setup)[f"deck{s}"] for _, setup in schedule.arrangements) for s in range(3)]
    assert all(len(c) == 4 and len(set(c.values())) == 1 for c in decks), decks
    bots = [Counter(lineup[s] for lineup, _ in schedule.arrangements) for s in range(3)]
    assert all(c["random"] == c["heuristic"] for c in bots)


def test_a_fixed_deck_is_not_rotated() -> None:
    schedule = Schedule(Spec("signum", 2, ("random",), options=(("deck0", "empire_dawn"),)))
    assert schedule.cycle == 1


def test_reliquium_plays_every_pair_of_factions() -> None:
    schedule = Schedule(SMALL)
    assert sorted(dict(s)["factions"] for _, s in schedule.arrangements) == sorted(
        [
            "legion,alliance",
            "legion,order",
            "legion,brotherhood",
            "alliance,order",
            "alliance,brotherhood",
            "order,brotherhood",
        ]
    )
    assert schedule.rounded(7) == 12
    seeds = [schedule.task(i).seed for i in range(12)]
    assert seeds == [5] * 6 + [6] * 6


def test_lines_are_records_that_replay(tmp_path: Path) -> None:
    run = play(SMALL, 6, tmp_path / "r.jsonl")
    assert [line.index for line in run.lines] == list(range(6))
    game = registry().get("reliquium")
    for text in (tmp_path / "r.jsonl").read_text().splitlines():
        record = Record.loads(text)
        assert game.is_over(replay(game, record))
        facts = json.loads(text)["lab"]["facts"]
        assert {x["faction"] for x in facts["labels"]} <= {
            "Legion of Chaos",
            "Alliance of Nature",
            "Order of Light",
            "Brotherhood of the Mountains",
        }


def test_processes_give_the_same_lines_as_this_process(tmp_path: Path) -> None:
    play(SMALL, 12, tmp_path / "serial.jsonl")
    play(SMALL, 12, tmp_path / "pool.jsonl", ProcessExecutor(2))
    serial = (tmp_path / "serial.jsonl").read_text().splitlines()
    pool = (tmp_path / "pool.jsonl").read_text().splitlines()
    assert sorted(serial) == sorted(pool)
    assert len(set(serial)) == 12


def test_a_rerun_plays_only_the_missing_games(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    first = play(SMALL, 6, path)
    assert (first.played, first.resumed) == (6, 0)
    again = play(SMALL, 6, path)
    assert (again.played, again.resumed) == (0, 6)
    more = play(SMALL, 12, path)
    assert (more.played, more.resumed) == (6, 6)
    play(SMALL, 12, tmp_path / "fresh.jsonl")
    assert sorted(path.read_text().splitlines()) == sorted(
        (tmp_path / "fresh.jsonl").read_text().splitlines()
    )


def test_a_torn_last_line_is_played_again(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    play(SMALL, 6, path)
    whole = path.read_text()
    lines = whole.splitlines(keepends=True)
    path.write_text("".join(lines[:4]) + lines[4][:100])  # killed while writing game 5
    assert len(list(read_lines(path))) == 4
    run = play(SMALL, 6, path)
    assert (run.played, run.resumed) == (2, 4)
    assert sorted(path.read_text().splitlines()) == sorted(whole.splitlines())


def test_a_dead_worker_is_reported_and_its_games_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(support, "MARKER", [tmp_path / "marker"])
    schedule = Schedule(SMALL)
    results = ResultsFile(tmp_path / "r.jsonl", SMALL)
    notices: list[str] = []
    from ludorum.lab.tournament import run_games

    class Dying(ProcessExecutor):
        def run(self, tasks, play, notify):  # type: ignore[no-untyped-def]
            return super().run(tasks, dying_play, notify)

    run = run_games(schedule, 12, results, Dying(2), notify=notices.append)
    assert (tmp_path / "marker").exists()
    assert len(notices) == 1 and "worker process died" in notices[0] and "3" in notices[0]
    assert sorted(line.index for line in run.lines) == list(range(12))
    play(SMALL, 12, tmp_path / "serial.jsonl")
    assert sorted((tmp_path / "r.jsonl").read_text().splitlines()) == sorted(
        (tmp_path / "serial.jsonl").read_text().splitlines()
    )


def test_a_failing_game_stops_the_run_naming_it_and_keeps_the_rest(tmp_path: Path) -> None:
    from ludorum.lab.tournament import run_games

    class Failing(SerialExecutor):
        def run(self, tasks, play, notify):  # type: ignore[no-untyped-def]
            return super().run(tasks, failing_play, notify)

    path = tmp_path / "r.jsonl"
    with pytest.raises(
        LabError,
        match=r"game 2 \(seed 5, bots random, random, factions=legion,brotherhood\) failed: ValueError",
    ):
        run_games(Schedule(SMALL), 6, ResultsFile(path, SMALL), Failing())
    assert [line.index for line in read_lines(path)] == [0, 1]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (Spec("chess", 2, ("random",)), "no game called 'chess'"),
        (Spec("reliquium", 2, ("randm",)), "no bot kind 'randm' for Reliquium; the kinds are"),
        (Spec("reliquium", 2, ("random", "random")), "listed twice"),
        (Spec("reliquium", 7, ("random",)), "2–4 players, not 7"),
        (Spec("reliquium", 2, ("random",), variants=("fog",)), "no variant 'fog'"),
        (Spec("reliquium", 2, ("random",), options=(("colour", "red"),)), "no option 'colour'"),
        (Spec("signum", 2, ("random",), options=(("deck0", "nope"),)), "'nope' is neither a starter deck"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(spec: Spec, message: str, tmp_path: Path) -> None:
    with pytest.raises(LabError, match=message):
        play(spec, 6, tmp_path / "r.jsonl")
    assert not (tmp_path / "r.jsonl").exists()


def test_a_results_file_of_another_game_version_or_tournament_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    play(SMALL, 6, path)
    before = path.read_bytes()
    with pytest.raises(LabError, match="holds games of 'reliquium', not 'signum'"):
        play(Spec("signum", 2, ("random",)), 12, path)
    with pytest.raises(LabError, match=r"another tournament \(seed 5 there, 6 here\)"):
        play(Spec("reliquium", 2, ("random",), seed=6), 6, path)
    assert path.read_bytes() == before
    old = before.decode().replace('"version": "0.1.0"', '"version": "0.0.1"', 1)
    path.write_text(old)
    with pytest.raises(LabError, match=r"r.jsonl:1: written by Ludorum '0.0.1'"):
        play(SMALL, 6, path)
    path.write_text('{"not": "a result"}\n')
    with pytest.raises(LabError, match=r"r\.jsonl:1: not a line of a Ludorum results file"):
        play(SMALL, 6, path)
    assert path.read_text() == '{"not": "a result"}\n'


def test_signum_four_players_meet_every_deck_across_the_table() -> None:
    # A cyclic turn of one subset seats the same two decks opposite each other in every game: each ordered
    # pair of decks must fill each pair of seats equally often, so that no deck's figure is one matchup's.
    schedule = Schedule(Spec("signum", 4, ("heuristic",)))
    pairs = Counter(
        (s, t, dict(setup)[f"deck{s}"], dict(setup)[f"deck{t}"])
        for _, setup in schedule.arrangements
        for s in range(4)
        for t in range(4)
        if s != t
    )
    assert len(pairs) == 12 * 12 and len(set(pairs.values())) == 1, pairs


def test_a_tournaments_rates_are_clustered_by_the_seed_its_cycle_shares(tmp_path: Path) -> None:
    """The games of one cycle share a seed (above: six games of seed 5, six of 6), so the seats' and
    bots' rates and the head-to-head matrix count seeds as clusters (``ludorum.lab.stats``)."""
    from ludorum.lab.tournament import summary

    spec = Spec("reliquium", 2, ("random", "heuristic"), seed=5)
    run = play(spec, 48, tmp_path / "r.jsonl")
    figures = summary(Schedule(spec), run.lines)
    seeds = len({line.record.seed for line in run.lines})
    assert seeds < len(run.lines)
    rates = [
        *figures["seats"],
        *(s["win_rate"] for s in figures["standings"]),
        *(r for row in figures["head_to_head"].values() for r in row.values()),
    ]
    assert rates and all(r["clusters"] == seeds and r["design_effect"] >= 1.0 for r in rates)
