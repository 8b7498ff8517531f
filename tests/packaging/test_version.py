"""``ludorum --version`` says the version installed."""

from __future__ import annotations

from importlib.metadata import version

from typer.testing import CliRunner

import ludorum
from ludorum.cli.main import app


def test_version_is_the_installed_distributions() -> None:
    out = CliRunner().invoke(app, ["--version"])
    assert out.exit_code == 0, out.output
    assert out.output == f"ludorum {version('ludorum')}\n"
    assert version("ludorum") == ludorum.__version__  # pyproject reads its version from the package
