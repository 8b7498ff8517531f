"""Build the rules pages (``ludorum/web/rules/<game>.md``) from the rulebooks and the docs.

Run from the repository root when a rulebook or a game's doc changes, and commit the result::

    python -m ludorum.web.rules.build [../shared/rulebooks] [--translated]

What each game's page is built from, the game declares (``Game.provides.rules``, a
:class:`~ludorum.engine.provides.RulesPage`).  A page in another language (``<game>.<lang>.md``) is
translated by hand (``RulesPage.translations``, ``docs/*.ru.md``); ``translated.json`` keeps the English
page's fingerprint as of the last translation, so a test fails when the English changes and the
translation does not follow.  ``--translated`` records the current fingerprints once the translation is
brought up to date.

Each page is the rulebook's own text where it exists (Reliquium and Medieval Realms: the English
rulebooks turned into Markdown by their line shapes; Legends of Signum: docs/signum-rules.md, the
translated chapters and the rebuilt ones, each statement marked known or **designed**; its Russian page,
``signum.ru.md``, from docs/signum-rules.ru.md, the rulebook's own Russian chapters), followed by the
parts the project designed and the readings it chose where the rulebook is silent or open, taken from
the game's doc (``RulesPage.notes``: docs/<game>.md) and marked as designed.  The server serves the
packaged result; nothing here runs at play time.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Annotated

import typer

from ludorum.engine.provides import RulesPage
from ludorum.games import registry

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
DOCS = ROOT / "docs"
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"
"""Where the rulebooks' text is, beside the repository."""


def rules_pages() -> dict[str, RulesPage]:
    """Each registered game's declared rules page (``Game.provides.rules``), by game name."""
    return {game.name: game.provides.rules for game in registry() if game.provides.rules is not None}


def translations() -> dict[str, tuple[str, str]]:
    """Each page written in another language (``<game>.<lang>``): the English page it is translated from,
    and its doc, as the games declare them (``RulesPage.translations``).  A game without one is read in
    English by every reader."""
    return {
        f"{game}.{lang}": (game, doc)
        for game, page in rules_pages().items()
        for lang, doc in page.translations.items()
    }


INTRO = (
    "*This page holds the rulebook's own text, then — under **Designed by the project** — everything "
    "the project had to design because the rulebook does not print it, and the readings it chose where "
    "the rulebook leaves a rule open.*\n"
)


def rulebook_markdown(text: str) -> str:
    """A plain-text rulebook as Markdown: short lines without closing punctuation become headings,
    ``- `` lines list items, ``|`` lines tables, every other line a paragraph."""
    out: list[str] = []
    lines = [ln.rstrip() for ln in text.splitlines()]
    title = lines[0].strip()
    skipping_contents = False
    for line in lines[1:]:
        s = line.strip()
        if not s or s == "-" or s in (title, f"{title} Rulebook"):
            continue
        if s == "Table of Contents":
            skipping_contents = True
            continue
        if skipping_contents and s.startswith("-"):
            continue
        skipping_contents = False
        if s.startswith("|"):
            if out and not out[-1].startswith("|"):
                out.append("")
            out.append(s)
        elif s.startswith("- "):
            if out and not out[-1].startswith("- "):
                out.append("")
            out.append(s)
        elif len(s) < 70 and not re.search(r"[.:;!?,\"”»)]$", s) and not s[0].isdigit():
            out += ["", f"## {s}", ""]
        else:
            out += ["", s]
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return f"# {title} — the rules\n\n{INTRO}\n{body}\n"


def designed_sections(doc: str, words: tuple[str, ...]) -> str:
    """The ``##`` sections of a game's doc whose headings contain one of ``words``, one level deeper."""
    parts = re.split(r"(?m)^(?=## )", doc)
    keep = [p for p in parts if p.startswith("## ") and any(w in p.splitlines()[0] for w in words)]
    text = "\n".join(keep)
    return re.sub(r"(?m)^(#+) ", r"#\1 ", text).strip()


def english_page(page: RulesPage, rulebooks: Path) -> str:
    """A game's English page: its Markdown doc, or its rulebook followed by its designed parts."""
    if page.doc:
        return (DOCS / page.doc).read_text(encoding="utf-8")
    text = rulebook_markdown((rulebooks / page.rulebook).read_text(encoding="utf-8"))
    designed = designed_sections((DOCS / page.notes).read_text(encoding="utf-8"), page.designed)
    return f"{text}\n## Designed by the project\n\n{designed}\n"


def build(rulebooks: Path) -> dict[str, str]:
    """Every rules page's Markdown, by file name: ``<game>`` (English) or ``<game>.<lang>``."""
    pages = {game: english_page(page, rulebooks) for game, page in rules_pages().items()}
    pages |= {name: (DOCS / doc).read_text(encoding="utf-8") for name, (_game, doc) in translations().items()}
    return pages


TRANSLATED = HERE / "translated.json"
"""The fingerprint of each English source as it was when its translation was last brought up to date."""


def fingerprint(game: str) -> str:
    """A short digest of a game's English page (its rulebook and docs as built): a change to it makes its
    translations stale."""
    return hashlib.sha256((HERE / f"{game}.md").read_bytes()).hexdigest()[:16]


def stale_translations() -> list[str]:
    """The pages in another language whose English source changed since they were translated."""
    known = json.loads(TRANSLATED.read_text(encoding="utf-8")) if TRANSLATED.exists() else {}
    return [page for page, (game, _doc) in translations().items() if known.get(page) != fingerprint(game)]


def write_pages(
    rulebooks: Annotated[Path, typer.Argument(help="the folder of the rulebooks' text")] = RULEBOOKS,
    translated: Annotated[
        bool, typer.Option(help="the translations are up to date with their English pages: record so")
    ] = False,
) -> None:
    """Write the pages next to this module."""
    for game, text in build(rulebooks).items():
        (HERE / f"{game}.md").write_text(text, encoding="utf-8")
        print(f"wrote {HERE / f'{game}.md'} ({len(text):,} characters)")
    if translated:
        marks = {page: fingerprint(game) for page, (game, _doc) in translations().items()}
        TRANSLATED.write_text(json.dumps(marks, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    known = translations()
    for page in stale_translations():
        game, doc = known[page]
        print(f"docs/{doc} is older than {game}.md: translate the change, then run with --translated")


def main() -> None:
    """The command line (``sys.argv``): an unknown option is refused before anything is written."""
    typer.run(write_pages)


if __name__ == "__main__":
    main()
