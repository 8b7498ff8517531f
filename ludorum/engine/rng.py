"""A seeded random number generator whose whole state is one integer.

Games keep that integer in their state (``GameState.rng``), so cloning a state copies the generator
for free and ``(config, seed, actions)`` replays exactly.  The generator is SplitMix64 (Steele, Lea &
Flood 2014): tiny, fast in pure Python and statistically sound for games.  The functions are pure:
each returns the drawn value and the next generator state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Draw 64 random bits; return ``(value, next_state)``."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """Draw a uniform integer in ``[0, n)``; return ``(value, next_state)``."""
    if n <= 0:
        raise ValueError(f"below() needs a positive bound, not {n}")
    # Rejection sampling keeps the draw exactly uniform.
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def unit(state: int) -> tuple[float, int]:
    """Draw a float in ``[0, 1)``; return ``(value, next_state)``."""
    value, state = next_u64(state)
    return (value >> 11) / float(1 << 53), state


def shuffled(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Return a uniformly shuffled tuple of ``items`` (Fisher–Yates) and the next state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state


def choice(state: int, items: Sequence[T]) -> tuple[T, int]:
    """Draw one of ``items`` uniformly; return ``(item, next_state)``."""
    i, state = below(state, len(items))
    return items[i], state


def weighted(state: int, weights: Sequence[float]) -> tuple[int, int]:
    """Draw an index with probability proportional to its weight; return ``(index, next_state)``."""
    total = float(sum(weights))
    if total <= 0:
        raise ValueError("weighted() needs a positive total weight")
    r, state = unit(state)
    r *= total
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i, state
    return len(weights) - 1, state
