"""Rendering for the environments: ``"ansi"`` (text), ``"rgb_array"`` (a picture) and ``"human"``.

Every mode draws the same thing, the table as the terminal shows it to the viewer (``Game.render_text``:
a spectator's view in PettingZoo, the learner's seat in Gymnasium), so a picture never shows more than the
viewer may see, and no game needs drawing code of its own.  ``"rgb_array"`` is that text drawn in a
monospace font onto a fixed-size white canvas (matplotlib's Agg canvas, no display needed): every frame of
a game has the same shape, as video recorders require.  ``"human"`` shows the picture in a matplotlib
window where a display exists; without one it prints the text, as PettingZoo's text-based classic games
do.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

RENDER_MODES = ("ansi", "rgb_array", "human")
"""What ``render_mode`` may be (or ``None``: no rendering)."""

WIDTH, HEIGHT = 960, 720
"""The size of an ``"rgb_array"`` frame in pixels (the text is scaled down to fit it)."""
_DPI = 96
_FONT_PT = 11.0
"""The largest font size; longer texts get a smaller one, so that the whole text fits the frame."""


def check_render_mode(render_mode: str | None) -> None:
    """Refuse a render mode the environments do not provide, naming those they do."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or None, not {render_mode!r}")


def has_display() -> bool:
    """Whether a window can be shown (an X11 or Wayland display is named)."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def picture(text: str) -> np.ndarray:
    """``text`` drawn in black monospace on white: a ``HEIGHT × WIDTH × 3`` ``uint8`` array."""
    # Imported here: matplotlib costs a quarter of a second to import, and most environments never draw.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lines = text.splitlines() or [""]
    columns = max(len(line) for line in lines) or 1
    # A monospace glyph is about 0.6 em wide; a line about 1.2 em high (points: 72 per inch).
    width_pt, height_pt = WIDTH * 72 / _DPI, HEIGHT * 72 / _DPI
    size = min(_FONT_PT, 0.95 * width_pt / (0.6 * columns), 0.95 * height_pt / (1.2 * len(lines)))
    fig = Figure(figsize=(WIDTH / _DPI, HEIGHT / _DPI), dpi=_DPI, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    fig.text(0.01, 0.99, "\n".join(lines), family="monospace", size=size, va="top", ha="left")
    canvas.draw()  # type: ignore[no-untyped-call]  # matplotlib leaves it unannotated
    rgba = np.asarray(canvas.buffer_rgba())  # type: ignore[no-untyped-call]
    return np.ascontiguousarray(rgba[:, :, :3])


class Renderer:
    """One environment's rendering in its mode; ``"human"`` keeps its window between frames."""

    def __init__(self, mode: str | None) -> None:
        check_render_mode(mode)
        self.mode = mode
        self._window: Any = None

    def render(self, text: str) -> str | np.ndarray | None:
        """The frame of ``text`` in this mode: the text, a picture, or ``None`` once shown (``"human"``)."""
        if self.mode == "ansi":
            return text
        if self.mode == "rgb_array":
            return picture(text)
        if self.mode == "human":
            self._show(text)
        return None

    def _show(self, text: str) -> None:
        if not has_display():
            print(text)
            return
        import matplotlib.pyplot as plt  # only with a display: pyplot picks an interactive backend

        if self._window is None:
            fig = plt.figure("Ludorum", figsize=(WIDTH / _DPI, HEIGHT / _DPI), dpi=_DPI)
            ax = fig.add_axes((0, 0, 1, 1))
            ax.set_axis_off()
            self._window = (fig, ax.imshow(picture(text)))
        else:
            self._window[1].set_data(picture(text))
        plt.pause(0.001)

    def close(self) -> None:
        """Close the window, if one was shown."""
        if self._window is not None:
            import matplotlib.pyplot as plt

            plt.close(self._window[0])
            self._window = None
