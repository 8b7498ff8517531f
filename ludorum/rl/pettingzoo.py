"""PettingZoo: every Ludorum game as an AEC environment (``env("reliquium", players=3)``).

Agents are ``player_0`` … ``player_{n-1}`` (seat order).  Each observation is the dict of PettingZoo's
classic games, ``{"observation": ..., "action_mask": ...}``: the seat's ``float32`` vector (layout in
docs/rl.md) and its ``int8`` mask over ``Discrete(N)`` (all zeros unless it decides now); the deciding
agent's ``info["action_mask"]`` is the same mask.  With ``mask_in_observation=False`` the observation is the
vector alone (the mask only in ``info``).  Everything handed out is read-only: numpy refuses a write.
``state()`` is the global observation for centralised critics: every seat's vector side by side
(``state_space``).
Chance (dice, the deal) is resolved inside the environment from the seed given to ``reset``.  Rewards are
terminal: 1 to every seat ranked first, 0 to the others.  ``max_cycles`` truncates a game after that many
decisions per seat on average (``max_cycles × players`` steps).  ``render_mode`` is ``"ansi"``,
``"rgb_array"`` or ``"human"`` (:mod:`ludorum.rl.render`).

Bad input raises as PettingZoo's classic games do: an index outside the mask is a ``ValueError``
naming the legal ones, an unknown game or player count a ``ConfigError`` (a ``ValueError``), stepping a
finished environment (no agents left) a ``RuntimeError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ludorum.rl.core import OBS_HIGH, OBS_LOW, LegalDiscrete, Table, check_limit, masked_out
from ludorum.rl.render import RENDER_MODES, Renderer


class LudorumAEC(AECEnv):  # type: ignore[misc]
    """One Ludorum game as a PettingZoo AEC environment (turn-based: one agent acts at a time)."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "ludorum_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        variants: Iterable[str] = (),
        render_mode: str | None = None,
        max_cycles: int | None = None,
        mask_in_observation: bool = True,
        **options: Any,
    ) -> None:
        super().__init__()
        self._renderer = Renderer(render_mode)
        check_limit("max_cycles", max_cycles, "cycles")
        self.table = Table(game, players, variants, **options)
        self.metadata = {**self.metadata, "name": f"ludorum_{self.table.game.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.mask_in_observation = mask_in_observation
        vector = gymnasium.spaces.Box(OBS_LOW, OBS_HIGH, (self.table.obs_size,), np.float32)
        obs_space: gymnasium.spaces.Space = vector  # type: ignore[type-arg]
        if mask_in_observation:
            mask = gymnasium.spaces.Box(0, 1, (self.table.n_actions,), np.int8)
            obs_space = gymnasium.spaces.Dict({"observation": vector, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {
            a: LegalDiscrete(self.table.n_actions, self._mask_now(a)) for a in self.possible_agents
        }
        self.state_space = gymnasium.spaces.Box(OBS_LOW, OBS_HIGH, (n * self.table.obs_size,), np.float32)
        self.game_state: Any = None
        """The Ludorum state of the game being played (``None`` before ``reset``)."""
        self._np_random: np.random.Generator | None = None
        self._legal: dict[int, Any] = {}
        self._steps = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:  # type: ignore[type-arg]
        """The same space for every agent: ``Dict`` of the vector and the mask, or the vector's ``Box``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:  # type: ignore[type-arg]
        """``Discrete(N)``: the game's action numbering (docs/rl.md).  Its ``sample()`` without a mask
        draws among the agent's legal actions when it decides (:class:`~ludorum.rl.core.LegalDiscrete`)."""
        return self.action_spaces[agent]

    def _mask_now(self, agent: str) -> Callable[[], np.ndarray | None]:
        def mask() -> np.ndarray | None:
            info = self.infos.get(agent, {}) if self.game_state is not None else {}
            return info.get("action_mask")

        return mask

    # -- the AEC protocol -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes the deal and every chance decision."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**62))
        t = self.table
        self.game_state, seat = t.advance(t.game.new(t.config, game_seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        assert seat is not None, "a game cannot be over before its first decision"
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        """Point ``agent_selection`` at ``seat``, to decide now, and list its legal actions.

        Only the deciding agent's info holds anything (its mask), so only the previous one is cleared.
        """
        t = self.table
        previous = getattr(self, "agent_selection", None)
        if previous in self.infos:
            self.infos[previous] = {}
        agent = self.agent_selection = self.possible_agents[seat]
        self._legal = t.legal(self.game_state)
        self.infos[agent] = {"action_mask": t.read_only_mask(self._legal)}

    def observe(self, agent: str) -> Any:
        """The agent's observation: a dict of its vector and its action mask (all zeros unless it decides
        now), or the vector alone with ``mask_in_observation=False``.  Read-only arrays."""
        t = self.table
        seat = self.agent_name_mapping[agent]
        obs = t.observe(self.game_state, seat)
        if not self.mask_in_observation:
            return obs
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask = self.infos[agent]["action_mask"]
        else:
            mask = t.no_actions
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global observation (``state_space``): every seat's vector side by side, seat 0 first — all
        that the seats see between them, for a centralised critic; not what no seat sees (a deck's
        order).  Read-only."""
        if self.game_state is None:
            raise RuntimeError("state() is defined once the game has started: call reset() first")
        return self.table.global_observation(self.game_state)

    def step(self, action: int | None) -> None:
        """The selected agent plays action ``action`` (``None`` once it is done, as PettingZoo asks)."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        if type(action) is not int and not isinstance(action, np.integer):  # int() would take "3" or 1.5
            raise ValueError(
                f"action {action!r} is not in the action space Discrete({self.table.n_actions}): "
                "an action is an int index"
            )
        a = self._legal.get(int(action))
        if a is None:
            raise ValueError(masked_out(action, self._legal, agent))
        t = self.table
        self.game_state, seat = t.advance(t.game.apply(self.game_state, a))
        self._steps += 1
        # Rewards are terminal: until the end every reward and cumulative reward stays 0, so a step in
        # the middle of a game has no reward bookkeeping to do.
        if seat is None:
            self._cumulative_rewards[agent] = 0.0
            for a_, u in zip(self.agents, t.utilities(self.game_state), strict=True):
                self.rewards[a_] = u
                self.terminations[a_] = True
                self.infos[a_] = {}
            self._accumulate_rewards()
            return
        if self.max_cycles is not None and self._steps >= self.max_cycles * len(self.possible_agents):
            for a_ in self.agents:
                self.truncations[a_] = True
                self.infos[a_] = {}
            return
        self._next_turn(seat)

    def render(self) -> str | np.ndarray | None:
        """The table as a spectator sees it: text (``"ansi"``), a picture (``"rgb_array"``, ``H×W×3``
        ``uint8``) or shown (``"human"``, returning ``None``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(f"render() called without a render_mode; pass one of {list(RENDER_MODES)}")
            return None
        return self._renderer.render(self.table.game.render_text(self.game_state, None))

    def close(self) -> None:
        """Close the ``"human"`` window, if one was shown."""
        self._renderer.close()


def raw_env(game: str, players: int | None = None, variants: Iterable[str] = (), **kwargs: Any) -> LudorumAEC:
    """The environment without PettingZoo's wrappers."""
    return LudorumAEC(game, players, variants, **kwargs)


_BEFORE_RESET = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents")
)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcement, except that stepping a finished game is an error, not a warning.

    The same checks as PettingZoo's wrapper, but the calls of every step (``agent_iter``, ``last``,
    ``step``) go straight to the environment: the wrapper's inherited versions read each attribute
    through ``__getattr__``, which cost more than the game's own move.
    """

    def __getattr__(self, name: str) -> Any:
        """The environment's attribute (the state ones only after ``reset``; no private ones)."""
        if name.startswith("_") and name != "_cumulative_rewards":
            raise AttributeError(f"accessing private attribute '{name}' is prohibited")
        if name in _BEFORE_RESET and not self.__dict__.get("_has_reset"):
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def step(self, action: Any) -> None:
        """Refuse a step before ``reset`` (PettingZoo's error) and once every agent is done (PettingZoo's
        wrapper would only warn)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.env.agents:
            raise RuntimeError("the game is over: call reset() before step()")
        self._has_updated = True
        self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and info."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """The agents in turn, until every one is done (``step`` must be called between two)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIter(self, max_iter)


class _AgentIter(wrappers.order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection  # type: ignore[no-any-return]


def env(game: str, players: int | None = None, variants: Iterable[str] = (), **kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's classic games ship it: order enforced (stepping before ``reset``
    or reading an undefined attribute is a clear error)."""
    return _OrderEnforcing(raw_env(game, players, variants, **kwargs))
