"""Request bodies, validated by pydantic: types, sizes and counts are checked before anything runs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ludorum.engine.clock import MAX_BASE, MAX_INCREMENT, ClockSpec, Expiry, Mode
from ludorum.engine.config import MAX_ENTRIES, MAX_NAME, MAX_OPTION_NUMBER, MAX_OPTION_TEXT


def _whole(value: Any) -> Any:
    # JSON has one kind of number: 3.0 is the whole number 3, as JSON Schema's "integer" says; "3",
    # true and 3.5 stay refused
    return int(value) if type(value) is float and value.is_integer() else value


Integral = BeforeValidator(_whole)
"""Put last in ``Annotated[StrictInt, Field(ge=..., le=...), Integral]``: a whole number written ``3``
or ``3.0`` (after the bounds, so they are published as ``minimum``/``maximum``)."""

Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME)]
OptionValue = (
    Annotated[StrictInt, Field(ge=-MAX_OPTION_NUMBER, le=MAX_OPTION_NUMBER), Integral]
    | Annotated[StrictStr, Field(max_length=MAX_OPTION_TEXT)]
    | StrictBool
    | None
)
"""An option's value: the engine's generic bounds, checked before any game sees it."""


class Strict(BaseModel):
    """Unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class SeatSpec(Strict):
    """Who sits in a seat: a human (claimed later, or by the creator) or a bot of a named kind."""

    kind: Literal["human", "bot"]
    bot: Name | None = None


class ConfigIn(Strict):
    """A game's setup."""

    players: Annotated[StrictInt, Field(ge=1, le=16), Integral]
    variants: Annotated[list[Name], Field(max_length=MAX_ENTRIES)] = []
    content: Name = "base"
    options: Annotated[dict[Name, OptionValue], Field(max_length=MAX_ENTRIES)] = {}


_CLOCK = ClockSpec()


class ClockIn(Strict):
    """Per-seat clocks: ``fischer`` (``base`` seconds each, ``increment`` more each time the turn passes
    to another seat) or ``move`` (at most ``per_move`` seconds for every decision); when a seat's time
    runs out, a bot takes it (``on_expiry: "bot"``, of kind ``bot``) or it loses (``"lose"``)."""

    # the kinds and the defaults are the engine's (ClockSpec)
    mode: Mode = _CLOCK.mode
    base: Annotated[StrictInt, Field(ge=1, le=MAX_BASE), Integral] = _CLOCK.base
    increment: Annotated[StrictInt, Field(ge=0, le=MAX_INCREMENT), Integral] = _CLOCK.increment
    per_move: Annotated[StrictInt, Field(ge=1, le=MAX_BASE), Integral] = _CLOCK.per_move
    on_expiry: Expiry = _CLOCK.on_expiry
    bot: Name | None = _CLOCK.bot


class CreateGame(Strict):
    """Create a game: which, how, who sits where, and which human seat the creator takes."""

    game: Name
    config: ConfigIn
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=16)]
    claim: Annotated[StrictInt, Field(ge=0, le=15), Integral] | None = None
    hints: StrictBool | None = None
    """Whether players may ask for a suggested move (``None``: yes when a bot plays, else no)."""
    clock: ClockIn | None = None
    """Per-seat clocks (``None``: no clock)."""


class ActionIn(Strict):
    """An action in its JSON form."""

    kind: Name
    args: Annotated[list[Any], Field(max_length=64)] = []


class Submit(Strict):
    """An action and the version of the game the player saw when choosing it."""

    version: Annotated[StrictInt, Field(ge=0), Integral]
    action: ActionIn


class Leave(Strict):
    """Leave a seat; with ``bot`` a bot of that kind takes it over."""

    bot: Name | None = None


class Upload(Strict):
    """Resume a game from a record (a save file): who sits where, and which seat the uploader takes."""

    record: dict[str, Any]
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=16)] | None = None
    claim: Annotated[StrictInt, Field(ge=0, le=15), Integral] | None = None


class Claimed(BaseModel):
    """A seat taken: the game and seat (the token travels in the cookie, and here for programs)."""

    id: str
    seat: int | None
    token: str | None = None


class ErrorDetail(BaseModel):
    """What was refused and why: a short code, a message in words, and sometimes more (a ``version``
    to resync to, the ``rule`` an action broke, ``retry_after`` seconds)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every refusal's body."""

    error: ErrorDetail
