"""A balance report's headline tables in Markdown (``report.md``), for docs and issues."""

from __future__ import annotations

from typing import Any


def pct(r: dict[str, Any]) -> str:
    """``"54.0 % [51.2–56.8]"``, bold with a ``!`` when flagged."""
    text = f"{100 * r['rate']:.1f} % [{100 * r['low']:.1f}–{100 * r['high']:.1f}]"
    return f"**{text} !**" if r["flagged"] else text


def headline(report: dict[str, Any], content_rows: int = 6) -> str:
    """Settings, then per setting: seats and first player, factions/decks/heroes, length, endings, and
    the content elements whose users and non-users differ most."""
    unit = report["length_unit"]
    width = max(c["players"] for c in report["cells"])
    seat_heads = " | ".join(f"seat {i}" for i in range(width))
    out = [
        f"### {report['title']}: {report['bot']} bot in every seat, "
        f"{report['games']} games, seed {report['seed']}",
        "",
        f"| setting | games | {seat_heads} | first player | median {unit or 'decisions'} | flagged |",
        "|---|---|" + "---|" * width + "---|---|---|",
    ]
    for c in report["cells"]:
        seats = [pct(r) for r in c["seats"]] + [""] * (width - c["players"])
        median = c["length"].get(unit, c["length"]["decisions"]).get("median")
        first, flags = pct(c["first_player"]), len(c["flags"])
        out.append(f"| {c['name']} | {c['games']} | {' | '.join(seats)} | {first} | {median} | {flags} |")
    for c in report["cells"]:
        for dim, values in c["dimensions"].items():
            if dim == "hero" and "deck" in c["dimensions"]:
                continue  # one hero per starter deck: the deck row says the same
            out += ["", f"{c['name']}, win rate by {dim} (fair share {100 * c['fair_share']:.0f} %):", ""]
            out += [f"| {dim} | win rate [95 %] |", "|---|---|"]
            out += [f"| {v} | {pct(r)} |" for v, r in values.items()]
    out += ["", "End reasons (share of games, numbers as #):", ""]
    for c in report["cells"]:
        top = list(c["end_reasons"].items())[:3]
        out.append(f"- {c['name']}: " + "; ".join(f"{r} {100 * n / c['games']:.0f} %" for r, n in top))
    out += ["", "Content elements whose users' and non-users' win rates differ most:", ""]
    for c in report["cells"]:
        rows = [
            (f["users"]["rate"] - f["non_users"]["rate"], cat, name, f)
            for cat, names in c["content"].items()
            for name, f in names.items()
            if f["users"]["games"] >= 30 and f["non_users"]["games"] >= 30
        ]
        rows.sort(key=lambda x: -abs(x[0]))
        if not rows:
            continue
        out += [f"{c['name']}:", "", "| element | used in | users win | non-users win |", "|---|---|---|---|"]
        out += [
            f"| {cat} {name} | {100 * f['use_rate']:.0f} % | {pct(f['users'])} | {pct(f['non_users'])} |"
            for _, cat, name, f in rows[:content_rows]
        ]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
