"""Fixtures: the fixture registry, one database per test (SQLite, and PostgreSQL started by the run)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludorum.engine import Registry
from tests.server.support import TempPostgres, fixture_registry

warnings.filterwarnings("ignore", message=".*httpx2.*")

# Test servers decide log readings in threads (the same code as the worker processes, without a process
# per server); tests/server/test_workers.py runs them in processes.
os.environ.setdefault("LUDORUM_WORKERS", "0")
# Many tests send malformed requests on purpose, hundreds from one client: the budget of refusals
# (limits.RefusalBudget) would answer them 429; tests/server/test_refusal_budget.py sets its own.
os.environ.setdefault("LUDORUM_REFUSALS_PER_CLIENT", "0")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """One PostgreSQL cluster for the whole run (a fresh database per test)."""
    pg = TempPostgres()
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def registry() -> Registry:
    """The fixture game only."""
    return fixture_registry()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'ludorum.sqlite3'}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test against SQLite and against a real PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ludorum.sqlite3'}"
    pg: TempPostgres = request.getfixturevalue("postgres")
    return pg.new_database()


@pytest.fixture
def client(registry: Registry, sqlite_url: str) -> Iterator[TestClient]:
    """A test client of a fresh server on SQLite."""
    from ludorum.server import create_app

    with TestClient(create_app(registry, sqlite_url)) as c:
        yield c
