"""Self-play against a pool of one's own past checkpoints, through the Gymnasium environment.

    python examples/self_play_pool.py --episodes 400 --snapshot-every 50

A small policy (numpy only: a linear map of the observation to 16 features, scored against each legal
action, softmax over the legal ones) learns by REINFORCE with a running baseline.  The learner's seat
rotates episode after episode (``seat="rotate"``); the other seat is an opponent policy (a plain callable,
``(observation, mask) -> action``) that plays, each episode, one checkpoint drawn from the pool: the
starting policy first, then a copy of the learner every ``--snapshot-every`` episodes — the league of
fictitious self-play in its simplest form.  At the end the learner and a random masked agent each play
``--games`` games against Ludorum's random bot, and both win shares are printed.

It is a sketch of the loop, kept tiny so that the test suite runs it in seconds; it makes no claim of
strength (docs/rl.md reports what the MaskablePPO example reaches with a longer run).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ludorum.rl.gymnasium import LudorumEnv

FEATURES = 16
"""Width of the policy's hidden features."""


@dataclass
class Policy:
    """Logits of the legal actions: ``(obs @ u) @ v[:, legal] + b[legal]``."""

    u: np.ndarray
    v: np.ndarray
    b: np.ndarray

    @staticmethod
    def new(obs_size: int, n_actions: int, rng: np.random.Generator) -> Policy:
        """Small random weights."""
        return Policy(
            rng.normal(0, 0.05, (obs_size, FEATURES)),
            rng.normal(0, 0.05, (FEATURES, n_actions)),
            np.zeros(n_actions),
        )

    def copy(self) -> Policy:
        """A checkpoint: the weights as they are now."""
        return Policy(self.u.copy(), self.v.copy(), self.b.copy())

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden features and the softmax over the legal actions."""
        h = obs @ self.u
        z = h @ self.v[:, legal] + self.b[legal]
        p = np.exp(z - z.max())
        return h, p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        """An action drawn from the policy, among the legal ones."""
        legal = np.flatnonzero(mask)
        return int(legal[rng.choice(len(legal), p=self.probabilities(obs, legal)[1])])


@dataclass
class Pool:
    """Past checkpoints; the opponent plays one of them per episode (a callable the environment calls)."""

    rng: np.random.Generator
    members: list[Policy] = field(default_factory=list)
    current: Policy | None = None

    def pick(self) -> None:
        """Draw the checkpoint the opponent plays this episode."""
        self.current = self.members[int(self.rng.integers(len(self.members)))]

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        assert self.current is not None, "pick() a checkpoint before the episode"
        return self.current.act(obs, mask, self.rng)


@dataclass
class Outcome:
    """What a run did."""

    episodes: int
    checkpoints: int
    mean_reward: float
    """The learner's mean reward over its training episodes (1 for a first place)."""
    policy_wins: float
    random_wins: float
    policy: Policy


Trace = list[tuple[np.ndarray, np.ndarray, int]]
"""The learner's moves of one game: observation, legal actions, the index of the one taken."""


def episode(env: LudorumEnv, policy: Policy, seed: int, rng: np.random.Generator) -> tuple[float, Trace]:
    """One game by ``policy`` in the learner's seat: its reward and its moves."""
    obs, info = env.reset(seed=seed)
    trace: Trace = []
    done, reward = False, 0.0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, p = policy.probabilities(obs, legal)
        k = int(rng.choice(len(legal), p=p))
        trace.append((obs, legal, k))
        obs, reward, terminated, truncated, info = env.step(int(legal[k]))
        done = terminated or truncated
    return float(reward), trace


def reinforce(policy: Policy, trace: Trace, step: float) -> None:
    """Raise the log-probability of every move of the game by ``step`` × the game's advantage."""
    for obs, legal, k in trace:
        h, p = policy.probabilities(obs, legal)
        g = -p * step
        g[k] += step
        dh = policy.v[:, legal] @ g
        policy.v[:, legal] += np.outer(h, g)
        policy.b[legal] += g
        policy.u += np.outer(obs, dh)


def win_share(env: LudorumEnv, games: int, seed: int, policy: Policy | None) -> float:
    """The share of first places over ``games`` games (``policy`` None: a random masked agent)."""
    rng = np.random.default_rng(seed)
    wins = 0.0
    for g in range(games):
        if policy is None:
            _, info = env.reset(seed=seed + g)
            done = False
            reward = 0.0
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            wins += max(float(reward), 0.0)
        else:
            wins += max(episode(env, policy, seed + g, rng)[0], 0.0)
    return wins / games


def run(
    game: str = "reliquium",
    episodes: int = 400,
    snapshot_every: int = 50,
    games: int = 100,
    seed: int = 0,
    rate: float = 0.05,
    options: dict[str, Any] | None = None,
) -> Outcome:
    """Train by self-play against the pool, then evaluate against the random bot."""
    options = {"rounds": 2} if options is None and game == "reliquium" else (options or {})
    rng = np.random.default_rng(seed)
    pool = Pool(np.random.default_rng(seed + 1))
    env = LudorumEnv(game, players=2, seat="rotate", opponents=pool, max_steps=300, **options)
    assert env.observation_space.shape is not None
    learner = Policy.new(env.observation_space.shape[0], env.table.n_actions, rng)
    pool.members.append(learner.copy())
    baseline, total = 0.5, 0.0
    for e in range(episodes):
        pool.pick()
        reward, trace = episode(env, learner, seed + e, rng)
        total += reward
        reinforce(learner, trace, rate * (reward - baseline))
        baseline += 0.05 * (reward - baseline)
        if (e + 1) % snapshot_every == 0:
            pool.members.append(learner.copy())
    evaluation = LudorumEnv(game, players=2, opponents="random", max_steps=300, **options)
    return Outcome(
        episodes=episodes,
        checkpoints=len(pool.members),
        mean_reward=total / max(episodes, 1),
        policy_wins=win_share(evaluation, games, 10**6 + seed, learner),
        random_wins=win_share(evaluation, games, 10**6 + seed, None),
        policy=learner,
    )


def main() -> None:
    """Parse the arguments, run, print the result."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="reliquium")
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--snapshot-every", type=int, default=50)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    out = run(args.game, args.episodes, args.snapshot_every, args.games, args.seed)
    print(f"{out.episodes} self-play episodes against a pool of {out.checkpoints} checkpoints")
    print(f"mean training reward {out.mean_reward:.2f}")
    print(f"against the random bot: policy {out.policy_wins:.1%}, random masked agent {out.random_wins:.1%}")


if __name__ == "__main__":
    main()
