"""``ludorum ladder``: strength matches between bot kinds and the Elo ladder (docs/agents.md)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from ludorum.cli.lab import RayAddress, UseRay, Workers, executor_for

console = Console()


def ladder(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    pairs: Annotated[
        str,
        typer.Option(
            help="matches as A:B, comma-separated (A is scored); a kind may be a variant of a level, "
            "'easy/bias=1' (an experiment: it plays the level's seeds); default: the ladder's neighbours"
        ),
    ] = "",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games per match")] = 100,
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    seed: Annotated[int, typer.Option()] = 0,
    log: Annotated[
        list[Path] | None,
        typer.Option(
            help="JSON-lines file each finished game is appended to; with --report, repeat it to "
            "read several logs as one ladder"
        ),
    ] = None,
    report: Annotated[bool, typer.Option(help="only summarise the log")] = False,
    plan: Annotated[
        bool, typer.Option(help="play the whole strength plan of docs/agents.md (ignores --pairs/--games)")
    ] = False,
    scale: Annotated[float, typer.Option(help="with --plan: multiply every pairing's games")] = 1.0,
    workers: Workers = 1,
    ray: UseRay = False,
    ray_address: RayAddress = None,
) -> None:
    """Play strength matches (seats rotated, search levels uncapped, reproducible from --seed)."""
    from ludorum.agents.kinds import uncapped
    from ludorum.engine import ConfigError
    from ludorum.games import registry
    from ludorum.lab.ladder import (
        LADDER,
        Pairing,
        ladder_elo,
        parse_pair,
        play_match,
        read_log,
        seed_for,
        strength_plan,
    )

    game = registry().get(game_name)
    logs = log or [Path("ladder.jsonl")]
    if not report:
        if len(logs) > 1:
            raise typer.BadParameter("games are appended to one log: give --log once (or add --report)")
        target = logs[0]
        if plan:
            chosen = strength_plan(game, scale)
        elif pairs:
            try:
                sides = [parse_pair(game, p) for p in pairs.split(",")]
                for side in itertools.chain.from_iterable(sides):
                    uncapped(game, side)  # a variant with a wrong setting is refused before any game
            except (ValueError, ConfigError) as e:
                raise typer.BadParameter(str(e), param_hint="--pairs") from None
            chosen = [Pairing(a, b, players, games) for a, b in sides]
        else:
            chosen = [Pairing(hi, lo, players, games) for lo, hi in itertools.pairwise(LADDER)]
        executor = executor_for(workers, ray, ray_address)
        for p in chosen:
            first = seed_for(game.name, p.a, p.b, p.players, seed)
            shares = list(play_match(game, p.a, p.b, p.players, p.games, first, target, executor))
            console.print(f"{p.text()}: {sum(shares) / len(shares):.3f}")
    missing = [str(p) for p in logs if not p.is_file()]
    if report and missing:
        raise typer.BadParameter(f"no such log: {', '.join(missing)}")
    scores = read_log(logs, game.name)
    table = Table(title=f"{game.title}: matches in {', '.join(map(str, logs))}")
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
