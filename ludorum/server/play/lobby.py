"""One server process's play: the lobby (games made, joined, left, played again, looked at), and the
play core with the parts it is given, put together once (:class:`Lobby`).

What the HTTP layer asks goes through here; a step goes straight to the core (:attr:`Lobby.hub`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Any

from sqlalchemy.exc import IntegrityError

from ludorum.agents.kinds import default_kind
from ludorum.engine import ConfigError, LudorumError, Record, Registry
from ludorum.engine.clock import LOSE, ClockSpec
from ludorum.engine.i18n import T
from ludorum.server import security
from ludorum.server.errors import ApiError, said
from ludorum.server.limits import Admission, Limits
from ludorum.server.play.admission import bot_kind, check_record, game_named, seat_data, valid_config
from ludorum.server.play.bots import Bots
from ludorum.server.play.catchup import CatchUp
from ludorum.server.play.clocks import Clock, GameClock, SystemClock
from ludorum.server.play.games import Games
from ludorum.server.play.hub import Hub
from ludorum.server.play.ledger import Ledger
from ludorum.server.play.live import LiveGame
from ludorum.server.play.loading import Loader
from ludorum.server.play.readings import Readings
from ludorum.server.play.watch import ClockWatch
from ludorum.server.security import match_seat, new_game_id, new_token, token_hash
from ludorum.server.store.db import Store
from ludorum.server.store.fanout import Fanout
from ludorum.server.store.retired import RetiredGame
from ludorum.server.work.pool import BotPool
from ludorum.server.work.workers import Workers

log = logging.getLogger("ludorum.server")

STOP_GRACE = 30.0
"""Seconds a stopping server waits for the readings under way to be decided and archived."""


class Lobby:
    """The games of one server process on ``store``, of the games in ``registry``.

    ``workers`` replay games and decide readings; ``bot_pool`` is where search bots think (``None``:
    threads); ``clock`` where the seats' clocks read the time; ``limits`` the quotas; ``bot_delay``
    pauses bots before each move so people can follow them."""

    def __init__(
        self,
        registry: Registry,
        store: Store,
        workers: Workers,
        bot_pool: BotPool | None = None,
        clock: Clock | None = None,
        limits: Limits | None = None,
        bot_delay: float = 0.0,
    ) -> None:
        self.registry = registry
        self.store = store
        self.workers = workers
        self.clock: Clock = clock or SystemClock()
        self.games = Games()
        self.bots = Bots(bot_pool)
        self.admission = Admission(limits or Limits(), self.games.bot_games)
        """The quotas: games per client, and all-bot games at once."""
        self.loader = Loader(registry, store, workers, self.clock, self.games)
        self.readings = Readings(workers, store)
        ledger = Ledger(store, self.games, self.loader, self.readings, ClockWatch(self.clock), self.clock)
        self.catch_up = CatchUp(self.games.playing, ledger)
        """The news of other server processes (PostgreSQL), and catching the games up with them."""
        news = self.catch_up
        self.fanout = Fanout(store.url, store.origin, news.news, news.all) if store.announcing else None
        """The news of other processes on the same PostgreSQL, and the drive locks (``None``: SQLite)."""
        self.hub = Hub(store, ledger, self.bots, self.clock, self.fanout, bot_delay)
        """The play core: every step goes through it."""
        self.catch_up.on_moved(self.hub.kick)
        self._background: list[asyncio.Task[None]] = []

    # -- start and stop -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start answering at once: a game is replayed when first asked for, and the unfinished games
        with a bot seat are resumed by a background task, one after the other.  On PostgreSQL, listen
        to the other server processes first (so that no step they take from now on goes unheard)."""
        loop = asyncio.get_running_loop()
        if self.fanout is not None:
            await self.fanout.start()
            self._background.append(loop.create_task(self.catch_up.take_over(self.undriven, self.adopt)))
        self._background.append(loop.create_task(self._resume_bots()))

    async def _resume_bots(self) -> None:
        for game_id in await asyncio.to_thread(self.store.unfinished_to_resume):
            try:
                await self.get(game_id)  # loads (in a worker thread) and kicks its bots
            except ApiError:
                pass  # unresumable: logged, and reported to whoever asks for it
            except Exception:  # one bad game must not stop the others from resuming
                log.exception("game %s could not be resumed", game_id)

    async def stop(self) -> None:
        """Stop the background resumption, the bots and the news of other processes."""
        for t in self._background:
            t.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        playing = self.games.playing.values()
        tasks = [g.advancer for g in playing if g.advancer and not g.advancer.done()]
        tasks += [g.clock.watcher for g in playing if g.clock and g.clock.watcher]
        tasks += self.catch_up.tasks.values()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # the readings under way are archived before the server goes (an upgrade shows games by them)
        await self.readings.finish(STOP_GRACE)
        if self.fanout is not None:
            await self.fanout.stop()  # closing its sessions lets this process's drive locks go

    async def undriven(self) -> list[str]:
        """The all-bot games stored unfinished that no process drives and this one does not hold."""
        assert self.fanout is not None
        stored = await asyncio.to_thread(self.store.unfinished_without_humans)
        ids = [i for i in stored if i not in self.games.playing]
        return await self.fanout.undriven(ids) if ids else []

    async def adopt(self, game_id: str) -> None:
        """Load (and so drive) an all-bot game that no process drives.  A game with a human seat is
        loaded again by whichever process its players' clients reach."""
        with contextlib.suppress(ApiError):  # unresumable: logged, and reported to whoever asks
            await self.get(game_id)  # loads it in a worker and kicks its bots

    # -- finding games --------------------------------------------------------------------------------

    async def look(self, game_id: str) -> LiveGame | RetiredGame:
        """The game ``game_id`` for viewing: live (a finished one is loaded from the database when
        needed), or retired (stored under another rules version: shown as played, never resumed)."""
        found, loaded = await self.loader.look(game_id)
        if loaded:
            assert isinstance(found, LiveGame)
            self.hub.play(found)
            if self.fanout is not None:  # a step another process took during the replay went unheard
                self.catch_up.news(game_id, None)
        return found

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` to play or join.  A game stored under another rules version is refused
        (``409 other_rules``; :meth:`look` shows it)."""
        found = await self.look(game_id)
        if isinstance(found, RetiredGame):
            raise ApiError(409, "other_rules", found.message)
        return found

    @staticmethod
    def seat_of(live: LiveGame | RetiredGame, token: str | None) -> int | None:
        """The seat a token holds in ``live`` (``None``: no token); a wrong token is refused."""
        if token is None:
            return None
        seat = match_seat(token, [(s.seat, s.token_hash) for s in live.seats])
        if seat is None:
            raise ApiError(401, "bad_token", T("this seat token is not valid for this game"))
        return seat

    # -- the lobby ------------------------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        config_json: dict[str, Any],
        specs: list[tuple[str, str | None]],
        claim: int | None,
        record: Record | None = None,
        rematch_of: str | None = None,
        holders: list[str | None] | None = None,
        client: str | None = None,
        clock: ClockSpec | None = None,
    ) -> tuple[LiveGame, str | None]:
        """Start a game (or resume an uploaded record); returns it and the claimed seat's token.

        Within the quotas (``Admission.starting``): ``client`` (when given) may start only so many games per
        window, and the server runs only so many games without a human (429 beyond).  ``holders`` gives
        human seats to the holders of these token hashes (a rematch's players).  A game resumed from a
        record keeps the record's seed, which its uploader chose: it is marked ``seed_chosen``.
        ``clock``: the seats' clocks (``play/clocks.py``).  Raises
        ``IntegrityError`` if ``rematch_of`` already has its rematch."""
        with self.admission.starting(client, all(kind == "bot" for kind, _ in specs)):
            game = game_named(self.registry, game_name)
            try:
                # a game's own checks may build things from the options (a deck): off the event loop
                config = await asyncio.to_thread(valid_config, game, config_json)
            except ConfigError as e:
                raise ApiError(422, "bad_config", said(e)) from None
            seats = seat_data(game, specs, config.players)
            for s, held in zip(seats, holders or [], strict=False):
                if s.kind == "human":
                    s.token_hash = held
            token = None
            if claim is not None:
                if not 0 <= claim < len(seats) or seats[claim].kind != "human":
                    raise ApiError(422, "bad_claim", T("you can only take a human seat of this game"))
                token = new_token()
                seats[claim].token_hash = token_hash(token)
            game_id = new_game_id()
            seed_chosen = record is not None
            if record is None:
                record = Record(game.name, config, security.new_seed())
            else:
                check_record(game, config, record)
            try:
                live = await self.loader.replayed(game, game_id, record, seats)
            except LudorumError as e:
                raise ApiError(422, "bad_record", f"the record cannot be replayed: {e}") from None
            live.rematch_of = rematch_of
            live.seed_chosen = seed_chosen
            if clock is not None:  # the bot that takes a seat whose time ran out (none if it loses)
                taker = bot_kind(game, clock.bot or default_kind(game)) if clock.on_expiry != LOSE else None
                clock = dataclasses.replace(clock, bot=taker)
                live.clock = GameClock.begin(clock, config.players, live.clocked(), self.clock)
            result = live.result().to_json() if live.over else None
            await asyncio.to_thread(
                self.store.create_game,
                game_id,
                game.name,
                config.to_json(),
                record.seed,
                live.status,
                seats,
                [(s, a.to_json()) for s, a in record.steps],
                result,
                rematch_of,
                seed_chosen,
                game.rules_version,
                None if live.clock is None else live.clock.spec.to_json(),
                None if live.clock is None else live.clock.state.to_json(),
            )
            self.games.hold(live)
            if not live.over:
                self.hub.play(live)
            return live, token

    async def claim(self, live: LiveGame, seat: int, accept_chosen_seed: bool = False) -> str:
        """Take a free human seat; returns its new token.  A game whose seed its uploader chose is
        joined only by someone who says they know (``accept_chosen_seed``)."""
        async with live.lock:
            if not 0 <= seat < len(live.seats):
                raise ApiError(
                    404, "no_such_seat", T("this game has seats 0 to {last}", last=len(live.seats) - 1)
                )
            s = live.seats[seat]
            if s.kind != "human" or s.token_hash is not None:
                raise ApiError(409, "seat_taken", T("this seat is not free"))
            if live.over:
                raise ApiError(409, "game_over", T("this game has ended"))
            if live.seed_chosen and not accept_chosen_seed:
                raise ApiError(
                    409,
                    "chosen_seed",
                    T(
                        "this game was resumed from an uploaded record whose seed its uploader chose: they "
                        "know the order of every deck and every future roll; join only if you accept that "
                        "(accept_chosen_seed=true)"
                    ),
                )
            token = new_token()
            s.token_hash = token_hash(token)
            if not await asyncio.to_thread(self.store.claim_seat, live.id, seat, s.token_hash, live.status):
                s.token_hash = None
                raise ApiError(409, "seat_taken", T("this seat is not free"))
            await self.hub.ledger.resettle_clock(live)
            live.push_all(force=True)
        return token

    async def leave(self, live: LiveGame, seat: int, bot: str | None) -> None:
        """Give up a seat: it becomes free for another human, or a bot of kind ``bot`` takes it."""
        async with live.lock:
            if live.over:  # who played a finished game is history
                raise ApiError(409, "game_over", T("this game has ended; its seats can no longer change"))
            s = live.seats[seat]
            if bot is not None:
                if all(o.kind == "bot" for o in live.seats if o.seat != seat):
                    # the last human handing over to a bot starts an all-bot game
                    self.admission.refuse_bot_game()
                s.kind, s.bot, s.token_hash = "bot", bot_kind(live.game, bot), None
                live.bots.pop(seat, None)
            else:
                s.token_hash = None
            await asyncio.to_thread(self.store.set_seat, live.id, s, live.status)
            await self.hub.ledger.resettle_clock(live)
            live.push_all(force=True)
        self.hub.kick(live)

    async def rematch(self, live: LiveGame) -> LiveGame:
        """The one rematch of a finished game, made now if it does not exist yet: same setup, a fresh
        seed, and every seat held by the same player (token) or bot as at the end."""
        if not live.over:
            raise ApiError(409, "not_over", T("a rematch starts once this game has ended"))
        # this process's callers wait for the first; the database's unique index decides between processes
        async with live.lock:
            existing = await asyncio.to_thread(self.store.rematches, live.id)
            if not existing:
                try:
                    new, _ = await self.create(
                        live.game.name,
                        live.config.to_json(),
                        [(s.kind, s.bot) for s in live.seats],
                        None,
                        rematch_of=live.id,
                        holders=[s.token_hash for s in live.seats],
                        clock=None if live.clock is None else live.clock.spec,
                    )
                    return new
                except IntegrityError:  # another server process made it first
                    existing = await asyncio.to_thread(self.store.rematches, live.id)
        return await self.get(existing[0])
