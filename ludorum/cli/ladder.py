"""``ludorum ladder``: strength matches between bot kinds and the Elo ladder (docs/agents.md)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

console = Console()


def ladder(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    pairs: Annotated[
        str,
        typer.Option(help="matches as A:B, comma-separated (A is scored); default: the ladder's neighbours"),
    ] = "",
    games: Annotated[int, typer.Option("--games", "-n", help="games per match")] = 100,
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    seed: Annotated[int, typer.Option()] = 0,
    log: Annotated[Path, typer.Option(help="JSON-lines file each finished game is appended to")] = Path(
        "ladder.jsonl"
    ),
    report: Annotated[bool, typer.Option(help="only summarise the log")] = False,
) -> None:
    """Play strength matches (seats rotated, search levels uncapped, reproducible from --seed)."""
    from ludorum.games import registry
    from ludorum.lab.ladder import LADDER, ladder_elo, play_match, read_log, seed_for

    game = registry().get(game_name)
    if not report:
        chosen = (
            [tuple(p.split(":")) for p in pairs.split(",")]
            if pairs
            else [(hi, lo) for lo, hi in itertools.pairwise(LADDER)]
        )
        for a, b in chosen:
            shares = list(
                play_match(game, a, b, players, games, seed_for(game.name, a, b, players, seed), log)
            )
            console.print(f"{a} vs {b}: {sum(shares) / len(shares):.3f} over {len(shares)} games")
    scores = read_log(log, game.name) if log.exists() else []
    table = Table(title=f"{game.title}: matches in {log}")
    for col in ("A", "B", "players", "games", "A's share", "95 % interval", "× fair"):
        table.add_column(col)
    for s in scores:
        lo, hi = s.interval
        table.add_row(
            s.a,
            s.b,
            str(s.players),
            str(s.n),
            f"{s.mean:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            f"{s.fair_multiple():.2f}",
        )
    console.print(table)
    for kind, (elo, err) in ladder_elo(scores).items():
        console.print(f"{kind}: Elo {elo:+.0f} ± {err:.0f}")
