"""Gymnasium: one Ludorum game as a single-agent environment, the other seats played by Ludorum bots.

``gymnasium.make("ludorum/Reliquium-v0", players=3, opponents="random")`` after ``import
ludorum.rl.gymnasium`` (or ``gymnasium.make("ludorum.rl.gymnasium:ludorum/Reliquium-v0")``, which imports
it).  The learner holds ``seat`` (default 0); every other seat is a bot of the kind named in ``opponents``
(one kind, or one per other seat: ``"random"``, a game's own ``"heuristic"``, the search levels
``"easy"`` … ``"expert"``), deciding from its information set only.  Chance is resolved inside from the
seed given to ``reset``.

Observation: the learner's ``float32`` vector (layout in docs/rl.md); ``info["action_mask"]`` and
:meth:`LudorumEnv.action_masks` (what sb3-contrib's ``MaskablePPO`` calls) give the legal actions, and
``action_space.sample()`` draws a legal one (:class:`LegalDiscrete`).  Reward:
1 when the game ends with the learner ranked first, else 0; ``truncated`` after ``max_steps`` learner
decisions.

Bad input raises Gymnasium's errors: ``InvalidAction`` for an index outside the action space,
``ResetNeeded`` for a step after the end; an unknown game or player count is a ``ConfigError`` (a
``ValueError``).  An index inside the space but outside the mask is, by Gymnasium's convention, an action
the environment must take (its ``check_env`` steps with any action of the space): by default the learner
forfeits — the episode ends with reward -1 and ``info["illegal_action"]`` — and with
``illegal_action="raise"`` it is an ``InvalidAction`` naming the legal indices.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import error, spaces

from ludorum.agents import make_bot
from ludorum.engine import Action, ConfigError
from ludorum.engine.bots import Bot
from ludorum.engine.information import InformationSet
from ludorum.games import registry
from ludorum.rl.core import OBS_HIGH, OBS_LOW, Table, check_limit, check_render_mode, masked_out


class LegalDiscrete(spaces.Discrete):
    """``Discrete(N)`` whose ``sample()`` without a mask draws among the actions legal now.

    Every index is in the space (``contains``), but a uniformly drawn one is almost never legal in a game
    with thousands of actions: sampling the legal ones by default is what a random agent — and
    Gymnasium's own ``check_env``, which steps with ``action_space.sample()`` — needs.
    """

    def __init__(self, n: int, legal: Any) -> None:
        super().__init__(n)
        self._legal_mask = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A legal action (or one allowed by ``mask``/``probability``, as ``Discrete.sample``)."""
        if mask is None and probability is None:
            current = self._legal_mask()
            if current is not None and current.any():
                mask = current
        return super().sample(mask=mask, probability=probability)


class LudorumEnv(gymnasium.Env):
    """A single-agent view of one game: the learner's seat against bots."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        variants: Iterable[str] = (),
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "forfeit",
        **options: Any,
    ) -> None:
        if illegal_action not in ("forfeit", "raise"):
            raise ValueError(f"illegal_action is 'forfeit' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        check_render_mode(render_mode)
        check_limit("max_steps", max_steps, "steps")
        self.table = Table(game, players, variants, **options)
        n = self.table.players
        if not 0 <= seat < n:
            raise ConfigError(f"the learner's seat must be 0…{n - 1}, not {seat}")
        kinds = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != n - 1:
            raise ConfigError(f"name one opponent kind, or one for each of the {n - 1} other seats")
        for k in kinds:
            make_bot(self.table.game, k)  # refuses an unknown kind now, listing the known ones
        self.opponent_kinds = kinds
        self.seat = seat
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, (self.table.obs_size,), np.float32)
        self.action_space = LegalDiscrete(self.table.n_actions, self._current_mask)
        self.state: Any = None
        self._bots: dict[int, Bot] = {}
        self._legal: dict[int, Action] = {}
        self._rng = random.Random(0)
        self._steps = 0
        self._done = True

    # -- Gymnasium's API ------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new game; ``seed`` fixes the deal, chance and the bots' choices."""
        super().reset(seed=seed)
        t = self.table
        game_seed = int(self.np_random.integers(0, 2**62))
        self._rng = random.Random(int(self.np_random.integers(0, 2**62)))
        others = [s for s in range(t.players) if s != self.seat]
        self._bots = {s: make_bot(t.game, k) for s, k in zip(others, self.opponent_kinds, strict=True)}
        self.state = t.game.new(t.config, game_seed)
        self._steps = 0
        self._done = False
        self._advance()
        if self._done:  # the bots ended it before the learner's first decision (possible in principle)
            return self._obs(), {"action_mask": np.zeros(t.n_actions, np.int8)}
        return self._obs(), {"action_mask": t.mask(self._legal)}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; the bots and chance play until its next decision or the end."""
        if self._done:
            raise error.ResetNeeded("the episode is over: call reset() before step()")
        if not self.action_space.contains(action):
            raise error.InvalidAction(
                f"action {action!r} is not in the action space Discrete({self.table.n_actions})"
            )
        a = self._legal.get(int(action))
        if a is None and self.illegal_action == "forfeit":
            self._done = True
            mask = np.zeros(self.table.n_actions, np.int8)
            return self._obs(), -1.0, True, False, {"action_mask": mask, "illegal_action": True}
        if a is None:
            raise error.InvalidAction(masked_out(action, self._legal))
        t = self.table
        self.state = t.game.apply(self.state, a)
        self._steps += 1
        self._advance()
        mask = np.zeros(t.n_actions, np.int8) if self._done else t.mask(self._legal)
        if t.game.is_over(self.state):
            reward = t.utilities(self.state)[self.seat]
            return self._obs(), reward, True, False, {"action_mask": mask}
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        self._done = truncated
        return self._obs(), 0.0, False, truncated, {"action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` asks for this)."""
        return self.table.mask(self._legal).astype(bool)

    def render(self) -> str | None:
        """``render_mode="ansi"``: the table as the terminal shows it to the learner's seat."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return self.table.game.render_text(self.state, self.seat)

    # -- inside -------------------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Resolve chance and let the bots move until the learner decides or the game ends."""
        t = self.table
        game = t.game
        while True:
            self.state, seat = t.advance(self.state)
            if seat is None:
                self._done = True
                self._legal = {}
                return
            if seat == self.seat:
                self._legal = t.legal(self.state)
                return
            bot = self._bots[seat]
            self.state = game.apply(self.state, bot.decide(InformationSet(game, self.state, seat), self._rng))

    def _current_mask(self) -> np.ndarray | None:
        return None if self._done else self.table.mask(self._legal)

    def _obs(self) -> np.ndarray:
        return self.table.observe(self.state, self.seat)


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
