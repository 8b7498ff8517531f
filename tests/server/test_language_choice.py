"""The reader's language from a request's cookie header: a header without the language cookie (a
player's seat cookies, one per game) is not parsed, and one that has it is parsed once."""

from __future__ import annotations

from typing import Any

import pytest

from ludorum.server.http import language

SEATS = "; ".join(f"ludorum_seat_{i:032x}=tok{i}" for i in range(40))


class _CountingCookie(language.SimpleCookie):  # type: ignore[type-arg]
    loads = 0

    def load(self, rawdata: Any) -> None:
        type(self).loads += 1
        super().load(rawdata)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> type[_CountingCookie]:
    monkeypatch.setattr(language, "SimpleCookie", _CountingCookie)
    _CountingCookie.loads = 0
    language._cookie_language.cache_clear()
    return _CountingCookie


def test_seat_cookies_alone_are_not_parsed(counting: type[_CountingCookie]) -> None:
    assert language.choose("", SEATS, "ru") == "ru"
    assert counting.loads == 0


def test_the_language_cookie_is_read_among_seat_cookies_once_per_header(
    counting: type[_CountingCookie],
) -> None:
    header = f"{SEATS}; ludorum_lang=ru"
    assert [language.choose("", header, "en") for _ in range(3)] == ["ru"] * 3
    assert counting.loads == 1
    assert language.choose("", f"{SEATS}; ludorum_lang=xx", "en") == "en"  # not a language: the fallback
    assert language.choose("", 'ludorum_lang="ru', "en") in ("en", "ru")  # malformed: no error
