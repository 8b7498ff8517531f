"""Player colours stay apart for colour-blind players: each renderer's palette, simulated for protanopia,
deuteranopia and tritanopia (Machado et al. 2009, full severity), keeps every two colours at least
``MIN_DELTA_E`` apart in CIELAB (CIE76)."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "ludorum" / "web" / "static" / "games"
MIN_DELTA_E = 15.0
"""A clear difference between two small marks on a board (2.3 is the just noticeable difference)."""

MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "normal vision": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def seen(colour: str, vision: str) -> tuple[float, float, float]:
    """``#rrggbb`` as a person with ``vision`` sees it, in CIELAB."""
    rgb = [_linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5)]
    m = MACHADO[vision]
    return _lab([min(1.0, max(0.0, sum(m[r][c] * rgb[c] for c in range(3)))) for r in range(3)])


def palette(renderer: str, start: str) -> list[str]:
    """The hex colours of the constant that begins with ``start`` in a renderer (up to its ``;``)."""
    text = (GAMES / renderer).read_text(encoding="utf-8")
    block = text[text.index(start) :]
    return re.findall(r"\"(#[0-9a-fA-F]{6})\"", block[: block.index(";")])


PALETTES = {
    "reliquium factions": palette("reliquium.js", "const FACTIONS = ["),
    "medieval-realms realms": palette("medieval-realms.js", "const REALM_FILL = "),
    "signum sides": palette("signum.js", "const SIDES = "),
}


@pytest.mark.parametrize("name", sorted(PALETTES))
@pytest.mark.parametrize("vision", sorted(MACHADO))
def test_player_colours_stay_apart(name: str, vision: str) -> None:
    colours = PALETTES[name]
    assert len(colours) >= 4, colours
    closest = min(
        (math.dist(seen(a, vision), seen(b, vision)), a, b) for a, b in itertools.combinations(colours, 2)
    )
    assert closest[0] >= MIN_DELTA_E, f"{name} under {vision}: {closest[1]} and {closest[2]} look alike"


def test_the_check_catches_the_old_blue_and_purple() -> None:
    """The old Signum sides' blue and purple were too close for a protanope: the check must say so."""
    blue, purple = "#2463b0", "#8e44ad"
    assert math.dist(seen(blue, "protanopia"), seen(purple, "protanopia")) < MIN_DELTA_E
    assert math.dist(seen(blue, "normal vision"), seen(purple, "normal vision")) >= MIN_DELTA_E
