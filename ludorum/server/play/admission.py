"""What a new game must be to start: a game the server has, a valid config, a seat per player, bots the
game has, and (for an upload) a record this server can replay.  Each check refuses with the API's error
naming what is wrong; none of them changes anything."""

from __future__ import annotations

from typing import Any

from ludorum.agents import make_bot
from ludorum.engine import Config, ConfigError, Game, Record, Registry
from ludorum.engine.i18n import T
from ludorum.engine.record import MAX_SEED
from ludorum.server.errors import ApiError
from ludorum.server.store.tables import SeatData


def game_named(registry: Registry, name: str) -> Game[Any]:
    """The installed game called ``name`` (``404 no_such_game_type`` naming the games otherwise)."""
    if name not in registry:
        names = ", ".join(registry.names()) or "none"
        raise ApiError(
            404,
            "no_such_game_type",
            T("no game called {name}; the games are: {names}", name=repr(name), names=names),
        )
    return registry.get(name)


def bot_kind(game: Game[Any], kind: str) -> str:
    """``kind``, if ``game`` has bots of that kind (``422 bad_bot`` otherwise)."""
    try:
        make_bot(game, kind)
    except ConfigError as e:
        raise ApiError(422, "bad_bot", str(e)) from None
    return kind


def valid_config(game: Game[Any], config_json: dict[str, Any]) -> Config:
    """The config, decoded (within the generic bounds) and validated by the game (``ConfigError``
    otherwise; a game's checks may build things from the options, so this runs off the event loop)."""
    config = Config.from_json(config_json)
    game.validate_config(config)
    return config


def seat_data(game: Game[Any], specs: list[tuple[str, str | None]], players: int) -> list[SeatData]:
    """The seats of a new game from ``(kind, bot)`` pairs, one per player (``422`` otherwise)."""
    if len(specs) != players:
        raise ApiError(
            422,
            "bad_seats",
            T("give one seat for each of the {players} players, not {n}", players=players, n=len(specs)),
        )
    seats = []
    for i, (kind, bot) in enumerate(specs):
        if kind == "bot":
            seats.append(SeatData(i, "bot", bot_kind(game, bot or "random")))
        else:
            seats.append(SeatData(i, "human"))
    return seats


def check_record(game: Game[Any], config: Config, record: Record) -> None:
    """Refuse (``422``) an uploaded record this server cannot replay faithfully and within bounds: a
    seed outside the stored range, another rules version, more steps than any game takes."""
    if abs(record.seed) > MAX_SEED:
        raise ApiError(
            422,
            "bad_record",
            T("the record's seed is a whole number from {low} to {high}", low=-MAX_SEED, high=MAX_SEED),
        )
    if record.rules is not None and record.rules != game.rules_version:
        raise ApiError(
            422,
            "other_rules",
            T(
                "this record was played under {title} rules version {theirs}, and this server plays version "
                "{ours}: it cannot be replayed under other rules",
                title=game.title,
                theirs=record.rules,
                ours=game.rules_version,
            ),
        )
    if len(record.steps) > game.max_decisions(config):
        raise ApiError(
            422, "bad_record", T("the record has more steps than any game of {title} takes", title=game.title)
        )
