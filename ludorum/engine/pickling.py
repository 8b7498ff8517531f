"""Fast pickling for the frozen, slotted dataclasses that cross process boundaries in hot paths.

A ``@dataclass(frozen=True, slots=True)`` pickles through the ``__getstate__``/``__setstate__`` that
``dataclasses`` adds to it, and both call ``dataclasses.fields()`` for every object: in the server's
8-game bench, unpickling one log entry and one set of encoded views per step cost the event loop 2-3 %
of its time (docs/server.md), and a Legends of Signum state holds dozens of such objects (its models)
that every job sent to a worker or a search bot pickles.  :func:`by_fields` makes such a class pickle
as its constructor and the values of its fields, read in one call.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, TypeVar

T = TypeVar("T")


_GETTERS: dict[type, Any] = {}


def _getter(cls: type) -> Any:
    """A function returning the values of ``cls``'s fields in order, checked once per class."""
    getter = _GETTERS.get(cls)
    if getter is None:
        fields = dataclasses.fields(cls)
        if not fields or any(not f.init or f.kw_only for f in fields):
            raise TypeError(
                f"{cls.__name__}: by_fields needs every field to be a positional __init__ parameter"
            )
        names = [f.name for f in fields]
        first = names[0]
        getter = operator.attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, first),))
        _GETTERS[cls] = getter
    return getter


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    """Pickle as the constructor and the values of the fields."""
    cls = type(self)
    return cls, _getter(cls)(self)


def by_fields(cls: type[T]) -> type[T]:
    """Class decorator (outside ``@dataclass``): instances pickle as ``cls(*field values)``.

    Only for a dataclass whose fields are all positional ``__init__`` parameters, so that the
    constructor rebuilds exactly the object pickled (its ``__post_init__``, if any, runs again); a
    subclass is checked the same way when it is first pickled."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass")
    _getter(cls)
    cls.__reduce__ = _reduce  # type: ignore[method-assign]
    return cls
