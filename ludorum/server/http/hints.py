"""The hint and analysis routes: "suggest a move" during a game, the search bots' review after it
(what they answer and their bounds: ``play/hints.py``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from ludorum.agents.review import LEVEL
from ludorum.server.http.deps import lobby_of, refusals, require_seat
from ludorum.server.play.hints import Hints
from ludorum.server.play.lobby import Lobby

router = APIRouter(prefix="/api", tags=["hints"])


def _book(request: Request) -> tuple[Lobby, Hints]:
    return lobby_of(request), request.app.state.hints


@router.get("/games/{game_id}/hints", summary="Whether this game allows hints", responses=refusals(404, 409))
async def hint_setting(game_id: str, request: Request) -> dict[str, Any]:
    """``{"allowed": bool, "level": ...}``: whether its players may ask for a suggested move."""
    lobby, hints = _book(request)
    live = await lobby.get(game_id)
    return {"allowed": await hints.allowed(lobby, live), "level": LEVEL}


@router.post("/games/{game_id}/hint", summary="Suggest a move", responses=refusals(401, 403, 404, 409, 429))
async def hint(game_id: str, request: Request) -> dict[str, Any]:
    """The search bot's suggestion for your turn — from what your seat knows only — and the win chance
    it estimates for you: ``{version, level, action, label, win}``."""
    lobby, hints = _book(request)
    live = await lobby.get(game_id)
    return await hints.hint(lobby, live, require_seat(lobby, live, request))


@router.get(
    "/games/{game_id}/analysis",
    summary="The search bots' analysis of a finished game",
    responses={202: {"description": "the analysis is running; ask again"}, **refusals(404, 409, 429)},
)
async def game_analysis(game_id: str, request: Request, response: Response) -> dict[str, Any]:
    """Each analysed decision (move played, the search's better move, estimated win chance before and
    after) and each player's biggest mistakes (``mistakes``: seat → steps); 202 while it runs."""
    lobby, hints = _book(request)
    live = await lobby.get(game_id)
    status, body = await hints.analysis(lobby, live)
    response.status_code = status
    if status == 202:
        response.headers["Retry-After"] = "2"
    return body
