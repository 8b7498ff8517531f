"""Gymnasium: every game passes Gymnasium's own ``check_env``; the learner plays against bots."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ludorum.engine import ConfigError
from ludorum.rl.gymnasium import IDS, LudorumEnv, env_id
from tests.rl.helpers import game_configs


@pytest.mark.parametrize(("name", "players"), game_configs())
def test_check_env_passes(name: str, players: int) -> None:
    """Gymnasium's environment checker passes, without warnings, for every game and player count."""
    env = gymnasium.make(env_id(name), players=players, render_mode="ansi", max_steps=50)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_registered_ids() -> None:
    """Each game has an id; ``make`` builds the env with its arguments."""
    assert set(IDS) == {"ludorum/Reliquium-v0", "ludorum/MedievalRealms-v0", "ludorum/Signum-v0"}
    env = gymnasium.make("ludorum/Reliquium-v0", players=3, variants=["allies"])
    assert isinstance(env.unwrapped, LudorumEnv) and env.unwrapped.table.config.players == 3


@pytest.mark.parametrize("opponents", ["random", "heuristic", "easy"])
def test_a_game_against_bots_to_the_end(opponents: str) -> None:
    """The learner plays random legal actions against bots of each kind until the game ends: the reward
    is 1 for a first place and 0 otherwise, then stepping needs a reset."""
    env = LudorumEnv("reliquium", players=2, opponents=opponents, rounds=2)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        assert env.observation_space.contains(obs)
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
    assert terminated and reward in (0.0, 1.0)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_bad_input_is_refused_clearly() -> None:
    """Outside the space: ``InvalidAction``; masked out: a forfeit (-1, the end) or, when asked, an
    ``InvalidAction`` naming the legal indices; bad configs are ``ConfigError``s."""
    env = LudorumEnv("medieval-realms", players=3)
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for wrong in (env.table.n_actions, 0.5, "0"):
        with pytest.raises(gymnasium.error.InvalidAction, match="not in the action space"):
            env.step(wrong)
    with pytest.raises(ValueError, match="max_steps is a positive number of steps"):
        LudorumEnv("medieval-realms", max_steps=0)
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    strict = LudorumEnv("medieval-realms", players=3, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(gymnasium.error.InvalidAction, match="not legal"):
        strict.step(bad)
    with pytest.raises(ConfigError, match="no game called"):
        LudorumEnv("go")
    with pytest.raises(ConfigError, match="players"):
        LudorumEnv("signum", players=9)
    with pytest.raises(ConfigError, match="no bot kind"):
        LudorumEnv("signum", opponents="grandmaster")
    with pytest.raises(ConfigError, match="seat"):
        LudorumEnv("signum", seat=5)
