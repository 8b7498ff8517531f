"""Reading an uploaded record (``POST /api/records``) in a worker process, not on the event loop.

The body is up to a mebibyte of JSON (``bodylimit.MAX_RECORD_BODY``).  Parsing JSON holds the interpreter's
lock from start to end, so a thread of the server's would stall the loop all the same: a 1 MB upload held
every other request for up to 110 ms, a 7 MB one (under the old 8 MiB cap) for 0.7 s.  A worker parses
and checks it, and sends back the request and its :class:`~ludorum.engine.Record`, or why it is refused,
as plain data (a pydantic error does not travel between processes).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from ludorum.engine import Record, RecordError
from ludorum.server.errors import NESTED_TOO_DEEPLY
from ludorum.server.http.schemas import Upload

UPLOAD_SCHEMA: dict[str, Any] = {
    k: v
    for k, v in Upload.model_json_schema(ref_template="#/components/schemas/{model}").items()
    if k != "$defs"  # SeatSpec, the one it refers to, is among the document's components already
}
"""The body as the OpenAPI document shows it: the route reads the body itself, so FastAPI cannot."""


def _body_error(message: str) -> list[dict[str, Any]]:
    """A refusal of the whole body, as ``RequestValidationError`` takes its errors."""
    return [{"loc": ("body",), "msg": message, "type": "json_invalid"}]


def read_upload(raw: bytes) -> tuple[str, Any, Any]:
    """``("ok", upload, record)``; ``("invalid", errors, None)`` for a body that is not the request's shape
    (the errors as ``RequestValidationError`` takes them); ``("bad_record", message, None)`` for a record
    that does not decode."""
    try:
        data = json.loads(raw)  # the standard library's: exact whole numbers of any size (seeds)
    except ValueError as e:  # not JSON, or not UTF-8
        return "invalid", _body_error(f"not JSON: {e}"), None
    except RecursionError:
        return "invalid", _body_error(NESTED_TOO_DEEPLY), None
    try:
        upload = Upload.model_validate(data)
    except ValidationError as e:
        return "invalid", e.errors(include_url=False, include_context=False, include_input=False), None
    try:
        return "ok", upload, Record.from_json(upload.record)
    except RecordError as e:
        return "bad_record", str(e), None
