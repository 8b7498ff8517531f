"""Tuning: weights set only while their own bot decides, Optuna's search, the saved data file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ludorum.games.reliquium.evaluation as evaluation
from ludorum.cli.main import app
from ludorum.games import registry
from ludorum.lab.errors import LabError
from ludorum.lab.tuning import Weighted, current, load_weights, tune

runner = CliRunner()
TUNABLES = registry().get("reliquium").provides.load_tunables()


class Reader:
    """A stand-in bot that reports the weight it sees when called."""

    seen = 0.0

    def decide(self) -> float:
        return float(evaluation.UNIT)


def test_weights_hold_only_while_their_bot_is_called() -> None:
    before = evaluation.UNIT
    bot = Weighted(Reader(), TUNABLES, {"unit": 0.9})
    assert bot.decide() == 0.9
    assert before == evaluation.UNIT
    assert Reader().decide() == before
    assert bot.seen == 0.0  # plain attributes pass through


def test_optuna_moves_the_weights_towards_a_better_score() -> None:
    target = 0.7
    best, value = tune(25, TUNABLES, lambda w, _: -((w["unit"] - target) ** 2), seed=1)
    assert abs(best["unit"] - target) < abs(current(TUNABLES)["unit"] - target)
    assert value == pytest.approx(-((best["unit"] - target) ** 2))
    assert all(TUNABLES[k].low <= v <= TUNABLES[k].high for k, v in best.items())


def test_tune_command_saves_weights_a_tournament_loads(tmp_path: Path) -> None:
    out = tmp_path / "tuned.json"
    result = runner.invoke(
        app, ["tune", "reliquium", "--bot", "random", "--trials", "2", "-n", "12", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    # Random bots read no weights: every trial scores exactly the fair share, so the current weights stay.
    assert data["score"] == 0.5 and data["weights"] == data["defaults"] == current(TUNABLES)
    assert len(list((tmp_path / "tuned").glob("trial-*.jsonl"))) == 2
    args = [
        "tournament",
        "reliquium",
        "--bots",
        "random:tuned,random",
        "--weights",
        f"random:tuned={out}",
        "-n",
        "6",
    ]
    played = runner.invoke(app, [*args, "--out", str(tmp_path / "t.jsonl")])
    assert played.exit_code == 0, played.output
    line = json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])
    assert line["lab"]["spec"]["weights"] == {"random:tuned": data["weights"]}


def test_a_weights_file_of_another_game_or_weight_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"game": "signum", "weights": {"hero": 1.0}}))
    with pytest.raises(LabError, match="holds weights for 'signum', not 'reliquium'"):
        load_weights(path, "reliquium", TUNABLES)
    path.write_text(json.dumps({"game": "reliquium", "weights": {"castle": 1.0}}))
    with pytest.raises(LabError, match="no tunable weight 'castle'"):
        load_weights(path, "reliquium", TUNABLES)
    result = runner.invoke(app, ["tune", "reliquium", "--bot", "nobot", "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2 and "no bot kind 'nobot'" in result.output
    assert not (tmp_path / "x.json").exists()
