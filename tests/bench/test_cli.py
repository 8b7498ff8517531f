"""The ``ludorum-bench`` command: figures, refusals, and without the ``bench`` extra a clear refusal before
anything is measured."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ludorum.bench import server
from ludorum.bench.cli import app


def test_the_server_benches_without_their_clients_are_refused_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "CLIENTS", (*server.CLIENTS, "ludorum_no_such_client"))
    result = CliRunner().invoke(app, ["speed", "reliquium", "--paced", ""])
    assert result.exit_code == 2
    assert "pip install 'ludorum[bench]'" in result.output and "ludorum_no_such_client" in result.output
    assert "decisions/s" not in result.output  # refused before the engine was measured


def test_bench_prints_figures(fixture_registry) -> None:  # type: ignore[no-untyped-def]
    out = CliRunner().invoke(
        app, ["speed", "sealed-bids", "--seconds", "0.2", "--no-server"], env={"COLUMNS": "200"}
    )
    assert out.exit_code == 0, out.output
    assert "sealed-bids 2p: " in out.output and " decisions/s over " in out.output
    assert "cheaper than deepcopy" in out.output


AT_LEAST = "Input should be greater than or equal to"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["executors", "reliquium", "-n", "0"], f"'--games' / '-n': {AT_LEAST} 1"),
        (["speed", "--seconds", "-1"], f"'--seconds': {AT_LEAST} 0.1"),
    ],
)
def test_a_bench_refusal_is_clear(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert message in " ".join(result.output.replace("│", " ").split()), result.output
