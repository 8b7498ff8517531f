"""examples/self_play_pool.py runs end to end: the learner trains against a pool of its own checkpoints
(an opponent policy passed to the Gymnasium environment as a callable, the learner's seat rotating), and
the run replays exactly from its seed.  It makes no claim of strength, and this test checks none."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "self_play_pool.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("self_play_pool", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_self_play_against_a_pool_of_checkpoints() -> None:
    """Each snapshot joins the pool; the learner's weights move between checkpoints; the pool's
    opponent plays in both seats; the same seed gives the same run."""
    sp = _module()
    calls: list[int] = []
    original = sp.Pool.__call__

    def counting(self: object, obs: np.ndarray, mask: np.ndarray) -> int:
        calls.append(int(np.argmax(obs[:2])))  # the observation's own-seat one-hot: the opponent's seat
        return original(self, obs, mask)  # type: ignore[no-any-return]

    sp.Pool.__call__ = counting
    try:
        out = sp.run(episodes=12, snapshot_every=4, games=4, seed=3)
    finally:
        sp.Pool.__call__ = original
    assert out.episodes == 12 and out.checkpoints == 1 + 12 // 4
    assert set(calls) == {0, 1}  # the learner's seat rotated, so the opponent sat in both
    assert 0.0 <= out.policy_wins <= 1.0 and 0.0 <= out.random_wins <= 1.0
    again = sp.run(episodes=12, snapshot_every=4, games=4, seed=3)
    assert (again.mean_reward, again.policy_wins, again.random_wins) == (
        out.mean_reward,
        out.policy_wins,
        out.random_wins,
    )
    assert np.array_equal(again.policy.u, out.policy.u)
    start = sp.Policy.new(out.policy.u.shape[0], out.policy.v.shape[1], np.random.default_rng(3))
    assert not np.array_equal(start.v, out.policy.v)  # training moved the weights
