"""The balance report as one self-contained HTML file: tables plus matplotlib figures embedded as
base64 PNG, with no script, font or stylesheet fetched from anywhere.
"""

from __future__ import annotations

import base64
import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: figures are only ever rendered to bytes

import matplotlib.pyplot as plt
from jinja2 import Environment, PackageLoader, select_autoescape
from matplotlib.figure import Figure

FLAG = "#c0392b"
OK = "#4a78a8"


def png(fig: Figure) -> str:
    """The figure as a ``data:`` URI, and the figure closed."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def rate_bars(title: str, labels: list[str], rates: list[dict[str, Any]]) -> str:
    """Bars of rates with their 95 % intervals and a line at the fair share; flagged bars in red."""
    fig, ax = plt.subplots(figsize=(max(3.5, 0.9 * len(labels) + 1.5), 2.8))
    values = [r["rate"] for r in rates]
    errors = [[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]]
    ax.bar(labels, values, yerr=errors, capsize=4, color=[FLAG if r["flagged"] else OK for r in rates])
    if rates:
        ax.axhline(rates[0]["fair"], color="black", linestyle="--", linewidth=1, label="fair share")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelrotation=20 if len(labels) > 3 else 0, labelsize=8)
    return png(fig)


def histogram(title: str, values: list[float], unit: str) -> str:
    """The distribution of game lengths."""
    fig, ax = plt.subplots(figsize=(4.5, 2.8))
    ax.hist(values, bins=min(30, max(5, len(set(values)))), color=OK)
    ax.set_xlabel(unit)
    ax.set_ylabel("games")
    ax.set_title(title, fontsize=10)
    return png(fig)


def content_scatter(title: str, content: dict[str, dict[str, Any]], fair: float) -> str:
    """Each content element: how often it is used against how often its users win."""
    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    for category, names in content.items():
        xs = [f["use_rate"] for f in names.values()]
        ys = [f["users"]["rate"] for f in names.values()]
        ax.scatter(xs, ys, s=14, label=category)
    ax.axhline(fair, color="black", linestyle="--", linewidth=1)
    ax.set_xlabel("share of seat-games that use it")
    ax.set_ylabel("win rate of its users")
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    return png(fig)


def comparison_chart(report: dict[str, Any]) -> str:
    """Win rate by seat, one group of bars per player count and variant set, relative to fair share."""
    fig, ax = plt.subplots(figsize=(6.5, 3))
    width = 0.8 / max(1, max((c["players"] for c in report["cells"]), default=1))
    for i, cell in enumerate(report["cells"]):
        for s, r in enumerate(cell["seats"]):
            ax.bar(
                i + (s - (len(cell["seats"]) - 1) / 2) * width,
                r["rate"] - r["fair"],
                width,
                yerr=[[r["rate"] - r["low"]], [r["high"] - r["rate"]]],
                capsize=2,
                color=FLAG if r["flagged"] else OK,
            )
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xticks(range(len(report["cells"])), [c["name"] for c in report["cells"]], fontsize=8)
    ax.set_ylabel("seat win rate − fair share")
    ax.set_title("Seats, from first to last, in each setting", fontsize=10)
    return png(fig)


def figures(report: dict[str, Any]) -> dict[str, Any]:
    """Every figure of the report, by cell."""
    out: dict[str, Any] = {"comparison": comparison_chart(report) if len(report["cells"]) > 1 else None}
    for cell in report["cells"]:
        unit = report["length_unit"] or "decisions"
        lengths = cell["length_values"].get(unit) or cell["length_values"]["decisions"]
        out[cell["name"]] = {
            "seats": rate_bars("Win rate by seat", [str(i) for i in range(cell["players"])], cell["seats"]),
            "dimensions": {
                dim: rate_bars(f"Win rate by {dim}", list(values), list(values.values()))
                for dim, values in cell["dimensions"].items()
            },
            "length": histogram(
                "Game length", lengths, unit if cell["length_values"].get(unit) else "decisions"
            ),
            "content": content_scatter("Content elements", cell["content"], cell["fair_share"])
            if cell["content"]
            else None,
        }
    return out


def render_html(report: dict[str, Any]) -> str:
    """The report as one HTML page."""
    env = Environment(loader=PackageLoader("ludorum.lab", "templates"), autoescape=select_autoescape())
    env.filters["pct"] = lambda x: f"{100 * x:.1f} %"
    return env.get_template("balance.html").render(report=report, figures=figures(report))
