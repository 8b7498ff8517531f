"""Strength matches: shares per game, a log that survives a kill mid-write, Wilson intervals, Elo."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludorum.lab.ladder import ladder_elo, play_match, read_log, score
from ludorum.lab.stats import Rate
from tests.agents.tiny import Nim


def test_a_match_logs_each_game_and_its_summary_survives_a_torn_line(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    shares = list(play_match(Nim(), "easy", "random", 2, 6, seed=3, log=log))
    assert len(shares) == 6 and all(s in (0.0, 1.0) for s in shares)
    with log.open("a") as f:
        f.write('{"game": "nim", "a": "ea')  # killed mid-write
    [s] = read_log(log, "nim")
    assert (s.a, s.b, s.players, s.n) == ("easy", "random", 2, 6)
    assert s.mean == pytest.approx(sum(shares) / 6)
    list(play_match(Nim(), "easy", "random", 2, 2, seed=9, log=log))  # goes on from a clean line end
    assert read_log(log, "nim")[0].n == 8


def test_a_score_is_a_wilson_rate_against_the_fair_share() -> None:
    s = score("hard", "medium", 3, [1.0, 0.5, 0.0, 1.0])
    assert s.rate == Rate(2.5, 4, 1 / 3)
    assert s.interval == Rate(2.5, 4, 1 / 3).interval
    assert s.fair_multiple() == pytest.approx(2.5 / 4 * 3)


def test_the_elo_ladder_chains_neighbour_matches_from_random() -> None:
    scores = [
        score("heuristic", "random", 2, [1.0] * 30 + [0.0] * 10),
        score("easy", "heuristic", 2, [0.5] * 20),
    ]
    elo = ladder_elo(scores)
    assert elo["random"] == (0.0, 0.0)
    assert elo["heuristic"][0] == pytest.approx(190.8, abs=0.1)  # 75 %: 400·log10(3)
    assert elo["easy"][0] == pytest.approx(elo["heuristic"][0])  # an even match adds nothing
    assert elo["easy"][1] > elo["heuristic"][1] > 0  # uncertainty adds up along the chain
    assert "medium" not in elo


def test_a_rerun_of_a_match_plays_only_the_games_its_log_lacks(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    first = list(play_match(Nim(), "easy", "random", 2, 4, seed=3, log=log))
    again = list(play_match(Nim(), "easy", "random", 2, 4, seed=3, log=log))
    assert again == first and len(log.read_text().splitlines()) == 4  # nothing played twice
    more = list(play_match(Nim(), "easy", "random", 2, 6, seed=3, log=log))
    assert more[:4] == first and len(log.read_text().splitlines()) == 6
    [s] = read_log(log, "nim")
    assert s.n == 6


def test_a_game_logged_twice_counts_once(tmp_path: Path) -> None:
    log = tmp_path / "ladder.jsonl"
    list(play_match(Nim(), "easy", "random", 2, 3, seed=3, log=log))
    text = log.read_text()
    log.write_text(text + text)  # two runs of the same seeds, as an older, non-resuming ladder wrote
    assert read_log(log, "nim")[0].n == 3


def test_a_match_from_another_first_seed_resumes_no_game_played_from_the_other_seat(tmp_path: Path) -> None:
    """Seeds 4–6 of a match begun at seed 3 sat ``a`` in seats 1, 0, 1; begun at seed 4 they sit it in 0,
    1, 0: other games, so they are played (and all eight count), not taken from the log."""
    log = tmp_path / "ladder.jsonl"
    list(play_match(Nim(), "easy", "random", 2, 4, seed=3, log=log))
    list(play_match(Nim(), "easy", "random", 2, 4, seed=4, log=log))
    assert len(log.read_text().splitlines()) == 8
    assert read_log(log, "nim")[0].n == 8


def test_several_logs_read_as_one_ladder_and_a_game_in_two_counts_once(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    list(play_match(Nim(), "easy", "random", 2, 4, seed=3, log=one))
    list(play_match(Nim(), "easy", "random", 2, 6, seed=3, log=two))  # its first four are one's games
    list(play_match(Nim(), "random", "easy", 2, 2, seed=3, log=two))
    merged = {(s.a, s.b): s.n for s in read_log([one, two], "nim")}
    assert merged == {("easy", "random"): 6, ("random", "easy"): 2}
    assert read_log([one], "nim") == read_log(one, "nim")


def test_the_ladder_command_reports_several_logs_and_appends_to_only_one(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from ludorum.cli.main import app

    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    for log, (a, b) in ((one, ("heuristic", "random")), (two, ("easy", "heuristic"))):
        lines = [
            {"game": "reliquium", "a": a, "b": b, "players": 2, "seed": 3 + g, "seat": g % 2, "share": 1.0}
            for g in range(3)
        ]
        log.write_text("".join(json.dumps(e) + "\n" for e in lines))
    runner = CliRunner()
    done = runner.invoke(app, ["ladder", "reliquium", "--report", "--log", str(one), "--log", str(two)])
    assert done.exit_code == 0, done.output
    assert "heuristic: Elo" in done.output and "easy: Elo" in done.output
    refused = runner.invoke(app, ["ladder", "reliquium", "--log", str(one), "--log", str(two)])
    assert refused.exit_code != 0 and "one log" in refused.output
    missing = runner.invoke(app, ["ladder", "reliquium", "--report", "--log", str(tmp_path / "none")])
    assert missing.exit_code != 0 and "no such log" in missing.output


def test_a_variant_of_a_level_changes_only_its_settings_and_plays_the_levels_seeds(tmp_path: Path) -> None:
    from ludorum.agents.kinds import uncapped
    from ludorum.agents.search import SearchBot, level_settings, variant_settings
    from ludorum.lab.ladder import seed_for

    assert variant_settings("easy/bias=1/depth=none", "reliquium") == level_settings(
        "easy", "reliquium", bias=1.0, depth=None
    )
    assert variant_settings("hard", "signum") == level_settings("hard", "signum")
    bot = uncapped(Nim(), "easy/iterations=7/reuse=false")
    assert isinstance(bot, SearchBot)
    assert bot.settings == level_settings("easy", "nim", iterations=7, reuse=False, seconds=None)
    # paired with the level's own match, game for game
    assert seed_for("nim", "easy/bias=1", "random", 2, 9) == seed_for("nim", "easy", "random", 2, 9)
    assert seed_for("nim", "easy", "random", 2, 9) != seed_for("nim", "medium", "random", 2, 9)
    log = tmp_path / "probe.jsonl"
    list(play_match(Nim(), "easy/bias=1", "random", 2, 4, seed=5, log=log))
    [s] = read_log(log, "nim")
    assert (s.a, s.b, s.n) == ("easy/bias=1", "random", 4)


def test_a_wrong_variant_is_refused_with_what_is_wrong_before_any_game(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ludorum.agents.search import variant_settings
    from ludorum.cli.main import app
    from ludorum.games import registry
    from ludorum.lab.ladder import parse_pair

    with pytest.raises(ValueError, match="setting=value"):
        variant_settings("easy/bias")
    with pytest.raises(ValueError, match="the settings are iterations"):
        variant_settings("easy/colour=red")
    with pytest.raises(ValueError, match="iterations must be int, not 'many'"):
        variant_settings("easy/iterations=many")
    with pytest.raises(ValueError, match="at least one iteration"):
        variant_settings("easy/iterations=0")
    game = registry().get("reliquium")
    assert parse_pair(game, "hard/guide=game:thrifty:hard") == ("hard/guide=game:thrifty", "hard")
    assert parse_pair(game, "easy/bias=1:heuristic") == ("easy/bias=1", "heuristic")
    with pytest.raises(ValueError, match="two bot kinds"):
        parse_pair(game, "easy:nobody")
    log = tmp_path / "none.jsonl"
    args = ["ladder", "reliquium", "--pairs", "easy/bias=x:heuristic", "-n", "1", "--log", str(log)]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code != 0 and "bias must be float" in refused.output
    assert not log.exists()


def test_worker_processes_play_the_same_games_as_one_process(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from ludorum.cli.main import app

    def games(log: Path) -> set[tuple[object, ...]]:
        return {
            tuple(v for k, v in sorted(json.loads(line).items()) if k != "seconds")
            for line in log.read_text().splitlines()
        }

    serial, parallel = tmp_path / "serial.jsonl", tmp_path / "parallel.jsonl"
    runner = CliRunner()
    for log, workers in ((serial, "1"), (parallel, "2")):
        args = ["ladder", "reliquium", "--pairs", "easy/iterations=8:random", "-n", "6", "--seed", "4"]
        done = runner.invoke(app, [*args, "--workers", workers, "--log", str(log)])
        assert done.exit_code == 0, done.output
    assert len(games(serial)) == 6 and games(parallel) == games(serial)
    # a rerun with workers resumes the log: nothing is played twice
    again = runner.invoke(
        app,
        ["ladder", "reliquium", "--pairs", "easy/iterations=8:random", "-n", "8", "--seed", "4", "-w", "2",
         "--log", str(parallel)],
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert len(parallel.read_text().splitlines()) == 8
    refused = runner.invoke(app, ["ladder", "reliquium", "-n", "2", "-w", "0", "--log", str(tmp_path / "x")])
    assert refused.exit_code != 0 and "--workers is at least 1" in refused.output
