"""The base of every game state: derived cloning, equality, JSON and views.

A game's state is a ``@dataclass(slots=True, eq=True)`` subclass of :class:`GameState`.  Fields hold
immutable values (ints, strings, tuples, frozensets, frozen dataclasses) wherever possible, so that
:meth:`GameState.clone` is a shallow copy; a field annotated ``list``, ``dict`` or ``set`` is copied
one level deep by ``clone`` (its items must themselves be immutable).  Nothing here is written per game:

* ``clone()`` is generated once per class (no ``deepcopy``);
* equality is the dataclass's field-by-field comparison;
* ``to_json``/``from_json`` come from :mod:`ludorum.engine.codec`;
* :func:`derive_view` builds a seat's view from field metadata: :func:`hidden` fields (deck order, the
  random generator) are shown only by size, :func:`per_seat` fields (hands, secret placements) only to
  their owner.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import typing
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from ludorum.engine import codec
from ludorum.engine.config import Config

VISIBILITY = "ludorum.visibility"
PUBLIC, HIDDEN, PER_SEAT = "public", "hidden", "per_seat"

S = TypeVar("S", bound="GameState")


def hidden(**kwargs: Any) -> Any:
    """A field no seat may see (deck order, face-down cards): views show only its size."""
    return dataclasses.field(metadata={VISIBILITY: HIDDEN}, **kwargs)


def per_seat(**kwargs: Any) -> Any:
    """A tuple indexed by seat whose entry only that seat may see (a hand, a secret placement)."""
    return dataclasses.field(metadata={VISIBILITY: PER_SEAT}, **kwargs)


def visibility(cls: type, name: str) -> str:
    """The visibility of field ``name`` of a state class: public, hidden or per_seat."""
    for f in dataclasses.fields(cls):
        if f.name == name:
            return str(f.metadata.get(VISIBILITY, PUBLIC))
    raise KeyError(name)


@dataclasses.dataclass(slots=True)
class GameState:
    """Fields every state has: its validated config and its random generator (one integer)."""

    config: Config = dataclasses.field(kw_only=True)
    rng: int = dataclasses.field(kw_only=True, metadata={VISIBILITY: HIDDEN})

    _clone_fn: ClassVar[dict[type, Callable[[Any], Any]]] = {}

    def clone(self: S) -> S:
        """An independent copy, sharing every immutable part with the original."""
        cls = type(self)
        fn = GameState._clone_fn.get(cls)
        if fn is None:
            fn = GameState._clone_fn[cls] = _make_clone(cls)
        return fn(self)  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        """The full state as plain JSON data (includes every secret: never send it to a seat)."""
        return codec.encode(self, type(self))  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls: type[S], data: Any) -> S:
        """Rebuild a state from :meth:`to_json` output, refusing malformed data with a clear error."""
        return codec.decode(data, cls)  # type: ignore[no-any-return]

    def digest(self) -> str:
        """A short fingerprint of the full state, for golden playthroughs."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_MUTABLE = (list, dict, set)


def _make_clone(cls: type) -> Callable[[Any], Any]:
    """Generate ``clone`` for one state class: share immutable fields, copy mutable containers."""
    lines = ["def clone(self):", "    new = _new(_cls)"]
    for name, tp in codec.field_types(cls).items():
        origin = typing.get_origin(tp) or tp
        copy = ".copy()" if origin in _MUTABLE else ""
        lines.append(f"    new.{name} = self.{name}{copy}")
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), namespace)
    return namespace["clone"]  # type: ignore[no-any-return]


def _sized(value: Any) -> dict[str, Any]:
    try:
        return {"hidden": len(value)}
    except TypeError:
        return {"hidden": True}


_VIEW_PLANS: dict[type, tuple[tuple[str, str, codec.Encoder], ...]] = {}


def _view_plan(cls: type) -> tuple[tuple[str, str, codec.Encoder], ...]:
    """Each shown field's name, visibility and encoder (of its items, for a per-seat field)."""
    plan = _VIEW_PLANS.get(cls)
    if plan is not None:
        return plan
    types = codec.field_types(cls)
    entries = []
    for f in dataclasses.fields(cls):
        if f.name == "rng":
            continue
        vis = str(f.metadata.get(VISIBILITY, PUBLIC))
        tp = typing.get_args(types[f.name])[0] if vis == PER_SEAT else types[f.name]
        entries.append((f.name, vis, codec.encoder(tp)))
    plan = _VIEW_PLANS[cls] = tuple(entries)
    return plan


def _shown(value: Any, vis: str, enc: codec.Encoder, seat: int | None) -> Any:
    """One field as ``seat`` sees it."""
    if vis == PUBLIC:
        return enc(value)
    if vis == HIDDEN:
        return _sized(value)
    return [enc(v) if s == seat else _sized(v) for s, v in enumerate(value)]


def derive_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (``None``: a spectator) may see of ``state``, derived from field visibility."""
    out: dict[str, Any] = {}
    for name, vis, enc in _view_plan(type(state)):  # _shown inlined: views are built inside search loops
        value = getattr(state, name)
        if vis == PUBLIC:
            out[name] = enc(value)
        elif vis == HIDDEN:
            out[name] = _sized(value)
        else:
            out[name] = [enc(v) if s == seat else _sized(v) for s, v in enumerate(value)]
    return out


def derived_view_names(cls: type) -> frozenset[str]:
    """The keys :func:`derive_view` gives a state of class ``cls``."""
    return frozenset(name for name, _, _ in _view_plan(cls))


class _MatchOrder:
    """The order in which :func:`derived_view_matches` compares one class's fields: those that most
    often differed first, so that a mismatch (the usual answer) is found after few encodings."""

    __slots__ = ("misses", "plan", "since")

    def __init__(self, plan: tuple[tuple[str, str, codec.Encoder], ...]) -> None:
        self.plan = list(plan)
        self.misses: dict[str, int] = {name: 0 for name, _, _ in plan}
        self.since = 0

    def missed(self, name: str) -> None:
        self.misses[name] += 1
        self.since += 1
        if self.since >= 64:  # re-sort now and then: sorting at every miss would cost more than it saves
            self.since = 0
            self.plan.sort(key=lambda entry: -self.misses[entry[0]])


_MATCH_ORDERS: dict[type, _MatchOrder] = {}

_MISSING = object()
"""What :func:`derived_view_matches` reads for a key the view lacks: equal to no field's value."""


def derived_view_matches(state: GameState, seat: int | None, view: typing.Mapping[str, Any]) -> bool:
    """Whether every field of ``derive_view(state, seat)`` equals the same key of ``view``, found field by
    field and stopping at the first that differs (``view`` may hold more keys: the caller checks those).

    Exactly ``all(k in view and view[k] == v for k, v in derive_view(state, seat).items())``, without
    building the fields after a difference: the disclosure's readings compare thousands of views that
    almost all differ.
    """
    cls = type(state)
    order = _MATCH_ORDERS.get(cls)
    if order is None:
        order = _MATCH_ORDERS[cls] = _MatchOrder(_view_plan(cls))
    for name, vis, enc in order.plan:
        if view.get(name, _MISSING) != _shown(getattr(state, name), vis, enc, seat):
            order.missed(name)
            return False
    return True
