"""The Rich progress bar of a lab run: games done of total, games per second, time left."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ludorum.lab.schedule import GameTask


class RateColumn(ProgressColumn):
    """Games per second over the run so far (games resumed from the file are not counted)."""

    def render(self, task: Task) -> Text:
        """``"12.3 games/s"``, or a dash until the first game finishes."""
        speed = task.finished_speed or task.speed
        return Text("– games/s" if speed is None else f"{speed:.2f} games/s", style="progress.data.speed")


class GameProgress:
    """Callbacks for :func:`~ludorum.lab.tournament.run_games` that drive one progress bar."""

    def __init__(self, progress: Progress, title: str) -> None:
        self.progress = progress
        self.title = title
        self.task = progress.add_task(title, total=None, start=False)

    def start(self, total: int, already: int) -> None:
        """The run knows its size: show the games already in the file as done."""
        note = f" ({already} resumed)" if already else ""
        self.progress.update(self.task, total=total, completed=already, description=self.title + note)
        self.progress.start_task(self.task)

    def game(self, task: GameTask) -> None:
        """One more game written."""
        self.progress.advance(self.task)

    def notice(self, message: str) -> None:
        """A lost worker, said above the bar."""
        self.progress.console.print(f"[yellow]{message}[/yellow]")


@contextmanager
def game_progress(console: Console, title: str) -> Iterator[GameProgress]:
    """A progress bar for one run of games."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        yield GameProgress(progress, title)
