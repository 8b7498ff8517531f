"""How ``data/map.toml`` was drawn: the designed map of Sigillum as a Voronoi diagram of named seeds.

The rulebook names 13 regions but prints no map, so the project designed one (DESIGN.md §4–5).  Each
region is the Voronoi cell of a seed point, clipped to the 1000×700 board; cells meeting along an edge
share that edge's two vertices exactly, so the loader can derive adjacency, junctions and the board edge
from the polygons alone.  The left half is mirrored onto the right (shifted 9 units down to avoid
four-region points), which keeps the Legion/Alliance and Brotherhood/Order corners alike.

Redraw with ``python -m ludorum.games.reliquium.mapdesign > /tmp/map.toml`` and move it into ``data/``.
"""

from __future__ import annotations

WIDTH, HEIGHT = 1000, 700

LEFT: tuple[tuple[str, str, int, int, str, str], ...] = (
    ("Blackthorn Wood", "forests", 70, 70, "Sacrificial Forest", "forests"),
    ("Ashen Peaks", "mountains", 220, 60, "Mossy Ridge", "mountains"),
    ("Boundless Expanse", "plains", 90, 200, "Forest's Edge", "plains"),
    ("Iron Crags", "mountains", 380, 70, "Storm Crags", "mountains"),
    ("Windward Hills", "mountains", 270, 190, "Amber Steppe", "plains"),
    ("Golden Fields", "plains", 400, 230, "Whispering Pines", "forests"),
    ("Wasteland", "plains", 60, 340, "Groves", "forests"),
    ("Howling Wilds", "forests", 250, 420, "Thornmarch", "plains"),
    ("Elderwood", "forests", 390, 390, "Raven Heights", "mountains"),
    ("Saxum Ridge", "mountains", 150, 460, "Cliff of Sorrow", "mountains"),
    ("Ancestral Thickets", "forests", 50, 560, "Dawn Pine Forest", "forests"),
    ("Valley of Volcanoes", "plains", 140, 650, "Plain of Vigils", "plains"),
    ("Frostfang Heights", "mountains", 320, 480, "Shattered Peaks", "mountains"),
    ("Ember Fells", "plains", 430, 570, "Silent Moor", "forests"),
    ("Sunless Sea", "water", 280, 610, "Great Sea", "water"),
)
"""Left-half seeds: name, terrain, x, y, and the name and terrain of the mirrored right-half region."""

CENTER: tuple[tuple[str, str, int, int], ...] = (("Mirror Lake", "water", 500, 330),)

RULEBOOK_NAMES = frozenset(
    {
        "Boundless Expanse", "Wasteland", "Saxum Ridge", "Ancestral Thickets", "Howling Wilds",
        "Valley of Volcanoes", "Forest's Edge", "Sacrificial Forest", "Mossy Ridge", "Groves",
        "Cliff of Sorrow", "Dawn Pine Forest", "Great Sea",
    }
)  # fmt: skip
"""The 13 region names the rulebook uses (their places follow DESIGN.md §5)."""


def seeds() -> list[tuple[str, str, float, float]]:
    """All 31 seeds: the left half, its mirror image and the centre."""
    out = [(a, b, float(x), float(y)) for a, b, x, y, _, _ in LEFT]
    out += [(c, d, float(WIDTH - x), float(y + 9)) for _, _, x, y, c, d in LEFT]
    out += [(a, b, float(x), float(y)) for a, b, x, y in CENTER]
    return out


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
            f"label = [{round(x)}, {round(y)}]",
            "polygon = [" + ", ".join(map(str, poly)) + "]",
            f'provenance = "{prov}"',
            "",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_toml(), end="")
