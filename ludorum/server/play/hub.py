"""The play core: the one path by which a step is taken — submitted, committed, then applied, and the
bots and chance advanced.

A step — a human's submission, a bot's choice, a chance draw or a seat's timeout — is checked against the
version the submitter saw and against the rules, committed to the database, and only then applied in
memory (``Ledger.take``), acknowledged and pushed to every WebSocket subscriber; what the other observers
may read of it is decided afterwards in a worker (``readings.py``).  Steps of one game are serialised by
the game's lock; the database's primary key on ``(game, index)`` backs that up across processes.  Bots
and chance run in one background task per game (:meth:`Hub.kick`).

On PostgreSQL several processes may serve one database: only the process holding a game's drive lock
(``store/fanout.py``) moves its bots and chance by itself, and every step still goes through the
one-winner-per-version insert.  The core is given everything it works with: the store, the ledger (and
through it the disclosure workers), the bots, the time and the drive locks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from ludorum.agents.kinds import default_kind
from ludorum.engine import CHANCE, Action, IllegalAction, disclosure
from ludorum.engine.clock import LOSE
from ludorum.engine.disclosure import Step
from ludorum.engine.i18n import T
from ludorum.engine.information import InformationSet
from ludorum.engine.record import TIMEOUT, is_handover, timed_out_seat, timeout_result, timeout_step
from ludorum.server.errors import ApiError
from ludorum.server.play.bots import Bots
from ludorum.server.play.clocks import Clock, clocked_seat
from ludorum.server.play.ledger import Ledger
from ludorum.server.play.live import LiveGame
from ludorum.server.store.db import Store
from ludorum.server.store.fanout import Fanout
from ludorum.server.store.tables import FINISHED, SeatData

log = logging.getLogger("ludorum.server")

MAX_PENDING = 16
"""How many steps of one game may wait for their readings before its next step waits for the oldest
(a game played faster than its disclosures would otherwise leave its spectators ever further behind)."""


class Hub:
    """Takes the steps of the games one server process holds."""

    def __init__(
        self,
        store: Store,
        ledger: Ledger,
        bots: Bots,
        clock: Clock,
        drive: Fanout | None = None,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.ledger = ledger
        self.bots = bots
        self.clock = clock
        """Where the seats' clocks read the time (tests give a ``ManualClock``)."""
        self.drive_locks = drive
        """Who moves each game's bots and chance (``None``: SQLite, one process: this one)."""
        self.bot_delay = bot_delay
        ledger.clocks.on_expiry(self.time_out)

    def play(self, live: LiveGame) -> None:
        """``live`` is held here from now on: its bots and chance move, its clock runs."""
        self.kick(live)
        self.ledger.clocks.watch(live)

    async def submit(self, live: LiveGame, seat: int, version: int, action: Action) -> None:
        """A human's action: checked against version, turn and rules, committed, then pushed."""
        async with live.lock:
            if version != live.version:
                await self.ledger.refresh(live)  # another server process may have moved the game on
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
                await self.time_out(live, lost)  # before its watcher woke: the deadline has passed
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
        """Take one step (lock held): apply, commit, then show.  Raises ``IllegalAction`` untouched.

        The step is acknowledged once it is committed; what the other observers may read of it is
        decided afterwards by a worker, and they are sent the step when it is."""
        if len(live.pending) >= MAX_PENDING:  # keep the disclosures from falling ever further behind
            await asyncio.wait([asyncio.shield(live.pending[min(live.pending)])])
        step, result, handover = _outcome(live, seat, action)
        seats = (
            live.seats
            if handover is None
            else [handover if s.seat == handover.seat else s for s in live.seats]
        )
        next_mover = None if result is not None else live.game.to_move(step.after)
        clock = None
        if live.clock is not None:  # the clocks after the step are committed with it
            clock = live.clock.after_step(seat, next_mover, clocked_seat(next_mover, seats, live.steps))
        status = FINISHED if result is not None else live.status
        done = self.store.append(live.id, step.index, seat, action.to_json(), status, result, clock, handover)
        # shielded: a cancelled caller (a server stopping) must not cancel a write already queued
        if not await asyncio.shield(asyncio.wrap_future(done)):  # another process stored this step first
            await self.ledger.refresh(live)
            raise ApiError(409, "stale_version", T("the game has moved on; resync"), version=step.index + 1)
        self.ledger.take(live, step, handover=handover, clock=clock)
        live.push_all()

    async def time_out(self, live: LiveGame, seat: int) -> None:
        """``seat``'s time ran out (lock held): the lobby's choice applies as one ``TIMEOUT`` step that
        goes through the commit path of a move — so of it and a move (or another process's timeout)
        for the same version, exactly one is stored: the seat loses (the step ends the record), or a
        bot takes the seat (stored in the step's transaction) and plays on."""
        assert live.clock is not None
        await self._commit(live, TIMEOUT, timeout_step(seat, handover=live.clock.spec.on_expiry != LOSE))
        self.kick(live)

    # -- bots and chance ---------------------------------------------------------------------------------

    def kick(self, live: LiveGame) -> None:
        """Make sure chance and bots move if it is their turn."""
        if live.advancer is None or live.advancer.done():
            live.advancer = asyncio.get_running_loop().create_task(self._advance(live))

    async def _advance(self, live: LiveGame) -> None:
        try:
            while await self._advance_once(live):
                pass
        except asyncio.CancelledError:
            raise
        except Exception:  # a faulty bot or game must not take the server down
            log.exception("game %s: the bots stopped", live.id)
            await self._let_go(live)

    async def _advance_once(self, live: LiveGame) -> bool:
        """Let chance or a bot take the next step, if it is theirs; whether to look again."""
        async with live.lock:
            mover = live.to_move()
            if mover is None or (mover != CHANCE and live.seats[mover].kind != "bot"):
                await self._let_go(live)  # under the lock: no step can come in between
                return False
            if not await self.drives(live):
                return False  # another process drives this game (it hears of our steps)
            if mover == CHANCE:
                await _lost_race_is_fine(
                    live, self._commit(live, CHANCE, live.game.sample_chance(live.state))
                )
                return True
            version, legal = live.version, live.legal()
            info = InformationSet(live.game, live.state, mover)
            # A bot pauses before its turn so people can follow; the further atomic decisions of one
            # compound action (a march: from, to, which units) follow quickly.
            again = bool(live.steps) and live.steps[-1][0] == mover
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay / 5 if again else self.bot_delay)
        action = await self.bots.decide(live, mover, info, legal)
        async with live.lock:
            if live.version == version and live.seats[mover].kind == "bot":
                await _lost_race_is_fine(live, self._commit(live, mover, action))
        return True

    async def drives(self, live: LiveGame) -> bool:
        """Whether this process may act on ``live`` by itself (move its bots and chance, and whatever
        else acts without a request, such as a clock): the holder of its drive lock on PostgreSQL,
        always on SQLite.  Asked before every such step; the step then goes through the commit,
        whose insert stores one step per version whichever process took it."""
        return self.drive_locks is None or await self.drive_locks.drive(live.id)

    async def _let_go(self, live: LiveGame) -> None:
        """Nothing for this process to do by itself in ``live`` (a human's turn, or the end): let its
        drive lock go, so that whichever process takes the next human step drives what follows."""
        if self.drive_locks is not None:
            await self.drive_locks.release(live.id)


def _outcome(
    live: LiveGame, seat: int, action: Action
) -> tuple[Step, dict[str, Any] | None, SeatData | None]:
    """What ``action`` by ``seat`` does to ``live`` (raises ``IllegalAction``): the step, the result if
    it ends the game, and the seat a bot takes with it (a clock ran out, and a bot plays on)."""
    before = live.state
    if seat != TIMEOUT:  # well under a millisecond: not worth a thread hop
        after = live.game.step(before, action)
        result = live.game.result(after).to_json() if live.game.is_over(after) else None
        return Step(live.game, live.version, before, seat, action, after), result, None
    # the seat the step names ran out of time: not a move, the state stays
    lost = timed_out_seat(action)
    step = Step(live.game, live.version, before, seat, action, before)
    if not is_handover(action):
        return step, timeout_result(live.game, before, lost).to_json(), None
    assert live.clock is not None
    return step, None, SeatData(lost, "bot", live.clock.spec.bot or default_kind(live.game))


async def _lost_race_is_fine(live: LiveGame, commit: Awaitable[None]) -> None:
    """Take a step of a bot or chance; if another process stored that step first, the game has been
    caught up and goes on from there.  That happens only when two processes drove the game at once
    (a drive-lock session was lost), so it is worth a warning."""
    try:
        await commit
    except ApiError as e:
        if e.code != "stale_version":
            raise
        log.warning("game %s: another server process took step %d first", live.id, e.extra["version"] - 1)
