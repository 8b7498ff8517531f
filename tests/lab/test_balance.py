"""Balance reports: figures and flags from known games, and the HTML + JSON a designer opens."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from ludorum.cli.main import app
from ludorum.engine import Config, Record, Result
from ludorum.lab.balance import Cell, cell_figures, reason_kind
from ludorum.lab.facts import Facts
from ludorum.lab.results import Line
from ludorum.lab.schedule import Schedule, Spec

runner = CliRunner()


def game_line(
    index: int, winner: int, first: int, decks: tuple[str, str], uses: tuple[tuple[str, ...], ...]
) -> Line:
    """A two-player game won by ``winner``; seat ``s`` played ``decks[s]`` and used cards ``uses[s]``."""
    ranking = (1, 2) if winner == 0 else (2, 1)
    record = Record(
        "signum",
        Config(2),
        index,
        [],
        Result((0.0, 0.0), ranking, f"P{winner + 1} reached 5{index} prosperity"),
    )
    facts = Facts(
        tuple({"deck": d} for d in decks),
        tuple(tuple(("card", c) for c in seat) for seat in uses),
        first,
        10 + index,
        100 + index,
    )
    return Line(index, record, ("random", "random"), {}, facts, "")


def test_figures_flag_what_the_games_show_and_only_that() -> None:
    # Seat 0 wins 40 of 40; the first player alternates; "Sword" is used only by the winner, "Shield" by both.
    lines = [
        game_line(
            i, 0, i % 2, ("Dawn", "Steam") if i % 2 else ("Steam", "Dawn"), (("Sword", "Shield"), ("Shield",))
        )
        for i in range(40)
    ]
    figures = cell_figures(Cell(Schedule(Spec("signum", 2, ("random",))), lines))
    assert figures["seats"][0]["rate"] == 1.0 and figures["seats"][0]["flagged"]
    assert figures["seats"][1]["flagged"]
    assert not figures["first_player"]["flagged"] and figures["first_player"]["rate"] == 0.5
    assert {v["rate"] for v in figures["dimensions"]["deck"].values()} == {0.5}
    assert not any(v["flagged"] for v in figures["dimensions"]["deck"].values())
    sword, shield = figures["content"]["card"]["Sword"], figures["content"]["card"]["Shield"]
    assert sword["use_rate"] == 0.5 and sword["users"]["rate"] == 1.0 and sword["users"]["flagged"]
    assert sword["non_users"]["rate"] == 0.0
    assert shield["use_rate"] == 1.0 and not shield["users"]["flagged"]
    assert figures["end_reasons"] == {"P# reached # prosperity": 40}
    assert figures["length"]["decisions"]["min"] == 100 and figures["length"]["decisions"]["max"] == 139
    assert (
        sorted(figures["flags"])
        == sorted([f for f in figures["flags"] if f.startswith(("seat 0", "seat 1", "card Sword"))])
        and len(figures["flags"]) == 3
    )
    assert reason_kind("most castles (3) after round 20") == "most castles (#) after round #"


def test_balance_command_writes_a_self_contained_report(tmp_path: Path) -> None:
    out = tmp_path / "bal"
    result = runner.invoke(
        app,
        [
            "balance",
            "signum",
            "--players",
            "2",
            "--bot",
            "random",
            "-n",
            "12",
            "--seed",
            "3",
            "--out-dir",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    assert (report["bot"], report["seed"], report["games"]) == ("random", 3, 12)
    (cell,) = report["cells"]
    decks = cell["dimensions"]["deck"]
    assert len(decks) == 4 and all(r["games"] == 6 for r in decks.values())  # each deck in 6 of 24 seat-games
    assert cell["content"]["card"] and sum(cell["end_reasons"].values()) == 12
    flagged = [r for r in cell["seats"] + [cell["first_player"]] if r["flagged"]]
    assert len(cell["flags"]) >= len(flagged)
    html = (out / "report.html").read_text()
    assert "random" in html and "Seed:</b> 3" in html and "Games:</b> 12" in html
    assert len(re.findall(r'src="data:image/png;base64,', html)) >= 4
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing to fetch: it opens offline
    assert "Knights of the Dawn" in html
    assert len((out / "signum-2p.jsonl").read_text().splitlines()) == 12
    markdown = (out / "report.md").read_text()
    assert "random bot in every seat, 12 games, seed 3" in markdown and "| Knights of the Dawn |" in markdown


def test_balance_refuses_bad_settings(tmp_path: Path) -> None:
    for args, message in [
        (["balance", "signum", "--players", "7"], "for 2–4 players, not 7"),
        (["balance", "signum", "--variants", "fog"], "no variant 'fog'"),
        (["balance", "signum", "--bot", "oracle"], "no bot kind 'oracle'"),
        (["balance", "chess"], "no game called 'chess'"),
    ]:
        result = runner.invoke(app, [*args, "--out-dir", str(tmp_path / "x")])
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split())
    assert not (tmp_path / "x").exists()
