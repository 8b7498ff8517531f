"""The lab's commands as a designer types them: tournament, resume, record, refusals."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ludorum.cli.main import app

runner = CliRunner()


def test_tournament_resume_and_record_cut_out_for_replay(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    args = ["tournament", "medieval-realms", "--bots", "random,heuristic", "-n", "2", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "2 games played" in first.output and "row finished ahead of column" in first.output
    summary = json.loads(out.with_suffix(".summary.json").read_text())
    assert summary["games"] == 2 and {s["bot"] for s in summary["standings"]} == {"random", "heuristic"}
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "0 games played" in again.output and "2 were already" in again.output
    cut = runner.invoke(app, ["record", str(out), "1"])
    assert cut.exit_code == 0, cut.output
    replayed = runner.invoke(app, ["replay", str(tmp_path / "t-game1.json"), "--no-step"])
    assert replayed.exit_code == 0 and "Result:" in replayed.output


def test_refusals_are_clear_and_write_nothing(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    for args, message in [
        (["tournament", "medieval-realms", "--bots", "random,nobot"], "no bot kind 'nobot'"),
        (["tournament", "go", "--bots", "random"], "no game called 'go'"),
        (["tournament", "signum", "--bots", "random", "-o", "deck9"], "--option takes NAME=VALUE"),
        (["tournament", "signum", "--bots", "random", "-o", "speed=3"], "no option 'speed'"),
        (["record", str(out), "3"], "cannot read"),
    ]:
        result = runner.invoke(app, [*args, "--out", str(out)] if args[0] == "tournament" else args)
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split()), result.output
    assert not out.exists()
