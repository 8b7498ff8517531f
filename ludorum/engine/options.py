"""How a game describes the values of its options, for the lobby, the command line and the docs.

A game declares its options once, as :class:`Option` values in ``Game.options``; ``Game.option_names``
is derived from them, the server lists them in its catalogue, the lobby draws a control for each, the
command line parses ``--option key=value`` by them and the docs are written from them.  Every value is
checked here against its description (kind, choices, bounds) before the game's own ``check_options``
checks what only the game knows (a Signum deck's cards).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ludorum.engine.actions import Scalar
from ludorum.engine.config import MAX_OPTION_NUMBER, Config
from ludorum.engine.errors import ConfigError

Kind = Literal["choice", "int", "text", "per_seat"]
"""``choice``: one of ``choices``; ``int``: a whole number within the bounds; ``text``: free text
(``choices`` are then suggestions); ``per_seat``: one different choice per seat, comma-separated."""

KINDS: tuple[Kind, ...] = ("choice", "int", "text", "per_seat")


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One value an option may take, with the words a player reads for it."""

    value: str
    label: str

    def to_json(self) -> dict[str, str]:
        """The JSON form served to the lobby."""
        return {"value": self.value, "label": self.label}


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One option of a game: its name, what it means, and the values it takes.

    ``default`` is the value used when the option is not given (``None``: the game decides, see
    ``defaults``); ``defaults`` maps a player count to the default for that count where it depends on it.
    ``seat`` ties the option to one seat (the lobby shows it in that seat's row; it applies only when
    that seat is in play).  For ``per_seat`` options, ``seat_order`` says that the game seats the players
    in the order of ``choices`` (Reliquium: by initiative), so a seat's place follows its choice.
    """

    name: str
    description: str
    kind: Kind = "text"
    choices: tuple[Choice, ...] = ()
    default: Scalar = None
    defaults: Mapping[int, Scalar] = dataclasses.field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None
    seat: int | None = None
    seat_order: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name!r}: kind {self.kind!r} is not one of {KINDS}")
        if self.kind in ("choice", "per_seat") and not self.choices:
            raise ValueError(f"option {self.name!r}: a {self.kind} option needs its choices")

    def applies(self, players: int) -> bool:
        """Whether the option means anything with ``players`` players (a seat's option needs the seat)."""
        return self.seat is None or self.seat < players

    def values(self) -> list[str]:
        """The values of the choices."""
        return [c.value for c in self.choices]

    def problem(self, value: Scalar, players: int) -> str | None:
        """What is wrong with ``value`` for this option with ``players`` players, or ``None``."""
        if value is None:
            return None
        shown = f"{value!r:.60}"
        if self.kind == "int":
            if type(value) is not int:
                return f"option {self.name} is a whole number, not {shown}"
            low = -MAX_OPTION_NUMBER if self.minimum is None else self.minimum
            high = MAX_OPTION_NUMBER if self.maximum is None else self.maximum
            if not low <= value <= high:
                return f"option {self.name} is a whole number from {low} to {high}, not {value}"
            return None
        if not isinstance(value, str):
            return f"option {self.name} is text, not {shown}"
        if self.kind == "choice" and value not in self.values():
            return f"option {self.name} is one of {', '.join(self.values())}; not {shown}"
        if self.kind == "per_seat":
            picked = split_list(value)
            bad = [p for p in picked if p not in self.values()]
            if bad or len(picked) != players or len(set(picked)) != len(picked):
                return (
                    f"option {self.name} names {players} different values (one per seat, comma-separated) "
                    f"out of {', '.join(self.values())}; not {shown}"
                )
        return None

    def parse(self, text: str) -> Scalar:
        """The value a command line's ``key=value`` text stands for (a number for an ``int`` option)."""
        if self.kind == "int":
            try:
                return int(text.strip())
            except ValueError:
                raise ConfigError(f"option {self.name} is a whole number, not {text!r:.60}") from None
        return text.strip() if self.kind in ("choice", "per_seat") else text

    def to_json(self) -> dict[str, Any]:
        """The JSON form served by the catalogue (``/api/catalog``) to the lobby."""
        return {
            "name": self.name,
            "description": self.description,
            "kind": self.kind,
            "choices": [c.to_json() for c in self.choices],
            "default": self.default,
            "defaults": {str(k): v for k, v in sorted(self.defaults.items())},
            "minimum": self.minimum,
            "maximum": self.maximum,
            "seat": self.seat,
            "seat_order": self.seat_order,
        }

    def summary(self) -> str:
        """One line describing the values, for ``--help``, the option listing and the docs."""
        if self.kind == "int":
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            values = f"a whole number {low}–{high}".rstrip("–") if low or high else "a whole number"
        elif self.kind == "choice":
            values = "one of " + ", ".join(self.values())
        elif self.kind == "per_seat":
            values = "one per seat, different, comma-separated, out of " + ", ".join(self.values())
        else:
            values = "text" + (f" (e.g. {', '.join(self.values())})" if self.choices else "")
        default = self.default if self.default is not None else None
        tail = f"; default {default}" if default is not None else ""
        if self.defaults:
            tail += "; default by players: " + ", ".join(
                f"{k}: {v}" for k, v in sorted(self.defaults.items())
            )
        return f"{self.description} — {values}{tail}"


def split_list(text: str) -> list[str]:
    """The items of a comma-separated list, trimmed and lower-cased, empty ones dropped."""
    return [x.strip().lower() for x in text.split(",") if x.strip()]


def text_options(names: Mapping[str, str]) -> tuple[Option, ...]:
    """Plain text options from a name → description mapping (games that declare only names)."""
    return tuple(Option(name, text) for name, text in names.items())


def check(options: Sequence[Option], config: Config) -> None:
    """Refuse a config whose option values do not fit their descriptions, naming key and value."""
    by_name = {o.name: o for o in options}
    for key, value in config.options:
        option = by_name.get(key)
        if option is None:
            continue  # the game names unknown options itself
        if option.seat is not None and not option.applies(config.players):
            raise ConfigError(f"option {key} is for seat {option.seat + 1}, and only {config.players} play")
        problem = option.problem(value, config.players)
        if problem:
            raise ConfigError(problem)


def parse_assignments(options: Sequence[Option], texts: Sequence[str], game: str) -> dict[str, Scalar]:
    """``key=value`` texts (the command line's ``--option``) as option values; a clear error naming the
    bad key or value otherwise."""
    by_name = {o.name: o for o in options}
    out: dict[str, Scalar] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--option takes NAME=VALUE (key=value), not {text!r:.60}")
        option = by_name.get(key)
        if option is None:
            known = ", ".join(by_name) or "none"
            raise ConfigError(f"{game} has no option {key!r}; its options are {known}")
        if key in out:
            raise ConfigError(f"option {key} is given twice")
        out[key] = option.parse(value)
    return out
