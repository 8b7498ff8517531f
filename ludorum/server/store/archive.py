"""What a step leaves for showing its game without a replay: its log entry with every observer's reading
(``actions.log``), and what the game looks like to every observer after it (``games.archive``), which
is also spliced as it is into what the server sends.  The workers compute and encode the views (off the
server's GIL); the live games send them (:mod:`ludorum.server.play.live`); a retired game is shown by
them (:mod:`ludorum.server.store.retired`).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import orjson

from ludorum.engine import Action, Game, GameState, disclosure
from ludorum.engine.disclosure import LogEntry
from ludorum.engine.information import Observer
from ludorum.engine.pickling import by_fields
from ludorum.server.store.db import RawJSON


def observer_key(observer: Observer) -> str:
    """How an observer is named in stored JSON: ``"spectator"`` or the seat number."""
    return "spectator" if observer is None else str(observer)


def entry_json(entry: LogEntry) -> dict[str, Any]:
    """A log entry as stored: the full label and every observer's reading."""
    return {
        "seat": entry.seat,
        "who": entry.who,
        "action": entry.action.to_json(),
        "label": entry.label,
        "stage": entry.stage,
        "opens": entry.opens,
        "readings": {observer_key(o): r for o, r in entry.readings.items()},
    }


def entry_from_json(index: int, data: dict[str, Any]) -> LogEntry:
    """The stored entry of step ``index``."""
    readings = {None if k == "spectator" else int(k): v for k, v in data["readings"].items()}
    return LogEntry(
        index,
        data["seat"],
        data["who"],
        Action.from_json(data["action"]),
        data["label"],
        readings,
        data.get("stage", ""),
        bool(data.get("opens", False)),
    )


def compact_json(value: Any) -> str:
    """``value`` as JSON without the spaces after separators (what Starlette's ``JSONResponse`` sends).

    orjson, not ``json``: every answer, push and archive of a step is encoded here, and ``json.dumps``
    of a snapshot was a tenth of the server's CPU per action.  The same JSON values as ``json.dumps``
    (tested on every game's snapshots): non-string keys as strings, texts (``str`` subclasses) as their
    strings.  (A NaN, which no view holds, would be ``null`` where ``json`` refuses it.)"""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def archive_views(game: Game[Any], state: GameState) -> dict[str, Any]:
    """Every observer's view of ``state`` and the seats' names, as stored in ``games.archive``."""
    observers = disclosure.observers(state.config.players)
    return {
        "views": {observer_key(o): game.view(state, o) for o in observers},
        "names": {str(s): game.seat_name(state, s) for s in range(state.config.players)},
    }


@by_fields
@dataclasses.dataclass(frozen=True, slots=True)
class EncodedViews:
    """:func:`archive_views` encoded, each observer's view on its own (``compact_json``, as the server
    sends JSON): stored together as the archive, and spliced as they are into what the server sends
    an observer of that state (``LiveGame.shown_json``), so the loop neither computes nor encodes them."""

    views: dict[str, str]
    """Each observer's view (by ``observer_key``), as JSON text."""
    names: str
    """The seats' names, as JSON text."""

    def archive(self) -> RawJSON:
        """The archive's JSON (``archive_views``' value), put together from the parts."""
        views = ",".join(f"{json.dumps(key)}:{view}" for key, view in self.views.items())
        return RawJSON(f'{{"views":{{{views}}},"names":{self.names}}}')


def encode_views(game: Game[Any], state: GameState) -> EncodedViews:
    """:func:`archive_views` of ``state``, encoded (:class:`EncodedViews`)."""
    shown = archive_views(game, state)
    return EncodedViews({k: compact_json(v) for k, v in shown["views"].items()}, compact_json(shown["names"]))
