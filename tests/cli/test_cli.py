"""The ``ludorum`` command against the fixture game."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ludorum.cli.main import app
from ludorum.engine import Record, replay
from tests.fixtures.sealed_bids import SealedBids

runner = CliRunner()


def test_games_lists_the_registry(fixture_registry) -> None:  # type: ignore[no-untyped-def]
    out = runner.invoke(app, ["games"])
    assert out.exit_code == 0, out.output
    assert "sealed-bids" in out.output and "2–3" in out.output and "rich" in out.output


def test_simulate_prints_a_summary(fixture_registry) -> None:  # type: ignore[no-untyped-def]
    out = runner.invoke(app, ["simulate", "sealed-bids", "--games", "20", "--seed", "4", "--players", "3"])
    assert out.exit_code == 0, out.output
    assert "20 games of Sealed Bids" in out.output
    assert "decisions/s" in out.output and "endings: prizes ×20" in out.output


def test_unknown_game_and_bad_config_are_clear_errors(fixture_registry) -> None:  # type: ignore[no-untyped-def]
    out = runner.invoke(app, ["simulate", "chess"])
    assert out.exit_code != 0 and "no game called 'chess'" in out.output
    out = runner.invoke(app, ["simulate", "sealed-bids", "--players", "9"])
    assert out.exit_code != 0 and "not 9" in out.output


def test_play_explains_bad_input_saves_on_quit_and_resumes(fixture_registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = tmp_path / "save.json"
    # seat 0 is human: a bad answer, an out-of-range one, a bid (1), confirm (1), then quit.
    out = runner.invoke(
        app,
        ["play", "sealed-bids", "--players", "2", "--seed", "3", "--save", str(save)],
        input="x\n99\n2\n1\nq\n",
    )
    assert out.exit_code == 0, out.output
    assert "'x' is not a choice" in out.output and "'99' is not a choice" in out.output
    record = Record.loads(save.read_text())
    assert [a.kind for s, a in record.steps if s == 0][:2] == ["bid", "confirm"]
    replay(SealedBids(), record)
    # Resume and play to the end by always taking the first choice.
    out = runner.invoke(app, ["play", "--load", str(save), "--save", str(save)], input="1\n" * 60)
    assert out.exit_code == 0, out.output
    assert "Game over" in out.output


def test_corrupt_save_is_refused(fixture_registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 1, "game": "sealed-bids"}))
    out = runner.invoke(app, ["play", "--load", str(bad)])
    assert out.exit_code != 0 and "lacks config, seed, steps" in out.output


def test_replay_steps_through_a_record(fixture_registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from ludorum.agents import RandomBot, play_game

    game = SealedBids()
    play = play_game(game, game.config(2), 8, [RandomBot(), RandomBot()])
    path = tmp_path / "r.json"
    path.write_text(play.record.dumps())
    out = runner.invoke(app, ["replay", str(path), "--no-step"])
    assert out.exit_code == 0, out.output
    assert f"step {len(play.record.steps)}/{len(play.record.steps)}" in out.output
    assert "Result: prizes" in out.output
    for seat in (2, -1):  # a two-player game's seats are 0 and 1
        refused = runner.invoke(app, ["replay", str(path), "--no-step", "--seat", str(seat)])
        said = " ".join(refused.output.split())
        assert refused.exit_code == 2 and f"seat {seat} does not exist: seats are 0–1" in said


def test_help_names_the_extras_to_install() -> None:
    """Rich reads ``[lab]`` as markup and dropped it from the help: the extra's name must show."""
    out = runner.invoke(app, ["soak", "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "pip install 'ludorum[lab]'" in out.output
