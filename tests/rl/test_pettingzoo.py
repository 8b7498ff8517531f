"""PettingZoo: every game at every player count passes PettingZoo's own API, seed, render, state and
parallel tests."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state as state_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ludorum.engine import ConfigError
from ludorum.rl import pettingzoo as lpz
from tests.rl.helpers import game_configs

# PettingZoo names the classic games whose observations may be dicts; any other env gets these warnings.
DICT_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


@pytest.mark.parametrize(("name", "players"), game_configs())
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    """``api_test`` and ``seed_test`` pass: without a single warning in the flat form, with only the
    warnings PettingZoo gives any dict observation outside its own list in the default form."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(lpz.env(name, players=players, render_mode="ansi", mask_in_observation=False), num_cycles=60)
        seed_test(lambda: lpz.env(name, players=players, mask_in_observation=False), num_cycles=60)
    assert [str(w.message) for w in caught] == []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(lpz.env(name, players=players), num_cycles=60)
        seed_test(lambda: lpz.env(name, players=players), num_cycles=60)
    assert caught and all(str(w.message).startswith(DICT_WARNINGS) for w in caught)


@pytest.mark.parametrize(("name", "players"), game_configs())
def test_parallel_api_with_default_options(name: str, players: int) -> None:
    """``turn_based_aec_to_parallel`` and ``parallel_api_test`` pass with the default options: the mask is
    in the observation, where the parallel test's random agent reads it."""
    par = turn_based_aec_to_parallel(lpz.env(name, players=players))
    parallel_api_test(par, num_cycles=40)


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms", "signum"])
def test_render_test_passes(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's ``render_test`` (every mode in the metadata: text, a picture, and ``"human"``, which
    without a display prints the text)."""
    render_test(lambda render_mode=None: lpz.env(name, render_mode=render_mode))
    env = lpz.env(name, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    for _ in range(3):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    later = env.render()
    assert isinstance(first, np.ndarray) and first.shape == later.shape and first.dtype == np.uint8
    assert not np.array_equal(first, later)  # the picture follows the game
    assert (first < 128).any() and (first > 128).any()  # text on a background, not a blank frame
    assert "\n" in capsys.readouterr().out  # "human" without a display printed the table


def test_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode must be one of"):
        lpz.env("reliquium", render_mode="video")


@pytest.mark.parametrize(("name", "players"), game_configs())
def test_state_is_the_global_observation(name: str, players: int) -> None:
    """``env.state()`` is in ``env.state_space`` (PettingZoo's own state test) and is every seat's
    observation side by side: what a centralised critic is entitled to, after the game as before."""
    env = lpz.env(name, players=players, mask_in_observation=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        state_test(env, num_cycles=30)
    assert [str(w.message) for w in caught] == []
    env.reset(seed=2)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.last()[4]["action_mask"])[0]))
    expected = np.concatenate([env.observe(a) for a in env.possible_agents])
    assert np.array_equal(env.state(), expected)


@pytest.mark.parametrize("mask_in_observation", [True, False])
def test_observations_cannot_be_changed_by_their_reader(mask_in_observation: bool) -> None:
    """Writing into what ``observe()``/``last()`` handed out raises, and the next observation is the same."""
    env = lpz.env("reliquium", players=2, mask_in_observation=mask_in_observation)
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.observe(agent)
    parts = [before["observation"], before["action_mask"]] if mask_in_observation else [before]
    saved = [p.copy() for p in parts]
    for part in parts:
        with pytest.raises(ValueError, match="read-only"):
            part[0] = 7
    after = env.last()[0]
    after_parts = [after["observation"], after["action_mask"]] if mask_in_observation else [after]
    for p, s in zip(after_parts, saved, strict=True):
        assert np.array_equal(p, s)
    with pytest.raises(ValueError, match="read-only"):
        env.state()[0] = 7


@pytest.mark.parametrize("name", ["reliquium", "signum"])
def test_variants_and_dict_observations(name: str) -> None:
    """Variants load; the classic dict observation carries the mask of the deciding agent only."""
    variants = {"reliquium": ("allies", "militia", "single-march"), "signum": ("teams",)}[name]
    env = lpz.env(name, players=4, variants=variants)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=30)
    assert all(str(w.message).startswith(DICT_WARNINGS) for w in caught)
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
    assert text == env.unwrapped.table.game.render_text(env.unwrapped.game_state, None)
