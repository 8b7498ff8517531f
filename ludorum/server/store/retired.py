"""A stored game of another rules version: shown as it was played, never replayed under new rules.

After an upgrade that changes a game's rules (``Game.rules_version``), its stored games would replay
differently — or not at all.  They are not resumed; they are shown from what was stored while they were
played: each step's log entry with what every observer read of it (``actions.log``) and every
observer's view after the last archived step (``games.archive``).  A game stored before archives
existed shows its steps, bare, once it is over, and nothing hidden before.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ludorum.engine import Action, Game
from ludorum.engine.i18n import T
from ludorum.engine.information import Observer
from ludorum.engine.record import FORMAT_VERSION
from ludorum.server.store.archive import entry_from_json, observer_key
from ludorum.server.store.tables import FINISHED, SeatData, StoredGame


def other_rules_message(title: str, stored: int, current: int) -> str:
    """Why a game or record of another rules version is not played here, naming both versions (in the
    reader's language: a :class:`~ludorum.engine.i18n.Text`, whose value is the English)."""
    return T(
        "this game was played under {title} rules version {stored}, and this server plays version "
        "{current}: it cannot be resumed or replayed under other rules (it stays viewable as it was played)",
        title=title,
        stored=stored,
        current=current,
    )


@dataclasses.dataclass
class RetiredGame:
    """A stored game of another rules version, as the API shows it."""

    stored: StoredGame
    title: str
    current_rules: int

    @property
    def id(self) -> str:
        """The game's id."""
        return self.stored.id

    @property
    def seats(self) -> list[SeatData]:
        """Who sat where (tokens are matched against them)."""
        return self.stored.seats

    @property
    def over(self) -> bool:
        """Whether it ended (under its own rules)."""
        return self.stored.status == FINISHED

    @property
    def message(self) -> str:
        """Why it is not resumed."""
        return other_rules_message(self.title, self.stored.rules_version, self.current_rules)

    def _entry(self, index: int, observer: Observer) -> dict[str, Any]:
        seat, action = self.stored.steps[index]
        data = self.stored.entries[index] if index < len(self.stored.entries) else None
        if data is not None:
            return entry_from_json(index, data).to_json(observer, self.over)
        who = T("Chance") if seat < 0 else T("Seat {n}", n=seat + 1)
        shown = self.over  # not archived: the bare action once the game is over, nothing before
        return {
            "index": index,
            "seat": seat,
            "who": who,
            "label": str(Action.from_json(action)) if shown else f"{who} made a decision (not archived)",
            "action": action if shown else None,
            "stage": "",
        }

    def snapshot(self, observer: Observer, since: int = 0) -> dict[str, Any]:
        """What ``observer`` may see: the view archived last, the stored log; nothing to decide."""
        s = self.stored
        archive = s.archive or {}
        views = archive.get("views", {})
        names = archive.get("names", {})
        since = 0 if self.over else max(0, min(since, len(s.steps)))
        return {
            "id": s.id,
            "game": s.game,
            "title": self.title,
            "config": s.config,
            "status": s.status,
            "version": len(s.steps),
            "seat": observer,
            "players": [
                {
                    "seat": seat.seat,
                    "name": names.get(str(seat.seat), f"Seat {seat.seat + 1}"),
                    "kind": seat.kind,
                    "bot": seat.bot,
                    "claimed": seat.kind == "bot" or seat.token_hash is not None,
                    "you": seat.seat == observer,
                }
                for seat in s.seats
            ],
            "to_move": None,
            "view": views.get(observer_key(observer)),
            "view_version": s.archived + 1 if views else None,
            "legal": [],
            "open": {},
            "since": since,
            "log": [self._entry(i, observer) for i in range(since, len(s.steps))],
            "result": s.result if self.over else None,
            "rematch_of": s.rematch_of,
            "seed_chosen": s.seed_chosen,
            "rules_version": s.rules_version,
            "current_rules": self.current_rules,
            "resumable": False,
            "retired": self.message,
            "clock": None,  # never resumed: no clock runs
        }

    def record(self) -> dict[str, Any]:
        """The full record (after the end), marked with the rules version it was played under."""
        s = self.stored
        return {
            "format": FORMAT_VERSION,
            "game": s.game,
            "config": s.config,
            "seed": s.seed,
            "steps": [[seat, action] for seat, action in s.steps],
            "result": s.result,
            "rules": s.rules_version,
        }


def retire(stored: StoredGame, game: Game[Any]) -> RetiredGame:
    """The stored game as a retired one (``game``: the installed game of that name, of other rules)."""
    return RetiredGame(stored, game.title, game.rules_version)
