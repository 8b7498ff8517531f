"""A route for the hottest request, the move: a well-formed JSON body skips FastAPI's generic path.

FastAPI answers every request through its generic machinery: the content type parsed as a MIME header,
the body decoded, every parameter validated through ``solve_dependencies``, telemetry.  For the move
(``POST /api/games/{id}/actions``), sent for every action of every game, that machinery cost about 40
µs of the event loop's CPU (of 140 µs for the app's whole stack, timed with a stub endpoint: see
docs/server.md, 5 December 2026).  A :class:`PlainJSONRoute` takes a shorter path for the
one request shape that matters — ``Content-Type: application/json``, a ``Content-Length``, a body that
``json.loads`` decodes and the body model accepts — and hands everything else to FastAPI's own handler.
So every refusal (malformed JSON, a wrong shape, another content type, an empty body) is FastAPI's, with
its status and body exactly as before, and the OpenAPI document, built from the endpoint's signature,
is unchanged.  The body is decoded and validated as FastAPI does it (``json.loads``, then the model's
Python-mode validation of the decoded value), so what the endpoint receives is the same too.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.telemetry import get_telemetry_data
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from ludorum.server.http.language import LocalizedRoute

JSON_TYPE = "application/json"


class PlainJSONRoute(LocalizedRoute):
    """A route whose endpoint takes only plain ``str`` path parameters, one body model and the
    ``Request``, and returns a ``Response``: a plain JSON request skips ``solve_dependencies``."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """FastAPI's handler, with a shorter path in front of it for a plain JSON request."""
        generic = super().get_route_handler()
        dependant = self.dependant
        if (
            dependant.query_params
            or dependant.header_params
            or dependant.cookie_params
            or dependant.dependencies
            or dependant.response_param_name
            or dependant.background_tasks_param_name
            or len(dependant.body_params) != 1
            or any(p.field_info.annotation is not str or p.field_info.metadata for p in dependant.path_params)
        ):
            raise TypeError(f"{self.path}: a PlainJSONRoute takes str path parameters, one body, the request")
        body_param = dependant.body_params[0]
        model = body_param.field_info.annotation
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{self.path}: a PlainJSONRoute's body is a pydantic model")
        body_name, request_name = body_param.name, dependant.request_param_name
        path_names = [p.name for p in dependant.path_params]
        endpoint = self.endpoint
        if not inspect.iscoroutinefunction(endpoint):
            raise TypeError(f"{self.path}: a PlainJSONRoute's endpoint is a coroutine function")

        async def handler(request: Request) -> Response:
            headers = request.headers
            if (
                headers.get("content-type") != JSON_TYPE
                or "content-length" not in headers
                or get_telemetry_data() is not None  # an instrumented server sees FastAPI's own path
            ):
                return await generic(request)
            try:
                body = model.model_validate(json.loads(await request.body()))
            except Exception:  # a refusal (or a body that could not be read): FastAPI's, word for word
                return await generic(request)
            values: dict[str, Any] = {name: request.path_params[name] for name in path_names}
            values[body_name] = body
            if request_name is not None:
                values[request_name] = request
            answer = await endpoint(**values)
            if not isinstance(answer, Response):
                raise TypeError(f"{self.path}: a PlainJSONRoute's endpoint returns a Response")
            return answer

        return handler
