"""Terminal play shows each step exactly as the server's log shows it to the human's seat."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ludorum.cli.main import app
from ludorum.engine import Record, replay_states
from ludorum.games import registry

runner = CliRunner()


def test_bots_secret_placements_are_not_printed(tmp_path: Path) -> None:
    """Medieval Realms: the bots place their leaders in secret before the human (seat 2) places."""
    save = tmp_path / "save.json"
    out = runner.invoke(
        app,
        [
            "play",
            "medieval-realms",
            "--players",
            "3",
            "--seat",
            "2",
            "--seed",
            "5",
            "--save",
            str(save),
            "--bots",
            "heuristic,heuristic",
        ],
        input="1\nq\n",  # the extra token, then quit at the placement
    )
    assert out.exit_code == 0, out.output
    game = registry().get("medieval-realms")
    record = Record.loads(save.read_text())
    states = list(replay_states(game, record))
    secret = [
        game.describe(states[i], action)
        for i, (seat, action) in enumerate(record.steps)
        if seat in (0, 1) and action.kind in ("mayor", "general", "admiral", "buffer")
    ]
    assert secret, "the bots placed no leader before the human's turn: the test proves nothing"
    printed = out.output.rsplit("to decide", 1)[0]  # up to the human's placement
    for label in secret:
        assert label not in printed, f"the terminal printed a bot's secret placement: {label!r}"
    assert printed.count("made a secret decision") >= len(secret)
