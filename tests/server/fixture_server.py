"""A server process for the fixture game (the restart test kills it with SIGKILL).

python -m tests.server.fixture_server PORT DATABASE_URL [BOT_DELAY]
"""

from __future__ import annotations

import sys

import uvicorn

from ludorum.server import create_app
from ludorum.server.run import uvicorn_config
from tests.server.support import fixture_registry


def main() -> None:
    """Serve until killed."""
    port, url = int(sys.argv[1]), sys.argv[2]
    delay = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    app = create_app(fixture_registry(), url, bot_delay=delay)
    uvicorn.Server(uvicorn_config(app, "127.0.0.1", port)).run()


if __name__ == "__main__":
    main()
