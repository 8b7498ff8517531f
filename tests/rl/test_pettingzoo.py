"""PettingZoo: every game at every player count passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ludorum.engine import ConfigError
from ludorum.rl import pettingzoo as lpz
from tests.rl.helpers import game_configs


@pytest.mark.parametrize(("name", "players"), game_configs())
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    """``api_test`` and ``seed_test`` pass without a single warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(lpz.env(name, players=players, render_mode="ansi"), num_cycles=60)
        seed_test(lambda: lpz.env(name, players=players), num_cycles=60)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("name", ["reliquium", "signum"])
def test_variants_and_dict_observations(name: str) -> None:
    """Variants load; the classic dict observation carries the mask of the deciding agent only."""
    variants = {"reliquium": ("allies", "militia", "single-march"), "signum": ("teams",)}[name]
    env = lpz.env(name, players=4, variants=variants, mask_in_observation=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=30)
    # PettingZoo names the classic games whose observations may be dicts; any other env is warned.
    expected = ("Observation is not a NumPy array", "Observation space for each agent probably should be")
    assert all(str(w.message).startswith(expected) for w in caught)
    env.reset(seed=3)
    assert isinstance(env.observation_space(env.agent_selection), gymnasium.spaces.Dict)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"].any()
    others = [a for a in env.agents if a != env.agent_selection]
    assert not env.observe(others[0])["action_mask"].any()


def test_a_whole_game_ends_with_terminal_rewards() -> None:
    """Played to the end, every agent is terminated once, with 1 for first place and 0 otherwise."""
    env = lpz.env("reliquium", players=3, rounds=2)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    finals = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, info = env.last()
        if term or trunc:
            finals[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert set(finals) == set(env.possible_agents)
    assert set(finals.values()) <= {0.0, 1.0} and 1.0 in finals.values()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_max_cycles_truncates() -> None:
    """With ``max_cycles`` every agent is truncated after that many decisions per seat."""
    env = lpz.env("medieval-realms", players=2, max_cycles=5)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        _, _, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
    assert steps == 10


def test_bad_input_is_refused_clearly() -> None:
    """A masked-out index, an unknown game or player count, acting before reset: clear errors."""
    env = lpz.env("reliquium", players=2)
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)  # PettingZoo's order enforcement: reset first
    env.reset(seed=0)
    mask = env.last()[4]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    good = int(np.flatnonzero(mask)[0])
    for wrong in (good + 0.5, float(good), str(good)):  # not an index, though int() would take each
        with pytest.raises(ValueError, match="not in the action space Discrete"):
            env.step(wrong)
    env.step(np.int64(good))  # numpy's integers are indices
    with pytest.raises(ValueError, match="max_cycles is a positive number of cycles"):
        lpz.env("reliquium", max_cycles=0)
    with pytest.raises(ConfigError, match="no game called"):
        lpz.env("chess")
    with pytest.raises(ConfigError, match="2–4 players"):
        lpz.env("reliquium", players=7)


def test_masks_are_read_only() -> None:
    """An agent may keep a mask (it is never changed under it) but not write into it: the same list of
    legal actions shares one mask, so a write would change another step's."""
    env = lpz.env("medieval-realms", players=2)
    env.reset(seed=0)
    for _ in range(6):
        mask = env.last(observe=False)[4]["action_mask"]
        assert mask.dtype == np.int8 and not mask.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            mask[0] = 1
        env.step(int(np.flatnonzero(mask)[0]))


def test_render_ansi_is_the_terminal_view() -> None:
    """``render()`` returns the spectator's text view."""
    env = lpz.env("signum", players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert text == env.unwrapped.table.game.render_text(env.unwrapped.state, None)
