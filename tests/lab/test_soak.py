"""The soak runs the kit over many games on the lab's executors and reports violations reproducibly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ludorum.games
from ludorum.cli.main import app
from ludorum.engine import Config, Record, Registry, replay
from ludorum.engine.conformance import ConformanceError, check_game
from ludorum.lab.errors import LabError
from ludorum.lab.executors import ProcessExecutor, SerialExecutor
from ludorum.lab.soak import SoakPlan, configs, run_soak, save_failure
from tests.fixtures.face_down import FaceDown, TrueOrderFaceDown


class BrokenFaceDown(TrueOrderFaceDown):
    """The planted fault under another name, so both can be registered."""

    name = "broken-face-down"


@pytest.fixture
def soak_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    reg = Registry()
    reg.register(FaceDown())
    reg.register(BrokenFaceDown())
    monkeypatch.setattr(ludorum.games, "_registry", reg)
    yield reg


def test_configs_cover_every_player_count(soak_registry: Registry) -> None:
    assert [c.players for c in configs(FaceDown())] == [2, 3]


def test_a_correct_game_soaks_clean_on_worker_processes(soak_registry: Registry) -> None:
    plan = SoakPlan(games=12, every=3, full=4)
    [(name, tally)] = run_soak(["face-down"], plan, ProcessExecutor(2))
    assert name == "face-down" and tally.games == tally.passed.games == 12 and not tally.failures
    assert tally.passed.checks > tally.passed.steps / 3 and len(tally.passed.lengths) == 12


def test_a_violation_comes_back_with_its_record_and_reproduces(
    soak_registry: Registry, tmp_path: Path
) -> None:
    plan = SoakPlan(games=6, every=1, full=6)
    [(_, tally)] = run_soak(["broken-face-down"], plan, SerialExecutor())
    assert tally.failures, "the planted fault was not found"
    failure = tally.failures[0]
    assert "draws from the true state" in failure["error"]
    record = Record.from_json(failure["record"])
    replay(BrokenFaceDown(), record)  # the record up to the breach replays
    with pytest.raises(ConformanceError, match="draws from the true state"):
        check_game(
            BrokenFaceDown(),
            [Config.from_json(failure["config"])],
            games=1,
            seed=failure["seed"],
            check_every=1,
        )
    saved = json.loads(save_failure(tmp_path, failure).read_text())
    assert "check_game(" in saved["reproduce"]


def test_the_command_exits_1_on_a_violation(soak_registry: Registry, tmp_path: Path) -> None:
    out = CliRunner().invoke(
        app,
        [
            "soak",
            "broken-face-down",
            "--games",
            "3",
            "--full",
            "3",
            "--workers",
            "1",
            "--failures",
            f"{tmp_path}",
            "--results",
            f"{tmp_path / 'results'}",
        ],
    )
    assert out.exit_code == 1, out.output
    assert list(tmp_path.glob("broken-face-down-seed*.json"))
    out = CliRunner().invoke(app, ["soak", "chess", "--workers", "1"])
    assert out.exit_code == 2 and "no game called 'chess'" in out.output


def test_a_stopped_soak_resumes_from_its_results_file(soak_registry: Registry, tmp_path: Path) -> None:
    checked: list[int] = []
    [(_, first)] = run_soak(
        ["face-down"], SoakPlan(games=5, every=2, full=2), SerialExecutor(), results=tmp_path
    )
    path = tmp_path / "face-down.jsonl"
    assert len(path.read_text().splitlines()) == 5 and first.resumed == 0
    # A kill mid-write tears the last line: that game is checked again, the rest are not.
    text = path.read_text()
    path.write_text(text + text.splitlines()[-1][:40])
    [(_, again)] = run_soak(
        ["face-down"],
        SoakPlan(games=8, every=2, full=2),
        SerialExecutor(),
        on_game=lambda outcome: checked.append(outcome["index"]),
        results=tmp_path,
    )
    assert checked == [5, 6, 7] and again.resumed == 5 and again.games == 8 and again.full == 2
    assert len(path.read_text().splitlines()) == 8
    # The resumed tally counts the same as a run from scratch.
    [(_, whole)] = run_soak(["face-down"], SoakPlan(games=8, every=2, full=2), SerialExecutor())
    assert again.passed.to_json() | {"seconds": 0} == whole.passed.to_json() | {"seconds": 0}


def test_a_results_file_of_another_plan_is_refused(soak_registry: Registry, tmp_path: Path) -> None:
    list(run_soak(["face-down"], SoakPlan(games=2, every=2, full=1), SerialExecutor(), results=tmp_path))
    before = (tmp_path / "face-down.jsonl").read_text()
    with pytest.raises(LabError, match=r"face-down.jsonl:1: a soak of another plan"):
        list(run_soak(["face-down"], SoakPlan(games=3, every=3, full=1), SerialExecutor(), results=tmp_path))
    assert (tmp_path / "face-down.jsonl").read_text() == before


def test_a_results_file_of_other_rules_is_refused_naming_both_versions(
    soak_registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's rules change (its ``rules_version``) within one Ludorum version: the games checked under
    the old rules are not counted for the new ones."""
    list(run_soak(["face-down"], SoakPlan(games=2, every=2, full=1), SerialExecutor(), results=tmp_path))
    before = (tmp_path / "face-down.jsonl").read_text()
    game = soak_registry.get("face-down")
    monkeypatch.setattr(game, "rules_version", game.rules_version + 1)
    old, new = game.rules_version - 1, game.rules_version
    with pytest.raises(LabError, match=rf"face-down.jsonl:1: checked under rules version {old}.* {new}"):
        list(run_soak(["face-down"], SoakPlan(games=3, every=2, full=1), SerialExecutor(), results=tmp_path))
    assert (tmp_path / "face-down.jsonl").read_text() == before


def test_a_shorter_rerun_counts_the_finished_games_and_checks_none(
    soak_registry: Registry, tmp_path: Path
) -> None:
    """``--games`` is how far to go: a rerun asking for fewer games than are done (``--full`` larger
    than ``--games``) is the same plan, and prints the finished games' table."""
    args = ["soak", "face-down", "--every", "2", "--full", "3", "--workers", "1"]
    args += ["--results", f"{tmp_path}", "--failures", f"{tmp_path / 'failures'}"]
    first = CliRunner().invoke(app, [*args, "--games", "4"])
    assert first.exit_code == 0, first.output
    before = (tmp_path / "face-down.jsonl").read_text()
    again = CliRunner().invoke(app, [*args, "--games", "2"])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "face-down.jsonl").read_text() == before
    assert "│ face-down │     2 │       2 │" in again.output
