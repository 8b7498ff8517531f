"""Write the browser's ``reliquium-map.json``: the map of Sigillum exactly as ``map_geometry()`` gives it.

The Reliquium board renderer (``ludorum/web/static/games/reliquium.js``) fetches that file, beside it,
because the game's view does not carry the polygons and the server has no endpoint for them.  A tool that
generates data lives with its game; run it after the map changes::

    python -m ludorum.games.reliquium.browser_map

``tests/browser/test_reliquium.py`` checks that the file equals ``map_geometry()``, so it cannot drift.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ludorum.games.reliquium.content import map_geometry

TARGET = Path(__file__).resolve().parents[2] / "web" / "static" / "games" / "reliquium-map.json"
"""The file the renderer fetches (``/static/games/reliquium-map.json``)."""


def geometry_json(geometry: dict[str, Any] | None = None) -> str:
    """The file's text: compact JSON (the browser fetches it once per page)."""
    g = map_geometry() if geometry is None else geometry
    return json.dumps(g, separators=(",", ":")) + "\n"


def main() -> None:
    """Write the file."""
    TARGET.write_text(geometry_json(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
