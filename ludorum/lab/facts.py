"""Facts about one played game, derived from its record by replaying it through the game's Analysis.

The lab never reads a game's state itself: it asks the game's :class:`~ludorum.engine.analysis.Analysis`
(found by convention in ``<game package>.analysis``) which deck or faction each seat had, which
content elements each seat used, who moved first and how long the game was.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from ludorum.engine import Game, Record, replay_states
from ludorum.engine.analysis import Analysis


@functools.cache
def _analysis_in(package: str) -> Analysis[Any]:
    module_name = f"{package}.analysis"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:  # the module exists but something it imports does not
            raise
        return Analysis()
    found = getattr(module, "ANALYSIS", None)
    if not isinstance(found, Analysis):
        raise TypeError(f"{module_name}.ANALYSIS must be an ludorum.engine.analysis.Analysis instance")
    return found


def analysis_of(game: Game[Any]) -> Analysis[Any]:
    """The game's Analysis: ``ANALYSIS`` in the ``analysis`` module beside its game class, else defaults."""
    return _analysis_in(type(game).__module__.rpartition(".")[0])


@dataclass(frozen=True, slots=True)
class Facts:
    """What the balance report needs of one game, per seat where it is per seat."""

    labels: tuple[dict[str, str], ...]
    """Per seat: each of the analysis' dimensions → its value (``{"deck": "Knights of the Dawn"}``)."""
    uses: tuple[tuple[tuple[str, str], ...], ...]
    """Per seat: the ``(category, name)`` content elements it used at least once, sorted."""
    first: int
    """The seat that moved first."""
    length: int | None
    """The game's length in the analysis' unit (rounds, turns), if it has one."""
    decisions: int
    """Decisions taken, chance included."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form kept in each results line."""
        return {
            "labels": [dict(x) for x in self.labels],
            "uses": [[list(u) for u in seat] for seat in self.uses],
            "first": self.first,
            "length": self.length,
            "decisions": self.decisions,
        }

    @staticmethod
    def from_json(data: Any) -> Facts:
        """Decode :meth:`to_json` output."""
        return Facts(
            tuple(dict(x) for x in data["labels"]),
            tuple(tuple((str(c), str(n)) for c, n in seat) for seat in data["uses"]),
            int(data["first"]),
            None if data["length"] is None else int(data["length"]),
            int(data["decisions"]),
        )


def derive_facts(game: Game[Any], record: Record) -> Facts:
    """Replay ``record`` and collect its facts (a corrupt record raises ``RecordError``)."""
    analysis = analysis_of(game)
    seats = range(record.config.players)
    states = replay_states(game, record)
    first = state = next(states)
    used: list[set[tuple[str, str]]] = [set() for _ in seats]
    for (seat, action), after in zip(record.steps, states, strict=True):
        if seat >= 0:
            used[seat].update(analysis.uses(state, seat, action))
        state = after
    return Facts(
        labels=tuple(dict(analysis.seat_labels(record.config, first, s)) for s in seats),
        uses=tuple(tuple(sorted(u)) for u in used),
        first=analysis.first_player(first, state),
        length=analysis.length(state),
        decisions=len(record.steps),
    )
