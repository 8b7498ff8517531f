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

from ludorum.engine.i18n import SOURCE

RULES = Path(__file__).resolve().parents[2] / "web" / "rules"
"""Where the rules pages' Markdown lives (inside the package, so it ships)."""


def rules_path(game: str, lang: str = SOURCE) -> Path | None:
    """The Markdown file of ``game``'s rules page in ``lang`` (``<game>.<lang>.md``; English, the source,
    is ``<game>.md``), or ``None`` if there is none."""
    # the name comes from a URL: only a plain file directly in the folder counts
    if "/" in game or "\\" in game or "." in game:
        return None
    path = RULES / (f"{game}.md" if lang == SOURCE else f"{game}.{lang}.md")
    return path if path.is_file() else None


def has_rules(game: str) -> bool:
    """Whether ``game`` has a rules page."""
    return rules_path(game) is not None


def page_language(game: str, lang: str) -> str:
    """The language ``game``'s rules page is read in by a reader of ``lang``: ``lang`` where the page
    exists in it, else English (every page has an English text)."""
    return lang if rules_path(game, lang) is not None else SOURCE


@functools.cache
def rules_html(game: str, lang: str = SOURCE) -> str | None:
    """``game``'s rules page in ``lang`` as HTML, or ``None`` if it has none in that language."""
    path = rules_path(game, lang)
    if path is None:
        return None
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    html: str = md.render(path.read_text(encoding="utf-8"))
    return html
