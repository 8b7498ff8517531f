"""What the RL layer (:mod:`ludorum.rl`) needs from a game, as plain data: standard library only.

A game that wants to be an RL environment declares a :class:`GameEncoding` in ``Game.provides.encoding``
(by custom ``ENCODING`` in ``ludorum/games/<game>/encoding.py``).  It says two things, both derived from
the game's content where possible:

* **actions** — every action kind with every argument tuple it can take (:class:`Kind`); the kinds in order
  make one fixed ``Discrete(N)`` space (:class:`ActionSpace`): kind ``k``'s argument tuple ``i`` has index
  ``offset(k) + i``.  Open kinds (free placements, ``Game.open_kinds``) are discretised onto a grid the game
  documents, with the legal grid points given by :meth:`GameEncoding.open_actions`;
* **observations** — a schema (:class:`Record` of :class:`Spec` nodes) that turns a seat's JSON view into a
  fixed-length vector of floats, with a named layout.  It reads only the view: a seat's observation can
  never hold more than its view does.

This module is the contract between a game and the adapters.  It does not import numpy, so the games stay
installable without the ``rl`` extra; the adapters turn its lists into arrays.
"""

from __future__ import annotations

import itertools
import operator
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ludorum.engine.actions import Action, Arg
from ludorum.engine.config import Config

if TYPE_CHECKING:
    from ludorum.engine.game import Game
    from ludorum.engine.state import GameState

# -- actions -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """One action kind and every argument tuple it can take, in index order (duplicates dropped)."""

    name: str
    args: tuple[tuple[Arg, ...], ...] = ((),)
    doc: str = ""

    @staticmethod
    def product(name: str, *domains: Iterable[Arg], doc: str = "") -> Kind:
        """The kind whose arguments are every combination of one value per domain (none: no arguments)."""
        return Kind(name, tuple(itertools.product(*(tuple(d) for d in domains))), doc)

    @staticmethod
    def union(name: str, *forms: Iterable[tuple[Arg, ...]], doc: str = "") -> Kind:
        """The kind whose arguments are the argument tuples of several forms, first occurrence first."""
        return Kind(name, tuple(dict.fromkeys(a for form in forms for a in form)), doc)


class ActionSpace:
    """A fixed ``Discrete(N)`` numbering of every action the kinds list: a stable, two-way map."""

    def __init__(self, kinds: Sequence[Kind]) -> None:
        self.kinds = tuple(kinds)
        self.actions: list[Action] = []
        self.offsets: dict[str, tuple[int, int]] = {}
        for k in self.kinds:
            if k.name in self.offsets:
                raise ValueError(f"action kind {k.name!r} is listed twice")
            start = len(self.actions)
            self.actions.extend(Action(k.name, a) for a in dict.fromkeys(k.args))
            self.offsets[k.name] = (start, len(self.actions))
        self.index: dict[Action, int] = {a: i for i, a in enumerate(self.actions)}

    @property
    def n(self) -> int:
        """The size ``N`` of the space."""
        return len(self.actions)

    def ranges(self) -> list[tuple[str, int, int, str]]:
        """``(kind, first index, end index, description)`` for each kind, in order (for the docs)."""
        return [(k.name, *self.offsets[k.name], k.doc) for k in self.kinds]


# -- observations --------------------------------------------------------------------------------------


class Spec:
    """A node of an observation schema: how one part of a view becomes ``size`` floats."""

    size: int = 1

    def encode(self, value: Any, out: list[float]) -> None:
        """Append exactly ``size`` floats for ``value`` (``None``: absent, all zeros) to ``out``."""
        raise NotImplementedError

    def describe(self) -> str:
        """One line saying what the floats mean."""
        raise NotImplementedError


def _zeros(n: int, out: list[float]) -> None:
    out.extend([0.0] * n)


def _hidden_size(value: Any) -> Any:
    """A view shows a secret only by its size: ``{"hidden": n}``."""
    if isinstance(value, dict) and "hidden" in value and len(value) == 1:
        return value["hidden"]
    return None


def _number(value: Any, scale: float) -> float:
    """What :class:`Num` makes of ``value``: a number (a boolean 0/1) or a hidden entry's size or a list's
    length, divided by ``scale``; anything else (``None``, a word) is 0."""
    if type(value) is int or type(value) is float:
        return value / scale
    if isinstance(value, dict):
        value = _hidden_size(value)
    if value is None or isinstance(value, str):
        return 0.0
    if isinstance(value, (list, tuple)):
        return len(value) / scale
    return float(value) / scale


@dataclass
class Num(Spec):
    """A number (a boolean is 0/1), divided by ``scale``; a hidden entry gives its size."""

    scale: float = 1.0
    size: int = 1

    def encode(self, value: Any, out: list[float]) -> None:
        out.append(_number(value, self.scale))

    def describe(self) -> str:
        return "number" if self.scale == 1.0 else f"number / {self.scale:g}"


@dataclass
class _OverValues(Spec):
    """A spec with one float per possible value (:class:`OneHot`, :class:`Counts`): ``_pos`` finds a
    value's float."""

    values: Sequence[Any]
    size: int = field(init=False)
    _pos: dict[Any, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.values = tuple(self.values)
        self.size = len(self.values)
        self._pos = {v: i for i, v in enumerate(self.values)}


@dataclass
class OneHot(_OverValues):
    """One float per possible value: 1 for the value held (none for a value outside the list)."""

    key: str | None = None
    """Read this key of an object value (a card's ``"type"``) instead of the value itself."""

    def encode(self, value: Any, out: list[float]) -> None:
        row = [0.0] * self.size
        if self.key is not None and isinstance(value, dict):
            value = value.get(self.key)
        if isinstance(value, list):
            value = tuple(value)
        i = self._pos.get(value) if _hashable(value) else None
        if i is not None:
            row[i] = 1.0
        out.extend(row)

    def describe(self) -> str:
        shown = ", ".join(map(repr, self.values[:8])) + (", …" if self.size > 8 else "")
        return f"one-hot over {self.size} values ({shown})"


@dataclass
class Counts(_OverValues):
    """A list of values as counts per possible value (a multiset: a hand, a city); ``scale`` divides."""

    scale: float = 1.0
    key: str | None = None
    """Read this key of each object item (a card's ``"type"``) instead of the item itself."""

    def encode(self, value: Any, out: list[float]) -> None:
        row = [0] * self.size
        if isinstance(value, (list, tuple)):
            for v in value:
                if self.key is not None and isinstance(v, dict):
                    v = v.get(self.key)
                i = self._pos.get(tuple(v) if isinstance(v, list) else v)
                if i is not None:
                    row[i] += 1
        out.extend(c / self.scale for c in row)

    def describe(self) -> str:
        return f"count of each of {self.size} values" + (f" / {self.scale:g}" if self.scale != 1.0 else "")


@dataclass
class Fixed(Spec):
    """A list as exactly ``n`` items (cut, or padded with zeros), each encoded by ``item``."""

    n: int
    item: Spec
    size: int = field(init=False)

    def __post_init__(self) -> None:
        self.size = self.n * self.item.size

    def encode(self, value: Any, out: list[float]) -> None:
        items = value[: self.n] if isinstance(value, (list, tuple)) else ()
        item = self.item
        if type(item) is Num and all(type(v) is int or type(v) is float for v in items):
            # The common cases (a row of numbers, of one-hots), without a call per item.
            scale = item.scale
            out.extend([v / scale for v in items] if scale != 1.0 else [float(v) for v in items])
        elif type(item) is OneHot and item.key is None and all(type(v) is not list for v in items):
            row = [0.0] * (len(items) * item.size)
            pos = item._pos
            for i, v in enumerate(items):
                try:
                    j = pos.get(v)
                except TypeError:  # an unhashable item (a dict) is no value, as in OneHot.encode
                    j = None
                if j is not None:
                    row[i * item.size + j] = 1.0
            out.extend(row)
        else:
            for v in items:
                item.encode(v, out)
        _zeros((self.n - len(items)) * item.size, out)

    def describe(self) -> str:
        return f"{self.n} × [{self.item.describe()}] (missing items: zeros)"


class Both(Spec):
    """Several specs reading the same value one after the other (a hand's size, then its cards)."""

    def __init__(self, *specs: Spec) -> None:
        self.specs = specs
        self.size = sum(s.size for s in specs)

    def encode(self, value: Any, out: list[float]) -> None:
        for s in self.specs:
            s.encode(value, out)

    def describe(self) -> str:
        return " + ".join(s.describe() for s in self.specs)


@dataclass
class Present(Spec):
    """1 when there is a value (not ``None``, not a hidden size), else 0: marks a filled slot."""

    def encode(self, value: Any, out: list[float]) -> None:
        out.append(0.0 if value is None or _hidden_size(value) is not None else 1.0)

    def describe(self) -> str:
        return "1 if present"


@dataclass
class Record(Spec):
    """A JSON object: named parts, each read by a key (``"a.b"`` reads ``value["a"]["b"]``).

    A key may be a tuple of specs under one name: ``Record({"card": (Present(), OneHot(...))})`` encodes
    the same value twice; a key ``"*name"`` hands the whole object to its specs (for :class:`Computed`).
    At the top level the names are the observation's layout.
    """

    parts: Mapping[str, Spec | tuple[Spec, ...]]
    size: int = field(init=False)
    _plan: tuple[tuple[str, tuple[str, ...], tuple[Spec, ...]], ...] = field(init=False, repr=False)
    _compiled: Callable[[Any], array[float]] | None = field(
        init=False, repr=False, compare=False, default=None
    )

    def __post_init__(self) -> None:
        plan = []
        for key, spec in self.parts.items():
            specs = spec if isinstance(spec, tuple) else (spec,)
            # "*name" reads the whole value (for Computed parts); "a.b" reads value["a"]["b"].
            path = () if key.startswith("*") else tuple(key.split("."))
            plan.append((key.lstrip("*"), path, specs))
        self._plan = tuple(plan)
        self.size = sum(s.size for _, _, specs in self._plan for s in specs)

    def encode(self, value: Any, out: list[float]) -> None:
        for _, path, specs in self._plan:
            v = value
            for p in path:
                v = v.get(p) if isinstance(v, dict) else None
            for s in specs:
                s.encode(v, out)

    def describe(self) -> str:
        return (
            "{"
            + "; ".join(f"{k}: {' + '.join(s.describe() for s in specs)}" for k, _, specs in self._plan)
            + "}"
        )

    def compile(self) -> Callable[[Any], array[float]]:
        """The schema as one generated function, ``value → array('f')`` of ``size`` floats: the same
        floats as :meth:`encode`, in one pass (no call per node; zeros are not written).  Built once."""
        if self._compiled is None:
            self._compiled = _compile(self)
        return self._compiled

    def layout(self) -> list[tuple[str, int, int, str]]:
        """``(name, offset, size, description)`` of each top-level part, in vector order."""
        out, offset = [], 0
        for key, _, specs in self._plan:
            size = sum(s.size for s in specs)
            out.append((key, offset, size, " + ".join(s.describe() for s in specs)))
            offset += size
        return out


@dataclass
class Computed(Spec):
    """A part a schema cannot read off the view directly: ``fn(view, seat)`` gives its ``size`` floats.

    The function still sees only the view (and the observing seat), so the no-leak guarantee holds.
    """

    fn: Any
    size: int = 1
    doc: str = ""

    def encode(self, value: Any, out: list[float]) -> None:
        row = list(self.fn(value))
        if len(row) != self.size:
            raise ValueError(f"a computed observation part gave {len(row)} floats, not {self.size}")
        out.extend(float(x) for x in row)

    def describe(self) -> str:
        return self.doc or f"{self.size} computed floats"


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


# -- the schema compiler ------------------------------------------------------------------------------------
#
# ``Spec.encode`` is the definition: a tree of small calls, easy to read and to test.  An environment calls
# it on every step, and a call per node per step is most of an observation's cost, so ``Record.compile``
# turns the tree into the source of one function that reads the view and writes only the non-zero floats
# into a zeroed ``array('f')`` (numpy reads it without a copy).  The generated code does exactly what each
# ``encode`` does (a test compares the two over random games, bit for bit); a spec type it does not know is
# run through its own ``encode``.  Where a view usually has one shape (rows of numbers, a row of one-hots, a
# card), the code takes a shortcut for that shape and falls back to the general code for any other value;
# records of plain keys (cards, events) are memoised by their values (docs/rl.md, "The encoding of a view").


class _Source:
    """The lines and constants of the function being generated."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}
        self.tables: dict[tuple[int, int], str] = {}
        self.n = 0

    def name(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def const(self, value: Any) -> str:
        name = self.name("K")
        self.consts[name] = value
        return name

    def table(self, spec: _OverValues, offset: int) -> str:
        """A constant ``{value: offset + its float}``: a value's position in one dict look-up (shared by
        every node of the same spec at the same offset, such as the cards of a panel and of a queue)."""
        key = (id(spec), offset)
        if key not in self.tables:
            self.tables[key] = self.const({v: offset + i for v, i in spec._pos.items()})
            self.consts[f"_keep{self.n}"] = spec  # the id stays this spec's while the table exists
        return self.tables[key]

    def line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


_Base = tuple[str | None, int]
"""Where a node's floats start: ``(variable or None, constant)``, the index ``variable + constant``."""

_SCALARS = (str, int, float, bool, type(None))


def _at(base: _Base, k: int = 0) -> str:
    """The index expression of ``base + k`` (folded into one number when ``base`` has no variable)."""
    var, off = base[0], base[1] + k
    if var is None:
        return str(off)
    return var if off == 0 else f"{var} + {off}"


def _plus(var: str | None, j: str) -> str:
    """The index expression ``var + j`` (``j`` alone without a variable): ``j`` holds a table's position."""
    return j if var is None else f"{var} + {j}"


def _plain(spec: _OverValues) -> bool:
    """Whether every value is a plain scalar: a list read from a view can then match none of them, so
    the generated code need not turn lists into tuples (an unhashable value is simply not found)."""
    return all(type(v) in _SCALARS for v in spec.values)


def _row_length(spec: Fixed) -> int | None:
    """``m`` when ``spec`` is rows of numbers, ``Fixed(n, Fixed(m, Num))``; else ``None``."""
    row = spec.item
    if type(row) is Fixed and type(row.item) is Num and row.item.size == 1:
        return row.n
    return None


def _emit(src: _Source, spec: Spec, v: str, base: _Base, depth: int) -> None:
    """Code writing ``spec``'s floats for the value in variable ``v`` at ``out[base:]``."""
    t = type(spec)
    if t is Num and spec.size == 1:
        scale = spec.scale  # type: ignore[attr-defined]
        k = src.name("t")
        value = v if scale == 1.0 else f"{v} / {scale!r}"
        # A falsy value (0, False, None, a word "", an empty list) is 0: not written — but -0.0 is a float
        # whose bits are not 0.0's.  A number or a boolean (True / s is 1 / s) divides in line.
        src.line(depth, f"if {v} or type({v}) is float:")
        src.line(depth + 1, f"{k} = type({v})")
        src.line(depth + 1, f"if {k} is int or {k} is float or {k} is bool: out[{_at(base)}] = {value}")
        src.line(depth + 1, f"else: out[{_at(base)}] = _number({v}, {scale!r})")
    elif t is OneHot:
        assert isinstance(spec, OneHot)
        u, j = v, src.name("j")
        pos = src.table(spec, base[1])  # the constant part of the base is folded into the table
        if spec.key is not None:
            u = src.name("u")
            src.line(depth, f"{u} = {v}.get({spec.key!r}) if isinstance({v}, dict) else {v}")
        src.line(depth, "try:")
        src.line(depth + 1, f"{j} = {pos}.get({u})" if _plain(spec) else
                 f"{j} = {pos}.get(tuple({u}) if isinstance({u}, list) else {u})")  # fmt: skip
        src.line(depth, "except TypeError:")
        src.line(depth + 1, f"{j} = None")
        src.line(depth, f"if {j} is not None: out[{_plus(base[0], j)}] = 1.0")
    elif t is Counts:
        assert isinstance(spec, Counts)
        x, i = src.name("x"), src.name("i")
        tally = src.name("c") if spec.scale != 1.0 else None
        pos = src.table(spec, 0 if tally else base[1])
        find = f"{pos}.get(tuple({x}) if isinstance({x}, list) else {x})"
        src.line(depth, f"if isinstance({v}, (list, tuple)):")
        if tally:
            src.line(depth + 1, f"{tally} = [0] * {spec.size}")
        src.line(depth + 1, f"for {x} in {v}:")
        if spec.key is not None:
            src.line(depth + 2, f"if isinstance({x}, dict): {x} = {x}.get({spec.key!r})")
        if _plain(spec):
            # A list item matches nothing; the reference expression, run only for an unhashable item,
            # fails (or finds nothing) exactly as ``Counts.encode`` does.
            src.line(depth + 2, "try:")
            src.line(depth + 3, f"{i} = {pos}.get({x})")
            src.line(depth + 2, "except TypeError:")
            src.line(depth + 3, f"{i} = {find}")
        else:
            src.line(depth + 2, f"{i} = {find}")
        if tally:
            src.line(depth + 2, f"if {i} is not None: {tally}[{i}] += 1")
            src.line(depth + 1, f"for {i}, {x} in enumerate({tally}):")
            src.line(depth + 2, f"if {x}: out[{_at(base)} + {i}] = {x} / {spec.scale!r}")
        else:
            src.line(depth + 2, f"if {i} is not None: out[{_plus(base[0], i)}] += 1.0")
    elif t is Fixed:
        assert isinstance(spec, Fixed)
        _emit_fixed(src, spec, v, base, depth)
    elif t is Both:
        assert isinstance(spec, Both)
        offset = 0
        for s in spec.specs:
            _emit(src, s, v, (base[0], base[1] + offset), depth)
            offset += s.size
    elif t is Present:
        # ``_hidden_size`` in line: a hidden entry is a one-key dict whose "hidden" is not None.
        src.line(depth, f"if {v} is not None and (not isinstance({v}, dict) or len({v}) != 1 "
                        f"or {v}.get('hidden') is None): out[{_at(base)}] = 1.0")  # fmt: skip
    elif t is Record:
        assert isinstance(spec, Record)
        _emit_record(src, spec, v, base, depth)
    else:  # any other spec (Computed, a game's own): its own encode, checked and copied in
        fn, row, b = src.const(spec), src.name("r"), src.name("b")
        src.line(depth, f"{row} = []")
        src.line(depth, f"{fn}.encode({v}, {row})")
        src.line(depth, f"if len({row}) != {spec.size}: raise ValueError(_WRONG.format({fn}, len({row})))")
        src.line(depth, f"{b} = {_at(base)}")
        src.line(depth, f"out[{b}:{b} + {spec.size}] = array('f', {row})")


def _attempt(
    src: _Source, depth: int, guard: str | None, body: list[tuple[int, str]], errors: str, flag: str
) -> None:
    """Code running ``body`` (lines at relative depths) only when ``guard`` holds (if any), ``flag`` set to
    ``False`` when the guard fails or the body raises one of ``errors``: a shortcut that can give up."""
    if guard is not None:
        src.line(depth, f"if {guard}:")
        depth += 1
    src.line(depth, "try:")
    for d, text in body:
        src.line(depth + 1 + d, text)
    src.line(depth, f"except {errors}:")
    src.line(depth + 1, f"{flag} = False")
    if guard is not None:
        src.line(depth - 1, "else:")
        src.line(depth, f"{flag} = False")


_MEMO = 4096
"""How many distinct records (cards, events) one memo of :func:`_emit_record` holds; full, it starts again."""

_MEMO_FLOATS = 512
"""A record of more floats is not memoised: each record the memo learns costs a copy of all of them."""


def _plain_spec(spec: Spec) -> bool:
    """Whether ``spec``'s floats are a function of its value's equality class alone (see the memo):
    a :class:`Num`, a :class:`OneHot` of the value itself, :class:`Present`."""
    return (
        (type(spec) is Num and spec.size == 1)
        or (type(spec) is OneHot and spec.key is None)
        or type(spec) is Present
    )


def _memo_parts(spec: Record) -> list[int]:
    """The parts of a record its memo keys on: each read by one key and plain specs (at least two such
    parts, in a record of at most :data:`_MEMO_FLOATS` floats); none otherwise."""
    parts = [
        i
        for i, (_, path, specs) in enumerate(spec._plan)
        if len(path) == 1 and all(_plain_spec(s) for s in specs)
    ]
    return parts if len(parts) > 1 and 0 < spec.size <= _MEMO_FLOATS else []


def _emit_record(src: _Source, spec: Record, v: str, base: _Base, depth: int) -> None:
    """A :class:`Record`: each part at its offset; the plain parts of a small record (a card, an event, a
    creature's numbers) through a memo from the tuple of their values to the record's floats, written by
    one slice copy when seen before, the other parts after it."""
    if not spec._plan:
        src.line(depth, "pass")  # a record of nothing (the body of a loop must hold a statement)
        return
    offsets, offset = [], 0
    for _, _, specs in spec._plan:
        offsets.append(offset)
        offset += sum(s.size for s in specs)
    memo = _memo_parts(spec)
    names = {i: src.name("w") for i, (_, path, _) in enumerate(spec._plan) if path}

    def parts(which: list[int], d: int) -> None:
        for i in which:
            _, path, specs = spec._plan[i]
            w = names.get(i, v)  # a "*name" part reads the whole value
            for p in path[1:]:
                src.line(d, f"{w} = {w}.get({p!r}) if isinstance({w}, dict) else None")
            at = offsets[i]
            for s in specs:
                _emit(src, s, w, (base[0], base[1] + at), d)
                at += s.size

    def reads(which: list[int], d: int) -> None:
        if any(spec._plan[i][1] for i in which):
            dv = src.name("d")
            src.line(d, f"{dv} = {v} if isinstance({v}, dict) else _NOTHING")
            for i in which:
                if spec._plan[i][1]:
                    src.line(d, f"{names[i]} = {dv}.get({spec._plan[i][1][0]!r})")

    rest = [i for i in range(len(spec._plan)) if i not in memo]
    if memo:
        # The key is the plain parts' values, read by one C call (``itemgetter``) from a dict holding
        # every key (else no memo).  Equal values give equal floats (True and 1 alike, for a one-hot and a
        # number), except a float: -0.0 == 0.0, yet -0.0 / 10 is not 0.0's bits — a float read by a
        # number is not memoised; an unhashable value (a list, a hidden size) neither.  The slice is
        # copied before the other parts are written: it holds zeros where they go.
        got, known, seg = src.name("g"), src.const({}), src.name("s")
        start, end = _at(base), _at(base, spec.size)
        getter = src.const(operator.itemgetter(*(spec._plan[i][1][0] for i in memo)))
        _attempt(src, depth, f"type({v}) is dict", [(0, f"{got} = {getter}({v})")], "KeyError", got)
        nums = [k for k, i in enumerate(memo) if any(type(s) is Num for s in spec._plan[i][2])]
        guard = " and ".join([got, *(f"(type({got}[{k}]) is not float or {got}[{k}])" for k in nums)])
        _attempt(src, depth, guard, [(0, f"{seg} = {known}.get({got})")], "TypeError", seg)
        src.line(depth, f"if {seg}: out[{start}:{end}] = {seg}")
        src.line(depth, "else:")
        src.line(depth + 1, f"if {got}: {', '.join(names[i] for i in memo)}, = {got}")
        src.line(depth + 1, "else:")
        reads(memo, depth + 2)
        parts(memo, depth + 1)
        # Every node writes only its own floats into a zeroed buffer: the slice is the plain parts'.
        # The memo is bounded: full, it starts again (what a game shows changes as it goes on).
        src.line(depth + 1, f"if {seg} is None:")
        src.line(depth + 2, f"if len({known}) >= {_MEMO}: {known}.clear()")
        src.line(depth + 2, f"{known}[{got}] = out[{start}:{end}]")
    reads(rest, depth)
    parts(rest, depth)


def _emit_fixed(src: _Source, spec: Fixed, v: str, base: _Base, depth: int) -> None:
    """A :class:`Fixed` list: a block of numbers or a row of one-hots in one go when the value has the
    expected shape, else (and for any other item) a loop over the items."""
    item, start = spec.item, _at(base)
    src.line(depth, f"if isinstance({v}, (list, tuple)):")
    depth += 1
    m = _row_length(spec)
    if m is not None:
        # Rows of numbers, mostly zeros (units per region): each row unpacked, only its non-zero numbers
        # written (-0.0 is falsy but a float: written too).  A row of another type or length, or an item
        # that is not a number, raises before it is written: the loop below then redoes the whole list.
        scale = item.item.scale  # type: ignore[attr-defined]
        b, r = src.name("b"), src.name("r")
        xs = [src.name("x") for _ in range(m)]
        body = [(0, f"for {b}, ({', '.join(xs)}{',' if m == 1 else ''}) in zip(range({start}, "
                    f"{start} + {spec.size}, {m}), {v}):")]  # fmt: skip
        for k, x in enumerate(xs):
            value = x if scale == 1.0 else f"{x} / {scale!r}"
            body.append((1, f"if {x} or type({x}) is float: out[{_at((b, k))}] = {value}"))
        body.append((0, f"{r} = True"))
        _attempt(src, depth, f"{{*map(type, {v})}} <= _SEQ", body, "(TypeError, ValueError)", r)
        src.line(depth, f"if not {r}:")
        depth += 1
    elif type(item) is OneHot and item.key is None and _plain(item):
        # A row of one-hots: a table per slot from value to position, so one look-up and one write per
        # item.  An unhashable item raises (after the items before it, each written where the loop
        # below writes it too): the loop then redoes the list.
        assert isinstance(item, OneHot)
        t, x, i, ok = src.name("t"), src.name("x"), src.name("i"), src.name("ok")
        slots = src.const(
            tuple({v: base[1] + k * item.size + j for v, j in item._pos.items()} for k in range(spec.n))
        )
        body = [
            (0, f"for {t}, {x} in zip({slots}, {v}):"),
            (1, f"{i} = {t}.get({x})"),
            (1, f"if {i} is not None: out[{_plus(base[0], i)}] = 1.0"),
            (0, f"{ok} = True"),
        ]
        _attempt(src, depth, None, body, "TypeError", ok)
        src.line(depth, f"if not {ok}:")
        depth += 1
    b, x = src.name("b"), src.name("x")
    # Each item's first float; an item of no floats still sees its value (a game's spec may check it).
    starts = f"range({start}, {start} + {spec.size}, {item.size})" if item.size else f"[{start}] * {spec.n}"
    src.line(depth, f"for {b}, {x} in zip({starts}, {v}):")
    _emit(src, item, x, (b, 0), depth + 1)


def _compile(schema: Record) -> Callable[[Any], array[float]]:
    src = _Source()
    zeros = src.const(bytes(4 * schema.size))
    src.line(0, "def encode(view):")
    src.line(1, f"out = array('f', {zeros})")
    _emit(src, schema, "view", (None, 0), 1)
    src.line(1, "return out")
    scope: dict[str, Any] = {
        "array": array,
        "_number": _number,
        "_SEQ": frozenset({list, tuple}),
        "_NOTHING": {},
        "_WRONG": "{} gave {} floats, not its size",
        **src.consts,
    }
    exec(compile("\n".join(src.lines), f"<observation schema of {schema.size} floats>", "exec"), scope)
    fn: Callable[[Any], array[float]] = scope["encode"]
    return fn


# -- the contract ---------------------------------------------------------------------------------------


class GameEncoding:
    """A game's action numbering and observation schema.  Games subclass it in their ``encoding.py``."""

    seeded_setup: bool = True
    """Whether ``Game.new`` draws anything from the seed (a shuffle, a deal): OpenSpiel then starts with a
    chance node choosing the deal."""

    def action_kinds(self, config: Config) -> Sequence[Kind]:
        """Every action kind a seat may take under ``config``, with its argument domain."""
        raise NotImplementedError

    def chance_kinds(self, config: Config) -> Sequence[Kind]:
        """Every explicit chance outcome (``to_move == CHANCE``) under ``config`` (none by default)."""
        return ()

    def action_key(self, action: Action) -> Action:
        """The representative of ``action`` in the kinds' enumeration (itself unless the game maps
        arguments onto a coarser grid)."""
        return action

    def open_actions(self, game: Game[Any], state: GameState, kind: str) -> Sequence[tuple[Action, Action]]:
        """For an open kind now allowed: ``(grid action as listed in the kinds, concrete action)`` for
        every grid point that is legal now."""
        return ()

    def observation(self, config: Config) -> Record:
        """The schema that turns a seat's view (``Game.view``) into the observation vector.

        The view gets one extra key before encoding, ``"_seat"``: the observing seat (views of some
        games do not name it).
        """
        raise NotImplementedError

    def prepare(self, view: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
        """What the schema reads: the view with ``"_seat"`` added.  A game may add parts it derives from
        the view alone (never from the state)."""
        return {**view, "_seat": seat}

    def encode_view(self, schema: Record, view: Mapping[str, Any], seat: int) -> Sequence[float]:
        """The observation of ``seat`` as floats, from its view only: the compiled schema over
        :meth:`prepare` (an ``array('f')``; ``schema.encode`` gives the same floats, slower)."""
        return schema.compile()(self.prepare(view, seat))
