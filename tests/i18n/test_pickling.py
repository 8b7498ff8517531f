"""Texts cross to worker processes and back on every step: pickled whole, without rendering them again."""

from __future__ import annotations

import pickle

import pytest

from ludorum.engine import i18n
from ludorum.engine.i18n import Glossed, Joined, T, Tn


def _texts() -> list[i18n._Said]:
    name = Glossed(T("Shot {n}", n=3), "Выстрел 3")
    cards = Tn("{n} card", "{n} cards", 2)
    return [
        T("Recruit a {unit} in {region}", unit=name, region=T("the Groves")),
        cards,
        Joined(T(", "), [cards, name, 7]),
        name,
    ]


@pytest.mark.parametrize("text", _texts(), ids=str.__str__)
def test_a_text_comes_back_from_a_pickle_equal_in_every_language(text: i18n._Said) -> None:
    back = pickle.loads(pickle.dumps(text))
    assert type(back) is type(text) and str.__str__(back) == str.__str__(text)
    for lang in i18n.LANGUAGES:
        assert i18n.say(back, lang) == i18n.say(text, lang)


def test_unpickling_a_text_does_not_render_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # The server's pool thread unpickles every step's log entry and labels: re-rendering their English
    # there (formatting every message and its parameters) cost it a twentieth of its CPU per action.
    data = pickle.dumps(_texts())

    def refuse(*args: object) -> str:
        raise AssertionError("a text was rendered while unpickling")

    monkeypatch.setattr(i18n, "_format", refuse)
    monkeypatch.setattr(i18n, "_say", refuse)
    assert len(pickle.loads(data)) == 4
