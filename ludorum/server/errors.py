"""The API's errors: a status, a short code, a message in words — never a token or a secret."""

from __future__ import annotations

import math
from typing import Any


class ApiError(Exception):
    """A refusal the client is told about as ``{"error": {"code", "message", ...}}``."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
        self.headers = headers

    def body(self) -> dict[str, Any]:
        """The JSON body."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def said(e: Exception) -> str:
    """An exception's message as it was made: a game's ``T(...)`` message stays one, so that the answer
    reads in the reader's language (``str(e)`` would render it in the server's, English)."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], str) else str(e)


def retry_later(code: str, message: str, seconds: float) -> ApiError:
    """A ``429``: try again in ``seconds`` (rounded up to whole seconds, at least one), said both in
    the ``Retry-After`` header and as ``retry_after`` in the body."""
    wait = max(1, math.ceil(seconds))
    return ApiError(429, code, message, headers={"Retry-After": str(wait)}, retry_after=wait)


NESTED_TOO_DEEPLY = "JSON nested too deeply to read"
"""Why a body past the JSON parser's depth is refused (422), wherever it is parsed."""
