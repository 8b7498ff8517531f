"""Train a policy on a Ludorum game with sb3-contrib's MaskablePPO and show it beating the random bot.

    pip install -e '.[rl,train]'          # torch: install the CPU build first (docs/rl.md)
    python examples/train_maskable_ppo.py --steps 100000 --games 200

The learner holds seat 0 of a two-player game (Medieval Realms by default) through the Gymnasium
environment (:mod:`ludorum.rl.gymnasium`); the other seat is Ludorum's random bot.  MaskablePPO reads the
legal actions from ``env.action_masks()``, so the policy only ever picks legal moves.  After training,
the policy (masked; drawing from it, or its likeliest action with ``--greedy``) and, for comparison, a
random masked agent each play ``--games`` evaluation games against the random bot; the script prints
both win shares.  docs/rl.md reports a full run.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from ludorum.rl.gymnasium import LudorumEnv


@dataclass
class Outcome:
    """What a run shows: the trained policy's and a random agent's results against the random bot."""

    steps: int
    seconds: float
    games: int
    policy_wins: float
    random_wins: float
    illegal: int
    """Illegal moves the trained policy tried in evaluation (an environment that raises counts them)."""


MAX_STEPS = 1000
"""Learner decisions before an episode is cut short: a greedy policy can loop (open a choice, back out of
it, again), and a cut-short game counts as lost."""


def make_env(game: str, players: int, options: dict[str, Any], illegal: str = "forfeit") -> LudorumEnv:
    """The learner at seat 0 against random bots."""
    return LudorumEnv(
        game, players=players, opponents="random", illegal_action=illegal, max_steps=MAX_STEPS, **options
    )


def win_share(
    env: LudorumEnv, games: int, seed: int, policy: MaskablePPO | None, greedy: bool = False
) -> tuple[float, int]:
    """The learner's share of first places over ``games`` games (``policy`` None: a random masked agent;
    ``greedy``: the policy's likeliest action rather than a draw from it), and the illegal moves it tried."""
    rng = np.random.default_rng(seed)
    wins = 0.0
    illegal = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            mask = env.action_masks()
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(policy.predict(obs, action_masks=mask, deterministic=greedy)[0])
                if not mask[action]:
                    illegal += 1
                    action = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += max(float(reward), 0.0)
    return wins / games, illegal


def run(
    game: str = "medieval-realms",
    players: int = 2,
    steps: int = 100_000,
    games: int = 200,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    save: Path | None = None,
    verbose: int = 0,
    greedy: bool = False,
) -> Outcome:
    """Train for ``steps`` learner decisions, then evaluate; returns the figures."""
    options = options or {}
    torch.set_num_threads(1)  # small networks: one thread is as fast, and leaves the other cores alone
    torch.manual_seed(seed)
    env = make_env(game, players, options)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=512,
        batch_size=128,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        verbose=verbose,
        device="cpu",
    )
    start = time.perf_counter()
    model.learn(total_timesteps=steps)
    seconds = time.perf_counter() - start
    if save is not None:
        model.save(save)
    judge = make_env(game, players, options, illegal="raise")
    policy, illegal = win_share(judge, games, 10_000 + seed, model, greedy)
    baseline, _ = win_share(judge, games, 10_000 + seed, None)
    return Outcome(steps, seconds, games, policy, baseline, illegal)


def main() -> None:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="medieval-realms")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--steps", type=int, default=100_000, help="learner decisions to train on")
    p.add_argument("--games", type=int, default=200, help="evaluation games for each agent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", type=Path, help="where to save the trained policy (.zip)")
    p.add_argument("--greedy", action="store_true", help="evaluate the likeliest action, not a draw")
    a = p.parse_args()
    out = run(a.game, a.players, a.steps, a.games, a.seed, save=a.save, verbose=1, greedy=a.greedy)
    print(
        f"{a.game}, {a.players} players, {out.steps:,} steps in {out.seconds:.0f} s "
        f"({out.steps / out.seconds:,.0f} steps/s)\n"
        f"first places against the random bot over {out.games} games: trained policy {out.policy_wins:.1%}, "
        f"random agent {out.random_wins:.1%}; illegal moves tried: {out.illegal}"
    )


if __name__ == "__main__":
    main()
