"""Build the catalogs: extract every message, update each language's ``.po``, compile ``.mo`` and JSON.

``python -m ludorum.locale.build`` (needs Babel, in the ``dev`` extra) — run it after changing any text a
player reads, translate the new entries of ``ludorum/locale/<lang>/LC_MESSAGES/ludorum.po``, run it again
and commit the result (like the rules pages, the compiled files are committed: nothing is built at run
time, and ``make test`` only checks).  ``--check`` changes nothing and says what is out of date.

Messages come from three places:

* Python: ``T("...")`` and ``Tn("...", "...", n)`` (``ludorum.engine.i18n``) and ``N_("...")``;
* the browser: ``Ludorum.t("...")`` and ``Ludorum.tn("...", "...", n)`` in ``ludorum/web/static/**.js``, and
  in its ``.html`` pages the first text of each element marked ``data-t`` and the attributes its
  ``data-t-attr`` names (``Ludorum.translatePage`` in ``common.js`` translates the same);
* content: the player-visible fields of ``ludorum/games/<game>/data/*.toml`` (:data:`TOML_KEYS`).  Where
  the data file already gives the Russian (Legends of Signum's ``name_ru``, the rulebook's own terms),
  that translation is taken from it, as are the glossary's property names: they are never typed twice.

The browser's catalog (``ludorum/web/static/locale/<lang>.json``) holds the translations of the
browser's messages only (a plural message as the list of its forms).
"""

from __future__ import annotations

import argparse
import datetime
import html.parser
import io
import json
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ludorum.engine.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE

PACKAGE = LOCALE_DIR.parent
ROOT = PACKAGE.parent
STATIC = PACKAGE / "web" / "static"
JS_CATALOGS = STATIC / "locale"
PY_KEYWORDS: dict[str, Any] = {"T": None, "Tn": (1, 2), "N_": None}
JS_KEYWORDS: dict[str, Any] = {"Ludorum.t": None, "Ludorum.tn": (1, 2)}
FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
TOML_KEYS = ("name", "name_en", "card", "colour", "text", "condition_text", "title")
"""The fields of the data files that players read.  A field's Russian, where the file gives it, is its
sibling ``<field>_ru`` (``name_en``: ``name_ru``; ``text``: ``text_ru``)."""


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def python_files() -> list[Path]:
    """The Python sources that may hold messages (the build tool itself excepted)."""
    return sorted(p for p in PACKAGE.rglob("*.py") if "locale" not in p.parts)


def js_files() -> list[Path]:
    """The browser client's scripts."""
    return sorted(p for p in STATIC.rglob("*.js") if "locale" not in p.parts)


def html_files() -> list[Path]:
    """The browser client's pages."""
    return sorted(STATIC.glob("*.html"))


class _MarkedText(html.parser.HTMLParser):
    """A page's texts marked for translation: ``data-t`` (the element's first text) and ``data-t-attr``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.waiting: list[int] = []  # depths of data-t elements whose first text is still to come
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in (found.get("data-t-attr") or "").split():
            if found.get(name):
                self.found.append((self.getpos()[0], str(found[name])))
        if tag in ("meta", "link", "input", "br", "img"):
            return
        self.depth += 1
        if "data-t" in found:
            self.waiting.append(self.depth)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("meta", "link", "input", "br", "img"):
            return
        if self.waiting and self.waiting[-1] == self.depth:
            self.waiting.pop()
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.waiting and self.waiting[-1] == self.depth and data.strip():
            self.found.append((self.getpos()[0], data.strip()))
            self.waiting.pop()


def html_messages(path: Path) -> list[tuple[int, str]]:
    """The marked texts of one page, with their lines."""
    parser = _MarkedText()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.found


def toml_files() -> list[Path]:
    """The games' data files."""
    return sorted(PACKAGE.glob("games/*/data/*.toml"))


def toml_messages(path: Path) -> Iterator[tuple[str, str | None]]:
    """The player-visible strings of one data file, each with the Russian the file gives, if any."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))

    def walk(node: Any) -> Iterator[tuple[str, str | None]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in TOML_KEYS and isinstance(value, str) and value:
                    ru = node.get(key.removesuffix("_en") + "_ru")
                    yield value, ru if isinstance(ru, str) else None
                else:
                    yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    yield from walk(data)


def given() -> dict[str, str]:
    """The Russian the data files give beside their texts (``<field>_ru``): the catalog says what they say."""
    known: dict[str, str] = {}
    for path in toml_files():
        for en, ru in toml_messages(path):
            if ru:
                known.setdefault(en, ru)
    return known


def seeds() -> dict[str, str]:
    """Russian translations the sources already hold: the data files' (:func:`given`), the Signum glossary."""
    known = given()
    for en, ru in glossary_terms():
        known.setdefault(en, ru)
    return known


def glossary_terms() -> list[tuple[str, str]]:
    """Legends of Signum's rulebook terms as messages with the rulebook's Russian: the property names
    (``"Shot {x}"``, chapter 11), the factions and the die's faces."""
    from ludorum.games.signum.content import FACTIONS, FACTIONS_RU
    from ludorum.games.signum.dice import FACE_NAMES, FACE_NAMES_RU
    from ludorum.games.signum.glossary import PROPERTIES

    terms = [(en.replace("X", "{x}"), ru.replace("Х", "{x}")) for en, ru, _takes_x in PROPERTIES.values()]
    terms += [(FACTIONS[k], FACTIONS_RU[k]) for k in FACTIONS]
    terms += [(FACE_NAMES[k], FACE_NAMES_RU[k]) for k in FACE_NAMES]
    return terms


def template() -> tuple[Catalog, set[str]]:
    """Every message of the sources; and the ids the browser needs."""
    cat = Catalog(project="Ludorum", domain=DOMAIN, fuzzy=False)
    js: set[str] = set()
    for path in python_files():
        with path.open("rb") as f:
            for line, msg, comments, _ctx in extract("python", f, keywords=PY_KEYWORDS):
                cat.add(msg, locations=[(_rel(path), line)], auto_comments=comments)
    for path in js_files():
        with path.open("rb") as f:
            for line, msg, comments, _ctx in extract("javascript", f, keywords=JS_KEYWORDS):
                cat.add(msg, locations=[(_rel(path), line)], auto_comments=comments)
                js.add(msg if isinstance(msg, str) else msg[0])
    for path in html_files():
        for line, text in html_messages(path):
            cat.add(text, locations=[(_rel(path), line)])
            js.add(text)
    for path in toml_files():
        for en, _ru in toml_messages(path):
            cat.add(en, locations=[(_rel(path), 0)])
            js.add(en)  # the renderers name what the data files name: Ludorum.t(region.name)
    for en, _ru in glossary_terms():
        cat.add(en, locations=[("ludorum/games/signum/glossary.py", 0)])
    return cat, js


def po_path(lang: str) -> Path:
    """Where a language's translations are kept."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _dump_po(cat: Catalog) -> bytes:
    out = io.BytesIO()
    # files without line numbers: an edit elsewhere in a source file changes no catalog
    write_po(
        out, cat, width=110, sort_output=True, omit_header=False, include_previous=False, include_lineno=False
    )
    return out.getvalue()


def _dump_mo(cat: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, cat, use_fuzzy=False)
    return out.getvalue()


def js_catalog(cat: Catalog, ids: set[str]) -> bytes:
    """The browser's catalog: its messages' translations (untranslated ones left out; a plural message is
    keyed by its singular and holds the list of its forms)."""
    table: dict[str, str | list[str]] = {}
    for m in cat:
        key = m.id if isinstance(m.id, str) else m.id[0] if m.id else None
        if key in ids and not m.fuzzy and m.string and (isinstance(m.string, str) or all(m.string)):
            table[key] = m.string if isinstance(m.string, str) else list(m.string)
    return (json.dumps(table, ensure_ascii=False, indent=0, sort_keys=True) + "\n").encode()


def build(lang: str) -> dict[Path, bytes]:
    """The files of ``lang`` as they should be: its ``.po`` updated from the sources, ``.mo``, JSON."""
    tmpl, js = template()
    path = po_path(lang)
    if path.exists():
        with path.open("rb") as f:
            cat = read_po(f, locale=lang, domain=DOMAIN)
    else:
        cat = Catalog(locale=lang, domain=DOMAIN, project="Ludorum", fuzzy=False)
    cat.update(tmpl, no_fuzzy_matching=True, update_header_comment=False)
    cat.obsolete.clear()  # translations of texts no longer in the sources are not kept
    if lang == "ru":
        known, data = seeds(), given()
        for m in cat:
            if m.id and isinstance(m.id, str) and (m.id in data or (not m.string and m.id in known)):
                m.string = known[m.id]
    cat.fuzzy = False
    # no timestamp churn: the files change only when texts do (git keeps the dates)
    cat.creation_date = cat.revision_date = FIXED_DATE
    cat.version, cat.last_translator, cat.language_team = "0.1", "Ludorum", "Ludorum"
    return {
        path: _dump_po(cat),
        path.with_suffix(".mo"): _dump_mo(cat),
        JS_CATALOGS / f"{lang}.json": js_catalog(cat, js),
    }


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every language's catalog files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if a file is out of date")
    args = parser.parse_args(argv)
    stale = []
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        for path, data in build(lang).items():
            if path.exists() and path.read_bytes() == data:
                continue
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    for path in stale:
        print(("out of date: " if args.check else "wrote ") + _rel(path))
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
