"""Per-seat clocks (time controls): the arithmetic shared by the server and the terminal.

A clock setting (:class:`ClockSpec`) is either *Fischer* — every seat starts with ``base`` seconds and
gains ``increment`` seconds each time its turn passes to another seat — or *per move* — every decision
has at most ``per_move`` seconds.  :class:`ClockState` is how the clocks stand: each seat's time left,
whose clock runs and since when.  Time is read from whatever clock the caller injects (milliseconds
since the epoch; :func:`wall_ms` is the real one), so the arithmetic never sleeps or reads the time
itself, and tests advance time by hand.

Only the seat that must decide is charged, and only while its clock runs: the caller says which seat
that is (``clocked``) — the server runs the clock of a held human seat only, so bots, chance and a free
seat cost no one anything.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Final, Literal, cast

Mode = Literal["fischer", "move"]
"""The two kinds of clock."""
FISCHER: Final = "fischer"
PER_MOVE: Final = "move"

Expiry = Literal["bot", "lose"]
"""What happens when a seat's time runs out: a bot takes the seat, or the seat loses the game."""
BOT: Final = "bot"
LOSE: Final = "lose"

MAX_BASE = 24 * 3600
"""The most time a seat may start with (seconds), and the longest time per move."""

MAX_INCREMENT = 3600
"""The largest increment (seconds)."""


def wall_ms() -> int:
    """The real time: milliseconds since the epoch (what a terminal's or the server's clock reads)."""
    return time.time_ns() // 1_000_000


class ClockError(ValueError):
    """A clock setting that is not one (the message names what is wrong)."""


def clock_text(ms: int) -> str:
    """Milliseconds as a clock shows them: ``4:05``, ``1:02:03`` (rounded up: ``0:00`` only once the
    time is up) — as the browser shows them (``Ludorum.clockTime``)."""
    total = max(0, -(-ms // 1000))
    hours, minutes, seconds = total // 3600, total % 3600 // 60, total % 60
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@dataclasses.dataclass(frozen=True, slots=True)
class ClockSpec:
    """A clock setting chosen in the lobby (times in whole seconds)."""

    mode: Mode = FISCHER
    base: int = 300
    increment: int = 0
    per_move: int = 60
    on_expiry: Expiry = BOT
    bot: str | None = None
    """The kind of bot that takes a seat whose time ran out (``None``: the game's default bot)."""

    def __post_init__(self) -> None:
        if self.mode not in (FISCHER, PER_MOVE):
            raise ClockError(f"a clock's mode is {FISCHER!r} or {PER_MOVE!r}, not {self.mode!r}")
        if self.on_expiry not in (BOT, LOSE):
            raise ClockError(f"a clock's on_expiry is {BOT!r} or {LOSE!r}, not {self.on_expiry!r}")
        for name, value, low, high in (
            ("base", self.base, 1, MAX_BASE),
            ("increment", self.increment, 0, MAX_INCREMENT),
            ("per_move", self.per_move, 1, MAX_BASE),
        ):
            if type(value) is not int or not low <= value <= high:
                raise ClockError(
                    f"the clock's {name} is a whole number of seconds from {low} to {high}, not {value!r}"
                )

    def to_json(self) -> dict[str, Any]:
        """The JSON form (as stored and as the API shows it)."""
        return dataclasses.asdict(self)

    @staticmethod
    def from_json(data: Any) -> ClockSpec:
        """Decode :meth:`to_json` output, refusing anything else with a :class:`ClockError`."""
        if not isinstance(data, dict):
            raise ClockError("a clock setting is an object")
        unknown = set(data) - {f.name for f in dataclasses.fields(ClockSpec)}
        if unknown:
            raise ClockError(f"a clock setting has no {', '.join(sorted(unknown))}")
        return ClockSpec(**data)

    @staticmethod
    def parse(text: str, on_expiry: str = BOT) -> ClockSpec:
        """A clock from its short form: ``300+5`` (Fischer: 300 s, 5 s increment), ``300`` (no
        increment) or ``move:30`` (30 s per move)."""
        expiry = cast(Expiry, on_expiry)  # as typed on a command line: checked by __post_init__
        try:
            if text.startswith(f"{PER_MOVE}:"):
                return ClockSpec(PER_MOVE, per_move=int(text.split(":", 1)[1]), on_expiry=expiry)
            base, _, inc = text.partition("+")
            return ClockSpec(FISCHER, int(base), int(inc or 0), on_expiry=expiry)
        except ClockError:  # a number out of bounds: its message names which
            raise
        except ValueError:  # not a number
            raise ClockError(
                f"a clock is written BASE+INCREMENT in seconds (300+5) or move:SECONDS (move:30), "
                f"not {text!r}"
            ) from None

    @property
    def start_ms(self) -> int:
        """The time a seat has when its clock starts for the first time (Fischer) or each time (per move)."""
        return 1000 * (self.base if self.mode == FISCHER else self.per_move)


@dataclasses.dataclass(slots=True)
class ClockState:
    """How the clocks of a game stand (milliseconds)."""

    left: list[int]
    """Each seat's time left when its clock last stopped (or, for the running clock, when it started)."""
    running: int | None = None
    """The seat whose clock runs (``None``: none does)."""
    since: int = 0
    """When the running clock started (milliseconds since the epoch)."""
    turn: int | None = None
    """The seat whose turn is under way: it gains the increment when another seat's decision begins."""

    @staticmethod
    def initial(spec: ClockSpec, players: int) -> ClockState:
        """Every seat's clock full, none running."""
        return ClockState([spec.start_ms] * players)

    def to_json(self) -> dict[str, Any]:
        """The JSON form, as stored."""
        return {"left": list(self.left), "running": self.running, "since": self.since, "turn": self.turn}

    @staticmethod
    def from_json(data: dict[str, Any]) -> ClockState:
        """Decode :meth:`to_json` output."""
        return ClockState(list(data["left"]), data["running"], data["since"], data.get("turn"))

    def remaining(self, seat: int, now: int) -> int:
        """The time ``seat`` has left at ``now`` (negative once it has run out)."""
        spent = now - self.since if self.running == seat else 0
        return self.left[seat] - spent

    def deadline(self) -> int | None:
        """When the running clock runs out (``None``: no clock runs)."""
        return None if self.running is None else self.since + self.left[self.running]

    def expired(self, now: int) -> int | None:
        """The seat whose clock has run out at ``now``, if any."""
        deadline = self.deadline()
        return self.running if deadline is not None and now >= deadline else None

    def stop(self, now: int) -> None:
        """Stop the running clock, charging its seat the time since it started."""
        if self.running is not None:
            self.left[self.running] = max(0, self.remaining(self.running, now))
            self.running = None

    def settle(self, spec: ClockSpec, clocked: int | None, now: int) -> bool:
        """Make ``clocked``'s clock the one that runs (``None``: none); whether anything changed.
        A per-move clock starts full every time."""
        if self.running == clocked:
            return False
        self.stop(now)
        if clocked is not None:
            if spec.mode == PER_MOVE:
                self.left[clocked] = spec.start_ms
            self.running, self.since = clocked, now
        return True

    def step(
        self, spec: ClockSpec, mover: int, next_mover: int | None, clocked: int | None, now: int
    ) -> None:
        """A step was taken at ``now`` by ``mover`` (a seat, or chance: negative); ``next_mover`` decides
        next (``None``: the game is over; negative: chance) and ``clocked`` is the seat whose clock now
        runs.  The mover is charged.  The increment goes to the seat whose turn it was when another
        seat's decision begins, so the atomic steps of one compound decision, and chance's draws in
        the middle of a turn, earn nothing."""
        self.stop(now)
        if mover >= 0:
            self.turn = mover
        if next_mover is not None and next_mover >= 0 and self.turn is not None and next_mover != self.turn:
            if spec.mode == FISCHER:
                self.left[self.turn] += 1000 * spec.increment
            self.turn = None
        self.settle(spec, clocked, now)
