"""The batched stepper: N games in one process, observations and masks stacked, finished games restarted."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludorum.rl.batch import BatchStepper
from ludorum.rl.core import Table


def random_actions(batch: BatchStepper, rng: random.Random) -> list[int]:
    """One legal action id per game, drawn from the masks."""
    return [int(rng.choice(np.flatnonzero(row))) for row in batch.masks]


def test_the_rows_are_each_games_deciding_seat_as_the_table_sees_it() -> None:
    batch = BatchStepper("reliquium", 4)
    obs, masks = batch.reset(seed=10)
    table = Table("reliquium", 2)
    assert obs.shape == (4, table.obs_size) and masks.shape == (4, table.n_actions)
    rng = random.Random(0)
    for _ in range(30):
        obs, masks, rewards, done = batch.step(random_actions(batch, rng))
        assert rewards.shape == (4, 2) and done.shape == (4,)
    for i in range(4):
        state, seat = batch._states[i], int(batch.seats[i])
        assert np.array_equal(obs[i], table.observe(state, seat))
        assert np.array_equal(masks[i], table.mask(table.legal(state)))


def test_the_same_seed_and_actions_give_the_same_games() -> None:
    runs = []
    for _ in range(2):
        batch, rng, seen = BatchStepper("medieval-realms", 3), random.Random(4), []
        batch.reset(seed=7)
        for _ in range(40):
            obs, _, _, _ = batch.step(random_actions(batch, rng))
            seen.append(obs.copy())
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1])


def test_a_finished_game_reports_its_rewards_and_starts_again() -> None:
    batch, rng = BatchStepper("medieval-realms", 2), random.Random(1)
    batch.reset(seed=0)
    for _ in range(20_000):
        _, _, rewards, done = batch.step(random_actions(batch, rng))
        if done.any():
            break
    assert done.any()
    i = int(np.flatnonzero(done)[0])
    assert rewards[i].max() == 1.0 and set(rewards[i]) <= {0.0, 1.0}
    assert not batch.table.game.is_over(batch._states[i]) and batch.masks[i].any()


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    batch = BatchStepper("reliquium", 2)
    obs, _ = batch.reset(seed=3)
    before = obs.copy(), list(batch._states)
    legal = int(np.flatnonzero(batch.masks[0])[0])
    illegal = int(np.flatnonzero(batch.masks[1] == 0)[0])
    with pytest.raises(ValueError, match=rf"game 1: action {illegal} is not legal for seat \d now"):
        batch.step([legal, illegal])
    with pytest.raises(ValueError, match="one action per game: 2 expected, 1 given"):
        batch.step([legal])
    with pytest.raises(ValueError, match=r"game 0: action 1\.5 is not legal"):
        batch.step([1.5, legal])  # type: ignore[list-item]
    assert np.array_equal(batch.observations, before[0]) and batch._states == before[1]


def test_a_batch_without_games_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one game, not 0"):
        BatchStepper("reliquium", 0)
