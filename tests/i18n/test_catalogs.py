"""The catalogs: up to date with the sources, complete, and consistent in their placeholders."""

from __future__ import annotations

import gettext
import json
import string

import pytest

pytest.importorskip("babel")

from babel.messages.pofile import read_po

from ludorum.engine import i18n
from ludorum.locale import build

PENDING: frozenset[str] = frozenset()
"""Sources whose texts are not translated yet (see docs/i18n.md, "Not yet translated"): their
untranslated entries are allowed; an entry also used elsewhere is not."""


def _catalog():  # type: ignore[no-untyped-def]
    with build.po_path("ru").open("rb") as f:
        return read_po(f, locale="ru", domain=i18n.DOMAIN)


def _translated(m) -> bool:  # type: ignore[no-untyped-def]
    return all(m.string) if isinstance(m.string, tuple) else bool(m.string)


def _pending(m) -> bool:  # type: ignore[no-untyped-def]
    return all(any(path.startswith(p) for p in PENDING) for path, _line in m.locations)


def test_catalog_files_are_built_from_the_current_sources() -> None:
    """Every message of the code is in the .po, and the .mo and the browser's JSON are compiled from it
    (``python -m ludorum.locale.build`` leaves nothing to change)."""
    stale = [
        str(path.relative_to(build.ROOT))
        for path, data in build.build("ru").items()
        if not path.exists() or path.read_bytes() != data
    ]
    assert not stale, f"run `python -m ludorum.locale.build` and commit: out of date {stale}"


def test_every_message_has_a_russian_translation_and_none_is_fuzzy() -> None:
    cat = _catalog()
    missing = [m.id for m in cat if m.id and not _translated(m) and not _pending(m)]
    fuzzy = [m.id for m in cat if m.id and m.fuzzy]
    assert not missing, f"{len(missing)} messages lack a Russian translation, e.g. {missing[:10]}"
    assert not fuzzy, f"fuzzy translations: {fuzzy[:10]}"


def test_pending_sources_still_have_untranslated_messages() -> None:
    """``PENDING`` shrinks as translations land: a source that is done must leave it."""
    cat = _catalog()
    for prefix in PENDING:
        untranslated = [m for m in cat if m.id and not _translated(m)]
        assert any(any(path.startswith(prefix) for path, _ in m.locations) for m in untranslated), (
            f"{prefix} is fully translated: remove it from PENDING"
        )


def _fields(pattern: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(pattern) if f is not None}


def test_translations_keep_the_placeholders_of_their_message() -> None:
    cat = _catalog()
    for m in cat:
        if not m.id or not _translated(m):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        expected = set().union(*(_fields(i) for i in ids))
        for s in strings:
            assert _fields(s) <= expected, f"{m.id!r}: {s!r} uses placeholders the message does not give"
            if not isinstance(m.id, tuple):
                assert _fields(s) == expected, f"{m.id!r}: {s!r} drops a placeholder"


def test_the_signum_glossary_terms_come_from_the_rulebook() -> None:
    """Legends of Signum's properties read as the rulebook names them (chapter 11), not retranslated."""
    from ludorum.games.signum.glossary import PROPERTIES

    ru = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=["ru"])
    for en, rulebook, _takes_x in PROPERTIES.values():
        assert ru.gettext(en.replace("X", "{x}")) == rulebook.replace("Х", "{x}"), en


def test_the_browser_catalog_holds_only_javascript_messages() -> None:
    table = json.loads((build.JS_CATALOGS / "ru.json").read_text(encoding="utf-8"))
    _tmpl, js = build.template()
    assert set(table) <= js


def test_every_browser_message_is_extracted() -> None:
    """Each ``Ludorum.t("...")``/``Ludorum.tn("...")`` of the scripts reaches the catalog: Babel misses a
    call inside a template literal's ``${}`` or inside another call's arguments, so write none there."""
    import re

    from babel.messages.extract import extract

    comment = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
    for path in build.js_files():
        calls = len(re.findall(r'Ludorum\.tn?\(\s*"', comment.sub("", path.read_text(encoding="utf-8"))))
        with path.open("rb") as f:
            extracted = len(list(extract("javascript", f, keywords=build.JS_KEYWORDS)))
        assert calls == extracted, (
            f"{path.name}: {calls - extracted} Ludorum.t calls the build cannot extract"
        )
