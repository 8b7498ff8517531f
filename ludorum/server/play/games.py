"""The games one server process holds: those being played, and caches of finished and retired ones.

Pure book-keeping: nothing here loads, stores or moves a game.  A game being played stays until it
ends; then it joins the cache of finished games kept for viewing (the rest reload from the database).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

from ludorum.server.play.live import LiveGame
from ludorum.server.store.retired import RetiredGame

FINISHED_CACHE = 64
"""How many finished (and retired) games stay in memory for viewing."""

_Shown = TypeVar("_Shown", LiveGame, RetiredGame)


class Games:
    """The games held by one server process, by id."""

    def __init__(self) -> None:
        self.playing: dict[str, LiveGame] = {}
        """The unfinished games held here (their bots move, their clocks run)."""
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()
        """The latest finished games, for viewing."""
        self.retired: OrderedDict[str, RetiredGame] = OrderedDict()
        """Stored games of another rules version (shown as played, never resumed), recently asked for."""
        self.broken: dict[str, str] = {}
        """Why each stored game that could not be replayed here cannot be (by id)."""

    def held(self, game_id: str) -> LiveGame | None:
        """The game ``game_id`` if it is in memory (playing or recently finished)."""
        return self.playing.get(game_id) or self.finished.get(game_id)

    def hold(self, live: LiveGame) -> None:
        """Hold ``live``: among the games played, or the finished ones if it is over."""
        if live.over:
            keep(self.finished, live)
        else:
            self.playing[live.id] = live

    def finish(self, live: LiveGame) -> None:
        """``live`` has ended: from the games played to the cache of finished games."""
        self.playing.pop(live.id, None)
        keep(self.finished, live)

    def bot_games(self) -> int:
        """How many games played here have no human seat (a quota counts them)."""
        return sum(1 for g in self.playing.values() if all(s.kind == "bot" for s in g.seats))


def keep(cache: OrderedDict[str, _Shown], game: _Shown) -> _Shown:
    """Keep ``game`` in a cache of games for viewing, which holds the ``FINISHED_CACHE`` latest."""
    cache[game.id] = game
    cache.move_to_end(game.id)
    while len(cache) > FINISHED_CACHE:
        cache.popitem(last=False)
    return game
