"""Tuning a game's weights (the search evaluation's constants, or any the game declares tunable) with
Optuna, scored by the win share of a bot playing with the trial's weights against the same kind of bot
with the current ones, in a small seat-rotated tournament (TAG tunes with NTBEA; Optuna's TPE sampler
plays the same role here).

A weight is a module constant that a bot reads as it decides; :class:`Weighted` sets it only while its
own bot decides, so the two sides of a game play with different weights in one process.  Every trial
plays the same seeds (common random numbers), so trials differ by their weights, not by their luck.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ludorum
from ludorum.engine.provides import Tunable
from ludorum.lab.errors import LabError

CANDIDATE = "candidate"
"""The label of the bot that plays with a trial's weights (``kind:candidate``)."""


@contextmanager
def patched(tunables: Mapping[str, Tunable], weights: Mapping[str, float]) -> Iterator[None]:
    """Set each named weight's module constant for the duration of the block, then restore it."""
    saved: list[tuple[Tunable, Any]] = []
    try:
        for name, value in weights.items():
            t = tunables[name]
            saved.append((t, t.swap(value)))
        yield
    finally:
        for t, old in reversed(saved):
            t.swap(old)


class Weighted:
    """A bot that plays with other weights: every call into it runs with those weights set.

    It forwards any method (whatever the bot interface calls it), so it does not depend on that
    interface's names or signatures.
    """

    def __init__(self, bot: Any, tunables: Mapping[str, Tunable], weights: Mapping[str, float]) -> None:
        self._bot = bot
        self._tunables = tunables
        self._weights = dict(weights)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._bot, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            with patched(self._tunables, self._weights):
                return attr(*args, **kwargs)

        return call


def current(tunables: Mapping[str, Tunable]) -> dict[str, float]:
    """The values the weights have now (in the game's code)."""
    return {name: t.read() for name, t in tunables.items()}


@dataclass(frozen=True, slots=True)
class Tuned:
    """A tuning's outcome: the best weights found, their score and the settings that produced it."""

    game: str
    bot: str
    weights: dict[str, float]
    defaults: dict[str, float]
    score: float
    trials: int
    games_per_trial: int
    players: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The data file's content."""
        return {
            "format": 1,
            "ludorum": ludorum.__version__,
            "game": self.game,
            "bot": self.bot,
            "weights": self.weights,
            "defaults": self.defaults,
            "score": round(self.score, 4),
            "trials": self.trials,
            "games_per_trial": self.games_per_trial,
            "players": self.players,
            "seed": self.seed,
        }


def load_weights(path: Path, game: str, tunables: Mapping[str, Tunable]) -> dict[str, float]:
    """The weights of a tuned-weights file for ``game``, refusing one of another game or unknown weights."""
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise LabError(f"cannot read the weights file {path}: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("weights"), dict):
        raise LabError(f"{path} is not a tuned-weights file (it has no 'weights' object)")
    if data.get("game") != game:
        raise LabError(f"{path} holds weights for {data.get('game')!r}, not {game!r}")
    weights = data["weights"]
    unknown = [k for k in weights if k not in tunables]
    if unknown:
        raise LabError(f"{path}: no tunable weight {', '.join(map(repr, unknown))} in {game}")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in weights.values()):
        raise LabError(f"{path}: every weight is a number")
    return {k: float(v) for k, v in weights.items()}


def tune(
    trials: int,
    tunables: Mapping[str, Tunable],
    score: Callable[[dict[str, float], int], float],
    seed: int,
    on_trial: Callable[[int, dict[str, float], float], None] | None = None,
) -> tuple[dict[str, float], float]:
    """Search the weights for the highest ``score(weights, trial)``; the current weights are trial 0.

    Returns the best weights and their score.  Optuna's TPE sampler is seeded, so a tuning repeats.
    """
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.enqueue_trial(current(tunables))  # the baseline, so the search starts from the designed values

    def objective(trial: optuna.Trial) -> float:
        weights = {name: trial.suggest_float(name, t.low, t.high, log=t.log) for name, t in tunables.items()}
        value = score(weights, trial.number)
        if on_trial:
            on_trial(trial.number, weights, value)
        return value

    study.optimize(objective, n_trials=trials)
    return dict(study.best_params), float(study.best_value)
