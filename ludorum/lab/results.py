"""A results file: one JSON line per finished game — its record plus the lab's block — appended as games
finish, so that a run stopped at any point loses nothing and a rerun plays only the missing games.

Each line is a complete record (``Record.loads`` reads it; ``ludorum replay`` and the web server's record
upload take it once cut out with ``ludorum record``).  A file of another game, another Ludorum version or
another tournament is refused before anything is played or written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ludorum
from ludorum.engine import Record, RecordError
from ludorum.engine.record import decode_text
from ludorum.lab.errors import LabError
from ludorum.lab.facts import Facts
from ludorum.lab.play import LAB_KEY
from ludorum.lab.schedule import Spec


@dataclass(frozen=True, slots=True)
class Line:
    """One results line, decoded: the record, the bots by seat, the setup and the derived facts."""

    index: int
    record: Record
    bots: tuple[str, ...]
    setup: dict[str, Any]
    facts: Facts
    text: str

    @staticmethod
    def parse(text: str, where: str) -> Line:
        """Decode one line; ``where`` ("results.jsonl:12") prefixes every complaint."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise LabError(f"{where}: not a JSON line ({e})") from None
        except RecursionError:  # the parser recurses once per level: [[[[... is no results line
            raise LabError(f"{where}: nested too deeply to be a results line") from None
        lab = data.get(LAB_KEY) if isinstance(data, dict) else None
        if not isinstance(lab, dict):
            raise LabError(f"{where}: not a line of a Ludorum results file (it has no {LAB_KEY!r} block)")
        if lab.get("version") != ludorum.__version__:
            raise LabError(
                f"{where}: written by Ludorum {lab.get('version')!r}, and this is {ludorum.__version__}: "
                "its records may not replay under these rules; write to another file"
            )
        try:
            record = Record.from_json(data)
            return Line(
                int(lab["index"]),
                record,
                tuple(lab["bots"]),
                dict(lab["setup"]),
                Facts.from_json(lab["facts"]),
                text,
            )
        except RecordError as e:
            raise LabError(f"{where}: {e}") from None
        except (KeyError, TypeError, ValueError) as e:
            raise LabError(f"{where}: the lab block is malformed ({type(e).__name__}: {e})") from None

    @property
    def spec(self) -> dict[str, Any]:
        """The JSON spec of the tournament this line belongs to."""
        spec: dict[str, Any] = json.loads(self.text)[LAB_KEY]["spec"]
        return spec


def complete_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The numbered, non-blank lines of a JSON-lines file; a torn last line (killed mid-write) is skipped."""
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.endswith(b"\n"):
                return  # torn by a kill: the game was not counted and will be played again
            try:
                text = decode_text(raw)
            except RecordError as e:
                raise LabError(f"{path}:{number}: {e}") from None
            if text.strip():
                yield number, text


def cut_torn_tail(path: Path) -> None:
    """Cut a torn last line off a JSON-lines file (the only change made to it), so that appending goes
    on from a clean line end."""
    if not path.is_file():
        return
    end = path.read_bytes().rfind(b"\n") + 1
    if end != path.stat().st_size:
        with path.open("r+b") as f:
            f.truncate(end)


def append_line(path: Path, line: str) -> None:
    """Append one line to a JSON-lines file and flush it at once (a run stopped later loses nothing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()


def read_lines(path: Path) -> Iterator[Line]:
    """Every complete line of a results file, decoded; a torn last line (killed mid-write) is skipped."""
    for number, text in complete_lines(path):
        yield Line.parse(text, f"{path}:{number}")


class ResultsFile:
    """The results file of one tournament: checked against its spec, then appended to."""

    def __init__(self, path: Path, spec: Spec) -> None:
        self.path = path
        self.spec = spec
        self._loaded: dict[int, Line] | None = None

    def load(self) -> dict[int, Line]:
        """The games already played, by index; refuses a file of another game, version or tournament.

        A torn last line is cut off (it is the only change made to an existing file), so that appending
        goes on from a clean line end.  The file is read once; later calls return the same games.
        """
        if self._loaded is None:
            self._loaded = self._load()
        return self._loaded

    def _load(self) -> dict[int, Line]:
        if not self.path.exists():
            return {}
        if self.path.is_dir():
            raise LabError(f"{self.path} is a folder; the results file is a .jsonl file")
        found: dict[int, Line] = {}
        for line in read_lines(self.path):
            where = f"{self.path}, game {line.index}"
            if line.record.game != self.spec.game:
                raise LabError(
                    f"{self.path} holds games of {line.record.game!r}, not {self.spec.game!r}; "
                    "write to another file"
                )
            spec = line.spec
            if spec != self.spec.to_json():
                raise LabError(
                    f"{self.path} is the results file of another tournament ({self.spec.differences(spec)}); "
                    "rerun with the same settings to resume it, or write to another file"
                )
            if line.index in found:
                raise LabError(f"{where}: game {line.index} appears twice; the file was edited by hand")
            found[line.index] = line
        cut_torn_tail(self.path)
        return found

    def append(self, line: str) -> None:
        """Add one game's line and flush it to the file at once."""
        append_line(self.path, line)
