"""The lab's commands: ``tournament``, ``balance``, ``tune`` and ``record``.

Registered on the main app by :func:`register`; heavy libraries (openskill, matplotlib, optuna, Ray)
are imported only when a command runs, so that ``ludorum --help`` stays quick.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ludorum.engine import LudorumError
from ludorum.engine.actions import Scalar

if TYPE_CHECKING:
    from ludorum.lab.executors import Executor
    from ludorum.lab.schedule import Schedule
    from ludorum.lab.tournament import Run

console = Console()

Workers = Annotated[
    int, typer.Option("--workers", "-w", help="local worker processes (1: play in this process)")
]
UseRay = Annotated[
    bool, typer.Option("--ray", help="play on a local Ray runtime (pip install 'ludorum\\[lab]')")
]
RayAddress = Annotated[
    str | None, typer.Option("--ray-address", help="join an existing Ray cluster: 'auto' or ray://host:10001")
]
Variants = Annotated[list[str] | None, typer.Option("--variant", "-v", help="a variant, repeatable")]
Options = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="a game option NAME=VALUE, repeatable (`ludorum options GAME` lists them)"
    ),
]


def fail(message: str) -> typer.Exit:
    """Print a refusal in red; the caller raises the returned exit (code 2).  The message is printed as
    written: brackets in it (``ludorum[bench]``, a list) are not read as Rich markup."""
    console.print(f"[red]{escape(message)}[/red]", soft_wrap=True)
    return typer.Exit(2)


def parse_options(pairs: list[str] | None, game_name: str) -> tuple[tuple[str, Scalar], ...]:
    """``["rounds=12", "deck0=empire_dawn"]`` → sorted pairs, each value typed by the game's own
    description of the option (:func:`ludorum.engine.options.parse_assignments`, as ``ludorum play``)."""
    from ludorum.engine import ConfigError
    from ludorum.engine.options import parse_assignments
    from ludorum.lab.errors import LabError

    try:
        game = _game(game_name)
        return tuple(sorted(parse_assignments(game.option_specs(), pairs or (), game.title).items()))
    except (ConfigError, LabError) as e:
        raise fail(str(e)) from None


def executor_for(workers: int, ray: bool, ray_address: str | None) -> Executor:
    """The executor the options ask for, or a clear refusal."""
    from ludorum.lab.errors import LabError
    from ludorum.lab.executors import make_executor

    try:
        return make_executor(workers, ray, ray_address)
    except LabError as e:
        raise fail(str(e)) from None


def play_schedule(schedule: Schedule, games: int, out: Path, executor: Executor, title: str) -> Run:
    """Play a schedule's missing games into ``out`` under a progress bar; refusals exit with code 2."""
    from ludorum.lab.progress import game_progress
    from ludorum.lab.results import ResultsFile
    from ludorum.lab.tournament import run_games

    if games % schedule.cycle:
        console.print(
            f"[yellow]{games} games rounded up to {schedule.rounded(games)}: "
            f"whole cycles of {schedule.cycle} "
            "(every bot and every faction or deck in every seat equally often)[/yellow]"
        )
    results = ResultsFile(out, schedule.spec)
    try:
        results.load()  # refuse a wrong file before the progress bar appears
        with game_progress(console, title) as bar:
            run = run_games(schedule, games, results, executor, bar.start, bar.game, bar.notice)
    except LudorumError as e:
        raise fail(str(e)) from None
    rate = f", {run.played / run.seconds:.2f} games/s" if run.played and run.seconds else ""
    console.print(
        f"{run.played} games played on {executor.name}{rate}; {run.resumed} were already in {out}",
        soft_wrap=True,
    )
    return run


def tournament(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="a registered game")],
    bots: Annotated[str, typer.Option("--bots", "-b", help="bot kinds, comma-separated")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="default: the game's minimum")
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games (rounded up to whole seat rotations)")
    ] = 100,
    seed: Annotated[int, typer.Option(help="the first seed; every rotation plays the next one")] = 0,
    variant: Variants = None,
    option: Options = None,
    rotate: Annotated[
        bool, typer.Option("--rotate/--no-rotate", help="rotate factions or decks through the seats")
    ] = True,
    out: Annotated[
        Path | None, typer.Option(help="results file, one JSON line per game (default: ludorum-lab/…jsonl)")
    ] = None,
    weights: Annotated[
        list[str] | None,
        typer.Option(
            help="LABEL=FILE: the bot labelled LABEL (kind:name) plays with tuned weights, repeatable"
        ),
    ] = None,
    workers: Workers = 1,
    ray: UseRay = False,
    ray_address: RayAddress = None,
) -> None:
    """Play bots against each other with seats rotated; ratings, win rates, head-to-head; resumable."""
    from ludorum.lab.errors import LabError
    from ludorum.lab.schedule import Schedule, Spec
    from ludorum.lab.tournament import summary

    kinds = tuple(b.strip() for b in bots.split(",") if b.strip())
    try:
        game_players = players or _min_players(game_name)
        spec = Spec(
            game_name,
            game_players,
            kinds,
            seed,
            tuple(sorted(set(variant or ()))),
            "base",
            parse_options(option, game_name),
            rotate,
            _weights(weights, game_name),
        )
        schedule = Schedule(spec)
    except LabError as e:
        raise fail(str(e)) from None
    out = (
        out
        or Path("ludorum-lab") / f"tournament-{game_name}-{game_players}p-{'+'.join(kinds)}-seed{seed}.jsonl"
    )
    executor = executor_for(workers, ray, ray_address)
    run = play_schedule(schedule, games, out, executor, f"{schedule.game.title}, {game_players} players")
    data = summary(schedule, run.lines)
    summary_path = out.with_suffix(".summary.json")
    summary_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print_summary(data)
    console.print(
        f"records: {out} (one per line; `ludorum record {out} N` cuts out game N); summary: {summary_path}"
    )


def _weights(
    pairs: list[str] | None, game_name: str
) -> tuple[tuple[str, tuple[tuple[str, float], ...]], ...]:
    """``["easy:tuned=file.json"]`` → the spec's weights, each file checked against the game."""
    from ludorum.lab.tuning import load_weights

    out = []
    for pair in pairs or ():
        label, sep, path = pair.partition("=")
        if not sep:
            raise fail(f"--weights takes LABEL=FILE, not {pair!r}")
        found = load_weights(Path(path), game_name, _game(game_name).provides.load_tunables())
        out.append((label.strip(), tuple(sorted(found.items()))))
    return tuple(out)


def _min_players(game_name: str) -> int:
    from ludorum.engine import ConfigError
    from ludorum.games import registry
    from ludorum.lab.errors import LabError

    try:
        return registry().get(game_name).min_players
    except ConfigError as e:
        raise LabError(str(e)) from None


def print_summary(data: dict[str, Any]) -> None:
    """The standings, the head-to-head matrix and the seats, as Rich tables."""
    spec = data["spec"]
    table = Table(title=f"{data['games']} games, {spec['players']} players, seed {spec['seed']}")
    for col in ("bot", "rating μ [95 %]", "μ − 3σ", "win rate [95 %]", "mean rank"):
        table.add_column(col, justify="right")
    for s in data["standings"]:
        table.add_row(
            s["bot"],
            f"{s['mu']:.1f} [{s['low']:.1f}–{s['high']:.1f}]",
            f"{s['ordinal']:.1f}",
            _rate(s["win_rate"]),
            f"{s['mean_rank']:.2f}",
        )
    console.print(table)
    bots = list(data["head_to_head"])
    if len(bots) > 1:
        matrix = Table(title="row finished ahead of column (ties ½) [95 %]")
        matrix.add_column("")
        for b in bots:
            matrix.add_column(b, justify="right")
        for a in bots:
            matrix.add_row(a, *("—" if a == b else _rate(data["head_to_head"][a][b]) for b in bots))
        console.print(matrix)
    seats = Table(title="win rate by seat (fair share 1/players) [95 %]")
    seats.add_column("seat")
    seats.add_column("win rate", justify="right")
    for i, r in enumerate(data["seats"]):
        seats.add_row(str(i), _rate(r))
    console.print(seats)


def _rate(r: dict[str, Any]) -> str:
    text = f"{100 * r['rate']:.1f} % [{100 * r['low']:.0f}–{100 * r['high']:.0f}]"
    return f"[bold red]{text} ![/bold red]" if r["flagged"] else text


def record(
    results: Annotated[Path, typer.Argument(help="a results file (.jsonl) of a tournament or balance run")],
    index: Annotated[int, typer.Argument(help="the game's number (its 'index')")],
    out: Annotated[
        Path | None, typer.Option("--out", help="where to write it (default: beside the results)")
    ] = None,
) -> None:
    """Cut one game's record out of a results file, for `ludorum replay` or the browser's record upload."""
    from ludorum.lab.results import read_lines

    try:
        found = next((line for line in read_lines(results) if line.index == index), None)
    except (OSError, LudorumError) as e:
        raise fail(f"cannot read {results}: {e}") from None
    if found is None:
        raise fail(f"{results} has no game {index}")
    target = out or results.with_name(f"{results.stem}-game{index}.json")
    target.write_text(found.record.dumps() + "\n")
    console.print(
        f"game {index} (bots {', '.join(found.bots)}, seed {found.record.seed}) → {target}; "
        f"replay it with `ludorum replay {target}`"
    )


def balance(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="a registered game")],
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="player counts, comma-separated (default: all)")
    ] = None,
    variants: Annotated[
        list[str] | None,
        typer.Option(
            "--variants", help="a variant set to compare, 'a+b' or 'base', repeatable (default: base)"
        ),
    ] = None,
    bot: Annotated[str, typer.Option(help="the bot kind in every seat")] = "heuristic",
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games per setting (rounded up to whole rotations)")
    ] = 60,
    seed: Annotated[int, typer.Option(help="the first seed")] = 0,
    option: Options = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out-dir", help="records, report.html, report.json (default: ludorum-lab/…)"),
    ] = None,
    workers: Workers = 1,
    ray: UseRay = False,
    ray_address: RayAddress = None,
) -> None:
    """Balance report (HTML + JSON): seats, factions/decks, first player, length, endings, each card."""
    from ludorum.lab.balance import Cell, balance_report
    from ludorum.lab.errors import LabError
    from ludorum.lab.markdown import headline
    from ludorum.lab.report import render_html
    from ludorum.lab.schedule import Schedule, Spec

    try:
        game = _game(game_name)
        counts = _counts(players, game.min_players, game.max_players)
        sets = _variant_sets(variants, game)
        from ludorum.agents import bot_kinds
        from ludorum.agents.kinds import is_experiment_kind

        if not is_experiment_kind(game, bot):
            raise LabError(
                f"no bot kind {bot!r} for {game.title}; the kinds are {', '.join(bot_kinds(game))}, "
                "or a variant of a level (easy/bias=1)"
            )
    except LabError as e:
        raise fail(str(e)) from None
    out_dir = out_dir or Path("ludorum-lab") / f"balance-{game_name}-{bot}-seed{seed}"
    executor = executor_for(workers, ray, ray_address)
    options = parse_options(option, game_name)
    cells = []
    for vs in sets:
        for n in counts:
            spec = Spec(game_name, n, (bot,), seed, vs, "base", options)
            try:
                schedule = Schedule(spec)
            except LabError as e:
                if players is None or len(sets) > 1:  # a combination the rules refuse: skip it, say why
                    console.print(
                        f"[yellow]skipped {n} players{', ' + '+'.join(vs) if vs else ''}: {e}[/yellow]"
                    )
                    continue
                raise fail(str(e)) from None
            name = f"{game_name}-{n}p" + (f"-{'+'.join(vs)}" if vs else "")
            title = f"{game.title}, {n} players" + (f", {'+'.join(vs)}" if vs else "")
            if schedule.rounded(games) == schedule.cycle > 1:
                console.print(f"[yellow]{one_seed_warning(title, schedule.cycle)}[/yellow]")
            run = play_schedule(schedule, games, out_dir / f"{name}.jsonl", executor, title)
            cells.append(Cell(schedule, run.lines))
    if not cells:
        raise fail("no setting could be played")
    report = balance_report(game, bot, seed, cells)
    (out_dir / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    (out_dir / "report.html").write_text(render_html(report))
    (out_dir / "report.md").write_text(headline(report))
    print_balance(report)
    console.print(f"report: {out_dir / 'report.html'} (figures embedded) and {out_dir / 'report.json'}")


def one_seed_warning(title: str, cycle: int) -> str:
    """What the balance command says when a setting's games are one rotation cycle, so one seed: the
    seed-clustered intervals (docs/lab.md, "Intervals and clustering") need two seeds or more to see how
    much one seed's dice weigh, and with one they are the plain intervals of independent games."""
    return (
        f"{title}: its {cycle} games are one rotation, all on one seed, so the intervals cannot allow "
        f"for that seed's weight; play -n {2 * cycle} or more for two seeds or more"
    )


def _game(name: str) -> Any:
    from ludorum.engine import ConfigError
    from ludorum.games import registry
    from ludorum.lab.errors import LabError

    try:
        return registry().get(name)
    except ConfigError as e:
        raise LabError(str(e)) from None


def _counts(text: str | None, low: int, high: int) -> list[int]:
    from ludorum.lab.errors import LabError

    if text is None:
        return list(range(low, high + 1))
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise LabError(f"--players takes whole numbers separated by commas, not {text!r}") from None
    bad = [n for n in counts if not low <= n <= high]
    if bad or not counts:
        raise LabError(f"the game is for {low}–{high} players, not {text}")
    return counts


def _variant_sets(texts: list[str] | None, game: Any) -> list[tuple[str, ...]]:
    from ludorum.lab.errors import LabError

    out = []
    for text in texts or ["base"]:
        chosen = tuple(sorted({v.strip() for v in text.replace(",", "+").split("+") if v.strip()} - {"base"}))
        unknown = [v for v in chosen if v not in game.variants]
        if unknown:
            raise LabError(
                f"{game.title} has no variant {', '.join(map(repr, unknown))}; "
                f"its variants are {', '.join(game.variants) or 'none'}"
            )
        out.append(chosen)
    return out


def print_balance(report: dict[str, Any]) -> None:
    """The headline table of a balance report: per setting, the seats, first player and flags."""
    table = Table(
        title=f"{report['title']}: {report['bot']} bots, {report['games']} games, seed {report['seed']}"
    )
    for col in ("setting", "games", "win rate by seat [95 %]", "first player", "mean decisions", "flagged"):
        table.add_column(col, justify="right")
    for cell in report["cells"]:
        table.add_row(
            cell["name"],
            str(cell["games"]),
            "\n".join(f"{i}: {_rate(r)}" for i, r in enumerate(cell["seats"])),
            _rate(cell["first_player"]),
            str(cell["length"]["decisions"].get("mean")),
            str(len(cell["flags"])),
        )
    console.print(table)
    for cell in report["cells"]:
        for dim, values in cell["dimensions"].items():
            t = Table(title=f"{cell['name']}: win rate by {dim}")
            t.add_column(dim)
            t.add_column("win rate [95 %]", justify="right")
            for value, r in values.items():
                t.add_row(value, _rate(r))
            console.print(t)


def tune(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    bot: Annotated[
        str, typer.Option(help="the bot kind whose weights are tuned (a search level reads them)")
    ] = "easy",
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="default: the game's minimum")
    ] = None,
    trials: Annotated[
        int, typer.Option(min=1, help="Optuna trials (the first plays the current weights)")
    ] = 20,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games per trial (rounded up to whole rotations)")
    ] = 24,
    seed: Annotated[int, typer.Option(help="seeds of every trial's games, and of the sampler")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="the tuned-weights file (default: ludorum-lab/tuned-…json)")
    ] = None,
    workers: Workers = 1,
    ray: UseRay = False,
    ray_address: RayAddress = None,
) -> None:
    """Tune a game's weights with Optuna: each trial's bot plays the current one; saves the best as data."""
    from ludorum.lab.errors import LabError
    from ludorum.lab.ratings import standings
    from ludorum.lab.schedule import Schedule, Spec
    from ludorum.lab.tuning import CANDIDATE, Tuned, current
    from ludorum.lab.tuning import tune as run_tune

    try:
        game = _game(game_name)
        tunables = game.provides.load_tunables()
        if not tunables:
            raise LabError(f"{game.title} declares no tunable weights (Game.provides.tunables)")
        n = players or game.min_players
        label = f"{bot}:{CANDIDATE}"
        Schedule(Spec(game_name, n, (label, bot), seed))  # refuse a bad bot or player count before trial 0
    except LabError as e:
        raise fail(str(e)) from None
    out = out or Path("ludorum-lab") / f"tuned-{game_name}-{bot}.json"
    trial_dir = out.with_suffix("")
    executor = executor_for(workers, ray, ray_address)
    defaults = current(tunables)

    def score(weights: dict[str, float], number: int) -> float:
        spec = Spec(game_name, n, (label, bot), seed, weights=((label, tuple(sorted(weights.items()))),))
        schedule = Schedule(spec)
        run = play_schedule(schedule, games, trial_dir / f"trial-{number}.jsonl", executor, f"trial {number}")
        mine = next(s for s in standings(spec.bots, run.lines) if s.bot == label)
        return mine.wins.rate

    def said(number: int, weights: dict[str, float], value: float) -> None:
        shown = ", ".join(f"{k}={v:.3g}" for k, v in weights.items())
        console.print(f"trial {number}: win share {100 * value:.1f} % with {shown}", soft_wrap=True)

    best, value = run_tune(trials, tunables, score, seed, said)
    tuned = Tuned(
        game_name,
        bot,
        best,
        defaults,
        value,
        trials,
        Schedule(Spec(game_name, n, (label, bot))).rounded(games),
        n,
        seed,
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(tuned.to_json(), indent=1) + "\n")
    console.print(
        f"best: win share {100 * value:.1f} % against the current weights (fair share {100 / n:.0f} %); "
        f"saved to {out}. Check it on fresh seeds: ludorum tournament {game_name} --bots {bot}:tuned,{bot} "
        f"--weights {bot}:tuned={out} --seed {seed + 10_000}",
        soft_wrap=True,
    )


def register(app: typer.Typer) -> None:
    """Add the lab's commands to the ``ludorum`` app."""
    app.command()(tournament)
    app.command()(balance)
    app.command()(record)
    app.command()(tune)
