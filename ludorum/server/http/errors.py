"""How the app answers what goes wrong: the API's refusals (``ApiError``), malformed requests, unknown
paths and methods, each as ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match
from starlette.types import Send

from ludorum.server.errors import NESTED_TOO_DEEPLY, ApiError
from ludorum.server.http.language import LocalizedJSONResponse


async def send_error(send: Send, status: int, code: str, message: str) -> None:
    """Answer an ASGI request with an error, from below the app (a middleware)."""
    response = JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def _allowed_methods(request: Request) -> list[str]:
    """The methods the routes matching the request's path answer."""
    # asked method by method: the router (with its included routers) says which would fully match
    return [
        method
        for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
        if any(
            isinstance(route, BaseRoute)
            and route.matches({**request.scope, "method": method})[0] == Match.FULL
            for route in request.app.router.routes
        )
    ]


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error of ``app`` in the API's shape."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return LocalizedJSONResponse(exc.body(), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": "invalid_request", "message": _validation_message(exc)}}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, RecursionError):  # FastAPI's "error parsing the body", from the parser
            return JSONResponse(
                {"error": {"code": "invalid_request", "message": f"body: {NESTED_TOO_DEEPLY}"}},
                status_code=422,
            )
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of every route on this path, not only the first's
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return JSONResponse(
            {"error": {"code": code, "message": str(exc.detail)}},
            status_code=exc.status_code,
            headers=headers,
        )
