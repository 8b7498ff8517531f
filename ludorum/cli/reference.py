"""The ``ludorum`` command as a Click object, for the documentation site's command-line reference
(``docs/reference/cli.md`` renders it with mkdocs-click)."""

from __future__ import annotations

import typer

from ludorum.cli.main import app

command = typer.main.get_command(app)
"""The whole ``ludorum`` command tree, as Click sees it."""
