"""The hub: every live game, the one path by which a step is taken, stored and pushed, and the bots.

A step — a human's submission, a bot's choice or a chance draw — is checked against the version the
submitter saw and against the rules, stored (committed) in the database, and only then applied in
memory, acknowledged and pushed to every WebSocket subscriber.  Steps of one game are serialised by the
game's lock; the database's primary key on ``(game, index)`` backs that up across processes.  Bots and
chance run in one background task per game; search bots think in worker processes (``BotPool``), other
bots in a thread, never on the event loop, and see only their seat's information set.

On PostgreSQL several processes may serve one database (``fanout.py``): each hears of the others' steps
and catches the game up from the database (``catchup.py``), and only the process holding a game's
drive lock moves its bots and chance (:meth:`Hub.drive`) — what acts on a game by itself goes through
that one gate and then through the step's one-winner-per-version insert.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from ludorum.agents import make_bot
from ludorum.agents.kinds import default_kind
from ludorum.agents.pool import BotPool
from ludorum.engine import (
    CHANCE,
    Action,
    Config,
    ConfigError,
    Game,
    IllegalAction,
    LudorumError,
    Record,
    Registry,
    disclosure,
)
from ludorum.engine.clock import LOSE, ClockSpec
from ludorum.engine.disclosure import LogEntry, timeout_entry
from ludorum.engine.i18n import T
from ludorum.engine.information import InformationSet
from ludorum.engine.record import TIMEOUT, is_handover, timed_out_seat, timeout_result, timeout_step
from ludorum.server import security
from ludorum.server.admission import bot_kind, check_record, game_named, seat_data, valid_config
from ludorum.server.archive import archive_views
from ludorum.server.catchup import CatchUp
from ludorum.server.clocks import Clock, GameClock, SystemClock, clocked_seat
from ludorum.server.db import FINISHED, SeatData, Store, StoredGame
from ludorum.server.errors import ApiError, said
from ludorum.server.fanout import Fanout
from ludorum.server.limits import Admission, Limits
from ludorum.server.live import LiveGame, provisional_entry
from ludorum.server.retired import RetiredGame, entry_json, other_rules_message, retire
from ludorum.server.security import match_seat, new_game_id, new_token, token_hash
from ludorum.server.watch import ClockWatch
from ludorum.server.workers import Workers

log = logging.getLogger("ludorum.server")

FINISHED_CACHE = 64
"""How many finished games stay in memory for viewing (the rest reload from the database)."""

STOP_GRACE = 30.0
"""Seconds a stopping server waits for the readings under way to be decided and archived."""

MAX_PENDING = 16
"""How many steps of one game may wait for their readings before its next step waits for the oldest
(a game played faster than its disclosures would otherwise leave its spectators ever further behind)."""

_Shown = TypeVar("_Shown", LiveGame, RetiredGame)
_Found = TypeVar("_Found")


def _no_such_game() -> ApiError:
    return ApiError(404, "no_such_game", T("there is no game with this id"))


def _unresumable(reason: str) -> ApiError:
    return ApiError(409, "unresumable", T("this game cannot be resumed: {reason}", reason=reason))


class Hub:
    """Holds the live games of one server process."""

    def __init__(
        self,
        registry: Registry,
        store: Store,
        bot_delay: float = 0.0,
        limits: Limits | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.registry = registry
        self.clock: Clock = clock or SystemClock()
        """Where the seats' clocks read the time (tests inject a ``ManualClock``)."""
        self.store = store
        self.bot_delay = bot_delay
        self.admission = Admission(limits or Limits(), self._bot_games)
        """The quotas: games per client, and all-bot games at once."""
        self.bot_pool: BotPool | None = None
        """Worker processes for search bots (the app sets it); ``None``: every bot thinks in a thread."""
        self.workers = Workers(0)
        """Where disclosures and replays run, off the event loop (the app sets worker processes)."""
        self.games: dict[str, LiveGame] = {}
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()
        self.broken: dict[str, str] = {}
        self.retired: OrderedDict[str, RetiredGame] = OrderedDict()
        """Stored games of another rules version (shown as played, never resumed), recently asked for."""
        self._loading: dict[str, asyncio.Lock] = {}
        self._resuming: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.catch_up = CatchUp(self.games, self._refresh, self.kick)
        """The news of other server processes (PostgreSQL), and catching the games up with them."""
        news = self.catch_up
        self.fanout = Fanout(store.url, store.origin, news.news, news.all) if store.announcing else None
        """The news of other server processes on the same PostgreSQL, and the drive locks (``None``:
        SQLite, one process)."""
        self.clocks = ClockWatch(self.clock, self._time_out)
        """The watchers of the games' running clocks."""
        self._taking_over: asyncio.Task[None] | None = None

    # -- start and stop -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start answering at once: a game is replayed when first asked for, and the unfinished games
        with a bot seat are resumed by a background task, one after the other.  On PostgreSQL, listen
        to the other server processes first (so that no step they take from now on goes unheard)."""
        loop = asyncio.get_running_loop()
        if self.fanout is not None:
            await self.fanout.start()
            self._taking_over = loop.create_task(self.catch_up.take_over(self._undriven, self._adopt))
        self._resuming = loop.create_task(self._resume_bots())

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
        background = [t for t in (self._resuming, self._taking_over) if t is not None]
        for t in background:
            t.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        tasks = [g.advancer for g in self.games.values() if g.advancer and not g.advancer.done()]
        tasks += [g.clock.watcher for g in self.games.values() if g.clock and g.clock.watcher]
        tasks += self.catch_up.tasks.values()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # the readings under way are archived before the server goes (an upgrade shows games by them)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_GRACE)
        if self.fanout is not None:
            await self.fanout.stop()  # closing its sessions lets this process's drive locks go

    async def _revive(self, stored: StoredGame) -> LiveGame | None:
        try:
            if stored.game not in self.registry:
                raise LudorumError(f"no game called {stored.game!r} is installed")
            game = self.registry.get(stored.game)
            if stored.rules_version != game.rules_version:  # never replayed under other rules
                raise LudorumError(other_rules_message(game.title, stored.rules_version, game.rules_version))
            steps = [(seat, Action.from_json(a)) for seat, a in stored.steps]
            record = Record(stored.game, Config.from_json(stored.config), stored.seed, steps)
            live = await self._from_record(game, stored.id, record, stored.seats)
        except LudorumError as e:
            log.error("game %s cannot be resumed: %s", stored.id, e)
            self.broken[stored.id] = str(e)
            return None
        live.rematch_of, live.created = stored.rematch_of, stored.created
        live.seed_chosen = stored.seed_chosen
        self._restore_clock(live, stored)
        return live

    def _restore_clock(self, live: LiveGame, stored: StoredGame) -> None:
        """Give a loaded game its stored clocks (they go on counting from the stored start)."""
        if stored.clock is not None:
            live.clock = GameClock.restore(
                stored.clock, stored.clock_state, live.config.players, live.clocked(), self.clock
            )

    async def _from_record(
        self, game: Game[Any], game_id: str, record: Record, seats: list[SeatData]
    ) -> LiveGame:
        """The game replayed from ``record`` in a worker (a replay discloses every step: off the loop)."""
        state, entries = await self.workers.replay(game_id, game, record)
        return LiveGame(game_id, game, record.config, record.seed, seats, state, list(record.steps), entries)

    # -- finding games ----------------------------------------------------------------------------------

    async def look(self, game_id: str) -> LiveGame | RetiredGame:
        """The game ``game_id`` for viewing: live (a finished one is loaded from the database when
        needed), or retired (stored under another rules version: shown as played, never resumed)."""
        live = self.games.get(game_id) or self.finished.get(game_id)
        if live is not None:
            return live
        if len(game_id) > 32 or not game_id.isalnum():
            raise _no_such_game()
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            return await self._load(game_id, lock)
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` to play or join.  A game stored under another rules version is refused
        (``409 other_rules``; :meth:`look` shows it)."""
        found = await self.look(game_id)
        if isinstance(found, RetiredGame):
            raise ApiError(409, "other_rules", found.message)
        return found

    async def _load(self, game_id: str, lock: asyncio.Lock) -> LiveGame | RetiredGame:
        async with lock:
            live = self.games.get(game_id) or self.finished.get(game_id)
            if live is not None:
                return live
            if game_id in self.broken:
                raise _unresumable(self.broken[game_id])
            if game_id in self.retired:
                return self.retired[game_id]
            stored = await asyncio.to_thread(self.store.load, game_id)
            if stored is None:
                raise _no_such_game()
            if stored.game in self.registry:
                game = self.registry.get(stored.game)
                if stored.rules_version != game.rules_version:
                    return self._keep(self.retired, retire(stored, game))
            live = await self._revive(stored)  # a replay: in a worker, off the event loop
            if live is None:
                raise _unresumable(self.broken[game_id])
            if live.over:
                self._keep(self.finished, live)
            else:
                self.games[game_id] = live
                self.kick(live)
                self.clocks.watch(live)
                if self.fanout is not None:  # a step another process took during the replay went unheard
                    self.catch_up.news(game_id, None)
            return live

    @staticmethod
    def _keep(cache: OrderedDict[str, _Shown], game: _Shown) -> _Shown:
        """Keep ``game`` in a cache of games for viewing, which holds the ``FINISHED_CACHE`` latest."""
        cache[game.id] = game
        cache.move_to_end(game.id)
        while len(cache) > FINISHED_CACHE:
            cache.popitem(last=False)
        return game

    def seat_of(self, live: LiveGame | RetiredGame, token: str | None) -> int | None:
        """The seat a token holds in ``live`` (``None``: no token); a wrong token is refused."""
        if token is None:
            return None
        seat = match_seat(token, [(s.seat, s.token_hash) for s in live.seats])
        if seat is None:
            raise ApiError(401, "bad_token", T("this seat token is not valid for this game"))
        return seat

    # -- the lobby ---------------------------------------------------------------------------------------

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
        ``clock``: the seats' clocks (``ludorum/server/clocks.py``).  Raises
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
                live = await self._from_record(game, game_id, record, seats)
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
            if live.over:
                self._keep(self.finished, live)
            else:
                self.games[game_id] = live
                self.kick(live)
                self.clocks.watch(live)
            return live, token

    def _bot_games(self) -> int:
        """Unfinished games of this process without a human seat."""
        return sum(1 for g in self.games.values() if all(s.kind == "bot" for s in g.seats))

    def _finished(self, live: LiveGame) -> None:
        """``live`` has ended: from the games played to the cache of games for viewing."""
        self.games.pop(live.id, None)
        self._keep(self.finished, live)

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
            await self._resettle_clock(live)
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
            await self._resettle_clock(live)
            live.push_all(force=True)
        self.kick(live)

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

    # -- play --------------------------------------------------------------------------------------------

    async def submit(self, live: LiveGame, seat: int, version: int, action: Action) -> None:
        """A human's action: checked against version, turn and rules, stored, then pushed."""
        async with live.lock:
            if version != live.version:
                await self._refresh(live)  # another server process may have moved the game on
            if live.over:
                raise ApiError(409, "game_over", T("this game has ended"))
            if version != live.version:
                raise ApiError(
                    409,
                    "stale_version",
                    T(
                        "the game has moved on (you saw version {seen}, it is at {now}); resync",
                        seen=version,
                        now=live.version,
                    ),
                    version=live.version,
                )
            if live.clock is not None and (lost := live.clock.state.expired(self.clock.now())) is not None:
                await self._time_out(live, lost)  # before its watcher woke: the deadline has passed
                raise ApiError(
                    409, "out_of_time", T("the deciding seat's time ran out"), version=live.version
                )
            if live.to_move() != seat:
                raise ApiError(409, "not_your_turn", T("it is not your turn"), version=live.version)
            try:
                # An open kind (a free placement) is validated exactly by apply itself.
                listed = live.is_legal(action)  # the legal actions of this version, once, as a set
                if not listed and action.kind not in live.game.open_kinds(live.state):
                    raise live.game.describe_error(live.state, action) or IllegalAction(
                        f"{action} is not possible now"
                    )
                await self._commit(live, seat, action)
            except IllegalAction as e:
                safe = disclosure.safe_refusal(live.game, live.state, seat, action, e)
                raise ApiError(422, "illegal_action", safe.message, rule=safe.rule) from None
        self.kick(live)

    async def _commit(self, live: LiveGame, seat: int, action: Action) -> None:
        """Take one step (lock held): apply, store, then show.  Raises ``IllegalAction`` untouched.

        The step is acknowledged once it is committed; what the other observers may read of it is
        decided afterwards by a worker (:meth:`_disclose`), and they are sent the step when it is.
        """
        if len(live.pending) >= MAX_PENDING:  # keep the disclosures from falling ever further behind
            await asyncio.wait([asyncio.shield(live.pending[min(live.pending)])])
        before = live.state
        index = live.version
        handover: SeatData | None = None
        seats = live.seats
        if seat == TIMEOUT:  # the seat the step names ran out of time: not a move, the state stays
            lost = timed_out_seat(action)
            after, over = before, not is_handover(action)
            result: dict[str, Any] | None = (
                timeout_result(live.game, before, lost).to_json() if over else None
            )
            if not over:  # a bot takes the seat, stored in the step's transaction
                assert live.clock is not None
                handover = SeatData(lost, "bot", live.clock.spec.bot or default_kind(live.game))
                seats = [handover if s.seat == lost else s for s in live.seats]
        else:
            after = live.game.step(before, action)  # well under a millisecond: not worth a thread hop
            over = live.game.is_over(after)
            result = live.game.result(after).to_json() if over else None
        next_mover = None if over else live.game.to_move(after)
        clock = None
        if live.clock is not None:  # the clocks after the step are stored with it
            clock = live.clock.after_step(seat, next_mover, clocked_seat(next_mover, seats, live.steps))
        status = FINISHED if over else live.status
        done = self.store.append(live.id, index, seat, action.to_json(), status, result, clock, handover)
        # shielded: a cancelled caller (a server stopping) must not cancel a write already queued
        if not await asyncio.shield(asyncio.wrap_future(done)):  # another process stored this step first
            await self._refresh(live)
            raise ApiError(409, "stale_version", T("the game has moved on; resync"), version=index + 1)
        self._taken(live, seat, action, before, after, handover=handover, clock=clock)
        live.push_all()

    def _taken(
        self,
        live: LiveGame,
        seat: int,
        action: Action,
        before: Any,
        after: Any,
        archive: bool = True,
        handover: SeatData | None = None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """Step ``live.version`` is stored (by this process, or by another, ``archive=False``): apply
        it in memory, with a provisional log entry, the seat it handed to a bot and the clocks stored
        with it, and have a worker decide its readings (a ``TIMEOUT`` step needs none)."""
        index = live.version
        live.state = after
        live.steps.append((seat, action))
        live.log.append(
            timeout_entry(live.game, index, before, action)
            if seat == TIMEOUT
            else provisional_entry(live.game, index, before, seat, action, after)
        )
        if handover is not None:
            live.seats[handover.seat] = handover
            live.bots.pop(handover.seat, None)
        if live.clock is not None and clock is not None:
            live.clock.commit(clock)
            self.clocks.watch(live)
        if live.over:  # every step is public now: the last one's readings wait for no one
            self._finished(live)
        if seat == TIMEOUT:  # nothing for a worker to decide: everyone reads a timeout
            if archive:  # archived like every step (a game is shown by its archive if its rules change)
                self.store.archive(
                    live.id, index, entry_json(live.log[index]), archive_views(live.game, after)
                )
            return
        if not live.over:
            live.pending[index] = asyncio.get_running_loop().create_future()
        # every step's readings and the views after it are archived (shown so if the rules change) by
        # the process that took the step
        label = live.human_to_move()  # its labels too, unless it took the step (its ack needs them now)
        task = asyncio.get_running_loop().create_task(
            self._disclose(
                live, index, before, seat, action, after, archive, None if label == seat else label
            )
        )
        self._tasks.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    # -- clocks (ludorum/server/clocks.py) ---------------------------------------------------------------

    async def _time_out(self, live: LiveGame, seat: int) -> None:
        """``seat``'s time ran out (lock held): the lobby's choice applies as one ``TIMEOUT`` step that
        goes through the commit path of a move — so of it and a move (or another process's timeout)
        for the same version, exactly one is stored: the seat loses (the step ends the record), or a
        bot takes the seat (stored in the step's transaction) and plays on."""
        assert live.clock is not None
        await self._commit(live, TIMEOUT, timeout_step(seat, handover=live.clock.spec.on_expiry != LOSE))
        self.kick(live)

    async def _resettle_clock(self, live: LiveGame) -> None:
        """A seat was taken or left (lock held): start or stop the deciding seat's clock, durably."""
        if live.clock is not None and not live.over:
            state = live.clock.resettle(live.clocked())
            if state is not None:
                await asyncio.to_thread(self.store.set_clock, live.id, state)
            self.clocks.watch(live)

    async def _disclose(
        self,
        live: LiveGame,
        index: int,
        before: Any,
        seat: int,
        action: Action,
        after: Any,
        archive: bool,
        label: int | None = None,
    ) -> None:
        """Decide in a worker what every observer may read of step ``index`` (and the labels of the
        human seat ``label`` deciding next), then send it to them."""
        entry: LogEntry | None = None
        try:
            entry, views, labels = await self.workers.disclose(
                live.id, live.game, index, before, seat, action, after, label
            )
            if labels is not None:
                live.labelled(index + 1, after, labels)
            live.encoded_views(after, views)
            if archive:
                self.store.archive(live.id, index, entry_json(entry), views.archive())
        except Exception:  # a faulty game must not stall the log: the step stays secret to the others
            log.exception("game %s: the readings of step %d could not be decided", live.id, index)
        finally:
            done = live.pending.pop(index, None)
        if entry is not None and index < len(live.log) and live.log[index].action == action:
            live.log[index] = entry
        if done is not None and not done.done():
            done.set_result(None)
        live.push_all()

    async def _refresh(self, live: LiveGame) -> None:
        """Catch up (lock held) with the steps and seats that another server process stored: the new
        steps are applied one by one (no replay of the whole game), and pushed."""
        seats, steps, clock_state = await asyncio.to_thread(self.store.since, live.id, live.version)
        if not seats:  # the game is gone from the database: nothing to catch up with
            return
        moved = seats != live.seats
        if moved:
            live.seats = seats
            live.bots.clear()
        try:
            for seat, action_json in steps:
                if live.over:
                    break
                action = Action.from_json(action_json)
                # a timeout changes no state (the seat it hands to a bot came with the seats above)
                after = live.state if seat == TIMEOUT else live.game.step(live.state, action)
                self._taken(live, seat, action, live.state, after, archive=False)
        except LudorumError:  # not what this process holds in memory: start again from the record
            log.exception("game %s: another process's step does not apply here; reloading", live.id)
            await self._reload(live)
        if live.clock is not None and clock_state is not None:  # as stored with the last step
            live.clock.commit(clock_state)
            live.clock.state.settle(live.clock.spec, live.clocked(), self.clock.now())
            self.clocks.watch(live)
        live.push_all(force=moved)

    async def _reload(self, live: LiveGame) -> None:
        """Replace (lock held) the game held in memory by its replay from the database."""
        stored = await asyncio.to_thread(self.store.load, live.id)
        if stored is not None:
            fresh = await self._revive(stored)
            if fresh is not None:
                for f in live.pending.values():  # the fresh log is complete
                    if not f.done():
                        f.set_result(None)
                live.pending.clear()
                live.seats, live.state, live.steps, live.log = (
                    stored.seats,
                    fresh.state,
                    fresh.steps,
                    fresh.log,
                )
                live.bots.clear()
                if live.clock is not None:  # as stored, for the game as it now stands
                    self._restore_clock(live, stored)
                    self.clocks.watch(live)
                if live.over:  # the steps it missed ended the game
                    self._finished(live)

    # -- other server processes (PostgreSQL) ------------------------------------------------------------

    async def drive(self, live: LiveGame) -> bool:
        """Whether this process may act on ``live`` by itself (move its bots and chance, and whatever
        else acts without a request, such as a clock): the holder of its drive lock on PostgreSQL,
        always on SQLite.  Called before every such step; the step then goes through :meth:`_commit`,
        whose insert stores one step per version whichever process took it."""
        return self.fanout is None or await self.fanout.drive(live.id)

    async def _let_go(self, live: LiveGame) -> None:
        """Nothing for this process to do by itself in ``live`` (a human's turn, or the end): let its
        drive lock go, so that whichever process takes the next human step drives what follows."""
        if self.fanout is not None:
            await self.fanout.release(live.id)

    async def _undriven(self) -> list[str]:
        """The all-bot games stored unfinished that no process drives and this one does not hold."""
        assert self.fanout is not None
        ids = [
            i for i in await asyncio.to_thread(self.store.unfinished_without_humans) if i not in self.games
        ]
        return await self.fanout.undriven(ids) if ids else []

    async def _adopt(self, game_id: str) -> None:
        """Load (and so drive) an all-bot game that no process drives.  A game with a human seat is
        loaded again by whichever process its players' clients reach."""
        with contextlib.suppress(ApiError):  # unresumable: logged, and reported to whoever asks
            await self.get(game_id)  # loads it in a worker and kicks its bots

    async def search(self, key: str, fn: Callable[..., _Found], *args: Any) -> _Found:
        """``fn(*args)`` (a search: a hint, an analysis) in the bot worker of ``key``, sharing the bots'
        workers and their lower priority; in a thread when there is no bot pool."""
        if self.bot_pool is not None:
            return await self.bot_pool.call(key, fn, *args)
        return await asyncio.to_thread(fn, *args)

    def kick(self, live: LiveGame) -> None:
        """Make sure chance and bots move if it is their turn."""
        if live.advancer is None or live.advancer.done():
            live.advancer = asyncio.get_running_loop().create_task(self._advance(live))

    async def _advance(self, live: LiveGame) -> None:
        try:
            await self._advance_loop(live)
        except asyncio.CancelledError:
            raise
        except Exception:  # a faulty bot or game must not take the server down
            log.exception("game %s: the bots stopped", live.id)
            await self._let_go(live)

    async def _advance_loop(self, live: LiveGame) -> None:
        while True:
            async with live.lock:
                mover = live.to_move()
                if mover is None or (mover != CHANCE and live.seats[mover].kind != "bot"):
                    await self._let_go(live)  # under the lock: no step can come in between
                    return
                if not await self.drive(live):
                    return  # another process drives this game (it hears of our steps)
                if mover == CHANCE:
                    await self._lost_race_is_fine(
                        live, self._commit(live, CHANCE, live.game.sample_chance(live.state))
                    )
                    continue
                seat = live.seats[mover]
                bot = live.bots.get(mover)
                if bot is None:
                    bot = live.bots[mover] = make_bot(live.game, seat.bot or "random")
                version = live.version
                legal = live.legal()
                info = InformationSet(live.game, live.state, mover)
                # A bot pauses before its turn so people can follow; the further atomic decisions of
                # one compound action (a march: from, to, which units) follow quickly.
                again = bool(live.steps) and live.steps[-1][0] == mover
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay / 5 if again else self.bot_delay)
            try:
                if self.bot_pool is not None:
                    action = await self.bot_pool.decide(f"{live.id}:{mover}", bot, info, live.bot_rng)
                else:
                    action = await asyncio.to_thread(bot.decide, info, live.bot_rng)
            except Exception:  # a faulty bot must not stall the game: play a random legal action
                log.exception("game %s: bot %s failed; playing a random legal action", live.id, seat.bot)
                action = live.bot_rng.choice(legal)
            async with live.lock:
                if live.version != version or live.seats[mover].kind != "bot":
                    continue
                if action not in legal:
                    log.error(
                        "bot %s chose an illegal action in game %s; playing the first legal one",
                        seat.bot,
                        live.id,
                    )
                    action = legal[0]
                await self._lost_race_is_fine(live, self._commit(live, mover, action))

    @staticmethod
    async def _lost_race_is_fine(live: LiveGame, commit: Awaitable[None]) -> None:
        """Take a step of a bot or chance; if another process stored that step first, the game has
        been caught up and goes on from there.  That happens only when two processes drove the game
        at once (a drive-lock session was lost), so it is worth a warning."""
        try:
            await commit
        except ApiError as e:
            if e.code != "stale_version":
                raise
            log.warning("game %s: another server process took step %d first", live.id, e.extra["version"] - 1)
