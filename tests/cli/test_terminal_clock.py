"""Terminal play with a clock: the time left at each prompt, and the clock's rule once it has run out.
Time comes from an injected clock that the answers move on, so nothing sleeps."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from ludorum.cli import terminal
from ludorum.cli.main import app
from ludorum.cli.terminal import TerminalGame
from ludorum.engine import Record, replay
from ludorum.engine.clock import ClockSpec
from ludorum.engine.record import TIMEOUT, timeout_step
from tests.fixtures.sealed_bids import SealedBids

runner = CliRunner()
GAME = SealedBids()


class Answers:
    """Answers the prompts, each after the given seconds have passed on the injected clock."""

    def __init__(self, answers: list[tuple[float, str]]) -> None:
        self.time = 1_800_000_000_000
        self.answers: Iterator[tuple[float, str]] = iter(answers)

    def now(self) -> int:
        return self.time

    def ask(self, *args: object, **kwargs: object) -> str:
        seconds, answer = next(self.answers, (0.0, "1"))
        self.time += round(seconds * 1000)
        return answer


def session(
    monkeypatch: pytest.MonkeyPatch, spec: ClockSpec, answers: list[tuple[float, str]]
) -> tuple[TerminalGame, Answers, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120)
    fake = Answers(answers)
    monkeypatch.setattr(terminal.Prompt, "ask", fake.ask)
    game = TerminalGame.start(GAME, GAME.config(2), 3, 0, "random", False, console)
    game.use_clock(spec, fake.now)
    return game, fake, out


def test_the_time_left_is_shown_and_a_turn_earns_one_increment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game, _, out = session(monkeypatch, ClockSpec.parse("60+5"), [(10, "1"), (2, "1"), (0, "q")])
    game.run(tmp_path / "save.json")
    text = out.getvalue()
    assert "1:00 left" in text and "0:50 left" in text  # the bid, then its confirmation
    assert game.clocks is not None and game.clocks.left[0] == 53_000


def test_out_of_time_loses_and_the_replay_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fixture_registry: object
) -> None:
    game, _, out = session(monkeypatch, ClockSpec.parse("60+5", "lose"), [(61, "1")])
    game.run(tmp_path / "save.json")
    assert "ran out of time" in out.getvalue()
    record = game.play.record
    assert record.steps[-1][0] == TIMEOUT and record.result is not None and record.result.ranking == (2, 1)
    replay(GAME, Record.loads(record.dumps()))
    saved = tmp_path / "timed-out.json"
    saved.write_text(record.dumps())
    shown = runner.invoke(app, ["replay", str(saved), "--no-step"])
    assert shown.exit_code == 0, shown.output
    assert re.search(r"clock — .* ran out of time", shown.output), shown.output
    assert "Result: " in shown.output and "ran out of time" in shown.output.rsplit("Result: ", 1)[1]


def test_quitting_after_the_time_ran_out_comes_too_late(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A save resumes with full clocks, so a 'q' typed once the time is up must not save the game: the
    clock's rule applies first."""
    game, _, out = session(monkeypatch, ClockSpec.parse("60+5", "lose"), [(61, "q")])
    game.run(tmp_path / "save.json")
    assert game.play.record.steps[-1][0] == TIMEOUT and "Game over" in out.getvalue()
    assert not (tmp_path / "save.json").exists()


def test_out_of_time_hands_the_seat_to_a_bot(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fixture_registry: object
) -> None:
    game, _, out = session(monkeypatch, ClockSpec("move", per_move=30, bot="random"), [(29, "1"), (31, "1")])
    game.run(tmp_path / "save.json")
    text = out.getvalue()
    assert "a bot takes the seat" in text and "Game over" in text
    assert game.humans == set()
    record = game.play.record
    assert (TIMEOUT, timeout_step(0, handover=True)) in record.steps
    replay(GAME, Record.loads(record.dumps()))
    saved = tmp_path / "handed-over.json"
    saved.write_text(record.dumps())
    shown = runner.invoke(app, ["replay", str(saved), "--no-step"])
    assert shown.exit_code == 0, shown.output
    assert re.search(r"clock — .* ran out of time: a bot takes the seat", shown.output), shown.output


def test_the_command_line_takes_a_clock_and_refuses_a_bad_one(fixture_registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    save = str(tmp_path / "save.json")
    out = runner.invoke(app, ["play", "sealed-bids", "--clock", "soon", "--save", save])
    assert out.exit_code != 0 and "BASE+INCREMENT" in out.output
    out = runner.invoke(app, ["play", "sealed-bids", "--clock", "60", "--on-timeout", "draw", "--save", save])
    assert out.exit_code != 0 and "on_expiry" in out.output
    out = runner.invoke(app, ["play", "sealed-bids", "--clock", "300+5", "--save", save], input="q\n")
    assert out.exit_code == 0, out.output
    assert "5:00 left" in out.output


def test_a_clock_option_is_checked_before_anything_is_asked_and_none_is_ignored(
    fixture_registry, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    save = str(tmp_path / "save.json")
    out = runner.invoke(app, ["play", "--clock", "soon", "--save", save], input="1\nq\n")
    assert out.exit_code != 0 and "BASE+INCREMENT" in out.output and "Which game" not in out.output
    out = runner.invoke(app, ["play", "sealed-bids", "--on-timeout", "lose", "--save", save], input="q\n")
    assert out.exit_code != 0 and "--clock" in out.output, out.output  # a rule for a clock there is not
