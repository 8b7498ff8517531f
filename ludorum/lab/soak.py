"""The soak: the conformance kit over thousands of seeded random games per game, on worker processes.

CI checks the kernel's contract on a sparse slice of steps; the soak checks it densely: every player
count and variant of every game, the full contract at every ``every``-th step, and at every step for the
first ``full`` games (spread over all the configurations).  Each game is one task for the lab's executors
(local processes or Ray), and its outcome one JSON line; a violation comes back with the record up to
the breach and the seed and call that reproduce it.

A soak of 5,000 games per game takes hours and will be stopped: with a results folder each game's
outcome is appended to ``<folder>/<game>.jsonl`` as it finishes (as the lab's tournaments do), and a
rerun of the same plan checks only the games not in the file.  A file of another plan (cadence, games
at every step, first seed), of another Ludorum version or of another rules version of the game is refused
before anything is checked.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import ludorum
from ludorum.engine import Config, Game
from ludorum.engine.conformance import ConformanceError, Report, check_game
from ludorum.games import registry
from ludorum.lab.errors import LabError
from ludorum.lab.executors import Executor, Notify
from ludorum.lab.results import append_line, complete_lines, cut_torn_tail
from ludorum.lab.schedule import GameTask, Spec


@dataclass(frozen=True, slots=True)
class SoakPlan:
    """How much to check: games per game, the sparse cadence, how many games at every step, the seed."""

    games: int = 5000
    every: int = 5
    full: int = 500
    seed: int = 0

    def identity(self) -> dict[str, int]:
        """What a resumed run must share with the run it resumes: game ``i``'s check depends on these,
        not on ``games`` (a rerun with more games extends the file)."""
        return {"every": self.every, "full": self.full, "seed": self.seed}


def configs(game: Game[Any]) -> list[Config]:
    """Every player count, each with no variant, each variant alone, and all variants together."""
    variant_sets: list[tuple[str, ...]] = [(), *((v,) for v in game.variants)]
    if len(game.variants) > 1:
        variant_sets.append(tuple(game.variants))
    out: list[Config] = []
    for players, variants in itertools.product(range(game.min_players, game.max_players + 1), variant_sets):
        try:
            out.append(game.config(players, variants))
        except Exception:  # a variant that does not exist at this player count
            continue
    return out


def tasks(name: str, plan: SoakPlan) -> list[GameTask]:
    """The soak's games for one game, its configurations taken in turn."""
    cfgs = configs(registry().get(name))
    return [
        GameTask(
            index=i,
            game=name,
            config=cfgs[i % len(cfgs)],
            seed=plan.seed + i,
            bots=(),
            setup=(),
            spec=Spec(name, cfgs[i % len(cfgs)].players, ("random",), plan.seed),
        )
        for i in range(plan.games)
    ]


def cadence(task: GameTask, plan: SoakPlan) -> int:
    """Check every step of the first ``full`` games, every ``every``-th step of the others."""
    return 1 if task.index < plan.full else plan.every


def soak_one(plan: SoakPlan, task: GameTask) -> str:
    """Run the kit over one game; the outcome as a JSON line (with the record if it failed)."""
    game = registry().get(task.game)
    every = cadence(task, plan)
    out: dict[str, Any] = {"game": task.game, "index": task.index, "seed": task.seed, "every": every}
    out["plan"] = plan.identity()
    out["version"] = ludorum.__version__
    out["rules"] = game.rules_version  # a change of the game's rules is a new soak (issue 14, versions)
    out["config"] = task.config.to_json()
    start = time.process_time()
    try:
        report = check_game(game, [task.config], games=1, seed=task.seed, check_every=every)
    except ConformanceError as e:
        out |= {"ok": False, "error": str(e), "record": e.record.to_json() if e.record else None}
    else:
        out |= {"ok": True, "report": report.to_json()}
    out["cpu"] = round(time.process_time() - start, 3)
    return json.dumps(out)


@dataclass
class GameTally:
    """What the soak found for one game: the kit's report summed over the games that passed, the CPU
    seconds of every game, and each violation's outcome (with its record)."""

    passed: Report = field(default_factory=Report)
    cpu: float = 0.0
    failures: list[dict[str, Any]] = field(default_factory=list)
    resumed: int = 0
    """Games of the tally read back from the results file rather than checked by this run."""
    full: int = 0
    """Games checked at every step, passed or not."""

    def count(self, outcome: dict[str, Any]) -> None:
        """Add one game's outcome."""
        self.cpu += outcome["cpu"]
        self.full += outcome["every"] == 1
        if outcome["ok"]:
            self.passed.add(Report.from_json(outcome["report"]))
        else:
            self.failures.append(outcome)

    @property
    def games(self) -> int:
        """Games soaked, passed or not."""
        return self.passed.games + len(self.failures)


class SoakResults:
    """One game's soak outcomes in ``<folder>/<game>.jsonl``: read back, checked against the plan,
    appended to as games finish."""

    def __init__(self, folder: Path, name: str, plan: SoakPlan) -> None:
        self.path = folder / f"{name}.jsonl"
        self.name = name
        self.plan = plan
        self.rules = registry().get(name).rules_version

    def load(self) -> dict[int, dict[str, Any]]:
        """The outcomes already in the file, by game index; refuses a file of another game, plan or
        version (naming the line), and cuts a torn last line (a run killed mid-write) off."""
        if not self.path.exists():
            return {}
        if self.path.is_dir():
            raise LabError(f"{self.path} is a folder; the soak's results are .jsonl files")
        found: dict[int, dict[str, Any]] = {}
        for number, text in complete_lines(self.path):
            where = f"{self.path}:{number}"
            try:
                outcome = json.loads(text)
                index, game, plan, version, rules = (
                    int(outcome["index"]),
                    outcome["game"],
                    outcome["plan"],
                    outcome["version"],
                    outcome["rules"],
                )
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                raise LabError(f"{where}: not a soak outcome ({type(e).__name__}: {e})") from None
            if game != self.name:
                raise LabError(f"{where}: an outcome of {game!r}, not {self.name!r}; write to another folder")
            if plan != self.plan.identity():
                raise LabError(
                    f"{where}: a soak of another plan ({plan}, this one is {self.plan.identity()}); "
                    "rerun with the same --every, --full and --seed to resume it, or write to another folder"
                )
            if version != ludorum.__version__:
                raise LabError(
                    f"{where}: checked by Ludorum {version!r}, and this is {ludorum.__version__}; "
                    "write to another folder"
                )
            if rules != self.rules:
                raise LabError(
                    f"{where}: checked under rules version {rules}, and {self.name}'s rules are now version "
                    f"{self.rules}; write to another folder"
                )
            if index in found:
                raise LabError(f"{where}: game {index} appears twice; the file was edited by hand")
            found[index] = outcome
        cut_torn_tail(self.path)
        return found

    def append(self, line: str) -> None:
        """Add one game's outcome and flush it at once (a stopped run loses nothing)."""
        append_line(self.path, line)


def run_soak(
    names: Iterable[str],
    plan: SoakPlan,
    executor: Executor,
    on_game: Callable[[dict[str, Any]], None] = lambda line: None,
    notify: Notify = lambda message: None,
    results: Path | None = None,
    on_start: Callable[[str, int], None] = lambda name, resumed: None,
) -> Iterator[tuple[str, GameTally]]:
    """Soak each game in turn; yield its tally when its games are done.

    With ``results`` (a folder) outcomes are appended to its ``<game>.jsonl`` and the games already
    there are counted, not checked again; ``on_start(name, resumed)`` says how many before a game's
    first new one.  ``on_game`` is called with each newly checked game's outcome."""
    for name in names:
        tally = GameTally()
        store = SoakResults(results, name, plan) if results is not None else None
        done = store.load() if store is not None else {}
        for index in sorted(done):
            if index < plan.games:
                tally.count(done[index])
                tally.resumed += 1
        on_start(name, tally.resumed)
        todo = [t for t in tasks(name, plan) if t.index not in done]
        for _, line in executor.run(todo, partial(soak_one, plan), notify):
            if store is not None:
                store.append(line)
            outcome = json.loads(line)
            tally.count(outcome)
            on_game(outcome)
        yield name, tally


def save_failure(folder: Path, outcome: dict[str, Any]) -> Path:
    """Write a violation's record and how to reproduce it; returns the file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{outcome['game']}-seed{outcome['seed']}.json"
    reproduce = (
        f"check_game(registry().get({outcome['game']!r}), [Config.from_json({outcome['config']!r})], "
        f"games=1, seed={outcome['seed']}, check_every={outcome['every']})"
    )
    path.write_text(json.dumps(outcome | {"reproduce": reproduce}, indent=1, ensure_ascii=False))
    return path
