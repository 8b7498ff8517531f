"""Every command refuses nonsense numbers and unknown names with a clear message and exit code 2, before
doing anything: no traceback, no file written, no trial or game begun."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludorum.cli.main import app

runner = CliRunner()

AT_LEAST = "Input should be greater than or equal to"
REFUSED = [
    (["simulate", "signum", "-n", "0"], f"'--games' / '-n': {AT_LEAST} 1"),
    (["simulate", "signum", "-n", "-1"], f"'--games' / '-n': {AT_LEAST} 1"),
    (["simulate", "signum", "--bot", "nope", "-n", "1"], "Invalid value: no bot kind 'nope'"),
    (["play", "signum", "--seat", "7"], "Invalid value: seat 7 does not exist"),
    (["play", "reliquium", "--bots", "random,random,random"], "names 3 kinds: one per bot seat at most"),
    (["tournament", "reliquium", "-b", "random,heuristic", "-n", "0"], f"'--games' / '-n': {AT_LEAST} 1"),
    (["balance", "reliquium", "-n", "0"], f"'--games' / '-n': {AT_LEAST} 1"),
    (["balance", "reliquium", "-n", "-5"], f"'--games' / '-n': {AT_LEAST} 1"),
    (["tune", "reliquium", "--trials", "0", "-n", "2"], f"'--trials': {AT_LEAST} 1"),
    (["tune", "reliquium", "-n", "0"], f"'--games' / '-n': {AT_LEAST} 1"),
    (["ladder", "reliquium", "-n", "0"], f"'--games' / '-n': {AT_LEAST} 1"),
    (
        ["tournament", "reliquium", "-b", "random,heuristic", "-n", "1", "-w", "100000"],
        "--workers is at most",
    ),
    (["soak", "--games", "1", "-w", "100000"], "--workers is at most"),
    (["serve", "--port", "-1"], f"'--port': {AT_LEAST} 0"),
    (["serve", "--port", "99999"], "'--port': Input should be less than or equal to 65535"),
    (["serve", "--bot-delay", "-1"], f"'--bot-delay': {AT_LEAST} 0"),
]


@pytest.mark.parametrize(("args", "message"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_a_refusal_is_clear_and_changes_nothing(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the lab writes into ./ludorum-lab by default
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # and the server its database
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.output, result.exception)
    said = " ".join(result.output.replace("│", " ").split())  # the words, out of Rich's box
    assert message in said, result.output
    assert "Traceback" not in result.output
    assert os.listdir(tmp_path) == [], "a refused command wrote files"
