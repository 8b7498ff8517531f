"""Rewards and rollouts: how a search scores a position it will not expand further.

A finished game gives every seat its share of the win (``Result.shares``: 1 to a sole winner, 1/k to
each of k tied winners, 0 to the rest).  Otherwise a rollout plays on with a pluggable policy for at
most ``depth`` decisions and, if the game has not ended, asks the game's
:class:`~ludorum.engine.evaluation.Evaluation` for a value per seat (with no evaluation it plays to the
end).  Chance is always drawn from the search's own generator with the game's probabilities, never from
the state's generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ludorum.engine import CANCEL, CHANCE, Action, Game
from ludorum.engine.bots import Bot
from ludorum.engine.game import uniform_action
from ludorum.engine.information import InformationSet

Policy = Callable[[Any, Sequence[Action], random.Random], Action]
"""A rollout policy: (state, legal actions, generator) → the action to play."""

Guide = Callable[[Any, Sequence[Action], random.Random], Action | None]
"""A tree guide: (state, searchable actions, generator) → the action a heuristic would play there, whose
child the search then favours (progressive bias), or ``None``."""


def searchable(legal: Sequence[Action]) -> list[Action]:
    """The actions search considers: all but CANCEL (backing out of a compound decision only undoes
    what search chose; the tree already weighs each step of the chain), unless nothing else is left."""
    out = [a for a in legal if a != CANCEL]
    return out or list(legal)


def sample_outcome(game: Game[Any], state: Any, rng: random.Random) -> Action:
    """A chance outcome drawn with the game's probabilities from the search's generator."""
    outcomes = game.chance_outcomes(state)
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def random_policy(state: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random action, never CANCEL when anything else is possible (a rollout asks the game's
    :meth:`~ludorum.engine.Game.random_action` instead, which draws from the same distribution)."""
    return uniform_action(legal, rng)


def bot_policy(game: Game[Any], bot: Bot, epsilon: float = 0.0) -> Policy:
    """A rollout policy from a bot (the game's heuristic): it decides from the rollout state's
    information set for the seat to move, as it would in a real game (views cost time: slow).  With
    probability ``epsilon`` it plays a random action instead (rollouts then see more than one line)."""

    def policy(state: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        if epsilon and rng.random() < epsilon:
            return random_policy(state, legal, rng)
        a = bot.decide(InformationSet(game, state, game.to_move(state)), rng)
        return random_policy(state, legal, rng) if a == CANCEL and len(legal) > 1 else a

    return policy


def make_policy(game: Game[Any], name: str, epsilon: float = 0.0) -> Policy:
    """The rollout policy called ``name``: ``random``, ``game`` (the game's fast policy from its
    evaluation, else random) or the name of one of the game's bot kinds (``heuristic``, played
    epsilon-greedily with ``epsilon``)."""
    if name == "random":
        return random_policy
    if name == "game":
        ev = game.evaluation()
        return ev.policy if ev is not None and ev.policy is not None else random_policy
    bots = dict(game.bots())
    if name in bots:
        return bot_policy(game, bots[name](), epsilon)
    raise ValueError(f"no rollout policy {name!r} for {game.title}: random, game or {', '.join(bots)}")


def make_value(game: Game[Any], name: str) -> Callable[[Any], Sequence[float]] | None:
    """The estimate called ``name`` that scores a rollout's last position: ``""`` the game's own
    (``Evaluation.value``; ``None`` for a game without an evaluation, whose rollouts play to the end),
    or one of the others its evaluation offers (``Evaluation.values``)."""
    ev = game.evaluation()
    if not name:
        return ev.value if ev is not None else None
    values = dict(ev.values) if ev is not None else {}
    if name not in values:
        known = ", ".join(values) or "none"
        raise ValueError(f"no value {name!r} for {game.title}; its named values are: {known}")
    return values[name]


def make_guide(game: Game[Any], name: str) -> Guide | None:
    """The tree guide called ``name``: none (``""``), ``game`` (the bot its evaluation offers as a guide,
    ``Evaluation.guide``), ``game:<name>`` (one of ``Evaluation.guides``) or one of the game's bot
    kinds, asked at every new decision node what it would play there (from that seat's information set
    in the searched state).  A game without that bot is searched unguided: the levels name a guide for
    every game."""
    ev = game.evaluation()
    bots: dict[str, Callable[[], Bot]] = dict(game.bots())
    if ev is not None:
        if ev.guide is not None:
            bots["game"] = ev.guide
        bots.update((f"game:{k}", g) for k, g in ev.guides.items())
    if not name or name not in bots:
        return None
    bot = bots[name]()

    def guide(state: Any, legal: Sequence[Action], rng: random.Random) -> Action | None:
        a = bot.decide(InformationSet(game, state, game.to_move(state)), rng)
        return a if a in legal else None

    return guide


def rollout(
    game: Game[Any],
    state: Any,
    policy: Policy,
    depth: int | None,
    value: Callable[[Any], Sequence[float]] | None,
    rng: random.Random,
) -> Sequence[float]:
    """Play on from ``state`` for at most ``depth`` decisions (``None``: to the end); the rewards."""
    steps = 0
    limit = depth if depth is not None and value is not None else game.max_decisions(state.config)
    while not game.is_over(state):
        if steps >= limit:
            if value is None:  # a runaway game without an evaluation: nobody is ahead
                n: int = state.config.players
                return (1.0 / n,) * n
            return value(state)
        if game.to_move(state) == CHANCE:
            state = game.apply_chance(state, sample_outcome(game, state, rng))
        elif policy is random_policy:  # the game may draw it without listing every legal action
            state = game.apply(state, game.random_action(state, rng))
        else:
            state = game.apply(state, policy(state, game.legal_actions(state), rng))
        steps += 1
    return game.result(state).shares
