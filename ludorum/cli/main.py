"""The ``ludorum`` command line (Typer + Rich)."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table
from typer.core import TyperGroup

from ludorum.agents import make_bot, play_game
from ludorum.cli.lab import register as register_lab
from ludorum.cli.ladder import ladder
from ludorum.cli.soak import soak
from ludorum.engine import ConfigError, Game, LudorumError, Record, i18n, replay_states
from ludorum.engine.clock import BOT, ClockError, ClockSpec
from ludorum.engine.i18n import T
from ludorum.engine.options import parse_assignments
from ludorum.engine.record import (
    MAX_SEED,
    TIMEOUT,
    ending,
    is_handover,
    stored_result_error,
    time_up,
    timed_out_seat,
)
from ludorum.extras import missing_extra
from ludorum.games import registry


class _Commands(TyperGroup):
    """The commands, each refusal of ours (:class:`~ludorum.engine.LudorumError`) said as a bad option is,
    not as a crash with a traceback: a command words the refusals it expects itself; this catches the ones
    it did not foresee.  A command that needs an optional extra which is not installed says which one."""

    def invoke(self, ctx: Any) -> Any:  # typer's own (vendored) click Context, which it does not export
        try:
            return super().invoke(ctx)
        except LudorumError as e:
            raise typer.BadParameter(str(e)) from None  # exit code 2, as any bad option
        except ModuleNotFoundError as e:
            missing = missing_extra(e)
            if missing is None:
                raise
            command = f"ludorum {ctx.invoked_subcommand}" if ctx.invoked_subcommand else "ludorum"
            Console(stderr=True).print(f"[red]Error:[/red] {escape(command)}: {escape(str(missing))}")
            raise typer.Exit(1) from None


def _version(shown: bool) -> None:
    """``--version``: the installed distribution's version (its metadata), then stop."""
    if shown:
        console.print(f"ludorum {installed_version()}")
        raise typer.Exit()


def installed_version() -> str:
    """Ludorum's version as installed (pip's metadata); the source's when it runs from a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ludorum")
    except PackageNotFoundError:
        import ludorum

        return ludorum.__version__


app = typer.Typer(
    help="Ludorum: Reliquium, Medieval Realms and Legends of Signum.", no_args_is_help=True, cls=_Commands
)


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and stop")
    ] = False,
) -> None:
    """The options before any command (``--version``)."""


app.command("ladder")(ladder)
app.command("soak")(soak)
console = Console()
register_lab(app)  # tournament, balance, tune, record (ludorum/cli/lab.py)


def game_of(name: str) -> Game[Any]:
    try:
        return registry().get(name)
    except ConfigError as e:
        raise typer.BadParameter(str(e)) from None


def _config(
    game: Game[Any], players: int | None, variants: list[str] | None, options: list[str] | None = None
) -> Any:
    try:
        chosen: dict[str, Any] = parse_assignments(game.option_specs(), options or (), game.title)
        return game.config(game.min_players if players is None else players, variants or (), **chosen)
    except ConfigError as e:
        raise typer.BadParameter(str(e)) from None


LangOption = Annotated[
    str,
    typer.Option(
        "--lang", envvar="LUDORUM_LANG", help=f"the language of the game's text: {', '.join(i18n.LANGUAGES)}"
    ),
]


def _use(lang: str) -> None:
    """Speak ``lang`` from now on (every game text printed is rendered in it)."""
    try:
        i18n.use(lang)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from None


SEED = typer.Option(
    min=-MAX_SEED,
    max=MAX_SEED,
    help=f"the game's seed, a whole number from -(2^64-1) to 2^64-1 ({MAX_SEED:,})",
)
"""A ``--seed`` as the server takes it: the same bound (``engine.record.MAX_SEED``)."""

OPTION_HELP = "a game option as key=value, repeatable (`ludorum options GAME` lists them)"


@app.command()
def options(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="a registered game")],
    lang: LangOption = "en",
) -> None:
    """List a game's options and the values each takes (for --option key=value)."""
    _use(lang)
    game = game_of(game_name)
    table = Table(title=str(T("Options of {game}", game=game.title)))
    for col in (T("option"), T("values")):
        table.add_column(str(col))
    for option in game.option_specs():
        table.add_row(option.name, str(option.summary()))
    console.print(table if game.option_specs() else str(T("{game} has no options", game=game.title)))


@app.command()
def games(lang: LangOption = "en") -> None:
    """List the registered games, their player counts and variants."""
    _use(lang)
    table = Table(title=str(T("Games")))
    for col in (T("name"), T("title"), T("players"), T("variants")):
        table.add_column(str(col))
    for game in registry():
        variants = "\n".join(f"{k}: {v}" for k, v in game.variants.items()) or "—"
        table.add_row(game.name, game.title, f"{game.min_players}–{game.max_players}", variants)
    console.print(table)


@app.command()
def play(
    game_name: Annotated[str | None, typer.Argument(metavar="GAME", help="a registered game")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    variant: Annotated[
        list[str] | None, typer.Option("--variant", "-v", help="a variant, repeatable")
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    bots: Annotated[str, typer.Option(help="bot kinds for the other seats, comma-separated")] = "",
    seat: Annotated[int, typer.Option(help="your seat (0 = first)")] = 0,
    hotseat: Annotated[bool, typer.Option(help="every seat is a human at this terminal")] = False,
    load: Annotated[Path | None, typer.Option(help="resume a saved game")] = None,
    save: Annotated[Path, typer.Option(help="where to save on quit")] = Path("ludorum-save.json"),
    seed: Annotated[int | None, SEED] = None,
    clock: Annotated[
        str | None,
        typer.Option(help="a clock for each human seat: BASE+INCREMENT seconds (300+5) or move:SECONDS"),
    ] = None,
    on_timeout: Annotated[
        str | None,
        typer.Option(
            help="with --clock, when a human's time is up: 'bot' (default) takes the seat, or it will 'lose'"
        ),
    ] = None,
    lang: LangOption = "en",
) -> None:
    """Play in the terminal against bots (the view as text, the legal actions as a numbered menu)."""
    from ludorum.cli.terminal import TerminalGame, pick_game

    _use(lang)
    spec = _clock(clock, on_timeout)  # before any question is asked or any game made
    if load is not None:
        try:
            record = Record.read(load)
        except (OSError, LudorumError) as e:
            raise typer.BadParameter(f"cannot resume {load}: {e}") from None
        game = game_of(record.game)
        session = TerminalGame.resume(game, record, seat, bots, hotseat, console)
    else:
        if game_name is None:
            game_name = pick_game(console)
        game = game_of(game_name)
        config = _config(game, players, variant, option)
        session = TerminalGame.start(game, config, seed, seat, bots, hotseat, console)
    if spec is not None:
        session.use_clock(spec)
    session.run(save)


def _clock(clock: str | None, on_timeout: str | None) -> ClockSpec | None:
    """The clock ``--clock`` and ``--on-timeout`` ask for (``None``: no clock), or a usage error."""
    if clock is None:
        if on_timeout is not None:
            raise typer.BadParameter(
                "there is no clock to run out: give --clock too", param_hint="--on-timeout"
            )
        return None
    try:
        return ClockSpec.parse(clock, on_timeout or BOT)
    except ClockError as e:
        raise typer.BadParameter(str(e), param_hint="--clock / --on-timeout") from None


@app.command()
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    games_n: Annotated[int, typer.Option("--games", "-n", min=1)] = 100,
    seed: Annotated[int, SEED] = 0,
    players: Annotated[int | None, typer.Option("--players", "-p")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    bot: Annotated[str, typer.Option(help="bot kind for every seat")] = "random",
    lang: LangOption = "en",
) -> None:
    """Play many bot games and summarise winners, lengths and speed (game i on seed ``seed + i``)."""
    _use(lang)
    if seed + games_n - 1 > MAX_SEED:
        raise typer.BadParameter(
            f"the last game's seed would be {seed + games_n - 1}, over {MAX_SEED:,}", param_hint="--seed"
        )
    game = game_of(game_name)
    config = _config(game, players, variant, option)
    wins: Counter[int] = Counter()
    reasons: Counter[str] = Counter()  # Text: the same ending in words counts once, in the reader's words
    lengths: list[int] = []
    start = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{game.title}, {config.players} players", total=games_n)
        for g in range(games_n):
            bots = [make_bot(game, bot) for _ in range(config.players)]
            play = play_game(game, config, seed + g, bots)
            result = game.result(play.state)
            for w in result.winners:
                wins[w] += 1
            reasons[result.reason] += 1
            lengths.append(len(play.record.steps))
            progress.advance(task)
    elapsed = time.perf_counter() - start
    table = Table(title=f"{games_n} games of {game.title} ({config.players} players, {bot} bots)")
    table.add_column("seat")
    table.add_column("wins (ties count for each)", justify="right")
    for s in range(config.players):
        table.add_row(str(s), f"{wins[s]} ({100 * wins[s] / games_n:.1f}%)")
    console.print(table)
    lengths.sort()
    console.print(
        f"decisions per game: min {lengths[0]}, median {lengths[len(lengths) // 2]}, max {lengths[-1]}; "
        f"{sum(lengths) / elapsed:,.0f} decisions/s"
    )
    console.print(str(T("endings: ")) + ", ".join(f"{r} ×{n}" for r, n in reasons.most_common()))


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record (save file)")],
    seat: Annotated[int | None, typer.Option(help="view as this seat (default: spectator)")] = None,
    step_through: Annotated[
        bool, typer.Option("--step/--no-step", help="wait for Enter between steps")
    ] = True,
    lang: LangOption = "en",
) -> None:
    """Step through a record, showing each decision and the resulting view."""
    from ludorum.cli.terminal import check_seat

    _use(lang)
    try:
        record = Record.read(file)
        game = game_of(record.game)
        if seat is not None:
            check_seat(seat, record.config.players)
        states = list(replay_states(game, record))
    except (OSError, LudorumError) as e:
        console.print(f"[red]cannot replay {file}: {e}[/red]")
        raise typer.Exit(2) from None
    console.print(game.render_text(states[0], seat))
    for i, ((who, action), (before, after)) in enumerate(
        zip(record.steps, itertools.pairwise(states), strict=True)
    ):
        actor: str
        label: str
        if who == TIMEOUT:  # a seat ran out of time: no move of the game, the clock's step
            actor = T("clock")
            label = time_up(game, before, timed_out_seat(action), is_handover(action))
        else:
            actor = T("chance") if who < 0 else game.seat_name(before, who)
            label = game.describe(before, action)
        console.rule(
            str(T("step {i}/{n}: {actor} — {label}", i=i + 1, n=len(record.steps), actor=actor, label=label))
        )
        if step_through and console.is_terminal:
            console.print(game.render_text(after, seat))
            input()
    r = ending(game, record.steps, states[-1])
    if r is not None:
        result = T(
            "Result: {reason}; scores {scores}; winners {winners}",
            reason=r.reason,
            scores=list(r.scores),
            winners=list(r.winners),
        )
        console.print(str(result))
    wrong = stored_result_error(game, record, states[-1])
    if wrong is not None:  # shown as replayed, then the lie is named
        console.print(f"[red]the stored result is wrong: {wrong}[/red]")
        raise typer.Exit(1)


BEHIND_TLS = typer.Option(
    "--behind-tls",
    help="browsers reach the server over HTTPS through a proxy: its seat cookies are Secure "
    "(a proxy uvicorn trusts may say so itself with X-Forwarded-Proto: https)",
)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port to listen on")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default: SQLite in your data dir)"
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0, help="seconds a bot waits before moving, so people can follow")
    ] = 0.6,
    behind_tls: Annotated[bool, BEHIND_TLS] = False,
) -> None:
    """Run the web server: lobby, games in the browser, bots, on SQLite or PostgreSQL."""
    from ludorum.server import serve as run_server

    run_server(host, port, database_url, bot_delay=bot_delay, behind_tls=behind_tls)


@app.command()
def start(behind_tls: Annotated[bool, BEHIND_TLS] = False) -> None:
    """The main job (``make play``): the web server on 127.0.0.1 with bots and the embedded database."""
    from ludorum.server.run import free_port

    serve("127.0.0.1", free_port("127.0.0.1", 8000), None, 0.6, behind_tls)


if __name__ == "__main__":
    app()
