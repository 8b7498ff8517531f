"""Refused requests count against their sender, by what they cost.

A request the server refuses as malformed or impossible (``400``, ``413``, ``422``) is no cheaper to
answer than one it serves: the body is read and parsed, an option checked, an uploaded record replayed
up to its first illegal step (all of it when that is the last).  Invalid 2,000-character deck options
(4,895 in 25 s) and 38 KB records with an illegal last step were all refused with 422 and never reached
a 429, while they made other players' acknowledgements 4-7 times slower.  So each refusal is charged to
its client's :class:`~ludorum.server.limits.RefusalBudget` at one unit plus one per KiB of body read
(reading, parsing and replaying grow with the body), and a client that has run its budget out is
refused (``429 too_many_refusals``) before its request is read, until the budget refills.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludorum.server.errors import ApiError
from ludorum.server.http.language import LocalizedJSONResponse
from ludorum.server.limits import RefusalBudget, client_key

COUNTED = frozenset({400, 413, 422})
"""The refusals charged: the request was malformed, too large, or asked for what cannot be done."""


def refusal_cost(body_bytes: int) -> float:
    """What a refused request with a body of ``body_bytes`` is charged."""
    return 1 + body_bytes / 1024


class RefusalCharge:
    """ASGI middleware: charges each refused API request to its client's budget, and refuses every API
    request of a client whose budget is spent."""

    def __init__(self, app: ASGIApp, budget: RefusalBudget) -> None:
        self.app = app
        self.budget = budget

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on unless its client's budget is spent; charge it if it is refused."""
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        client = client_key(scope["client"][0] if scope.get("client") else None)
        try:
            self.budget.check(client)
        except ApiError as e:
            await LocalizedJSONResponse(e.body(), status_code=e.status, headers=e.headers)(
                scope, receive, send
            )
            return
        read = 0
        status = 0

        async def counting_receive() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            return message

        async def noting_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, counting_receive, noting_send)
        finally:
            if status in COUNTED:
                self.budget.charge(client, refusal_cost(read))
