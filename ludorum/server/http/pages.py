"""The browser client: its pages and static files (``ludorum/web/static``), and each game's board
renderer (``static/games/<name>.js``) when the game has one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from ludorum.server.errors import ApiError

WEB = Path(__file__).resolve().parents[2] / "web" / "static"


def renderers(extra: Path | None) -> Callable[[str], Path | None]:
    """Where a game's board renderer is: ``extra`` (a directory searched first; tests use it), then the
    packaged ones; ``None`` if it has none."""

    def renderer(name: str) -> Path | None:
        for base in (extra, WEB / "games"):
            if base is not None:
                path = base / f"{name}.js"
                if path.is_file() and path.parent.resolve() == base.resolve():
                    return path
        return None

    return renderer


def add_pages(app: FastAPI, renderer: Callable[[str], Path | None]) -> None:
    """Serve the client's pages, its static files and the games' renderers from ``app``."""

    @app.get("/static/games/{name}.js", include_in_schema=False)
    def game_renderer(name: str) -> Response:
        path = renderer(name)
        if path is None:
            raise ApiError(404, "no_renderer", "this game has no board renderer; the action list is used")
        return FileResponse(path, media_type="text/javascript")

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> Callable[[], Any]:
        def serve() -> FileResponse:
            return FileResponse(WEB / name, media_type="text/html")

        return serve

    app.get("/", include_in_schema=False)(page("index.html"))
    app.get("/game/{game_id}", include_in_schema=False)(page("game.html"))
