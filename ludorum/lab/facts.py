"""Facts about one played game, derived from its record by replaying it through the game's fact reader.

The lab never reads a game's state itself: it asks the game's :class:`~ludorum.engine.facts.FactReader`
(declared in ``Game.provides.facts``) which deck or faction each seat had, which content elements each
seat used, who moved first and how long the game was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ludorum.engine import Game, Record, replay_states


@dataclass(frozen=True, slots=True)
class Facts:
    """What the balance report needs of one game, per seat where it is per seat."""

    labels: tuple[dict[str, str], ...]
    """Per seat: each of the fact reader's dimensions → its value (``{"deck": "Knights of the Dawn"}``)."""
    uses: tuple[tuple[tuple[str, str], ...], ...]
    """Per seat: the ``(category, name)`` content elements it used at least once, sorted."""
    first: int
    """The seat that moved first."""
    length: int | None
    """The game's length in the fact reader's unit (rounds, turns), if it has one."""
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
    reader = game.provides.load_facts()
    seats = range(record.config.players)
    states = replay_states(game, record)
    first = state = next(states)
    used: list[set[tuple[str, str]]] = [set() for _ in seats]
    for (seat, action), after in zip(record.steps, states, strict=True):
        if seat >= 0:
            used[seat].update(reader.uses(state, seat, action))
        state = after
    return Facts(
        labels=tuple(dict(reader.seat_labels(record.config, first, s)) for s in seats),
        uses=tuple(tuple(sorted(u)) for u in used),
        first=reader.first_player(first, state),
        length=reader.length(state),
        decisions=len(record.steps),
    )
