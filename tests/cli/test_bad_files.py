"""Files and numbers a command cannot use (issue 34): a record that is not UTF-8 text or is nested
beyond any record, a player count of 0, a seed beyond what the server stores, a record whose stored
result is forged.  Each is said in words, with a non-zero exit code and no traceback."""

from __future__ import annotations

import codecs
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludorum.cli.main import app
from ludorum.engine.record import MAX_SEED
from tests.fixtures.sealed_bids import SealedBids

runner = CliRunner()

NOT_RECORDS = {
    "random bytes": (random.Random(7).randbytes(4096) + b"\n", "is not UTF-8 text"),
    "UTF-16": (codecs.BOM_UTF16_LE + '{"game": "sealed-bids"}\n'.encode("utf-16-le"), "is UTF-16 text"),
    "100,000 nested [": (b"[" * 100_000 + b"\n", "nested too deeply"),
}


def said(output: str) -> str:
    """The words of an output, out of Rich's boxes and line breaks."""
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize("kind", list(NOT_RECORDS))
@pytest.mark.parametrize("command", [["replay", "{path}", "--no-step"], ["play", "--load", "{path}"]])
def test_a_file_that_is_no_record_is_refused_in_words(
    fixture_registry: object, tmp_path: Path, kind: str, command: list[str]
) -> None:
    content, message = NOT_RECORDS[kind]
    path = tmp_path / "record.json"
    path.write_bytes(content)
    result = runner.invoke(app, [a.format(path=path) for a in command])
    assert result.exit_code == 2, (result.output, result.exception)
    assert message in said(result.output)
    assert "Traceback" not in result.output and not isinstance(result.exception, RecursionError)


@pytest.mark.parametrize("kind", list(NOT_RECORDS))
def test_a_results_file_that_is_no_results_file_is_refused_in_words(
    fixture_registry: object, tmp_path: Path, kind: str
) -> None:
    content, message = NOT_RECORDS[kind]
    path = tmp_path / "results.jsonl"
    path.write_bytes(content)
    result = runner.invoke(app, ["record", str(path), "0"])
    assert result.exit_code == 2, (result.output, result.exception)
    assert message in said(result.output) and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.jsonl"]


def test_zero_players_is_refused_not_the_default(fixture_registry: object) -> None:
    for command in (["play", "sealed-bids", "-p", "0"], ["simulate", "sealed-bids", "-p", "0", "-n", "1"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "not 0" in said(result.output), result.output


@pytest.mark.parametrize("seed", [MAX_SEED + 1, -MAX_SEED - 1, 10**30])
def test_a_seed_the_server_would_refuse_is_refused_here_too(fixture_registry: object, seed: int) -> None:
    for command in (["play", "sealed-bids"], ["simulate", "sealed-bids", "-n", "1"]):
        result = runner.invoke(app, [*command, "--seed", str(seed)], input="q\n")
        assert result.exit_code == 2 and "--seed" in said(result.output), result.output
    last = runner.invoke(app, ["simulate", "sealed-bids", "-n", "2", "--seed", str(MAX_SEED)])
    assert last.exit_code == 2 and "the last game's seed" in said(last.output)
    edge = runner.invoke(app, ["simulate", "sealed-bids", "-n", "1", "--seed", str(MAX_SEED)])
    assert edge.exit_code == 0, edge.output


def test_replay_says_a_forged_result_is_wrong(fixture_registry: object, tmp_path: Path) -> None:
    from ludorum.agents import RandomBot, play_game

    game = SealedBids()
    play = play_game(game, game.config(2), 8, [RandomBot(), RandomBot()])
    data = json.loads(play.record.dumps())
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    assert runner.invoke(app, ["replay", str(path), "--no-step"]).exit_code == 0
    data["result"]["ranking"] = list(reversed(data["result"]["ranking"]))  # the loser claims the win
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path), "--no-step"])
    assert result.exit_code == 1, result.output
    assert "the stored result is wrong" in said(result.output)
