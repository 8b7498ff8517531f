"""What the routes share: the app's lobby, who is asking (a seat or a spectator), and the refusals the
API documents."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response, WebSocket

from ludorum.engine.i18n import T
from ludorum.server.errors import ApiError
from ludorum.server.http.schemas import ErrorBody
from ludorum.server.limits import client_key
from ludorum.server.play.live import LiveGame
from ludorum.server.play.lobby import Lobby
from ludorum.server.security import drop_seat_cookie, presented_token
from ludorum.server.store.retired import RetiredGame

_REFUSALS = {
    400: "the body could not be read",
    401: "a seat token is needed (no_token), or the one presented is not valid here (bad_token)",
    403: "the game does not allow it (hints_off)",
    404: "no such game, game type, seat or step",
    409: "the game's state does not allow it (stale_version: resync; not_your_turn, out_of_time, game_over, "
    "seat_taken, not_over, chosen_seed, unresumable, other_rules)",
    413: "the request body is too large (too_large)",
    422: "the request is malformed or breaks a rule (invalid_request, illegal_action, bad_config, "
    "other_rules, ...)",
    429: "a quota is used up (too_many_games, too_many_bot_games, too_many_refusals, hint_too_soon, "
    "hints_busy, analyses_busy, ...); see Retry-After",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answers for these refusal statuses (every one has an ``ErrorBody``)."""
    return {s: {"model": ErrorBody, "description": _REFUSALS[s]} for s in statuses}


def lobby_of(request: Request | WebSocket) -> Lobby:
    """The lobby of the app that serves ``request``."""
    return request.app.state.lobby  # type: ignore[no-any-return]


def client_of(request: Request) -> str:
    """Who the request counts against for the quotas."""
    return client_key(request.client.host if request.client else None)


def _seat(lobby: Lobby, live: LiveGame, request: Request) -> int | None:
    return lobby.seat_of(live, presented_token(live.id, request.headers))


def looker(
    lobby: Lobby,
    live: LiveGame | RetiredGame,
    conn: Request | WebSocket,
    response: Response | None = None,
) -> int | None:
    """Who is looking: a seat, or a spectator.  A stale seat cookie (the seat was given up, the
    database replaced) only makes a spectator — and is dropped; a wrong Authorization header is refused."""
    try:
        return lobby.seat_of(live, presented_token(live.id, conn.headers))
    except ApiError:
        if "authorization" in conn.headers:
            raise
        if response is not None:
            drop_seat_cookie(response, conn, live.id)
        return None


def require_seat(lobby: Lobby, live: LiveGame, request: Request) -> int:
    """The seat whose token the request presents (``401`` without one, or with a wrong one)."""
    seat = _seat(lobby, live, request)
    if seat is None:
        raise ApiError(401, "no_token", T("this needs your seat token (cookie or Authorization header)"))
    return seat
