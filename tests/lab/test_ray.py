"""The Ray executor: the same records as local processes, and a lost worker's game played again.

One short local Ray runtime (2 CPUs, no dashboard) serves every test of this module.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lab import support
from tests.lab.support import SMALL, play

ray = pytest.importorskip("ray")

from ludorum.lab.executors import RayExecutor  # noqa: E402


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    import cloudpickle

    cloudpickle.register_pickle_by_value(support)  # Ray workers need not find the tests package
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
    cloudpickle.unregister_pickle_by_value(support)


def test_ray_gives_the_same_lines_as_this_process(tmp_path: Path, local_ray: None) -> None:
    play(SMALL, 12, tmp_path / "serial.jsonl")
    play(SMALL, 12, tmp_path / "ray.jsonl", RayExecutor())
    assert sorted((tmp_path / "serial.jsonl").read_text().splitlines()) == sorted(
        (tmp_path / "ray.jsonl").read_text().splitlines()
    )


def test_a_run_is_cut_into_batches_that_keep_every_cpu_busy() -> None:
    from ludorum.lab.executors import RAY_BATCH, batches
    from ludorum.lab.schedule import Schedule

    tasks = [Schedule(SMALL).task(i) for i in range(1000)]
    for n, window, sizes in (
        (40, 8, [5] * 8),
        (12, 8, [1] * 12),
        (1000, 8, [RAY_BATCH] * 125),
        (7, 8, [1] * 7),
    ):
        cut = batches(tasks[:n], window)
        assert [len(b) for b in cut] == sizes and [t for b in cut for t in b] == tasks[:n]
    assert [len(b) for b in batches(tasks[:45], 8)] == [5] * 9  # the last batch may be short: here none
    assert [len(b) for b in batches(tasks[:43], 8)] == [5] * 8 + [3]
    assert batches([], 8) == []


def test_a_long_run_goes_in_batches_and_gives_the_same_lines(tmp_path: Path, local_ray: None) -> None:
    from ludorum.lab import executors

    assert RayExecutor().cpus() == 2  # a window of 8 Ray tasks: 40 games go in batches of five
    play(SMALL, 40, tmp_path / "serial.jsonl")
    play(SMALL, 40, tmp_path / "ray.jsonl", RayExecutor())
    assert sorted((tmp_path / "serial.jsonl").read_text().splitlines()) == sorted(
        (tmp_path / "ray.jsonl").read_text().splitlines()
    )
    assert executors.play_batch(lambda t: str(t.index), []) == []


def test_a_game_that_raises_in_a_batch_is_named_and_ends_the_batch() -> None:
    from ludorum.lab.executors import play_batch
    from ludorum.lab.schedule import Schedule

    tasks = [Schedule(SMALL).task(i) for i in range(4)]

    def play_(task):  # type: ignore[no-untyped-def]
        if task.index == 2:
            raise RuntimeError("a bug")
        return str(task.index)

    out = play_batch(play_, tasks)
    assert [ok for ok, _ in out] == [True, True, False] and isinstance(out[2][1], RuntimeError)


def test_a_dead_ray_worker_is_reported_and_its_game_replayed(tmp_path: Path, local_ray: None) -> None:
    from ludorum.lab.results import ResultsFile
    from ludorum.lab.schedule import Schedule
    from ludorum.lab.tournament import run_games

    marker = tmp_path / "marker"
    dying = support.dying_play_at(marker)

    class Dying(RayExecutor):
        def run(self, tasks, play, notify):  # type: ignore[no-untyped-def]
            return super().run(tasks, dying, notify)

    notices: list[str] = []
    run = run_games(
        Schedule(SMALL), 6, ResultsFile(tmp_path / "r.jsonl", SMALL), Dying(), notify=notices.append
    )
    assert marker.exists()
    assert len(notices) == 1 and "Ray worker died" in notices[0] and "game 3" in notices[0]
    assert sorted(line.index for line in run.lines) == list(range(6))
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 6
