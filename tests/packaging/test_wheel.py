"""The wheel and sdist build with ``python -m build``, hold every file of the package (web client, game
data, translations, migrations, rules pages), and the wheel, installed alone in a clean venv, serves."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import ludorum
from tests.packaging.support import check_lobby, served

ROOT = Path(ludorum.__file__).resolve().parent.parent

# One file of each kind of package data: the web client, game data, translations, migrations, rules pages.
SAMPLES = {
    "ludorum/web/static/lobby.js",
    "ludorum/web/static/app.css",
    "ludorum/games/reliquium/data/map.toml",
    "ludorum/locale/ru/LC_MESSAGES/ludorum.mo",
    "ludorum/server/store/alembic.ini",
    "ludorum/server/store/migrations/script.py.mako",
    "ludorum/server/store/migrations/versions/0001_initial.py",
    "ludorum/web/rules/reliquium.ru.md",
}

pytestmark = pytest.mark.slow  # builds, then installs from the package index (pip's cache makes it quick)


def _package_files(source: Path) -> set[str]:
    """Every file of the package in the source tree, as a path from the tree's root."""
    return {
        path.relative_to(source).as_posix()
        for path in (source / "ludorum").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[str]]:
    """The sdist and the wheel built from a copy of the source (building writes into the tree it reads)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "ludorum", source / "ludorum", ignore=shutil.ignore_patterns("__pycache__"))
    dist = source / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return dist, _package_files(source)


def test_the_sdist_and_the_wheel_hold_every_file_of_the_package(built: tuple[Path, set[str]]) -> None:
    dist, files = built
    assert files >= SAMPLES  # one of each kind of data, so that the listing is known to reach them
    (wheel,) = dist.glob("ludorum-*.whl")
    missing = files - set(zipfile.ZipFile(wheel).namelist())
    assert not missing, sorted(missing)
    (sdist,) = dist.glob("ludorum-*.tar.gz")
    with tarfile.open(sdist) as tar:
        in_sdist = {name.partition("/")[2] for name in tar.getnames()}
    assert not files - in_sdist, sorted(files - in_sdist)


def test_the_installed_wheel_serves(built: tuple[Path, set[str]], tmp_path: Path) -> None:
    dist, _ = built
    (wheel,) = dist.glob("ludorum-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    constraints = ["-c", str(ROOT / "constraints.txt")] if (ROOT / "constraints.txt").exists() else []
    subprocess.run(
        [venv / "bin" / "pip", "install", "--quiet", *constraints, str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    # Away from the source tree, so that only the installed package can be imported.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env |= {"XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    version = subprocess.run(
        [venv / "bin" / "ludorum", "--version"], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert version.stdout == f"ludorum {ludorum.__version__}\n", version.stderr
    where = subprocess.run(
        [venv / "bin" / "python", "-c", "import ludorum; print(ludorum.__file__)"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr
    with served([str(venv / "bin" / "ludorum"), "serve", "--port", "0"], env) as url:
        check_lobby(url)
