"""How ``data/map.toml`` was drawn: the designed map of Sigillum as a Voronoi diagram of named seeds.

The rulebook names 13 regions but prints no map, so the project designed one (DESIGN.md §4–5).  Each
region is the Voronoi cell of a seed point, clipped to the 1000×700 board; cells meeting along an edge
share that edge's two vertices exactly, so the loader can derive adjacency, junctions and the board edge
from the polygons alone.  One quadrant is mirrored into all four, so the four corners are alike (only
initiative, unit sets and some terrains differ); the seeds were found by a random search for the facts
of DESIGN.md §5, three bordering lands per starting corner and regions of similar size.

Redraw with ``python -m ludorum.games.reliquium.mapdesign > /tmp/map.toml`` and move it into ``data/``.
"""

from __future__ import annotations

WIDTH, HEIGHT = 1000, 700

Region = tuple[str, str]
QUADRANT: tuple[tuple[tuple[int, int], Region, Region, Region, Region], ...] = (
    ((208, 537), ("Saxum Ridge", "mountains"), ("Ashen Peaks", "mountains"),
     ("Cliff of Sorrow", "mountains"), ("Mossy Ridge", "mountains")),
    ((21, 438), ("Valley of Volcanoes", "plains"), ("Boundless Expanse", "plains"),
     ("Dawn Pine Forest", "forests"), ("Forest's Edge", "plains")),
    ((151, 578), ("Ancestral Thickets", "forests"), ("Blackthorn Wood", "forests"),
     ("Plain of Vigils", "plains"), ("Sacrificial Forest", "forests")),
    ((478, 510), ("Frostfang Heights", "mountains"), ("Iron Crags", "mountains"),
     ("Shattered Peaks", "mountains"), ("Storm Crags", "mountains")),
    ((290, 503), ("Ember Fells", "plains"), ("Golden Fields", "plains"),
     ("Thornmarch", "plains"), ("Amber Steppe", "plains")),
    ((390, 388), ("Elderwood", "forests"), ("Wolfwood", "forests"),
     ("Silent Moor", "forests"), ("Whispering Pines", "forests")),
)  # fmt: skip
"""Seeds of the bottom-left quadrant and the names of that seed in the bottom-left, top-left, bottom-right
and top-right quadrants (the Brotherhood's, the Legion's, the Order's and the Alliance's corners)."""

MIDDLE: tuple[tuple[tuple[int, int], Region, Region], ...] = (
    ((60, 350), ("Wasteland", "plains"), ("Groves", "forests")),
    ((239, 350), ("Howling Wilds", "forests"), ("Raven Heights", "mountains")),
)
"""Seeds on the horizontal axis: the left one and its mirror image on the right."""

SEAS: tuple[tuple[tuple[int, int], Region, Region], ...] = (
    ((500, 650), ("Great Sea", "water"), ("Sunless Sea", "water")),
)
"""Seeds on the vertical axis: the bottom one and its mirror image at the top."""

CENTER: tuple[tuple[tuple[int, int], Region], ...] = (((500, 350), ("Mirror Lake", "water")),)

RULEBOOK_NAMES = frozenset(
    {
        "Boundless Expanse", "Wasteland", "Saxum Ridge", "Ancestral Thickets", "Howling Wilds",
        "Valley of Volcanoes", "Forest's Edge", "Sacrificial Forest", "Mossy Ridge", "Groves",
        "Cliff of Sorrow", "Dawn Pine Forest", "Great Sea",
    }
)  # fmt: skip
"""The 13 region names the rulebook uses (their places follow DESIGN.md §5)."""


THREE_PLAYERS: dict[str, str] = {
    "Elderwood": "mountains",
    "Wolfwood": "mountains",
    "Silent Moor": "mountains",
    "Whispering Pines": "mountains",
    "Raven Heights": "forests",
}
"""The board's three-player side (issue 14, rules version 5): the terrains that differ from the side for two
and four players.  Each quadrant's two inner lands are then mountains, so the lone player of a trio (whose
neighbour is neutral) gains nothing from the neutral quadrant's inner lands that its own do not give it, and
the Raven Heights take the forest the inner lands gave up (docs/reliquium.md, "The three-player side")."""


def seeds() -> list[tuple[str, str, float, float]]:
    """All 31 seeds: one quadrant mirrored into four, the axis pairs and the centre.

    Mirror images are shifted by a few units so that no four regions meet at one point.
    """
    out: list[tuple[str, str, float, float]] = []
    for (x, y), bl, tl, br, tr in QUADRANT:
        out += [
            (*bl, x, y),
            (*tl, x + 3, HEIGHT - y),
            (*br, WIDTH - x + 2, y + 4),
            (*tr, WIDTH - x - 1, HEIGHT - y + 5),
        ]
    for (x, y), left, right in MIDDLE:
        out += [(*left, x, y), (*right, WIDTH - x, y + 6)]
    for (x, y), bottom, top in SEAS:
        out += [(*bottom, x, y), (*top, x + 4, HEIGHT - y)]
    for (x, y), centre in CENTER:
        out.append((*centre, x, y))
    return [(n, t, float(x), float(y)) for n, t, x, y in out]


def _clip(poly: list[tuple[float, float]], a: float, b: float, c: float) -> list[tuple[float, float]]:
    """Keep the part of a convex polygon where ``a*x + b*y <= c``."""
    out: list[tuple[float, float]] = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def cells() -> tuple[list[tuple[int, int]], list[list[int]]]:
    """The shared vertex list (integer points) and each seed's polygon as vertex indices."""
    pts = seeds()
    verts: list[tuple[float, float]] = []

    def vid(p: tuple[float, float]) -> int:
        for k, q in enumerate(verts):
            if abs(p[0] - q[0]) < 0.5 and abs(p[1] - q[1]) < 0.5:
                return k
        verts.append(p)
        return len(verts) - 1

    polys: list[list[int]] = []
    for i, (_, _, x, y) in enumerate(pts):
        poly = [(0.0, 0.0), (float(WIDTH), 0.0), (float(WIDTH), float(HEIGHT)), (0.0, float(HEIGHT))]
        for j, (_, _, u, v) in enumerate(pts):
            if i != j:
                poly = _clip(poly, u - x, v - y, (u * u + v * v - x * x - y * y) / 2)
        ids: list[int] = []
        for p in poly:
            k = vid(p)
            if not ids or ids[-1] != k:
                ids.append(k)
        if ids[0] == ids[-1]:
            ids.pop()
        polys.append(ids)
    return [(round(x), round(y)) for x, y in verts], polys


def to_toml() -> str:
    """The map as ``data/map.toml`` text."""
    verts, polys = cells()
    lines = [
        "# The map of Sigillum (designed: see docs/reliquium.md and mapdesign.py).",
        "# Adjacency, junctions and the board edge are derived from these polygons by the loader.",
        f"width = {WIDTH}",
        f"height = {HEIGHT}",
        "vertices = [" + ", ".join(f"[{x}, {y}]" for x, y in verts) + "]",
        "",
    ]
    for (name, terrain, x, y), poly in zip(seeds(), polys, strict=True):
        prov = "rulebook" if name in RULEBOOK_NAMES else "designed"
        lines += [
            "[[region]]",
            f'name = "{name}"',
            f'terrain = "{terrain}"',
            *([f'three_players_terrain = "{THREE_PLAYERS[name]}"'] if name in THREE_PLAYERS else []),
            f"label = [{round(x)}, {round(y)}]",
            "polygon = [" + ", ".join(map(str, poly)) + "]",
            f'provenance = "{prov}"',
            "",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_toml(), end="")
