"""Hints and after-game analysis: "suggest a move" during a game, the search bots' review after it.

A hint is the search bot's (:data:`~ludorum.agents.review.LEVEL`) best move for the asking seat,
searched from that seat's information set only — never the true state — in a bot worker process, never
on the event loop.  Whether a game allows hints is fixed when it is made (``CreateGame.hints``); by
default a game with a bot seat allows them and a game of humans only (a "rated" game) does not.  A
rematch keeps its game's setting.  Hints are bounded: one a seat at a time and one per
:data:`HINT_INTERVAL` seconds, at most :data:`MAX_THINKING` being searched per server process, and the
answer for one version is kept and given again for free.

The analysis of a finished game (:func:`ludorum.agents.review.analyse`) runs once per game per
process in a worker, at most :data:`MAX_ANALYSES` at a time; ``GET .../analysis`` answers 202 while it
runs and the analysis (JSON) once done.  Everything is public once a game is over, but each decision is
still judged from its seat's information set at that point.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any

from sqlalchemy import select

from ludorum.agents.review import LEVEL, Advice, advise, analyse
from ludorum.engine import Action, Game, Record
from ludorum.engine.i18n import T
from ludorum.engine.information import InformationSet
from ludorum.server.errors import ApiError, retry_later
from ludorum.server.play.live import LiveGame
from ludorum.server.play.lobby import Lobby
from ludorum.server.store.db import Store
from ludorum.server.store.tables import HintSetting, SeatData

HINT_INTERVAL = 3.0
"""Seconds a seat waits between two hints that need a search."""
MAX_THINKING = 2
"""Hints searched at once in one server process (more are refused with 429 for a moment)."""
MAX_ANALYSES = 1
"""Game analyses run at once in one server process."""
KEPT = 256
"""Finished analyses and hint settings kept in memory (the least recently used go first)."""


def default_allowed(seats: list[SeatData]) -> bool:
    """Hints are on in a game with a bot seat, off in a game of humans only (those count as rated)."""
    return any(s.kind == "bot" for s in seats)


def _store_setting(store: Store, game_id: str, allowed: bool) -> None:
    with store.session() as s, s.begin():
        s.merge(HintSetting(game_id=game_id, allowed=allowed, level=LEVEL))


def _load_setting(store: Store, game_id: str) -> bool | None:
    with store.session() as s:
        return s.scalar(select(HintSetting.allowed).where(HintSetting.game_id == game_id))


class Hints:
    """One server process's hint and analysis book-keeping (``http/hints.py`` serves it)."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self._settings: OrderedDict[str, bool] = OrderedDict()
        self._last: OrderedDict[tuple[str, int], float] = OrderedDict()
        self._asking: set[tuple[str, int]] = set()
        self._answers: OrderedDict[tuple[str, int], tuple[int, dict[str, Any]]] = OrderedDict()
        self._thinking = 0
        self._analyses: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._running: dict[str, asyncio.Task[None]] = {}

    @staticmethod
    def _keep(book: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        book[key] = value
        book.move_to_end(key)
        while len(book) > KEPT:
            book.popitem(last=False)

    async def remember(self, lobby: Lobby, live: LiveGame, allowed: bool | None) -> None:
        """Store a new game's setting (``None``: the default for its seats)."""
        value = default_allowed(live.seats) if allowed is None else allowed
        await asyncio.to_thread(_store_setting, lobby.store, live.id, value)
        self._keep(self._settings, live.id, value)

    async def allowed(self, lobby: Lobby, live: LiveGame) -> bool:
        """Whether ``live`` allows hints: its stored setting, else its original's (a rematch), else the
        default for its seats."""
        for game_id in (live.id, live.rematch_of):
            if game_id is None:
                continue
            if game_id in self._settings:
                return self._settings[game_id]
            stored = await asyncio.to_thread(_load_setting, lobby.store, game_id)
            if stored is not None:  # only stored values are kept: another process may store one soon
                self._keep(self._settings, game_id, stored)
                return stored
        return default_allowed(live.seats)

    async def hint(self, lobby: Lobby, live: LiveGame, seat: int) -> dict[str, Any]:
        """The search's suggestion for ``seat``, which must be deciding now."""
        if not await self.allowed(lobby, live):
            raise ApiError(
                403, "hints_off", T("hints are off in this game (a game of humans only, by default)")
            )
        if live.over:
            raise ApiError(409, "game_over", T("this game has ended"))
        if live.to_move() != seat:
            raise ApiError(409, "not_your_turn", T("a hint is for your own turn"), version=live.version)
        key = (live.id, seat)
        kept = self._answers.get(key)
        if kept is not None and kept[0] == live.version:
            return kept[1]
        if key in self._asking:
            raise retry_later("hint_busy", T("a hint for you is being searched already"), 1)
        wait = self._last.get(key, -HINT_INTERVAL) + HINT_INTERVAL - self.clock()
        if wait > 0:
            raise retry_later("hint_too_soon", T("one hint every {n} seconds", n=f"{HINT_INTERVAL:g}"), wait)
        if self._thinking >= MAX_THINKING:
            raise retry_later(
                "hints_busy", T("the server is searching other hints; try again in a moment"), 2
            )
        version, info = live.version, InformationSet(live.game, live.state, seat)
        labels = dict(live.legal_labels())
        self._asking.add(key)
        self._thinking += 1
        self._keep(self._last, key, self.clock())
        try:
            advice = await lobby.bots.search(f"{live.id}:{seat}", advise, info, LEVEL, None, version)
        finally:
            self._asking.discard(key)
            self._thinking -= 1
        if live.version != version:
            raise ApiError(409, "stale_version", T("the game moved on while the hint was searched; resync"))
        answer = _advice_json(advice, labels, version)
        self._keep(self._answers, key, (version, answer))
        return answer

    async def analysis(self, lobby: Lobby, live: LiveGame) -> tuple[int, dict[str, Any]]:
        """``live``'s analysis (200) once done; (202) while it runs, starting it if needed."""
        if not live.over:
            raise ApiError(409, "not_over", T("the analysis is made once the game has ended"))
        done = self._analyses.get(live.id)
        if done is not None:
            self._analyses.move_to_end(live.id)
            return 200, done
        if live.id not in self._running:
            if len(self._running) >= MAX_ANALYSES:
                raise retry_later(
                    "analyses_busy", T("the server is analysing another game; try again soon"), 10
                )
            task = asyncio.get_running_loop().create_task(self._analyse(lobby, live))
            self._running[live.id] = task
        return 202, {"status": "running", "level": LEVEL}

    async def _analyse(self, lobby: Lobby, live: LiveGame) -> None:
        try:
            record = live.record()
            players = live.config.players
            data = await lobby.bots.search(f"analysis:{live.id}", analysis_json, live.game, record, players)
            self._keep(self._analyses, live.id, {"status": "done", **data})
        except Exception as e:  # a failed analysis is reported, not retried in a loop
            self._keep(self._analyses, live.id, {"status": "failed", "message": str(e)[:200]})
        finally:
            self._running.pop(live.id, None)

    async def stop(self) -> None:
        """Abandon the analyses under way."""
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)


def analysis_json(game: Game[Any], record: Record, players: int) -> dict[str, Any]:
    """The analysis of a finished game as JSON (run in a worker)."""
    return analyse(game, record).to_json(players)


def _advice_json(advice: Advice, labels: dict[Action, str], version: int) -> dict[str, Any]:
    return {
        "version": version,
        "level": LEVEL,
        "action": advice.action.to_json(),
        "label": labels.get(advice.action, str(advice.action)),
        "win": None if advice.win is None else round(advice.win, 3),
    }
