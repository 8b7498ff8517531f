"""What a game looks like to every observer after a step: stored in ``games.archive`` (so that a game
can be shown without a replay) and spliced as it is into what the server sends.  The workers compute and
encode it (off the server's GIL); the live games send it (:mod:`ludorum.server.play.live`).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import orjson

from ludorum.engine import Game, GameState, disclosure
from ludorum.engine.pickling import by_fields
from ludorum.server.store.db import RawJSON
from ludorum.server.store.retired import observer_key


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
