"""``ludorum soak``: the conformance kit over thousands of seeded random games per game, on all cores."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ludorum.cli.lab import RayAddress, UseRay, executor_for, fail
from ludorum.engine import LudorumError
from ludorum.games import registry

console = Console()


def soak(
    games: Annotated[list[str] | None, typer.Argument(help="games to soak (default: every game)")] = None,
    per_game: Annotated[int, typer.Option("--games", help="seeded random games per game")] = 5000,
    every: Annotated[int, typer.Option(help="check the full contract every this many steps")] = 5,
    full: Annotated[int, typer.Option(help="games per game checked at every step")] = 500,
    seed: Annotated[int, typer.Option(help="the first game's seed (game i uses seed + i)")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="local worker processes")] = (
        os.cpu_count() or 1
    ),
    ray: UseRay = False,
    ray_address: RayAddress = None,
    failures: Annotated[Path, typer.Option(help="where violations' records are written")] = Path(
        "soak-failures"
    ),
    results: Annotated[
        Path,
        typer.Option(help="folder of each game's outcomes (<game>.jsonl); a rerun of the same plan resumes"),
    ] = Path("soak-results"),
) -> None:
    """Check every game's contract densely: every player count and variant, seeded random play.

    Each game's outcome is appended to ``--results``/<game>.jsonl as it finishes: a stopped soak is
    resumed by running the same command (only the missing games are checked)."""
    from ludorum.lab.progress import game_progress
    from ludorum.lab.soak import SoakPlan, run_soak, save_failure

    names = games or registry().names()
    unknown = [n for n in names if n not in registry()]
    if unknown:
        raise fail(
            f"no game called {', '.join(map(repr, unknown))}; the games are {', '.join(registry().names())}"
        )
    if per_game < 1 or every < 1 or full < 0:
        raise fail("--games and --every are at least 1, --full at least 0")
    # ``--full`` stays as given (not cut to ``--games``): it is part of the plan a rerun resumes.
    plan = SoakPlan(per_game, every, full, seed)
    executor = executor_for(workers, ray, ray_address)
    title = f"Soak: {per_game} games per game, every {every}th step, {min(full, per_game)} at every step"
    table = Table(title=title)
    for column in ("game", "games", "resumed", "at every step", "steps", "checks", "CPU s", "violations"):
        table.add_column(column, justify="left" if column == "game" else "right")
    broken = 0
    try:
        for name in names:
            with game_progress(console, f"soak {name}") as bar:

                def started(name: str, resumed: int, bar: Any = bar) -> None:
                    bar.start(per_game, resumed)

                def seen(outcome: dict[str, Any], bar: Any = bar) -> None:
                    bar.progress.advance(bar.task)
                    if not outcome["ok"]:
                        path = save_failure(failures, outcome)
                        console.print(f"[red]{outcome['error']}[/red]\n  record and reproduction: {path}")

                for game_name, tally in run_soak([name], plan, executor, seen, bar.notice, results, started):
                    broken += len(tally.failures)
                    for failure in tally.failures:
                        console.print(f"[red]{game_name} seed {failure['seed']}: {failure['error']}[/red]")
                    table.add_row(
                        game_name,
                        str(tally.games),
                        str(tally.resumed),
                        str(tally.full),
                        f"{tally.passed.steps:,}",
                        f"{tally.passed.checks:,}",
                        f"{tally.cpu:,.0f}",
                        str(len(tally.failures)),
                    )
    except LudorumError as e:
        raise fail(str(e)) from None
    console.print(table)
    if broken:
        console.print(f"[red]{broken} violation(s); records in {failures}/[/red]")
        raise typer.Exit(1)
