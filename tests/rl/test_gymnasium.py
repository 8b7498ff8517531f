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


def _trajectory(env: gymnasium.Env, seed: int, steps: int) -> list[tuple[int, float]]:  # type: ignore[type-arg]
    """The learner's first legal action at each step, with the observation's checksum: what a run did."""
    obs, info = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        action = int(np.flatnonzero(info["action_mask"])[0])
        out.append((action, float(np.asarray(obs, np.float64).sum())))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return out


def test_searching_opponents_replay_from_the_seed_under_any_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed gives the same trajectory against a search level, even when the machine is so loaded
    that every look at the clock finds a second gone: the opponents are budgeted by iterations only."""
    from ludorum.agents.search import bot

    env = LudorumEnv("reliquium", players=2, opponents="easy", rounds=2)
    quiet = _trajectory(env, seed=11, steps=12)
    clock = iter(range(10**9))
    monkeypatch.setattr(bot.time, "perf_counter", lambda: float(next(clock)))
    loaded = _trajectory(env, seed=11, steps=12)
    assert len(quiet) > 3 and loaded == quiet
    assert _trajectory(env, seed=11, steps=12) == quiet


def test_vector_env_masked_sampler() -> None:
    """``action_space.sample()`` of a vector environment draws from the whole space (Gymnasium's, not
    ours); :func:`sample_masked` draws one legal action per sub-environment from the stacked masks."""
    from ludorum.rl.gymnasium import sample_masked

    envs = gymnasium.make_vec("ludorum/MedievalRealms-v0", num_envs=3, players=2)
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        masks = info["action_mask"]
        actions = sample_masked(masks, rng)
        assert actions.shape == (3,)
        assert all(masks[i, a] == 1 for i, a in enumerate(actions))
        _, _, _, _, info = envs.step(actions)
        assert "illegal_action" not in info
    envs.close()
    masks = np.zeros((2, 5), np.int8)
    masks[0, 3] = 1
    assert list(sample_masked(masks, rng)) == [3, 0]  # an all-zero row (a sub-env resetting): 0
    with pytest.raises(ValueError, match="masks"):
        sample_masked(np.zeros(5, np.int8), rng)


def test_an_opponent_may_be_any_policy() -> None:
    """A callable ``(observation, mask) -> action`` plays a seat: it sees its own seat's observation and
    mask, and its action is played; an illegal one is a clear error."""
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def last_legal(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append((obs, mask))
        return int(np.flatnonzero(mask)[-1])

    env = LudorumEnv("reliquium", players=3, opponents=[last_legal, "random"], rounds=2)
    _, info = env.reset(seed=1)
    for _ in range(10):
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert seen
    for o, m in seen:
        assert o.shape == env.observation_space.shape and o[1] == 1.0  # the one-hot of its seat, 1
        assert m.dtype == np.int8 and m.any()
    bad = LudorumEnv("reliquium", players=2, opponents=lambda o, m: int(np.flatnonzero(m == 0)[0]))
    with pytest.raises(ValueError, match="not legal for the opponent at seat 1"):
        bad.reset(seed=0)
        for _ in range(5):
            bad.step(int(np.flatnonzero(bad.action_masks())[0]))
    with pytest.raises(ConfigError, match="opponent"):
        LudorumEnv("reliquium", players=2, opponents=[3])


@pytest.mark.parametrize("seat", ["rotate", "random"])
def test_the_learners_seat_can_change_per_episode(seat: str) -> None:
    """``seat="rotate"`` takes the seats in turn, episode after episode; ``seat="random"`` draws one from
    the reset's seed.  ``info["seat"]`` and the observation's own-seat one-hot say which."""
    env = LudorumEnv("reliquium", players=3, seat=seat, rounds=2)
    seats = []
    for episode in range(6):
        obs, info = env.reset(seed=episode)
        assert obs[info["seat"]] == 1.0 and env.seat == info["seat"]
        seats.append(info["seat"])
    if seat == "rotate":
        assert seats == [0, 1, 2, 0, 1, 2]
    else:
        assert set(seats) <= {0, 1, 2} and len(set(seats)) > 1
        assert [env.reset(seed=e)[1]["seat"] for e in range(6)] == seats
    with pytest.raises(ConfigError, match="seat"):
        LudorumEnv("reliquium", seat="left")


def test_render_modes() -> None:
    """``"rgb_array"`` gives a picture of the learner's table; ``"ansi"`` its text."""
    env = LudorumEnv("medieval-realms", players=2, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert (
        isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    )
    text = LudorumEnv("medieval-realms", players=2, render_mode="ansi")
    text.reset(seed=0)
    assert text.render() == text.table.game.render_text(text.game_state, 0)


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms", "signum"])
def test_factored_actions(name: str) -> None:
    """``action_form="factored"``: pairs (kind, argument) in ``MultiDiscrete([K, A])``; the kind mask and
    each kind's argument mask name exactly the flat mask's legal actions; a legal pair plays the flat
    action it names; ``check_env`` passes; a pair past its kind's arguments is outside the space."""
    env = LudorumEnv(name, players=2, action_form="factored", max_steps=40)
    f = env.factored
    assert f is not None and list(env.action_space.nvec) == [len(f.kinds), int(f.sizes.max())]
    obs, info = env.reset(seed=2)
    flat_env = LudorumEnv(name, players=2, max_steps=40)
    flat_obs, _ = flat_env.reset(seed=2)
    for _ in range(15):
        flat = info["action_mask"]
        pairs = {(k, i) for k, i in zip(*np.nonzero(info["argument_mask"]), strict=True)}
        assert pairs == {f.split(int(a)) for a in np.flatnonzero(flat)}
        assert set(np.flatnonzero(info["kind_mask"])) == {k for k, _ in pairs}
        pair = env.action_space.sample()
        assert tuple(int(x) for x in pair) in pairs
        obs, _, terminated, truncated, info = env.step(pair)
        flat_obs, *_ = flat_env.step(f.join(int(pair[0]), int(pair[1])))
        assert np.array_equal(obs, flat_obs)
        if terminated or truncated:
            break
    small = int(np.argmin(f.sizes))
    assert not env.action_space.contains(np.array([small, f.sizes[small]]))
    with pytest.raises(ValueError, match="argument"):
        f.join(small, int(f.sizes[small]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = gymnasium.make(env_id(name), players=2, action_form="factored", max_steps=30)
        check_env(made.unwrapped)
    assert [str(w.message) for w in caught] == []
