"""The RL bench runs and reports every figure it promises (values depend on the machine)."""

from __future__ import annotations

from ludorum.bench.rl import report


def test_bench_reports_each_figure() -> None:
    """One short run: connect_four, the engine against PettingZoo, OpenSpiel's MCTSBot against ours."""
    lines = list(report(["reliquium"], seconds=0.2))
    text = "\n".join(lines)
    assert "connect_four_v3" in lines[-1] and "steps/s" in lines[-1]
    assert "engine" in text and "steps/s with masks" in text and "OpenSpiel MCTSBot" in text
    assert "ours/OpenSpiel" in text
    assert "batched stepper, 16 games observed every step" in text


def test_the_search_comparison_is_on_equal_settings_only() -> None:
    """The MCTS line names the equal settings it measured, and no comparison at our default settings."""
    search = [line for line in report(["reliquium"], seconds=0.2) if "MCTS" in line]
    assert len(search) == 1
    assert "equal settings (one random rollout to the end per simulation, no evaluation" in search[0]
    assert "alternating CPU-time slices" in search[0]
