"""Display names: who may be called what.

A name is 3–24 characters of Unicode letters and digits, with single spaces, hyphens or underscores
between them (designed: BGA-like names, readable in a log line).  Two names are the same name when
they look the same: the uniqueness key is a *skeleton* (Unicode TR39's idea) — the name case-folded,
NFKC-normalised, and each character replaced by one fixed representative of the characters it can be
confused with (``confusable_homoglyphs``' data), so "Alex" and "Аlex" (a Cyrillic А) are one name.
A name that mixes scripts in a confusable way is refused outright.
"""

from __future__ import annotations

import functools
import random
import re
import unicodedata

from confusable_homoglyphs import confusables

from ludorum.engine.errors import LudorumError
from ludorum.engine.i18n import T

MIN_LENGTH, MAX_LENGTH = 3, 24
"""How long a display name may be, in characters."""

_SEPARATORS = " -_"


class BadName(LudorumError):
    """A display name that cannot be used, with the reason in words."""


def _is_word_char(c: str) -> bool:
    """A letter (with its combining marks) or a digit."""
    return unicodedata.category(c)[0] in "LMN"


def check_name(raw: str) -> str:
    """``raw`` as a display name (NFC, trimmed), or :class:`BadName` saying what is wrong."""
    if not isinstance(raw, str):
        raise BadName(T("a name is text"))
    name = unicodedata.normalize("NFC", raw.strip())
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise BadName(
            T(
                "a name has {low} to {high} characters (this one has {n})",
                low=MIN_LENGTH,
                high=MAX_LENGTH,
                n=len(name),
            )
        )
    bad = sorted({c for c in name if not (_is_word_char(c) or c in _SEPARATORS)})
    if bad:
        shown = ", ".join(repr(c) for c in bad[:5])
        raise BadName(
            T(
                "a name holds letters, digits, and single spaces, hyphens or underscores ({shown})",
                shown=shown,
            )
        )
    if name[0] in _SEPARATORS or name[-1] in _SEPARATORS or re.search(r"[ \-_]{2}", name):
        raise BadName(T("spaces, hyphens and underscores go one at a time between letters or digits"))
    if confusables.is_dangerous(name):
        raise BadName(T("a name may not mix scripts whose letters look alike"))
    return name


@functools.lru_cache(maxsize=4096)
def _representative(c: str) -> str:
    """One fixed character standing for every character ``c`` can be confused with."""
    found = confusables.is_confusable(c, greedy=True) or []
    candidates = {c} | {h["c"] for entry in found for h in entry["homoglyphs"] if len(h["c"]) == 1}
    return min(candidates)


def name_key(name: str) -> str:
    """The name's skeleton: equal for names that look alike (the database keeps it unique)."""

    def skeleton(text: str) -> str:
        return "".join(_representative(c) for c in text if c not in _SEPARATORS)

    # mapped before case-folding too: a capital may look like another script's capital (Cyrillic В
    # and Latin B) while their small letters differ (в and b)
    return skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())


_ADJECTIVES = (
    "Amber",
    "Brave",
    "Clever",
    "Dusky",
    "Eager",
    "Gentle",
    "Hidden",
    "Iron",
    "Jolly",
    "Keen",
    "Lucky",
    "Merry",
    "Noble",
    "Quiet",
    "Rapid",
    "Silver",
    "Tawny",
    "Wise",
)
_NOUNS = (
    "Badger",
    "Castle",
    "Dragon",
    "Falcon",
    "Griffin",
    "Heron",
    "Knight",
    "Lantern",
    "Otter",
    "Raven",
    "Rook",
    "Sage",
    "Squire",
    "Tower",
    "Wanderer",
    "Wolf",
)


def guest_name(rng: random.Random) -> str:
    """A generated name for a guest ("Amber-Otter-417"); the guest may change it."""
    return f"{rng.choice(_ADJECTIVES)}-{rng.choice(_NOUNS)}-{rng.randrange(100, 1000)}"
