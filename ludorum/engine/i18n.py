"""Text a player reads, in the reader's language (gettext catalogs in ``ludorum/locale``).

A language belongs to the reader, not to the game: the server computes one log for every reader, so
game text cannot be rendered when it is made.  Games therefore return :class:`Text`: a ``str`` whose
value is the English text (so equality, hashing, sorting, JSON and every existing caller see exactly
what they saw before) and which also remembers its message id and parameters, so that it can be said
again in any language (:meth:`Text.render`).  Parameters may be ``Text`` themselves (a creature's name
in a label): they are rendered in the same language.

Two ways out of English:

* :func:`localize` walks a JSON-like value and replaces every ``Text`` with its rendering in a given
  language — the server does this per reader on every response and push;
* :func:`use` sets the language of the current context, in which ``str(text)`` and ``f"{text}"``
  render — the command line sets it once, so that the terminal view (built with f-strings out of
  ``Text`` pieces) comes out in the chosen language.

Standard library only (``gettext``); the compiled catalogs are built by ``python -m ludorum.locale.build``.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

DOMAIN = "ludorum"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("en", "ru")
"""The languages Ludorum speaks; the first is the source language (message ids are English)."""

SOURCE = LANGUAGES[0]

_current: contextvars.ContextVar[str] = contextvars.ContextVar("ludorum_language", default=SOURCE)


def use(lang: str) -> None:
    """Make ``lang`` the language ``str(text)`` and ``f"{text}"`` render in, in this context."""
    _current.set(check(lang))


def current() -> str:
    """The language of the current context."""
    return _current.get()


def check(lang: str) -> str:
    """``lang`` if Ludorum speaks it, else a ``ValueError`` naming the languages it does."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


def negotiate(accept: str | None) -> str:
    """The language to answer an ``Accept-Language`` header (or a bare code) in: the first one spoken."""
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        code, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        base = code.strip().lower().split("-")[0]
        if base in LANGUAGES and q > 0:
            choices.append((-q, i, base))
    return min(choices)[2] if choices else SOURCE


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, the source, needs none)."""
    if lang == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[check(lang)], fallback=True)


class _Said(str):
    """A ``str`` holding English that can be said again in any language (:class:`Text`, :class:`Joined`):
    ``str()`` and ``format()`` give it in the current context's language."""

    def render(self, lang: str) -> str:
        """This text in ``lang``."""
        raise NotImplementedError

    def __str__(self) -> str:
        """This text in the current context's language."""
        return self.render(_current.get())

    def __format__(self, spec: str) -> str:
        """This text in the current context's language, formatted by ``spec``."""
        return format(self.render(_current.get()), spec)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        """Pickle (bots and workers in other processes) as the English and the parts it was made of,
        so that unpickling renders nothing: the server unpickles every step's texts from its workers."""
        return (_restore, (type(self), str.__str__(self), self.__dict__))


def _restore(cls: type[_Said], english: str, parts: dict[str, Any]) -> _Said:
    """Unpickle a text (:meth:`_Said.__reduce_ex__`)."""
    self = str.__new__(cls, english)
    self.__dict__.update(parts)
    return self


class Text(_Said):
    """Player-facing text: English as a ``str``, and everything needed to say it in another language.

    ``Text(msgid, **params)`` is ``msgid.format(**params)`` in English; with ``plural`` and ``n`` it is a
    plural message (``ngettext``), ``n`` then also a parameter.  Make them with :func:`T` and
    :func:`Tn` (not ``_``, which the code uses for what it throws away), which is what the catalog
    extraction looks for.
    """

    msgid: str
    plural: str | None
    params: Mapping[str, Any]

    def __new__(cls, msgid: str, plural: str | None = None, /, **params: Any) -> Text:
        """A message; its ``str`` value is its English rendering."""
        self = super().__new__(cls, _format(msgid if plural is None or params.get("n") == 1 else plural,
                                            params, SOURCE))  # fmt: skip
        self.msgid, self.plural, self.params = msgid, plural, params
        return self

    def render(self, lang: str) -> str:
        """This text in ``lang`` (English parts where the catalog has no translation)."""
        if lang == SOURCE:
            return str.__str__(self)
        t = translations(lang)
        if self.plural is None:
            pattern = t.gettext(self.msgid)
        else:
            pattern = t.ngettext(self.msgid, self.plural, int(self.params.get("n", 0)))
        return _format(pattern, self.params, lang)


def _format(pattern: str, params: Mapping[str, Any], lang: str) -> str:
    """``pattern`` with its parameters, every ``Text`` among them rendered in ``lang``."""
    if not params:
        return pattern
    return pattern.format(**{k: _say(v, lang) for k, v in params.items()})


def _say(value: Any, lang: str) -> Any:
    """A parameter as it goes into a rendered text: ``Text`` (or joined texts) in ``lang``, the rest as is."""
    return value.render(lang) if isinstance(value, _Said) else value


class Joined(_Said):
    """Several texts joined by a separator (``", ".join`` for ``Text``), rendered piece by piece."""

    parts: tuple[Any, ...]
    sep: str

    def __new__(cls, sep: str, parts: Iterable[Any]) -> Joined:
        """The English join of ``parts`` (texts or plain values); ``sep`` may be a ``Text`` too."""
        items = tuple(parts)
        self = super().__new__(cls, str(_say(sep, SOURCE)).join(str(_say(p, SOURCE)) for p in items))
        self.parts, self.sep = items, sep
        return self

    def render(self, lang: str) -> str:
        """The pieces in ``lang``, joined."""
        return str(_say(self.sep, lang)).join(str(_say(p, lang)) for p in self.parts)


class Glossed(_Said):
    """A name with its gloss beside it in brackets, "Shot 3 (Выстрел 3)", read as the name alone by a
    reader of the gloss's language (for whom the name's translation *is* the gloss).

    Legends of Signum prints its rulebook's Russian terms beside the English ones; a Russian reader
    should not read the same term twice.
    """

    name: Any
    gloss: str
    lang: str

    def __new__(cls, name: Any, gloss: str, lang: str = "ru") -> Glossed:
        """``name`` (a ``Text`` or plain value) glossed by ``gloss``, which is in ``lang``."""
        self = super().__new__(cls, f"{_say(name, SOURCE)} ({gloss})")
        self.name, self.gloss, self.lang = name, gloss, check(lang)
        return self

    def render(self, lang: str) -> str:
        """The name alone in the gloss's language, else the name in ``lang`` with the gloss."""
        if lang == self.lang:
            return str(_say(self.name, lang))
        return f"{_say(self.name, lang)} ({self.gloss})"


def T(msgid: str, /, **params: Any) -> Text:
    """A message to translate: ``T("Recruit a {unit} in {region}", unit=..., region=...)``."""
    return Text(msgid, None, **params)


def Tn(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A message with plural forms chosen by ``n`` (also a parameter): ``Tn("{n} card", "{n} cards", n)``."""
    return Text(singular, plural, n=n, **params)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction only (it is wrapped in :func:`T` where it is used)."""
    return msgid


def join(sep: str, parts: Iterable[Any]) -> Joined:
    """``sep.join(parts)`` that keeps each ``Text`` translatable."""
    return Joined(sep, parts)


def say(value: Any, lang: str | None = None) -> str:
    """One value as a reader of ``lang`` (default: the current context's) reads it."""
    return str(_say(value, lang or _current.get()))


def localize(value: Any, lang: str | None = None) -> Any:
    """``value`` (JSON-like: dicts, lists, tuples, strings, numbers) with every ``Text`` rendered in
    ``lang`` (default: the current context's).  Returns ``value`` itself when there is nothing to do."""
    lang = lang or _current.get()
    return _localize(value, lang)


def _localize(value: Any, lang: str) -> Any:
    if isinstance(value, _Said):
        return value.render(lang)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {k: _localize(v, lang) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_localize(v, lang) for v in value]
    return value
