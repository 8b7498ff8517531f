"""Shared fixtures: a registry holding only the fixture games, for layers that look games up by name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import ludorum.games
from ludorum.engine import Registry
from tests.fixtures.sealed_bids import SealedBids


@pytest.fixture
def fixture_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """Replace the product registry with one holding the fixture game Sealed Bids."""
    reg = Registry()
    reg.register(SealedBids())
    monkeypatch.setattr(ludorum.games, "_registry", reg)
    yield reg
