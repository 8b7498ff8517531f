"""Gymnasium: one Ludorum game as a single-agent environment, the other seats played by opponents.

``gymnasium.make("ludorum/Reliquium-v0", players=3, opponents="random")`` after ``import
ludorum.rl.gymnasium`` (or ``gymnasium.make("ludorum.rl.gymnasium:ludorum/Reliquium-v0")``, which imports
it).  The learner holds ``seat``: a seat number (default 0), ``"rotate"`` (seat 0, 1, … in turn, one per
episode) or ``"random"`` (drawn from the reset's seed); ``info["seat"]`` at reset says which.  The other
seats, in seat order, are the ``opponents``: one for all, or one per other seat, each a bot kind
(``"random"``, a game's own ``"heuristic"``, the search levels ``"easy"`` … ``"expert"`` or a variant of one
such as ``"easy/iterations=10"``) or any policy, a callable ``(observation, mask) -> action`` given its own
seat's observation vector and ``int8`` mask (self-play against past checkpoints of the learner, a league).
Bots decide from their information set only, and the search levels run without their wall-clock cap
(:func:`ludorum.agents.kinds.uncapped`): budgeted by iterations only, so that an episode replays exactly
from its seed whatever the machine's load.  Chance is resolved inside from the seed given to ``reset``.

Observation: the learner's ``float32`` vector (layout in docs/rl.md), read-only; ``info["action_mask"]`` and
:meth:`LudorumEnv.action_masks` (what sb3-contrib's ``MaskablePPO`` calls) give the legal actions, and
``action_space.sample()`` draws a legal one (:class:`~ludorum.rl.core.LegalDiscrete`).  A vector
environment (``gymnasium.make_vec``) batches the space into Gymnasium's own ``MultiDiscrete``, whose
``sample()`` ignores the masks: draw from the stacked ``info["action_mask"]`` with :func:`sample_masked`.
Reward: 1 when the game ends with the learner ranked first, else 0; ``truncated`` after ``max_steps``
learner decisions.  ``action_form="factored"`` takes actions as (kind, argument) pairs instead,
``MultiDiscrete([K, A])`` (:mod:`ludorum.rl.factored`), and adds ``info["kind_mask"]`` (``K``) and
``info["argument_mask"]`` (``K × A``).  ``render_mode``: ``"ansi"``, ``"rgb_array"`` or ``"human"``
(:mod:`ludorum.rl.render`), the table as the learner's seat sees it.

Bad input raises Gymnasium's errors: ``InvalidAction`` for an index outside the action space,
``ResetNeeded`` for a step after the end; an unknown game, player count, seat or opponent is a
``ConfigError`` (a ``ValueError``), an opponent policy's illegal action a ``ValueError``.  An index inside
the space but outside the mask is, by Gymnasium's convention, an action the environment must take (its
``check_env`` steps with any action of the space): by default the learner forfeits — the episode ends with
reward -1 and ``info["illegal_action"]`` — and with ``illegal_action="raise"`` it is an ``InvalidAction``
naming the legal indices.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import error, spaces

from ludorum.agents.kinds import is_experiment_kind, make_bot, uncapped
from ludorum.engine import Action, ConfigError, Game
from ludorum.engine.bots import Bot
from ludorum.engine.information import InformationSet
from ludorum.games import registry
from ludorum.rl.core import OBS_HIGH, OBS_LOW, LegalDiscrete, Table, check_limit, masked_out
from ludorum.rl.factored import FactoredActions
from ludorum.rl.render import RENDER_MODES, Renderer

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""An opponent policy: ``(its observation vector, its int8 mask) -> action index``."""
Opponent = str | Policy
"""A bot kind or a policy."""
SEAT_MODES = ("rotate", "random")
"""The learner's seat when it changes per episode (besides a fixed seat number)."""


def check_opponents(
    game: Game[Any], players: int, opponents: Opponent | Sequence[Opponent]
) -> list[Opponent]:
    """One opponent per other seat, each a known bot kind or a callable; anything else is a
    ``ConfigError`` naming what is wrong."""
    given = [opponents] * (players - 1) if isinstance(opponents, str) or callable(opponents) else opponents
    out = list(given)
    if len(out) != players - 1:
        raise ConfigError(f"name one opponent, or one for each of the {players - 1} other seats")
    for o in out:
        if isinstance(o, str):
            if not is_experiment_kind(game, o):
                make_bot(game, o)  # the refusal lists the known kinds
        elif not callable(o):
            raise ConfigError(
                f"an opponent is a bot kind or a callable (observation, mask) -> action, not {o!r}"
            )
    return out


def sample_masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of ``masks`` (``num_envs × N``, a vector environment's stacked
    ``info["action_mask"]``), drawn uniformly among the row's legal ones; a row with none (a sub-environment
    being reset, whose action is ignored) gives 0.  An ``int64`` array of ``num_envs`` actions."""
    m = np.asarray(masks)
    if m.ndim != 2:
        raise ValueError(
            f"masks must be a num_envs × N array of stacked action masks, not of shape {m.shape}"
        )
    keys = rng.random(m.shape)
    keys[m == 0] = -1.0  # the largest key of a row is one of its legal actions, each as likely
    return np.asarray(keys.argmax(axis=1), np.int64)


class LegalPairs(spaces.MultiDiscrete):
    """``MultiDiscrete([K, A])`` of (kind, argument) pairs whose ``sample()`` without a mask draws a legal
    pair (as :class:`~ludorum.rl.core.LegalDiscrete` does for the flat form); ``contains`` also refuses an
    argument past its kind's own count."""

    def __init__(self, factored: FactoredActions, legal: Callable[[], np.ndarray | None]) -> None:
        super().__init__(factored.nvec)
        self._factored = factored
        self._legal_mask = legal

    def contains(self, x: Any) -> bool:
        """A pair in the box whose argument its kind has."""
        if not super().contains(x):
            return False
        return bool(int(x[1]) < self._factored.sizes[int(x[0])])

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        """A legal pair (or, given ``mask``/``probability``, as ``MultiDiscrete.sample``)."""
        current = self._legal_mask() if mask is None and probability is None else None
        if current is None or not current.any():
            return super().sample(mask=mask, probability=probability)
        legal = np.flatnonzero(current)
        index = int(legal[self.np_random.integers(len(legal))])
        return np.array(self._factored.split(index), self.dtype)


class LudorumEnv(gymnasium.Env):
    """A single-agent view of one game: the learner's seat against bots or policies."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        variants: Iterable[str] = (),
        seat: int | str = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "forfeit",
        action_form: str = "flat",
        **options: Any,
    ) -> None:
        if illegal_action not in ("forfeit", "raise"):
            raise ValueError(f"illegal_action is 'forfeit' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        if action_form not in ("flat", "factored"):
            raise ValueError(f"action_form is 'flat' or 'factored', not {action_form!r}")
        self._renderer = Renderer(render_mode)
        check_limit("max_steps", max_steps, "steps")
        self.table = Table(game, players, variants, **options)
        n = self.table.players
        if not (seat in SEAT_MODES or (type(seat) is int and 0 <= seat < n)):
            raise ConfigError(f"the learner's seat is 0…{n - 1}, 'rotate' or 'random', not {seat!r}")
        self.opponents = check_opponents(self.table.game, n, opponents)
        self.seat_mode = seat
        self.seat = 0 if isinstance(seat, str) else seat
        """The learner's seat in the current episode."""
        self._episodes = 0
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, (self.table.obs_size,), np.float32)
        self.factored = FactoredActions(self.table.actions) if action_form == "factored" else None
        """With ``action_form="factored"``: the (kind, argument) form of the actions."""
        self.action_space: spaces.Space[Any] = (
            LegalDiscrete(self.table.n_actions, self._current_mask)
            if self.factored is None
            else LegalPairs(self.factored, self._current_mask)
        )
        self.game_state: Any = None
        """The Ludorum state of the game being played (``None`` before ``reset``)."""
        self._bots: dict[int, Bot] = {}
        self._policies: dict[int, Policy] = {}
        self._legal: dict[int, Action] = {}
        self._rng = random.Random(0)
        self._steps = 0
        self._done = True

    # -- Gymnasium's API ------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new game; ``seed`` fixes the deal, chance, the bots' choices and a ``"random"`` seat."""
        super().reset(seed=seed)
        t = self.table
        game_seed = int(self.np_random.integers(0, 2**62))
        self._rng = random.Random(int(self.np_random.integers(0, 2**62)))
        if self.seat_mode == "rotate":
            self.seat = self._episodes % t.players
        elif self.seat_mode == "random":
            self.seat = int(self.np_random.integers(t.players))
        self._episodes += 1
        others = [s for s in range(t.players) if s != self.seat]
        given = list(zip(others, self.opponents, strict=True))
        self._bots = {s: uncapped(t.game, o) for s, o in given if isinstance(o, str)}
        self._policies = {s: o for s, o in given if not isinstance(o, str)}
        self.game_state = t.game.new(t.config, game_seed)
        self._steps = 0
        self._done = False
        self._advance()
        if self._done:  # the opponents ended it before the learner's first decision (possible in principle)
            return self._obs(), {**self._masks(np.zeros(t.n_actions, np.int8)), "seat": self.seat}
        return self._obs(), {**self._masks(t.mask(self._legal)), "seat": self.seat}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; the opponents and chance play until its next decision or the end."""
        if self._done:
            raise error.ResetNeeded("the episode is over: call reset() before step()")
        if not self.action_space.contains(action):
            raise error.InvalidAction(f"action {action!r} is not in the action space {self.action_space}")
        if self.factored is not None:
            action = self.factored.join(int(action[0]), int(action[1]))
        a = self._legal.get(int(action))
        if a is None and self.illegal_action == "forfeit":
            self._done = True
            mask = np.zeros(self.table.n_actions, np.int8)
            return self._obs(), -1.0, True, False, {**self._masks(mask), "illegal_action": True}
        if a is None:
            raise error.InvalidAction(masked_out(action, self._legal))
        t = self.table
        self.game_state = t.game.apply(self.game_state, a)
        self._steps += 1
        self._advance()
        info = self._masks(np.zeros(t.n_actions, np.int8) if self._done else t.mask(self._legal))
        if t.game.is_over(self.game_state):
            reward = t.utilities(self.game_state)[self.seat]
            return self._obs(), reward, True, False, info
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        self._done = truncated
        return self._obs(), 0.0, False, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` asks for this)."""
        return self.table.mask(self._legal).astype(bool)

    def render(self) -> str | np.ndarray | None:
        """The table as the learner's seat sees it: text (``"ansi"``), a picture (``"rgb_array"``) or shown
        (``"human"``, returning ``None``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(f"render() called without a render_mode; pass one of {list(RENDER_MODES)}")
            return None
        return self._renderer.render(self.table.game.render_text(self.game_state, self.seat))

    def close(self) -> None:
        """Close the ``"human"`` window, if one was shown."""
        self._renderer.close()

    # -- inside -------------------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Resolve chance and let the opponents move until the learner decides or the game ends."""
        t = self.table
        game = t.game
        while True:
            self.game_state, seat = t.advance(self.game_state)
            if seat is None:
                self._done = True
                self._legal = {}
                return
            if seat == self.seat:
                self._legal = t.legal(self.game_state)
                return
            self.game_state = game.apply(self.game_state, self._opponent_move(seat))

    def _opponent_move(self, seat: int) -> Action:
        """The move of the opponent at ``seat``: a bot's from its information set, a policy's from its own
        observation and mask."""
        t = self.table
        bot = self._bots.get(seat)
        if bot is not None:
            return bot.decide(InformationSet(t.game, self.game_state, seat), self._rng)
        policy = self._policies[seat]
        legal = t.legal(self.game_state)
        index = policy(t.observe(self.game_state, seat), t.read_only_mask(legal))
        move = legal.get(int(index)) if type(index) is int or isinstance(index, np.integer) else None
        if move is None:
            raise ValueError(masked_out(index, legal, f"the opponent at seat {seat}"))
        return move

    def _masks(self, mask: np.ndarray) -> dict[str, np.ndarray]:
        """The info's masks: the flat one, and in the factored form the kind and argument masks."""
        if self.factored is None:
            return {"action_mask": mask}
        kinds, arguments = self.factored.masks(mask)
        return {"action_mask": mask, "kind_mask": kinds, "argument_mask": arguments}

    def _current_mask(self) -> np.ndarray | None:
        return None if self._done else self.table.mask(self._legal)

    def _obs(self) -> np.ndarray:
        return self.table.observe(self.game_state, self.seat)


def env_id(game: str) -> str:
    """The registered id of a game: ``ludorum/Reliquium-v0``, ``ludorum/MedievalRealms-v0``, …"""
    return "ludorum/" + "".join(w.capitalize() for w in game.replace("_", "-").split("-")) + "-v0"


def register_all() -> list[str]:
    """Register every game with Gymnasium (idempotent); return the ids."""
    ids = []
    for game in registry():
        gid = env_id(game.name)
        if gid not in gymnasium.registry:
            gymnasium.register(
                id=gid, entry_point="ludorum.rl.gymnasium:LudorumEnv", kwargs={"game": game.name}
            )
        ids.append(gid)
    return ids


IDS = register_all()
"""The ids registered on import."""
