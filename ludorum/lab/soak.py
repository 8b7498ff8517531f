"""The soak: the conformance kit over thousands of seeded random games per game, on worker processes.

CI checks the kernel's contract on a sparse slice of steps; the soak checks it densely: every player
count and variant of every game, the full contract at every ``every``-th step, and at every step for the
first ``full`` games (spread over all the configurations).  Each game is one task for the lab's executors
(local processes or Ray), and its outcome one JSON line; a violation comes back with the record up to
the breach and the seed and call that reproduce it.
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

from ludorum.engine import Config, Game
from ludorum.engine.conformance import ConformanceError, Report, check_game
from ludorum.games import registry
from ludorum.lab.executors import Executor, Notify
from ludorum.lab.schedule import GameTask, Spec


@dataclass(frozen=True, slots=True)
class SoakPlan:
    """How much to check: games per game, the sparse cadence, how many games at every step, the seed."""

    games: int = 5000
    every: int = 5
    full: int = 500
    seed: int = 0


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

    @property
    def games(self) -> int:
        """Games soaked, passed or not."""
        return self.passed.games + len(self.failures)


def run_soak(
    names: Iterable[str],
    plan: SoakPlan,
    executor: Executor,
    on_game: Callable[[dict[str, Any]], None] = lambda line: None,
    notify: Notify = lambda message: None,
) -> Iterator[tuple[str, GameTally]]:
    """Soak each game in turn; yield its tally when its games are done."""
    for name in names:
        tally = GameTally()
        for _, line in executor.run(tasks(name, plan), partial(soak_one, plan), notify):
            outcome = json.loads(line)
            tally.cpu += outcome["cpu"]
            if outcome["ok"]:
                tally.passed.add(Report.from_json(outcome["report"]))
            else:
                tally.failures.append(outcome)
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
