"""A bounded schemathesis run over the OpenAPI document: every answer is documented, no input gives a
5xx, refusals have the documented shape, 405s name what is allowed."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from ludorum.server import create_app
from ludorum.server.limits import Limits
from tests.server.support import LiveServer, fixture_registry

EXAMPLES = 12
"""Examples per operation: enough to reach every refusal, small enough for well under a minute."""

LIMITS = Limits(games_per_client=8, bot_games=2, refusals=0)
"""Tight quotas, so that the run reaches the 429s too; no budget of refusals, or the run's many
malformed requests would soon be answered 429 whatever they hold (test_refusal_budget.py tests it)."""

# A schema-valid request may still break a rule no schema can state (an unknown game, an illegal
# action, a record that does not replay): the API refuses those with 422 and a code naming the rule.
# So 422 counts as an acceptable answer to valid data, and the test below checks that it never says
# the request itself was malformed (``invalid_request``).
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ["2xx", 401, 404, 409, 422, 429]},
        }
    }
)

# The document comes from the app itself (no server needed to read it); the calls go to a live one.
schema = schemathesis.openapi.from_dict(
    create_app(fixture_registry(), "sqlite://", limits=LIMITS).openapi(), config=CONFIG
)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """One fresh server for the whole run."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(f"sqlite:///{Path(tmp) / 'fuzz.sqlite3'}", limits=LIMITS) as srv,
    ):
        yield srv


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_the_api_keeps_its_openapi_document(case: Any, server: LiveServer) -> None:
    response = case.call_and_validate(base_url=server.url)
    meta = case.meta
    positive = meta is not None and not meta.generation.mode.is_negative
    if positive and not any(c.mode.is_negative for c in meta.components.values()):
        assert response.status_code != 422 or response.json()["error"]["code"] != "invalid_request", (
            f"a request that fits the document was refused as malformed: {response.text}"
        )
