"""Playing one scheduled game, in whichever process or machine runs it, into one results line."""

from __future__ import annotations

import json
from typing import Any

import ludorum
from ludorum.agents import play_game
from ludorum.agents.kinds import uncapped
from ludorum.games import registry
from ludorum.lab.facts import derive_facts
from ludorum.lab.schedule import GameTask, kind_of

LAB_KEY = "lab"
"""The key of the lab's block in a results line; records ignore keys they do not know."""


def _bot(game: Any, label: str, task: GameTask) -> Any:
    """The bot for a seat label: its kind, uncapped (a search level or a variant of one plays without its
    wall-clock cap, so the line depends on the task alone), with the weights the spec gives that label."""
    bot = uncapped(game, kind_of(label))
    weights = dict(task.spec.weights).get(label)
    if weights:
        from ludorum.lab.tuning import Weighted

        return Weighted(bot, game.provides.load_tunables(), dict(weights))
    return bot


def play_task(task: GameTask) -> str:
    """Play ``task`` and return its results line: the game's record plus the lab's block.

    The line depends only on the task, so every executor produces identical lines for one schedule.
    """
    game = registry().get(task.game)
    bots = [_bot(game, label, task) for label in task.bots]
    record = play_game(game, task.config, task.seed, bots).record
    data: dict[str, Any] = record.to_json()
    data[LAB_KEY] = {
        "version": ludorum.__version__,
        "run": task.spec.digest,
        "spec": task.spec.to_json(),
        "index": task.index,
        "bots": list(task.bots),
        "setup": dict(task.setup),
        "facts": derive_facts(game, record).to_json(),
    }
    return json.dumps(data, ensure_ascii=False)
