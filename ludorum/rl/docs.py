"""The generated part of docs/rl.md: each game's action numbering and observation layout, from the code.

``python -m ludorum.rl.docs`` rewrites that part of docs/rl.md (everything from :data:`HEADING` on);
a test fails when the file and the code disagree, so a change of numbering cannot go undocumented.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ludorum.games import registry
from ludorum.rl.core import Table, supported_games

HEADING = "## Action numbering and observation layout (generated from the code)"
"""Where the generated part of docs/rl.md starts; it runs to the end of the file."""

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"

_MEANING = 140
"""Longest meaning shown in a layout row (a nested schema's description runs to thousands of characters)."""


def game_section(name: str) -> str:
    """One game's tables, at its largest player count (the numbering of a smaller table is the same kinds
    over fewer seats; the observation layout does not depend on the count)."""
    game = registry().get(name)
    t = Table(name, game.max_players)
    lines = [f"### {game.title} (N = {t.n_actions} at {game.max_players} players)", ""]
    lines += ["| kind | indices | arguments |", "|---|---|---|"]
    lines += [f"| `{k}` | {a}–{b - 1} | {doc} |" for k, a, b, doc in t.actions.ranges()]
    if t.chance.n:
        chance = "; ".join(f"`{k}` {a}–{b - 1} ({doc})" for k, a, b, doc in t.chance.ranges())
        lines += ["", f"Chance outcomes (OpenSpiel): {chance}"]
    lines += ["", f"Observation: {t.obs_size} floats.", ""]
    lines += ["| part | offset | size | meaning |", "|---|---|---|---|"]
    lines += [f"| `{n}` | {o} | {s} | {m[:_MEANING]} |" for n, o, s, m in t.layout()]
    return "\n".join(lines)


def generated() -> str:
    """The generated part of docs/rl.md, heading included, ending with a newline."""
    games = sorted(supported_games())
    return "\n\n".join([HEADING, *(game_section(n) for n in games)]) + "\n"


def split(text: str) -> tuple[str, str]:
    """docs/rl.md as (the written part, the generated part)."""
    at = text.find(HEADING)
    if at < 0:
        raise ValueError(f"docs/rl.md has no heading {HEADING!r}")
    return text[:at], text[at:]


def main() -> None:
    """Rewrite the generated part of docs/rl.md."""
    written, _ = split(DOC.read_text(encoding="utf-8"))
    DOC.write_text(written + generated(), encoding="utf-8")
    print(f"wrote {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
