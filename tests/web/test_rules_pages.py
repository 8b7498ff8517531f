"""The rules pages: one per game, the rulebook's text first and the designed parts marked."""

from __future__ import annotations

from ludorum.games import registry
from ludorum.server.http.rules import RULES, has_rules, rules_html


def test_every_game_has_a_rules_page_that_marks_what_was_designed() -> None:
    for game in registry():
        html = rules_html(game.name)
        assert html is not None, game.name
        assert "designed" in html.lower(), game.name
        assert "<script" not in html  # raw HTML in the Markdown is never passed through


def test_the_rulebooks_own_words_open_the_page_and_the_designed_part_follows() -> None:
    text = (RULES / "reliquium.md").read_text(encoding="utf-8")
    assert text.index("The one who first manages to raise nine castles wins") < text.index(
        "## Designed by the project"
    )
    assert "### The map of Sigillum (designed)" in text


def test_no_rules_page_for_unknown_or_crafted_names() -> None:
    assert not has_rules("chess")
    assert not has_rules("../../pyproject")
    assert rules_html("build") is None  # the builder's module is no page


def test_the_pages_hold_the_docs_as_they_are_now() -> None:
    """A changed doc needs the pages rebuilt: ``python -m ludorum.web.rules.build``."""
    from ludorum.web.rules.build import DOCS, designed_sections, rules_pages

    pages = rules_pages()
    assert set(pages) == {game.name for game in registry()}  # every game declares its page
    assert (RULES / "signum.md").read_text(encoding="utf-8") == (DOCS / "signum-rules.md").read_text(
        encoding="utf-8"
    ), "docs/signum-rules.md changed: run python -m ludorum.web.rules.build"
    for game, page in pages.items():
        if not page.rulebook:
            continue
        designed = designed_sections((DOCS / page.notes).read_text(encoding="utf-8"), page.designed)
        assert designed in (RULES / f"{game}.md").read_text(encoding="utf-8"), (
            f"docs/{page.notes} changed: run python -m ludorum.web.rules.build"
        )


def test_a_russian_reader_gets_the_russian_page_where_there_is_one() -> None:
    from ludorum.server.http.rules import page_language

    assert page_language("signum", "ru") == "ru" and page_language("signum", "en") == "en"
    html = rules_html("signum", "ru")
    assert html is not None and "придумано" in html and "Условия победы" in html
    # the rulebook's own words, not a translation back from the English
    assert "Одержать победу в стандартном режиме игры" in html
    assert rules_html("signum.ru") is None and not has_rules("signum.ru")  # no page by a crafted name
    realms = rules_html("medieval-realms", "ru")
    assert realms is not None and "Придумано проектом" in realms and "Личная выкладка" in realms
    reliquium = rules_html("reliquium", "ru")
    assert reliquium is not None and "Придумано проектом" in reliquium and "Кряж Саксум" in reliquium


def test_a_page_not_written_in_the_readers_language_is_read_in_english(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from ludorum.server.http import rules

    (tmp_path / "chess.md").write_text("# Chess\n", encoding="utf-8")
    monkeypatch.setattr(rules, "RULES", tmp_path)
    assert rules.page_language("chess", "ru") == "en" and rules.page_language("chess", "en") == "en"


def test_the_translated_pages_hold_their_docs_as_they_are_now() -> None:
    from ludorum.web.rules.build import DOCS, translations

    for page, (_game, doc) in translations().items():
        assert (RULES / f"{page}.md").read_text(encoding="utf-8") == (DOCS / doc).read_text(
            encoding="utf-8"
        ), f"docs/{doc} changed: run python -m ludorum.web.rules.build"


def test_each_translated_page_follows_its_english_source() -> None:
    """A change to an English doc must reach its translation: ``translated.json`` holds the fingerprint
    of the English as it was translated (``python -m ludorum.web.rules.build --translated``)."""
    from ludorum.web.rules.build import stale_translations, translations

    assert set(translations()) == {p.stem for p in RULES.glob("*.*.md")}  # every translated page is known
    assert not stale_translations(), "an English rules doc changed: bring its translation up to date"


def test_the_builder_refuses_an_unknown_flag_before_writing_anything(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """A mistyped ``--translated`` must not rebuild the pages as if it were a rulebooks folder's name, nor
    be dropped silently (the translations would stay marked stale)."""
    import sys

    import pytest

    from ludorum.web.rules import build

    def no_build(rulebooks: object) -> dict[str, str]:
        raise AssertionError("the pages were rebuilt")

    monkeypatch.setattr(build, "build", no_build)
    monkeypatch.setattr(sys, "argv", ["build", "--translate"])
    with pytest.raises(SystemExit) as stopped:
        build.main()
    assert stopped.value.code == 2 and "--translate" in capsys.readouterr().err
