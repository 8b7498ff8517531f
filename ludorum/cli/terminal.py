"""Terminal play: the seat's view as text and the legal actions as a numbered menu."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from ludorum.agents.kinds import default_kind, make_bot
from ludorum.engine import CHANCE, Config, ConfigError, Game, GameState, IllegalAction, Playthrough, Record
from ludorum.engine.bots import Bot, bot_move
from ludorum.engine.clock import LOSE, ClockSpec, ClockState, clock_text, wall_ms
from ludorum.engine.disclosure import Step, disclose
from ludorum.engine.i18n import T
from ludorum.engine.information import Observer
from ludorum.engine.record import time_up
from ludorum.games import registry


def pick_game(console: Console) -> str:
    """Ask which registered game to play."""
    names = registry().names()
    if not names:
        raise SystemExit("No games are registered yet.")
    for i, name in enumerate(names, 1):
        console.print(f"  {i}. {registry().get(name).title}")
    while True:
        answer = Prompt.ask(str(T("Which game")), default="1", console=console)
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        wrong = T("Type a number from 1 to {n}.", n=len(names))
        console.print(f"[red]{wrong}[/red]")


def check_seat(seat: int, players: int) -> None:
    """Refuse a seat the game does not have (seats are numbered from 0)."""
    if not 0 <= seat < players:
        raise ConfigError(f"seat {seat} does not exist: seats are 0–{players - 1}")


class TerminalGame:
    """One terminal session: humans at this keyboard, bots for the other seats; optionally a clock for
    each human seat (:mod:`ludorum.engine.clock`), read from ``now`` (injected by tests)."""

    def __init__(
        self, game: Game[Any], play: Playthrough, humans: set[int], bots: dict[int, Bot], console: Console
    ) -> None:
        self.game, self.play, self.humans, self.bots, self.console = game, play, humans, bots, console
        self.rng = random.Random()
        self.clock: ClockSpec | None = None
        self.clocks: ClockState | None = None
        self.now: Callable[[], int] = wall_ms

    def use_clock(self, spec: ClockSpec, now: Callable[[], int] = wall_ms) -> None:
        """Give every human seat a clock (bots have none).  A saved game resumes with full clocks:
        a record holds the game, not the time."""
        self.clock, self.clocks, self.now = (
            spec,
            ClockState.initial(spec, self.play.record.config.players),
            now,
        )

    @classmethod
    def start(
        cls,
        game: Game[Any],
        config: Config,
        seed: int | None,
        seat: int,
        bots: str,
        hotseat: bool,
        console: Console,
    ) -> TerminalGame:
        """A new game."""
        play = Playthrough(game, config, seed if seed is not None else random.randrange(1 << 62))
        return cls._seated(game, play, seat, bots, hotseat, console)

    @classmethod
    def resume(
        cls, game: Game[Any], record: Record, seat: int, bots: str, hotseat: bool, console: Console
    ) -> TerminalGame:
        """A saved game, replayed to where it stopped."""
        return cls._seated(game, Playthrough.resume(game, record), seat, bots, hotseat, console)

    @classmethod
    def _seated(
        cls, game: Game[Any], play: Playthrough, seat: int, bots: str, hotseat: bool, console: Console
    ) -> TerminalGame:
        n = play.record.config.players
        check_seat(seat, n)
        humans = set(range(n)) if hotseat else {seat}
        kinds = [k.strip() for k in bots.split(",") if k.strip()]
        others = [s for s in range(n) if s not in humans]
        if len(kinds) > len(others):
            many = len(kinds)
            raise ConfigError(f"--bots names {many} kinds: one per bot seat at most ({len(others)} here)")
        table = {
            s: make_bot(game, kinds[i] if i < len(kinds) else default_kind(game))
            for i, s in enumerate(others)
        }
        return cls(game, play, humans, table, console)

    def run(self, save: Path) -> None:
        """Play until the game ends or the human quits (which saves the game)."""
        game, play, out = self.game, self.play, self.console
        while not play.is_over():
            seat = play.to_move()
            if seat == CHANCE or seat in self.bots:
                before = play.state
                if seat == CHANCE:
                    play.resolve_chance()
                else:
                    bot_move(game, play, self.bots[seat], self.rng)
                self._show_step(before, seat)
                self._clock_step(seat)
                continue
            if not self._human_turn(seat):
                save.write_text(play.record.dumps())
                out.print(str(T("Saved to {save}. Resume with: ludorum play --load {save}", save=save)))
                return
        result = play.result()
        out.print(game.render_text(play.state, None))
        names = ", ".join(str(game.seat_name(play.state, s)) for s in result.winners)
        over = T(
            "Game over — {reason}. Winner: {names}. Scores: {scores}",
            reason=result.reason,
            names=names,
            scores=list(result.scores),
        )
        out.print(f"[bold]{escape(str(over))}[/bold]")

    @property
    def observer(self) -> Observer:
        """Whose eyes the screen shows: the one human, or nobody's secrets when several share it."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def _show_step(self, before: GameState, seat: int) -> None:
        """Print a step of chance or a bot exactly as the server's log shows it to this screen's seat."""
        play = self.play
        entry = disclose(
            Step(self.game, len(play.record.steps) - 1, before, seat, play.record.steps[-1][1], play.state)
        )
        shown = entry.to_json(self.observer, public=False)
        text = str(shown["label"]) if shown["action"] is None else f"{shown['who']}: {shown['label']}"
        self.console.print(f"[dim]{escape(text)}[/dim]")

    def _clock_step(self, mover: int) -> None:
        """Charge the step just taken to the clocks; the next human's clock starts."""
        if self.clock is not None and self.clocks is not None:
            nxt = None if self.play.is_over() else self.play.to_move()
            clocked = nxt if nxt in self.humans else None
            self.clocks.step(self.clock, mover, nxt, clocked, self.now())

    def _out_of_time(self, seat: int) -> bool:
        """Whether ``seat``'s time ran out before it answered; if so the clock's rule applies: it loses,
        or a bot takes the seat.  (A prompt is not interrupted: the time is checked at the answer.)"""
        now = self.now()
        if self.clock is None or self.clocks is None or self.clocks.expired(now) != seat:
            return False
        self.clocks.stop(now)
        if self.clock.on_expiry == LOSE:
            self.play.time_out()
        else:
            self.play.time_out(handover=True)  # the record says who played on, as the server's does
            self.humans.discard(seat)
            self.bots[seat] = make_bot(self.game, self.clock.bot or default_kind(self.game))
            note = time_up(self.game, self.play.state, seat, handover=True)
            self.console.print(f"[red]{escape(str(note))}[/red]")
        return True

    def _human_turn(self, seat: int) -> bool:
        game, play, out = self.game, self.play, self.console
        out.rule(str(T("{seat} to decide", seat=game.seat_name(play.state, seat))))
        out.print(game.render_text(play.state, seat))
        if self.clock is not None and self.clocks is not None:
            now = self.now()
            self.clocks.settle(self.clock, seat, now)
            left = clock_text(self.clocks.remaining(seat, now))
            line = T("{who}: {time} left", who=game.seat_name(play.state, seat), time=left)
            out.print(f"[bold]{escape(str(line))}[/bold]")
        legal = list(game.legal_actions(play.state))
        for i, action in enumerate(legal, 1):
            out.print(f"  [cyan]{i:>3}[/cyan]. {game.describe(play.state, action)}")
        while True:
            answer = Prompt.ask(str(T("Your choice (number, or q to save and quit)")), console=out).strip()
            if self._out_of_time(seat):  # any answer, a quit too, comes too late (a save resumes full clocks)
                return True
            if answer.lower() in ("q", "quit"):
                return False
            if not answer.isdigit() or not 1 <= int(answer) <= len(legal):
                wrong = T(
                    "'{answer}' is not a choice: type a number from 1 to {n}, or q.",
                    answer=answer,
                    n=len(legal),
                )
                out.print(f"[red]{escape(str(wrong))}[/red]")
                continue
            try:
                play.play(legal[int(answer) - 1])
            except IllegalAction as e:
                out.print(f"[red]{e}[/red]")
                continue
            self._clock_step(seat)
            return True
