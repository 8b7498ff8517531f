"""The hub: every live game, the one path by which a step is taken, stored and pushed, and the bots.

A step — a human's submission, a bot's choice or a chance draw — is checked against the version the
submitter saw and against the rules, stored (committed) in the database, and only then applied in
memory, acknowledged and pushed to every WebSocket subscriber.  Steps of one game are serialised by the
game's lock; the database's primary key on ``(game, index)`` backs that up across processes.  Bots and
chance run in one background task per game; search bots think in worker processes (``BotPool``), other
bots in a thread, never on the event loop, and see only their seat's information set.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from ludorum.agents import make_bot
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
    i18n,
)
from ludorum.engine.disclosure import LogEntry
from ludorum.engine.i18n import T
from ludorum.engine.information import InformationSet
from ludorum.server.db import FINISHED, SeatData, Store, StoredGame
from ludorum.server.errors import ApiError, said
from ludorum.server.limits import ClientQuota, Limits, bot_games_refusal
from ludorum.server.live import LiveGame, Subscriber, provisional_entry
from ludorum.server.retired import RetiredGame, entry_json, other_rules_message, retire
from ludorum.server.security import match_seat, new_game_id, new_seed, new_token, token_hash
from ludorum.server.workers import Workers

log = logging.getLogger("ludorum.server")

MAX_SEED = 2**64 - 1
"""The largest seed magnitude a game may be stored with: the generator keeps 64 bits, and the same rule
holds on every database (the seed column holds decimal text of at most 40 characters)."""

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


def _bot_kind(game: Game[Any], kind: str) -> str:
    """``kind``, if ``game`` has bots of that kind (``422 bad_bot`` otherwise)."""
    try:
        make_bot(game, kind)
    except ConfigError as e:
        raise ApiError(422, "bad_bot", str(e)) from None
    return kind


def _valid_config(game: Game[Any], config_json: dict[str, Any]) -> Config:
    """The config, decoded (within the generic bounds) and validated by the game."""
    config = Config.from_json(config_json)
    game.validate_config(config)
    return config


class Hub:
    """Holds the live games of one server process."""

    def __init__(
        self, registry: Registry, store: Store, bot_delay: float = 0.0, limits: Limits | None = None
    ) -> None:
        self.registry = registry
        self.store = store
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.quota = ClientQuota(self.limits)
        self._bot_games_starting = 0  # all-bot games admitted but not yet in ``games``
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

    # -- start and stop -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start answering at once: a game is replayed when first asked for, and the unfinished games
        with a bot seat are resumed by a background task, one after the other."""
        self._resuming = asyncio.get_running_loop().create_task(self._resume_bots())

    async def _resume_bots(self) -> None:
        for game_id in await asyncio.to_thread(self.store.unfinished_with_bots):
            try:
                await self.get(game_id)  # loads (in a worker thread) and kicks its bots
            except ApiError:
                pass  # unresumable: logged, and reported to whoever asks for it
            except Exception:  # one bad game must not stop the others from resuming
                log.exception("game %s could not be resumed", game_id)

    async def stop(self) -> None:
        """Stop the background resumption and the bots."""
        if self._resuming is not None:
            self._resuming.cancel()
            await asyncio.gather(self._resuming, return_exceptions=True)
        tasks = [g.advancer for g in self.games.values() if g.advancer and not g.advancer.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # the readings under way are archived before the server goes (an upgrade shows games by them)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_GRACE)

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
        return live

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

    def _seats(self, game: Game[Any], specs: list[tuple[str, str | None]], players: int) -> list[SeatData]:
        if len(specs) != players:
            raise ApiError(
                422,
                "bad_seats",
                T("give one seat for each of the {players} players, not {n}", players=players, n=len(specs)),
            )
        seats = []
        for i, (kind, bot) in enumerate(specs):
            if kind == "bot":
                seats.append(SeatData(i, "bot", _bot_kind(game, bot or "random")))
            else:
                seats.append(SeatData(i, "human"))
        return seats

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
    ) -> tuple[LiveGame, str | None]:
        """Start a game (or resume an uploaded record); returns it and the claimed seat's token.

        Within the quotas (:meth:`_starting`): ``client`` (when given) may start only so many games per
        window, and the server runs only so many games without a human (429 beyond).  ``holders`` gives
        human seats to the holders of these token hashes (a rematch's players).  A game resumed from a
        record keeps the record's seed, which its uploader chose: it is marked ``seed_chosen``.  Raises
        ``IntegrityError`` if ``rematch_of`` already has its rematch."""
        with self._starting(client, all(kind == "bot" for kind, _ in specs)):
            if game_name not in self.registry:
                names = ", ".join(self.registry.names()) or "none"
                raise ApiError(
                    404,
                    "no_such_game_type",
                    T("no game called {name}; the games are: {names}", name=repr(game_name), names=names),
                )
            game = self.registry.get(game_name)
            try:
                # a game's own checks may build things from the options (a deck): off the event loop
                config = await asyncio.to_thread(_valid_config, game, config_json)
            except ConfigError as e:
                raise ApiError(422, "bad_config", said(e)) from None
            seats = self._seats(game, specs, config.players)
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
                record = Record(game.name, config, new_seed())
            elif abs(record.seed) > MAX_SEED:
                raise ApiError(
                    422, "bad_record", f"the record's seed is a whole number from {-MAX_SEED} to {MAX_SEED}"
                )
            elif record.rules is not None and record.rules != game.rules_version:
                raise ApiError(
                    422,
                    "other_rules",
                    f"this record was played under {game.title} rules version {record.rules}, and this "
                    f"server plays version {game.rules_version}: it cannot be replayed under other rules",
                )
            elif len(record.steps) > game.max_decisions(config):
                raise ApiError(
                    422, "bad_record", f"the record has more steps than any game of {game.title} takes"
                )
            try:
                live = await self._from_record(game, game_id, record, seats)
            except LudorumError as e:
                raise ApiError(422, "bad_record", f"the record cannot be replayed: {e}") from None
            live.rematch_of = rematch_of
            live.seed_chosen = seed_chosen
            result = live.game.result(live.state).to_json() if live.over else None
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
            )
            if live.over:
                self._keep(self.finished, live)
            else:
                self.games[game_id] = live
                self.kick(live)
            return live, token

    @contextlib.contextmanager
    def _starting(self, client: str | None, all_bots: bool) -> Iterator[None]:
        """Admit the start of a game by ``client`` (counted against its quota), without a human if
        ``all_bots``; a start that fails does not count."""
        if client is not None:
            self.quota.check(client)
        try:
            if all_bots:
                self._refuse_bot_game()
                self._bot_games_starting += 1
            try:
                yield
            finally:
                if all_bots:
                    self._bot_games_starting -= 1
        except BaseException:
            if client is not None:  # nothing was started: the attempt does not count
                self.quota.refund(client)
            raise

    def _bot_games(self) -> int:
        """Unfinished games of this process without a human seat, counting those being started."""
        running = sum(1 for g in self.games.values() if all(s.kind == "bot" for s in g.seats))
        return running + self._bot_games_starting

    def _refuse_bot_game(self) -> None:
        """Refuse (429) one more game without a human if this process runs its limit of them."""
        limit = self.limits.bot_games
        if limit and self._bot_games() >= limit:
            raise bot_games_refusal(limit)

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
            await self._push_all(live, force=True)
        return token

    async def leave(self, live: LiveGame, seat: int, bot: str | None) -> None:
        """Give up a seat: it becomes free for another human, or a bot of kind ``bot`` takes it."""
        async with live.lock:
            if live.over:  # who played a finished game is history
                raise ApiError(409, "game_over", T("this game has ended; its seats can no longer change"))
            s = live.seats[seat]
            if bot is not None:
                if all(o.kind == "bot" for o in live.seats if o.seat != seat):
                    self._refuse_bot_game()  # the last human handing over to a bot starts an all-bot game
                s.kind, s.bot, s.token_hash = "bot", _bot_kind(live.game, bot), None
                live.bots.pop(seat, None)
            else:
                s.token_hash = None
            await asyncio.to_thread(self.store.set_seat, live.id, s, live.status)
            await self._push_all(live, force=True)
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
            if live.to_move() != seat:
                raise ApiError(409, "not_your_turn", T("it is not your turn"), version=live.version)
            try:
                # An open kind (a free placement) is validated exactly by apply itself.
                listed = action in live.game.legal_actions(live.state)
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
        after = live.game.step(before, action)  # well under a millisecond: not worth a thread hop
        over = live.game.is_over(after)
        result = live.game.result(after).to_json() if over else None
        index = live.version
        status = FINISHED if over else live.status
        done = self.store.append(live.id, index, seat, action.to_json(), status, result)
        # shielded: a cancelled caller (a server stopping) must not cancel a write already queued
        if not await asyncio.shield(asyncio.wrap_future(done)):  # another process stored this step first
            await self._refresh(live)
            raise ApiError(409, "stale_version", T("the game has moved on; resync"), version=index + 1)
        live.state = after
        live.steps.append((seat, action))
        live.log.append(provisional_entry(live.game, index, before, seat, action, after))
        if over:  # every step is public now: the last one's readings wait for no one
            self.games.pop(live.id, None)
            self._keep(self.finished, live)
        else:
            live.pending[index] = asyncio.get_running_loop().create_future()
        # every step's readings and the views after it are archived (shown so if the rules change)
        task = asyncio.get_running_loop().create_task(
            self._disclose(live, index, before, seat, action, after)
        )
        self._tasks.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)
        await self._push_all(live)

    async def _disclose(
        self, live: LiveGame, index: int, before: Any, seat: int, action: Action, after: Any
    ) -> None:
        """Decide in a worker what every observer may read of step ``index``, then send it to them."""
        entry: LogEntry | None = None
        try:
            entry, views = await self.workers.disclose(live.id, live.game, index, before, seat, action, after)
            self.store.archive(live.id, index, entry_json(entry), views)
        except Exception:  # a faulty game must not stall the log: the step stays secret to the others
            log.exception("game %s: the readings of step %d could not be decided", live.id, index)
        finally:
            done = live.pending.pop(index, None)
        if entry is not None and index < len(live.log) and live.log[index].action == action:
            live.log[index] = entry
        if done is not None and not done.done():
            done.set_result(None)
        await self._push_all(live)

    async def _refresh(self, live: LiveGame) -> None:
        """Catch up (lock held) with steps and seats that another server process stored."""
        stored = await asyncio.to_thread(self.store.load, live.id)
        if stored is None:
            return
        live.seats = stored.seats
        live.bots.clear()
        if len(stored.steps) != live.version:
            fresh = await self._revive(stored)
            if fresh is not None:
                for f in live.pending.values():  # the fresh log is complete
                    if not f.done():
                        f.set_result(None)
                live.pending.clear()
                live.state, live.steps, live.log = fresh.state, fresh.steps, fresh.log
                await self._push_all(live)

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

    async def _advance_loop(self, live: LiveGame) -> None:
        while True:
            async with live.lock:
                mover = live.to_move()
                if mover is None:
                    return
                if mover == CHANCE:
                    await self._commit(live, CHANCE, live.game.sample_chance(live.state))
                    continue
                seat = live.seats[mover]
                if seat.kind != "bot":
                    return
                bot = live.bots.get(mover)
                if bot is None:
                    bot = live.bots[mover] = make_bot(live.game, seat.bot or "random")
                version = live.version
                legal = list(live.game.legal_actions(live.state))
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
                await self._commit(live, mover, action)

    # -- pushing -----------------------------------------------------------------------------------------

    def subscribe(
        self, live: LiveGame, observer: int | None, since: int, lang: str = i18n.SOURCE
    ) -> Subscriber:
        """Register a WebSocket client and queue its resync (the log from ``since``) — at once if the
        readings it needs are decided, else as soon as they are."""
        since = max(0, min(since, live.version))
        sub = Subscriber(observer, since, lang=lang)
        live.subscribers.add(sub)
        self._push(live, sub, {}, force=True)
        return sub

    async def _push_all(self, live: LiveGame, force: bool = False) -> None:
        """Send every subscriber what changed since it was last sent something, once the readings it
        needs are decided (a subscriber still waiting is sent the step by :meth:`_disclose`).
        ``force``: something changed without a step (a seat was taken or left), send it even so."""
        cache: dict[tuple[int | None, int, str], str] = {}
        for sub in list(live.subscribers):
            self._push(live, sub, cache, force)

    @staticmethod
    def _push(
        live: LiveGame, sub: Subscriber, cache: dict[tuple[int | None, int, str], str], force: bool = False
    ) -> None:
        if (sub.sent_version >= live.version and not force) or live.unread(sub.observer, sub.sent_version):
            return
        key = (sub.observer, sub.sent_version, sub.lang)
        if key not in cache:  # one encoding for every subscriber with the same eyes, news and language
            news = {"type": "state", **live.snapshot(sub.observer, sub.sent_version)}
            cache[key] = json.dumps(i18n.localize(news, sub.lang))
        sub.sent_version = live.version
        sub.queue.put_nowait(cache[key])
