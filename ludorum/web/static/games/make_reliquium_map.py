"""Write ``reliquium-map.json`` beside this file: the map of Sigillum exactly as ``map_geometry()`` gives it.

The Reliquium board renderer (``reliquium.js``) fetches that file, because the game's view does not carry
the polygons and the server has no endpoint for them.  Run after the map changes::

    python -m ludorum.web.static.games.make_reliquium_map

``tests/browser/test_reliquium.py`` checks that the file equals ``map_geometry()``, so it cannot drift.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ludorum.games.reliquium import map_geometry

TARGET = Path(__file__).resolve().with_name("reliquium-map.json")


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
