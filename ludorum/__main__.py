"""``python -m ludorum`` is the ``ludorum`` command."""

from ludorum.cli.main import app

app()
