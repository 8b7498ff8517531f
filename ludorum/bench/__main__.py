"""``python -m ludorum.bench``: the ``ludorum-bench`` command."""

from ludorum.bench.cli import app

app(prog_name="ludorum-bench")
