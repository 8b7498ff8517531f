"""The ``ludorum-bench`` command: the speed figures (``make bench``) and the lab's executor speed.

The benchmarks are the top layer: this program imports the command line's helpers, never the reverse.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from ludorum.cli.lab import console, fail
from ludorum.cli.main import game_of
from ludorum.games import registry

app = typer.Typer(
    name="ludorum-bench",
    help="Speed figures: engine, search, RL and server; the lab's executors.",
    no_args_is_help=False,
    add_completion=False,
)


@app.command("speed")
def bench(
    game_name: Annotated[str | None, typer.Argument(metavar="GAME")] = None,
    seconds: Annotated[
        float, typer.Option(min=0.1, help="seconds of playouts per game and player count")
    ] = 3.0,
    server: Annotated[bool, typer.Option(help="also measure the server")] = True,
    server_only: Annotated[bool, typer.Option(help="measure the server only (not the engine)")] = False,
    paced: Annotated[
        str, typer.Option(help="the human-paced ramp: game counts, comma-separated ('' skips it)")
    ] = "100,200,300",
    paced_seconds: Annotated[
        float, typer.Option(min=0.1, help="seconds measured at each step of the ramp")
    ] = 20.0,
    strength: Annotated[
        bool, typer.Option(help="also play 2 games per game against OpenSpiel's MCTSBot at 0.1 s a move")
    ] = True,
) -> None:
    """Print engine speed (random-playout decisions/s, clone cost, deepcopy/clone), search and RL speed,
    our hard level's share of the wins against OpenSpiel's MCTSBot at equal time per move (``--strength``)
    and the server's: 8 games played as fast as they go, one human against expert bots, and the games one
    process holds at a human's pace (``--paced``)."""
    from ludorum.bench.engine import measure, one_core
    from ludorum.bench.server_paced import check_ramp

    try:
        ramp = tuple(int(n) for n in paced.split(",") if n.strip())
        if ramp:
            check_ramp(ramp)
    except ValueError:
        raise typer.BadParameter(
            f"--paced is rising game counts (at least 1) separated by commas, not {paced!r}"
        ) from None
    chosen = [game_of(game_name)] if game_name else list(registry())
    if server or server_only:
        from ludorum.bench.server import missing_clients

        if missing := missing_clients():
            raise fail(
                f"the server benches need the bench extra (pip install 'ludorum[bench]'); not installed: "
                f"{', '.join(missing)} (--no-server measures the rest)"
            )
    if server_only:
        _bench_server(chosen, game_name, ramp, paced_seconds)
        return
    figures = []
    with one_core() as where:
        for game in chosen:
            for n in range(game.min_players, game.max_players + 1):
                figures.append(measure(game, n, seconds))
    from ludorum.bench.search import measure_search

    with one_core():
        searches = [measure_search(game, game.min_players, seconds) for game in chosen]
    table = Table(title=f"Engine speed (one process, {where})")
    for col in ("game", "players", "decisions/s", "games", "clone µs", "deepcopy µs", "deepcopy/clone"):
        table.add_column(col, justify="right")
    for f in figures:
        table.add_row(
            f.game,
            str(f.players),
            f"{f.decisions_per_s:,.0f}",
            str(f.games),
            f"{f.clone_us:.2f}",
            f"{f.deepcopy_us:.1f}",
            f"{f.ratio:.0f}×",
        )
    console.print(table)
    for f in figures:
        console.print(
            f"{f.game} {f.players}p: {f.decisions_per_s:,.0f} decisions/s over {f.games} random games; "
            f"clone {f.clone_us:.2f} µs, {f.ratio:.0f}× cheaper than deepcopy",
            soft_wrap=True,
        )
    for sf in searches:
        console.print(sf.line(), soft_wrap=True)
    try:  # RL figures (docs/rl.md) when the rl extra is installed, for the games that have an encoding
        from ludorum.bench.rl import report as rl_report
        from ludorum.rl.core import supported_games
    except ImportError:
        rl_report = None  # type: ignore[assignment]
    encoded = [g.name for g in chosen if g.name in supported_games()] if rl_report is not None else []
    if encoded:
        with one_core():
            for line in rl_report(encoded, seconds):
                console.print(line, soft_wrap=True)
            if strength:
                from ludorum.bench.strength import play_match

                for name in encoded:
                    console.print(play_match(name).line(), soft_wrap=True)
    if server or not chosen:
        _bench_server(chosen, game_name, ramp, paced_seconds)


def _bench_server(
    chosen: list[Any], game_name: str | None, ramp: tuple[int, ...], paced_seconds: float
) -> None:
    """The server's lines of ``ludorum-bench speed``."""
    if not chosen:
        console.print("no games are registered yet")
        return
    from ludorum.bench.server import server_bench
    from ludorum.bench.server_paced import server_bench_paced

    name = chosen[0].name if game_name else None
    console.print(server_bench(name).line(), soft_wrap=True)
    # One human against expert search bots in every game: its acknowledgements must stay fast.
    console.print(server_bench(name, seconds=20.0, bot="expert").line(), soft_wrap=True)
    if ramp:
        console.print(server_bench_paced(name, ramp, paced_seconds).line(), soft_wrap=True)


@app.command("executors")
def lab_bench(
    game_name: Annotated[str, typer.Argument(metavar="GAME")] = "reliquium",
    players: Annotated[int, typer.Option("--players", "-p")] = 2,
    bot: Annotated[str, typer.Option(help="the bot kind in every seat")] = "heuristic",
    games: Annotated[int, typer.Option("--games", "-n", min=1)] = 96,
    workers: Annotated[int, typer.Option("--workers", "-w", help="processes (and Ray CPUs) to compare")] = 2,
    ray: Annotated[bool, typer.Option("--ray/--no-ray", help="also measure a local Ray runtime")] = True,
) -> None:
    """Executor speed: games/s in this process, on 1 and K worker processes, and on Ray with K CPUs."""
    from ludorum.bench.executors import cores, lab_bench
    from ludorum.lab.errors import LabError
    from ludorum.lab.schedule import Spec

    try:
        figures = lab_bench(Spec(game_name, players, (bot,)), games, workers, ray, console.print)
    except LabError as e:
        raise fail(str(e)) from None
    table = Table(title=f"{games} games of {game_name}, {players} players, {bot} bots, on {cores()} cores")
    for col in ("executor", "games/s", "× 1 process", "CPU ms per game"):
        table.add_column(col, justify="right")
    one = figures[1].rate
    for f in figures:
        cpu = "—" if f.cpu is None else f"{1000 * f.cpu / f.games:.1f}"
        table.add_row(f.executor, f"{f.rate:.2f}", f"{f.rate / one:.2f}×", cpu)
    console.print(table)
    if len(figures) == 4:
        overhead = 1 - figures[3].rate / figures[2].rate
        console.print(f"Ray's overhead against {workers} local processes: {100 * overhead:.1f} %")
