"""``ludorum bench`` without the ``bench`` extra: a clear refusal before anything is measured."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ludorum.bench import server
from ludorum.cli.main import app


def test_the_server_benches_without_their_clients_are_refused_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "CLIENTS", (*server.CLIENTS, "ludorum_no_such_client"))
    result = CliRunner().invoke(app, ["bench", "reliquium", "--paced", ""])
    assert result.exit_code == 2
    assert "pip install 'ludorum[bench]'" in result.output and "ludorum_no_such_client" in result.output
    assert "decisions/s" not in result.output  # refused before the engine was measured
