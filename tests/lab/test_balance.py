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
from ludorum.lab.stats import Rate

runner = CliRunner()


def game_line(
    index: int,
    winner: int,
    first: int,
    decks: tuple[str, str],
    uses: tuple[tuple[str, ...], ...],
    seed: int | None = None,
) -> Line:
    """A two-player game won by ``winner``; seat ``s`` played ``decks[s]`` and used cards ``uses[s]``;
    its seed is ``seed``, by default its index (every game its own seed)."""
    ranking = (1, 2) if winner == 0 else (2, 1)
    record = Record(
        "signum",
        Config(2),
        index if seed is None else seed,
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


def test_games_sharing_a_seed_widen_every_interval_of_their_cell() -> None:
    # 48 games, 4 per seed (12 seeds): the games of one seed are all won by the same seat, and all by the
    # first player (seeds 0–5) or all by the other (6–11), as if the dice decided them — the correlation
    # the schedule's common seeds bring.
    lines = [
        game_line(
            i,
            (i // 4) % 2,
            (i // 4) % 2 if i < 24 else 1 - (i // 4) % 2,
            ("Dawn", "Steam") if i % 2 else ("Steam", "Dawn"),
            (("Sword",), ()) if i % 3 else ((), ()),
            seed=i // 4,
        )
        for i in range(48)
    ]
    figures = cell_figures(Cell(Schedule(Spec("signum", 2, ("random",))), lines))
    seat0, first = figures["seats"][0], figures["first_player"]
    assert seat0["clusters"] == first["clusters"] == 12
    # Four identical games per seed: about 4 times the binomial variance (× 12/11 × 47/48 for few clusters).
    assert seat0["design_effect"] == first["design_effect"] == round(4 * 12 / 11 * 47 / 48, 3)
    sword = figures["content"]["card"]["Sword"]
    # A game where nobody plays Sword (16 of them) counts both its seats among the non-users, in its seed
    # cluster; the 32 others count seat 1.
    assert sword["non_users"]["games"] == 2 * 16 + 32 and sword["non_users"]["clusters"] == 12
    rates = [*figures["seats"], first, *(r for vals in figures["dimensions"].values() for r in vals.values())]
    rates += [
        r
        for names in figures["content"].values()
        for f in names.values()
        for r in (f["users"], f["non_users"])
    ]
    for r in rates:
        low, high = Rate(r["wins"], r["games"], r["fair"]).interval
        assert r["design_effect"] >= 1.0 and r["low"] <= round(low, 4) and r["high"] >= round(high, 4)
    plain_low, plain_high = Rate(seat0["wins"], seat0["games"], seat0["fair"]).interval
    assert seat0["high"] - seat0["low"] > 1.5 * (plain_high - plain_low)


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
    # 12 games are one rotation of the 12 two-player deck arrangements, so one seed: the command says so
    assert "its 12 games are one rotation, all on one seed" in " ".join(result.output.split())
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
        (["balance", "signum", "--bot", "hard/budget=9"], "'budget=9' is not setting=value"),
        (["balance", "chess"], "no game called 'chess'"),
    ]:
        result = runner.invoke(app, [*args, "--out-dir", str(tmp_path / "x")])
        assert result.exit_code == 2, result.output
        assert message in " ".join(result.output.split())
    assert not (tmp_path / "x").exists()


def test_balance_plays_a_variant_of_a_level_uncapped_and_reproducibly(tmp_path: Path) -> None:
    """``--bot hard/iterations=1`` (the level's guide, searched once per decision: Signum's fast strong
    player) plays like any bot kind, without the wall-clock cap, so two runs write the same games."""
    lines = []
    for run in ("a", "b"):
        out = tmp_path / run
        args = ["balance", "signum", "-p", "2", "--bot", "hard/iterations=1", "-n", "2", "--seed", "5"]
        result = runner.invoke(app, [*args, "--out-dir", str(out)])
        assert result.exit_code == 0, result.output
        assert json.loads((out / "report.json").read_text())["bot"] == "hard/iterations=1"
        lines.append([json.loads(x)["steps"] for x in (out / "signum-2p.jsonl").read_text().splitlines()])
    assert lines[0] == lines[1] and len(lines[0]) == 12  # -n 2 is rounded up to a rotation of 12
