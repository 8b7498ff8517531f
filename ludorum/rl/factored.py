"""Factored actions: the flat ``Discrete(N)`` numbering seen as (kind, argument), with a mask per component.

A game's actions are kinds, each with its list of argument tuples (docs/rl.md): flat index
``offset(kind) + argument``.  :class:`FactoredActions` gives the same actions as a pair, the space
``MultiDiscrete([K, A])`` (``K`` kinds, ``A`` the longest kind's argument count), and splits a flat mask into
the two masks an autoregressive policy needs: which kinds have a legal action now (``K``), and for each kind
which of its arguments are legal (``K × A``, zeros past the kind's own count).  A policy picks a kind from
the first, then an argument from that kind's row of the second; any such pair is legal.
"""

from __future__ import annotations

import numpy as np

from ludorum.engine.encoding import ActionSpace


class FactoredActions:
    """The (kind, argument) form of one game's action numbering."""

    def __init__(self, space: ActionSpace) -> None:
        self.kinds = [k.name for k in space.kinds]
        """The kinds, in the numbering's order: kind ``k`` of a pair is ``kinds[k]``."""
        bounds = [space.offsets[name] for name in self.kinds]
        self.starts = np.array([a for a, _ in bounds], np.int64)
        self.sizes = np.array([b - a for a, b in bounds], np.int64)
        self.n = space.n
        self.nvec = np.array([len(self.kinds), int(self.sizes.max())], np.int64)
        """``[K, A]``: the ``MultiDiscrete`` of the pairs."""
        # Flat index of every (kind, argument) cell, N (one past the end, a zero in the padded mask) where
        # the kind has no such argument: one gather turns a flat mask into the per-kind rows.
        cells = self.starts[:, None] + np.arange(self.nvec[1])[None, :]
        self._cells = np.where(np.arange(self.nvec[1])[None, :] < self.sizes[:, None], cells, self.n)

    def split(self, index: int) -> tuple[int, int]:
        """The (kind, argument) pair of flat ``index``."""
        if not 0 <= index < self.n:
            raise ValueError(f"action {index} is not in Discrete({self.n})")
        k = int(np.searchsorted(self.starts, index, side="right")) - 1
        return k, int(index - self.starts[k])

    def join(self, kind: int, argument: int) -> int:
        """The flat index of the pair; a kind or argument out of range is a ``ValueError`` naming it."""
        if not 0 <= kind < len(self.kinds):
            raise ValueError(f"kind {kind} is not one of 0…{len(self.kinds) - 1}")
        if not 0 <= argument < self.sizes[kind]:
            raise ValueError(
                f"argument {argument} is not one of kind {self.kinds[kind]!r}'s 0…{self.sizes[kind] - 1}"
            )
        return int(self.starts[kind] + argument)

    def masks(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(kind mask, argument masks)`` of a flat ``int8`` mask: ``K`` and ``K × A``, ``int8``."""
        padded = np.zeros(self.n + 1, np.int8)
        padded[: self.n] = flat
        arguments: np.ndarray = padded[self._cells]
        kinds = np.asarray(arguments.any(axis=1), np.int8)
        return kinds, arguments
