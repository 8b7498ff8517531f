"""The rules pages: each game's rules, packaged as Markdown in ``ludorum/web/rules/<game>.md`` and
rendered to HTML here, once per process (nothing is fetched at run time).

The Markdown is the project's own text (docs/web-client.md, "Rules pages", says how it is built from
the rulebooks and the docs).  Raw HTML in it is not passed through: the page holds only what Markdown
itself produces.
"""

from __future__ import annotations

import functools
from pathlib import Path

from markdown_it import MarkdownIt

RULES = Path(__file__).resolve().parent.parent / "web" / "rules"
"""Where the rules pages' Markdown lives (inside the package, so it ships)."""


def rules_path(game: str) -> Path | None:
    """The Markdown file of ``game``'s rules page, or ``None`` if it has none."""
    path = RULES / f"{game}.md"
    # the name comes from a URL: only a plain file directly in the folder counts
    if "/" in game or "\\" in game or game.startswith(".") or not path.is_file():
        return None
    return path


def has_rules(game: str) -> bool:
    """Whether ``game`` has a rules page."""
    return rules_path(game) is not None


@functools.cache
def rules_html(game: str) -> str | None:
    """``game``'s rules page as HTML, or ``None`` if it has none."""
    path = rules_path(game)
    if path is None:
        return None
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    html: str = md.render(path.read_text(encoding="utf-8"))
    return html
