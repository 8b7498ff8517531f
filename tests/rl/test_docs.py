"""docs/rl.md's numbering and layout tables are the code's: regenerate them when the numbering changes."""

from __future__ import annotations

import pytest

from ludorum.engine.encoding import Kind
from ludorum.rl import core
from ludorum.rl.docs import DOC, HEADING, generated, split


def test_docs_tables_are_the_codes() -> None:
    """The generated part of docs/rl.md is what the code generates now (``python -m ludorum.rl.docs``)."""
    _, written = split(DOC.read_text(encoding="utf-8"))
    assert written == generated(), "the action numbering changed: run `python -m ludorum.rl.docs`"


def test_a_changed_numbering_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison sees a renumbering: one more action kind at the front shifts every index after it."""
    before = generated()
    encoding = core.encoding_for(core.registry().get("reliquium"))
    kinds = type(encoding).action_kinds
    monkeypatch.setattr(
        type(encoding), "action_kinds", lambda self, config: (Kind("new"), *kinds(self, config))
    )
    core._spaces.cache_clear()
    try:
        after = generated()
    finally:
        monkeypatch.undo()
        core._spaces.cache_clear()
    assert after != before and after.startswith(HEADING)
    assert "| `new` | 0–0 |" in after and "| `pass` | 1–1 |" in after
