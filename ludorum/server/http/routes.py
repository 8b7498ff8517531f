"""The HTTP and WebSocket API: lobby, seats, play, records."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import anyio
from fastapi import APIRouter, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ludorum.agents.kinds import bot_kinds, default_kind
from ludorum.engine import Action, CodecError, replay_states
from ludorum.engine.clock import ClockSpec
from ludorum.engine.i18n import T
from ludorum.server.errors import ApiError
from ludorum.server.http import language, rules
from ludorum.server.http.deps import client_of, lobby_of, looker, refusals, require_seat
from ludorum.server.http.language import LocalizedRoute
from ludorum.server.http.plainroute import PlainJSONRoute
from ludorum.server.http.schemas import Claimed, CreateGame, Leave, Submit
from ludorum.server.http.uploads import UPLOAD_SCHEMA, read_upload
from ludorum.server.play.live import LiveGame
from ludorum.server.security import drop_seat_cookie, match_seat, presented_token, set_seat_cookie
from ludorum.server.store.retired import RetiredGame, other_rules_message
from ludorum.server.store.tables import FINISHED

# 413 (any body over the limit) and 422 (a malformed parameter) can answer any request
# 413 (any body over the limit), 422 (a malformed parameter) and 429 (too many refusals lately:
# http/refusals.py) can answer any request
router = APIRouter(prefix="/api", responses=refusals(413, 422, 429), route_class=LocalizedRoute)

TOKEN_IN_BODY = "x-ludorum-token"
"""Programs send ``X-Ludorum-Token: body`` to receive the seat token in the response body too."""


def _answer(shown: str, response: Response | None = None) -> Response:
    """A snapshot already rendered and encoded for its reader (``LiveGame.shown_json``), sent as it is:
    neither walked again for its texts nor validated and re-encoded by FastAPI (a third of an action's
    cost on the event loop).  The headers set on ``response`` (a dropped cookie) go with it."""
    answer = Response(shown, media_type="application/json")
    if response is not None:
        answer.headers.raw.extend(response.headers.raw)
    return answer


def _claimed(
    request: Request, response: Response, game_id: str, seat: int | None, token: str | None
) -> Claimed:
    if token is not None:
        set_seat_cookie(response, request, game_id, token)
    body_token = token if request.headers.get(TOKEN_IN_BODY, "").lower() == "body" else None
    return Claimed(id=game_id, seat=seat, token=body_token)


@router.get("/catalog", summary="The games this server offers")
def catalog(request: Request) -> list[dict[str, Any]]:
    """Every registered game: what it is, players, variants, its options with the values each takes,
    bot kinds, whether a board renderer and a rules page exist."""
    lobby = lobby_of(request)
    renderers = request.app.state.renderers
    return [
        {
            "name": g.name,
            "title": g.title,
            "blurb": g.blurb,
            "length": g.length,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "variants": dict(g.variants),
            "options": [o.to_json() for o in g.option_specs()],
            "rules": rules.has_rules(g.name),
            "contents": list(g.contents),
            "bots": list(bot_kinds(g)),
            "default_bot": default_kind(g),
            "renderer": renderers(g.name) is not None,
        }
        for g in lobby.registry
    ]


@router.get("/rules/{game}", summary="A game's rules page", responses=refusals(404))
def rules_page(game: str, request: Request) -> dict[str, Any]:
    """The rules of a registered game as HTML, rendered from the packaged Markdown (nothing fetched), in
    the reader's language where the page is written in it, else in English; ``lang`` says which."""
    registry = lobby_of(request).registry
    lang = rules.page_language(game, language.reader.get())
    html = rules.rules_html(game, lang) if game in registry else None
    if html is None:
        raise ApiError(404, "no_rules", T("there is no rules page for {game}", game=repr(game[:64])))
    return {"game": game, "title": registry.get(game).title, "html": html, "lang": lang}


@router.get("/effects/{game}", summary="What each thing of a game does", responses=refusals(404))
def effects(game: str, request: Request) -> dict[str, Any]:
    """The effect texts of a registered game's cards, creatures, buildings and properties, by the key its
    board renderer names them with, in the reader's language: static content, the same for every game of
    the kind (the page fetches it once and shows it on hover; no game's hidden cards are named here)."""
    registry = lobby_of(request).registry
    if game not in registry:
        raise ApiError(404, "no_game", T("there is no game called {game}", game=repr(game[:64])))
    return {"game": game, "effects": dict(registry.get(game).effects())}


@router.get("/games", summary="The lobby: open, running or finished games")
async def list_games(
    request: Request,
    status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[dict[str, Any]]:
    """The newest games, without anything hidden: game, setup, status, seats, number of steps."""
    lobby = lobby_of(request)
    rows = await asyncio.to_thread(lobby.store.listing, status, limit)
    out = []
    for row, seats in rows:
        game = lobby.registry.get(row.game) if row.game in lobby.registry else None
        title = game.title if game is not None else row.game
        resumable = game is not None and row.rules_version == game.rules_version
        out.append(
            {
                "id": row.id,
                "game": row.game,
                "title": title,
                "config": row.config,
                "status": row.status,
                "version": row.version,
                "created": row.created.isoformat() if row.created else None,
                "result": row.result if row.status == FINISHED else None,
                "rematch_of": row.rematch_of,
                "seed_chosen": bool(row.seed_chosen),
                "clock": row.clock,
                # a game of other rules is shown as it was played, never resumed
                "rules_version": row.rules_version,
                "resumable": resumable,
                "retired": None
                if resumable
                else other_rules_message(title, row.rules_version, game.rules_version if game else 0),
                "players": [
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "bot": s.bot,
                        "claimed": s.kind == "bot" or s.token_hash is not None,
                    }
                    for s in seats
                ],
            }
        )
    return out


@router.post(
    "/games",
    status_code=201,
    summary="Create a game",
    response_model=Claimed,
    responses=refusals(400, 404, 429),
)
async def create_game(body: CreateGame, request: Request, response: Response) -> Claimed:
    """Set up a game; the creator may take one human seat at once (its token comes as a cookie)."""
    live, token = await lobby_of(request).create(
        body.game,
        body.config.model_dump(),
        [(s.kind, s.bot) for s in body.seats],
        body.claim,
        client=client_of(request),
        clock=None if body.clock is None else ClockSpec(**body.clock.model_dump()),
    )
    await request.app.state.hints.remember(lobby_of(request), live, body.hints)
    return _claimed(request, response, live.id, body.claim, token)


@router.post(
    "/records",
    status_code=201,
    summary="Resume a game from a record",
    response_model=Claimed,
    responses=refusals(400, 404, 429),
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": UPLOAD_SCHEMA}}}
    },
)
async def upload_record(request: Request, response: Response) -> Claimed:
    """Start a game from a full record (a save file): it is replayed, checked, then continues here."""
    lobby = lobby_of(request)
    # Read in a worker process (uploads.py): parsing up to a mebibyte of JSON here would hold the loop.
    verdict, body, record = await lobby.workers.run(
        client_of(request), read_upload, await request.body(), bulky=True
    )
    if verdict == "invalid":
        raise RequestValidationError(body)
    if verdict == "bad_record":
        raise ApiError(422, "bad_record", body)
    players = record.config.players
    specs: list[tuple[str, str | None]] = (
        [(s.kind, s.bot) for s in body.seats] if body.seats else [("human", None)] * players
    )
    live, token = await lobby.create(
        record.game, record.config.to_json(), specs, body.claim, record=record, client=client_of(request)
    )
    return _claimed(request, response, live.id, body.claim, token)


@router.get(
    "/games/{game_id}",
    summary="One game as you may see it",
    response_model=dict[str, Any],
    responses=refusals(401, 404, 409),
)
async def game_state(
    game_id: str, request: Request, response: Response, since: Annotated[int, Query(ge=0)] = 0
) -> Response | dict[str, Any]:
    """Your seat's view (a spectator's without a token), the legal actions if you decide, the log.
    A game stored under another rules version is shown as it was played (``resumable: false``)."""
    lobby = lobby_of(request)
    looked = await lobby.look(game_id)
    seat = looker(lobby, looked, request, response)
    if isinstance(looked, LiveGame):  # the readings of the latest steps may still be being decided
        await looked.readable(seat, since)
        if not looked.over:  # a rematch starts only once the game has ended: no query needed
            return _answer(looked.shown_json(seat, since, language.reader.get(), rematches=[]), response)
    snap = looked.snapshot(seat, since)
    snap["rematches"] = await asyncio.to_thread(lobby.store.rematches, game_id)
    return snap


@router.post(
    "/games/{game_id}/seats/{seat}/claim",
    summary="Take a free seat",
    response_model=Claimed,
    responses=refusals(404, 409),
)
async def claim_seat(
    game_id: str,
    seat: int,
    request: Request,
    response: Response,
    accept_chosen_seed: Annotated[bool, Query()] = False,
) -> Claimed:
    """Take a free human seat; its token comes back as a cookie.  A game resumed from an uploaded
    record (``seed_chosen``: its uploader knows every future draw) needs ``accept_chosen_seed=true``."""
    lobby = lobby_of(request)
    live = await lobby.get(game_id)
    token = await lobby.claim(live, seat, accept_chosen_seed)
    return _claimed(request, response, game_id, seat, token)


@router.post("/games/{game_id}/leave", summary="Leave your seat", responses=refusals(400, 401, 404, 409, 429))
async def leave(game_id: str, body: Leave, request: Request, response: Response) -> dict[str, Any]:
    """Give up your seat (to another human, or to a bot of the kind named)."""
    lobby = lobby_of(request)
    live = await lobby.get(game_id)
    seat = require_seat(lobby, live, request)
    await lobby.leave(live, seat, body.bot)
    drop_seat_cookie(response, request, game_id)
    return {"id": game_id, "seat": seat, "left": True}


@router.post(
    "/games/{game_id}/rematch",
    summary="Play again",
    response_model=Claimed,
    responses=refusals(401, 404, 409, 429),
)
async def rematch(game_id: str, request: Request, response: Response) -> Claimed:
    """After the end, for the game's players only: its one rematch (same setup, a fresh seed), made by
    the first call; every player keeps their seat and their token, and each call answers the same game."""
    lobby = lobby_of(request)
    live = await lobby.get(game_id)
    seat = require_seat(lobby, live, request)
    new = await lobby.rematch(live)
    token = presented_token(live.id, request.headers)
    kept = token is not None and match_seat(token, [(s.seat, s.token_hash) for s in new.seats]) == seat
    return _claimed(request, response, new.id, seat if kept else None, token if kept else None)


async def submit(game_id: str, body: Submit, request: Request) -> Response:
    """Submit an action with the version you saw; the answer is your new view once it is stored."""
    lobby = lobby_of(request)
    live = await lobby.get(game_id)
    seat = require_seat(lobby, live, request)
    try:
        action = Action.from_json(body.action.model_dump())
    except CodecError as e:
        raise ApiError(422, "bad_action", str(e)) from None
    await lobby.hub.submit(live, seat, body.version, action)
    await live.readable(seat, body.version)  # at once unless others moved since (chance, a bot)
    return _answer(live.shown_json(seat, body.version, language.reader.get()))


# Every action of every game comes this way: a plain JSON body skips FastAPI's generic path
router.add_api_route(
    "/games/{game_id}/actions",
    submit,
    methods=["POST"],
    summary="Take your turn",
    response_model=dict[str, Any],
    responses=refusals(400, 401, 404, 409),
    route_class_override=PlainJSONRoute,
)


@router.get("/games/{game_id}/record", summary="Download the record", responses=refusals(401, 404, 409))
async def record(game_id: str, request: Request) -> JSONResponse:
    """The full record once the game is over; before that, only what your seat (or a spectator) may see."""
    lobby = lobby_of(request)
    looked = await lobby.look(game_id)
    if isinstance(looked, RetiredGame):  # as stored, marked with the rules version it was played under
        game = looked.stored.game
        data = looked.record() if looked.over else looked.snapshot(looker(lobby, looked, request))
    elif looked.over:
        game, data = looked.game.name, looked.record().to_json()
    else:
        observer = looker(lobby, looked, request)
        await looked.readable(observer, 0)
        game, data = looked.game.name, looked.partial_record(observer)
    name = f"ludorum-{game}-{looked.id}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get(
    "/games/{game_id}/replay/{step}", summary="A finished game at one step", responses=refusals(404, 409)
)
async def replay_step(
    game_id: str, step: int, request: Request, seat: Annotated[int | None, Query(ge=0, le=15)] = None
) -> dict[str, Any]:
    """The view (a spectator's, or a seat's) after ``step`` steps of a finished game."""
    live = await lobby_of(request).get(game_id)
    if not live.over:
        raise ApiError(409, "not_over", T("the replay opens once the game has ended"))
    if live.states is None:
        live.states = await asyncio.to_thread(lambda: list(replay_states(live.game, live.record())))
    if not 0 <= step < len(live.states):
        raise ApiError(404, "no_such_step", T("this game has steps 0 to {last}", last=len(live.states) - 1))
    if seat is not None and seat >= live.config.players:
        raise ApiError(
            404, "no_such_seat", T("this game has seats 0 to {last}", last=live.config.players - 1)
        )
    state = live.states[step]
    # after the last step nobody moves, also when a seat lost on time (a game its rules had not ended)
    last = step == len(live.states) - 1
    mover = None if last or live.game.is_over(state) else live.game.to_move(state)
    return {
        "step": step,
        "steps": len(live.states) - 1,
        "seat": seat,
        "to_move": mover,
        "view": live.game.view(state, seat),
        "players": [{"seat": s, "name": live.game.seat_name(state, s)} for s in range(live.config.players)],
    }


async def _refuse(ws: WebSocket, code: int, reason: str) -> None:
    """Refuse with a close code: accept, then close.  A close before the handshake completes reaches
    the client as a bare HTTP 403, which says nothing of why."""
    await ws.accept()
    await ws.close(code=code, reason=reason)


@router.websocket("/games/{game_id}/ws")
async def websocket(ws: WebSocket, game_id: str) -> None:
    """Pushes: on connect send ``{"type": "hello", "version": n}``; every change then arrives as a
    ``{"type": "state", ...}`` message holding your view, legal actions and the log from your version."""
    lobby = lobby_of(ws)
    origin = ws.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != ws.headers.get("host"):
        # another site's page may not open a WebSocket with this browser's seat cookie
        await _refuse(ws, 4403, "cross-site WebSocket refused")
        return
    try:
        live = await lobby.get(game_id)
        observer = looker(lobby, live, ws)
    except ApiError as e:
        await _refuse(ws, 4000 + e.status, e.code)
        return
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive(), timeout=30)
        if first["type"] == "websocket.disconnect":
            return
        hello = json.loads(first["text"])  # a binary frame has no "text": KeyError
        since = hello.get("version", 0) if isinstance(hello, dict) else 0
        since = since if type(since) is int else 0
    except (TimeoutError, ValueError, KeyError, RecursionError):  # RecursionError: nested too deep
        with contextlib.suppress(Exception):
            await ws.close(code=4400, reason='send {"type": "hello", "version": n} first')
        return
    sub = live.subscribe(observer, since, language.of(ws))

    try:
        async with anyio.create_task_group() as tg:

            async def pump() -> None:
                try:
                    while True:
                        await ws.send_text(await sub.queue.get())  # JSON, encoded once per news
                except Exception:  # the client went away while we were sending
                    tg.cancel_scope.cancel()

            tg.start_soon(pump)
            try:  # the client has nothing more to say (whatever it sends is ignored): this notices it leave
                while (await ws.receive())["type"] != "websocket.disconnect":
                    pass
            finally:
                tg.cancel_scope.cancel()
    finally:
        live.subscribers.discard(sub)
