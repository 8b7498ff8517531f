"""Ludorum without its extras: what it takes to play and serve works, and a command that needs a missing
extra says which one to install (ludorum/extras.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import ludorum
from ludorum.extras import EXTRAS, MissingExtra, missing_extra, require_extra
from tests.packaging.support import check_lobby, served

ROOT = Path(ludorum.__file__).resolve().parent.parent

# Runs the command line with every extra's module refused, as in a venv with Ludorum alone (make play).
BLOCKED_CLI = """
import sys
from ludorum.extras import EXTRAS

BLOCKED = {module for modules in EXTRAS.values() for module in modules}
early = sorted(name for name in sys.modules if name.partition(".")[0] in BLOCKED)
assert not early, f"imported before the blocker: {early}"


class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (refused by the test)", name=name)
        return None


sys.meta_path.insert(0, Refuse())
sys.argv[0] = "ludorum"
from ludorum.cli.main import app

app()
"""


def test_require_extra_names_the_extra_and_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    require_extra("lab", "matplotlib")  # installed here (make test installs every extra): no error
    monkeypatch.setitem(sys.modules, "openskill", None)  # how Python marks a module as not importable
    with pytest.raises(MissingExtra) as caught:
        require_extra("lab")
    assert caught.value.extra == "lab" and caught.value.name == "openskill"
    assert "pip install 'ludorum[lab]'" in str(caught.value) and "openskill" in str(caught.value)
    with pytest.raises(ValueError, match="no extra named 'labs'"):
        require_extra("labs")


def test_a_failed_import_is_traced_to_its_extra() -> None:
    error = ModuleNotFoundError("No module named 'open_spiel.python'", name="open_spiel.python")
    found = missing_extra(error)
    assert found is not None and found.extra == "rl" and found.name == "open_spiel"
    assert missing_extra(ModuleNotFoundError("No module named 'nonesuch'", name="nonesuch")) is None


def test_every_extra_named_is_declared_in_pyproject() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(declared), set(EXTRAS) - set(declared)


def _blocked(args: list[str], tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of a subprocess that cannot import any extra's module."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    return [sys.executable, "-c", BLOCKED_CLI, *args], env


def _run_blocked(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    argv, env = _blocked(args, tmp_path)
    return subprocess.run(argv, env={**env, "COLUMNS": "200"}, capture_output=True, text=True, timeout=120)


def test_the_core_lists_games_and_plays_without_any_extra(tmp_path: Path) -> None:
    listed = _run_blocked(["games"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "Reliquium" in listed.stdout and "Medieval Realms" in listed.stdout
    played = _run_blocked(["simulate", "reliquium", "--games", "2", "--seed", "1"], tmp_path)
    assert played.returncode == 0, played.stderr
    version = _run_blocked(["--version"], tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("ludorum "), version.stderr


def test_a_lab_command_without_the_extra_says_which_to_install(tmp_path: Path) -> None:
    out = _run_blocked(["tournament", "reliquium", "--bots", "random,random", "-n", "2"], tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "ludorum tournament" in out.stderr and "pip install 'ludorum[lab]'" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_core_serves_without_any_extra(tmp_path: Path) -> None:
    argv, env = _blocked(["serve", "--port", "0"], tmp_path)
    with served(argv, {**env, "PYTHONUNBUFFERED": "1"}) as url:
        check_lobby(url)


def test_ray_without_the_extra_is_refused_before_anything_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludorum.lab.executors import RayExecutor

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingExtra, match=r"pip install 'ludorum\[lab\]'"):
        RayExecutor()
