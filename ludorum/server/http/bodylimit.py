"""The limit on request bodies: refused with 413 before anything reads them whole."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludorum.server.http.errors import send_error

MAX_BODY = 64 * 1024
"""The largest request body, except record uploads."""
MAX_RECORD_BODY = 1024 * 1024
"""The largest record upload: about six times the record of a 200-round, four-player Reliquium game of
random play (172 KB, the longest seen).  A worker process reads it (``uploads.read_upload``): parsing JSON
holds the interpreter's lock throughout, and on the loop 7 MB (under the 8 MiB cap this was before) held
every other request for 0.7 s."""


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse request bodies above the limit with 413 before anything reads them whole."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD_BODY if scope["path"] == "/api/records" else MAX_BODY
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await send_error(send, 413, "too_large", f"the request body is over {limit} bytes")
                return
        seen = 0
        started = exceeded = False

        async def counting_receive() -> Message:
            nonlocal seen, exceeded
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    exceeded = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            # Whatever the app answers once the body overflowed (FastAPI turns the error into a 400),
            # the client is told 413.
            nonlocal started
            if exceeded:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await send_error(send, 413, "too_large", f"the request body is over {limit} bytes")
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except _TooLarge:
            if not started:
                started = True
                await send_error(send, 413, "too_large", f"the request body is over {limit} bytes")
