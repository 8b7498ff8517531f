"""Cross-site requests: a page of another origin may not change anything with this browser's cookies.

A seat cookie is ``SameSite=Strict``, but "site" ignores the port: a page served on another port of
the same host (or another subdomain's page, for a registrable domain) is same-site, so its browser
sends the cookie with a form it posts here — a rematch, a claim, a move.  Every request that may
change something (any method but GET, HEAD, OPTIONS) is refused with ``403 cross_site`` when the
browser says it comes from another origin: ``Sec-Fetch-Site`` other than ``same-origin`` (or ``none``:
typed by the user), else an ``Origin`` whose host and port are not this request's ``Host``.  Every
current browser sends one or the other with such a request; a program sends neither and is let
through (it carries its token itself: no ambient authority to abuse).  The WebSocket has its own
Origin check (``api.websocket``).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing, so are never refused here."""


def cross_origin(headers: Mapping[str, str]) -> str | None:
    """Why a state-changing request with these headers comes from another origin (``None``: it does
    not, or it is not a browser's)."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return None if site in ("same-origin", "none") else f"Sec-Fetch-Site is {site!r}"
    origin = headers.get("origin")
    if origin is None:
        return None
    if origin == "null" or urlsplit(origin).netloc.lower() != headers.get("host", "").lower():
        return f"Origin {origin[:100]!r} is not this server"
    return None


class CrossSiteGuard:
    """ASGI middleware refusing state-changing HTTP requests that a browser sends from another origin."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse (403) a cross-origin request that may change something; pass everything else on."""
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            why = cross_origin(Headers(scope=scope))
            if why is not None:
                message = f"a page of another site may not send this request ({why})"
                body = {"error": {"code": "cross_site", "message": message}}
                await JSONResponse(body, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
