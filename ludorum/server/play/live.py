"""A game the server is running: its current state, its record, its log, and what each observer sees."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import random
from typing import Any

from ludorum.engine import CHANCE, Action, Config, Game, GameState, Record, Result, disclosure, i18n
from ludorum.engine.bots import Bot
from ludorum.engine.disclosure import LogEntry, Step
from ludorum.engine.game import CANCEL
from ludorum.engine.information import Observer
from ludorum.engine.record import ending, timed_out
from ludorum.server import security
from ludorum.server.play.clocks import GameClock, clocked_seat
from ludorum.server.store.archive import EncodedViews, compact_json, observer_key
from ludorum.server.store.tables import FINISHED, OPEN, RUNNING, SeatData


def provisional_entry(step: Step) -> LogEntry:
    """A step's log entry as its actor reads it, before the other observers' readings are decided.

    Everything but ``readings`` is what ``disclosure.disclose`` gives (a test holds them equal); it
    costs a label, not the sampling of information sets, so it is made on the event loop and the full
    entry replaces it when a worker has decided what the others may read.
    """
    game, before, actor, after = step.game, step.before, step.actor, step.after
    who = disclosure.actor_name(game, before, actor)
    opens = (
        actor != CHANCE
        and not game.is_over(after)
        and game.to_move(after) == actor
        and CANCEL in game.legal_actions(after)
    )
    label = game.describe(before, step.action)
    return LogEntry(step.index, actor, who, step.action, label, {}, game.stage(before), opens)


@dataclasses.dataclass(eq=False)
class Subscriber:
    """One WebSocket client: whose eyes it sees through, what it has been sent, its outgoing queue
    (JSON text, encoded once for every subscriber that receives the same message)."""

    observer: Observer
    sent_version: int
    queue: asyncio.Queue[str] = dataclasses.field(default_factory=asyncio.Queue)
    lang: str = i18n.SOURCE  # the reader's language: its messages are rendered in it


@dataclasses.dataclass(eq=False)
class LiveGame:
    """A game held in memory.  Every change happens under ``lock`` and is stored before it shows."""

    id: str
    game: Game[Any]
    config: Config
    seed: int
    seats: list[SeatData]
    state: GameState
    steps: list[tuple[int, Action]]
    log: list[LogEntry]
    rematch_of: str | None = None
    seed_chosen: bool = False  # resumed from an uploaded record: the uploader knows every future draw
    created: dt.datetime | None = None
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = dataclasses.field(default_factory=set)
    bots: dict[int, Bot] = dataclasses.field(default_factory=dict)
    bot_rng: random.Random = dataclasses.field(default_factory=lambda: random.Random(security.new_seed()))
    advancer: asyncio.Task[None] | None = None
    states: list[GameState] | None = None  # every state, once a finished game is replayed for viewing
    pending: dict[int, asyncio.Future[None]] = dataclasses.field(default_factory=dict)
    """Steps whose readings a worker is still deciding (their entry is provisional), by index."""
    clock: GameClock | None = None
    """The seats' clocks, if the game has them (``ludorum/server/play/clocks.py``)."""
    _labels: tuple[int, list[tuple[Action, str]]] | None = None
    _views: dict[Observer, Any] = dataclasses.field(default_factory=dict)
    _views_version: int = -1
    _legal: tuple[GameState, tuple[Action, ...], frozenset[Action]] | None = None
    _names: tuple[GameState, list[str]] | None = None
    _rendered: dict[tuple[str, Observer, str], Any] = dataclasses.field(default_factory=dict)
    _rendered_version: int = -1
    _encoded: tuple[GameState, EncodedViews] | None = None

    def legal(self) -> tuple[Action, ...]:
        """``game.legal_actions`` of the current state, computed once per state (the submission's
        check and the bots share it; the state object is the key, so a reload cannot reuse it)."""
        if self._legal is None or self._legal[0] is not self.state:
            actions = tuple(self.game.legal_actions(self.state))
            self._legal = (self.state, actions, frozenset(actions))
        return self._legal[1]

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is one of :meth:`legal` (a set lookup, not a scan of the list)."""
        self.legal()
        assert self._legal is not None
        return action in self._legal[2]

    def _render(self, part: str, observer: Observer, lang: str, make: Any) -> Any:
        """``make()`` rendered in ``lang``, once per version, observer and language: the ack, the
        pushes and the fetches of one version share it (each reader's copy is rendered once)."""
        if self._rendered_version != self.version:
            self._rendered, self._rendered_version = {}, self.version
        key = (part, observer, lang)
        if key not in self._rendered:
            self._rendered[key] = make()
        return self._rendered[key]

    def view(self, observer: Observer) -> Any:
        """``game.view`` of the current state for ``observer``, computed once per version."""
        if self._views_version != self.version:
            self._views, self._views_version = {}, self.version
        if observer not in self._views:
            self._views[observer] = self.game.view(self.state, observer)
        return self._views[observer]

    def encoded_views(self, state: GameState, views: EncodedViews) -> None:
        """A worker encoded every observer's view of ``state`` (with a step's readings): kept while it
        is the current state (compared as an object: a reload may bring another at the same version)."""
        if self.state is state:
            self._encoded = (state, views)

    def _encoded_view(self, observer: Observer) -> str | None:
        if self._encoded is None or self._encoded[0] is not self.state:
            return None
        return self._encoded[1].views.get(observer_key(observer))

    def unread(self, observer: Observer, since: int) -> list[asyncio.Future[None]]:
        """The pending readings ``observer`` needs for the log from ``since`` (none once the game is
        over: every step is public then)."""
        if not self.pending or self.over:
            return []
        return [f for i, f in self.pending.items() if i >= since and self.log[i].seat != observer]

    def human_to_move(self) -> int | None:
        """The deciding seat if a human holds it (its legal actions are shown with labels)."""
        mover = self.to_move()
        if mover is None or mover == CHANCE or self.seats[mover].kind != "human":
            return None
        return mover

    def labelled(self, version: int, state: GameState, labels: list[tuple[Action, str]]) -> None:
        """A worker found the safe labels of ``version``: kept if the game is still there (the state
        itself is compared: a reload may bring another state under the same version)."""
        if self.version == version and self.state is state:
            self._labels = (version, labels)

    async def readable(self, observer: Observer, since: int) -> None:
        """Wait until the log from ``since`` may be shown to ``observer``."""
        while waiting := self.unread(observer, since):
            await asyncio.wait([asyncio.shield(f) for f in waiting])

    @property
    def version(self) -> int:
        """How many steps (chance included) the game has taken."""
        return len(self.steps)

    @property
    def over(self) -> bool:
        """Whether the game has ended (by its rules, or by a seat losing on time)."""
        return self.game.is_over(self.state) or timed_out(self.steps) is not None

    def result(self) -> Result:
        """How the finished game ended."""
        result = ending(self.game, self.steps, self.state)
        assert result is not None, "the game is not over"
        return result

    def clocked(self) -> int | None:
        """The seat whose clock should run now (a human's seat that must decide, held or left)."""
        running = None if self.clock is None else self.clock.state.running
        return clocked_seat(self.to_move(), self.seats, self.steps, running)

    @property
    def status(self) -> str:
        """Open (a human seat is free), running, or finished."""
        if self.over:
            return FINISHED
        if any(s.kind == "human" and s.token_hash is None for s in self.seats):
            return OPEN
        return RUNNING

    def to_move(self) -> int | None:
        """The deciding seat (``CHANCE`` for chance), or ``None`` once over."""
        return None if self.over else self.game.to_move(self.state)

    def clock_json(self) -> dict[str, Any] | None:
        """The clocks as the API shows them (``None``: the game has none)."""
        return None if self.clock is None else self.clock.shown(self.seats, self.over)

    def record(self) -> Record:
        """The full record (secrets included: only for finished games or trusted use)."""
        result = self.result() if self.over else None
        return Record(
            self.game.name, self.config, self.seed, list(self.steps), result, rules=self.game.rules_version
        )

    def legal_labels(self) -> list[tuple[Action, str]]:
        """The deciding seat's legal actions and their safe labels (computed once per version)."""
        if self._labels is None or self._labels[0] != self.version:
            mover = self.game.to_move(self.state)
            self._labels = (self.version, disclosure.safe_labels(self.game, self.state, mover))
        return self._labels[1]

    def seat_names(self) -> list[str]:
        """The seats' names (``game.seat_name``), found once per state: every snapshot shows them."""
        if self._names is None or self._names[0] is not self.state:
            self._names = (self.state, [self.game.seat_name(self.state, s) for s in range(len(self.seats))])
        return self._names[1]

    def players(self, observer: Observer) -> list[dict[str, Any]]:
        """The seats as the frame shows them."""
        names = self.seat_names()
        return [
            {
                "seat": s.seat,
                "name": names[s.seat],
                "kind": s.kind,
                "bot": s.bot,
                "claimed": s.kind == "bot" or s.token_hash is not None,
                "you": s.seat == observer,
            }
            for s in self.seats
        ]

    def summary(self) -> dict[str, Any]:
        """What the lobby may show of the game: nothing hidden."""
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "config": self.config.to_json(),
            "status": self.status,
            "version": self.version,
            "players": self.players(None),
            "rematch_of": self.rematch_of,
            "seed_chosen": self.seed_chosen,
            "rules_version": self.game.rules_version,
            "resumable": True,
            "clock": None if self.clock is None else self.clock.spec.to_json(),
        }

    def snapshot(self, observer: Observer, since: int = 0) -> dict[str, Any]:
        """Everything ``observer`` may know now; the log from step ``since`` on (all of it once over,
        when every secret step is revealed)."""
        return self._snapshot(observer, since, None)

    def shown(self, observer: Observer, since: int, lang: str) -> dict[str, Any]:
        """:meth:`snapshot` rendered in ``lang`` — encoded as JSON, the same as
        ``i18n.localize(snapshot(...), lang)`` (a test holds them equal) at a fraction of the cost.
        For an English reader nothing is rendered: a text's ``str`` value is its English, and that is
        what JSON encodes.  For another language the big parts, the view and the legal actions'
        labels, are rendered once per version and reader, the labels without walking the actions;
        only the rest (the log from ``since``, the seats) is rendered for each answer."""
        return self._snapshot(observer, since, None if lang == i18n.SOURCE else lang)

    def shown_json(self, observer: Observer, since: int, lang: str, **more: Any) -> str:
        """``{**more, **shown(observer, since, lang)}`` encoded as JSON (:func:`compact_json`).  For an
        English reader of a state whose views a worker has encoded (``encoded_views``), the view is
        spliced in as the worker encoded it, last: neither computed nor encoded on the loop (a test
        holds the two equal as JSON, for every observer)."""
        view = self._encoded_view(observer) if lang == i18n.SOURCE else None
        if view is None:
            return compact_json({**more, **self.shown(observer, since, lang)})
        frame = {**more, **self._snapshot(observer, since, None, with_view=False)}
        del frame["view"]
        return f'{compact_json(frame)[:-1]},"view":{view}}}'

    def _legal_json(self, lang: str | None) -> list[dict[str, Any]]:
        if lang is None:
            return [{"action": a.to_json(), "label": label} for a, label in self.legal_labels()]
        return [{"action": a.to_json(), "label": i18n.say(label, lang)} for a, label in self.legal_labels()]

    def _snapshot(
        self, observer: Observer, since: int, lang: str | None, with_view: bool = True
    ) -> dict[str, Any]:
        mover = self.to_move()
        public = self.over
        since = 0 if public else since
        mine = mover is not None and mover == observer and mover != CHANCE
        legal: list[dict[str, Any]] = []
        open_kinds: dict[str, str] = {}
        if mine and self.seats[observer].kind == "human":  # type: ignore[index]
            if lang is None:
                legal = self._legal_json(None)
            else:
                legal = self._render("legal", observer, lang, lambda: self._legal_json(lang))
            open_kinds = dict(self.game.open_kinds(self.state))
        result = self.result().to_json() if public else None
        view = self.view(observer) if with_view else None
        if lang is not None and with_view:
            view = self._render("view", observer, lang, lambda: i18n.localize(view, lang))
        frame = {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "config": self.config.to_json(),
            "status": self.status,
            "version": self.version,
            "seat": observer,
            "players": self.players(observer),
            "to_move": None if mover is None or mover == CHANCE else mover,
            "view": None,
            "legal": None,
            "open": open_kinds,
            "since": since,
            "log": [e.to_json(observer, public) for e in self.log[since:]],
            "result": result,
            "rematch_of": self.rematch_of,
            "seed_chosen": self.seed_chosen,
            "rules_version": self.game.rules_version,
            "current_rules": self.game.rules_version,
            "resumable": True,
            "clock": self.clock_json(),
        }
        if lang is not None:  # the rest is small: rendered as it is
            frame = i18n.localize(frame, lang)
        frame["view"], frame["legal"] = view, legal
        return frame

    def partial_record(self, observer: Observer) -> dict[str, Any]:
        """What a record download before the end may hold: the observer's view and visible log, no seed."""
        return {
            "format": "ludorum-partial-record",
            "note": "the game is not over: this holds only what this seat may see; "
            "the full record (config, seed, every step) downloads once the game has ended",
            "game": self.game.name,
            "rules": self.game.rules_version,
            "config": self.config.to_json(),
            "seat": observer,
            "version": self.version,
            "view": self.view(observer),
            "log": [e.to_json(observer, False) for e in self.log],
        }

    # -- pushing ---------------------------------------------------------------------------------------

    def subscribe(self, observer: Observer, since: int, lang: str = i18n.SOURCE) -> Subscriber:
        """Register a WebSocket client and queue its resync (the log from ``since``) — at once if the
        readings it needs are decided, else as soon as they are."""
        sub = Subscriber(observer, max(0, min(since, self.version)), lang=lang)
        self.subscribers.add(sub)
        self._push(sub, {}, force=True)
        return sub

    def push_all(self, force: bool = False) -> None:
        """Send every subscriber what changed since it was last sent something, once the readings it
        needs are decided (a subscriber still waiting is sent the step when its readings come).
        ``force``: something changed without a step (a seat was taken or left), send it even so."""
        cache: dict[tuple[Observer, int, str], str] = {}
        for sub in list(self.subscribers):
            self._push(sub, cache, force)

    def _push(self, sub: Subscriber, cache: dict[tuple[Observer, int, str], str], force: bool) -> None:
        if (sub.sent_version >= self.version and not force) or self.unread(sub.observer, sub.sent_version):
            return
        key = (sub.observer, sub.sent_version, sub.lang)
        if key not in cache:  # one encoding for every subscriber with the same eyes, news and language
            cache[key] = self.shown_json(sub.observer, sub.sent_version, sub.lang, type="state")
        sub.sent_version = self.version
        sub.queue.put_nowait(cache[key])
