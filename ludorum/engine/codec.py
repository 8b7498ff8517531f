"""JSON encoding derived from type annotations.

A game declares its state as dataclasses with annotated fields; this module turns any such value into
plain JSON and back, exactly, without per-game code.  Supported annotations: ``int``, ``float``,
``str``, ``bool``, ``None``, ``Any`` (already JSON), enums, ``Action``, dataclasses, ``tuple[X, ...]``,
fixed ``tuple[X, Y]``, ``list[X]``, ``frozenset[X]``, ``set[X]``, ``dict[K, V]`` (``K`` a ``str``,
``int`` or enum; JSON keys are strings) and ``X | None``.  Decoding checks every value and says where
it failed, so a corrupt save file is refused with a clear message.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable
from typing import Any

from ludorum.engine.actions import Action
from ludorum.engine.errors import CodecError

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str], Any]


def encode(value: Any, tp: Any) -> Any:
    """Encode ``value`` of annotated type ``tp`` as plain JSON data."""
    return _encoder(tp)(value)


def encoder(tp: Any) -> Encoder:
    """The function that encodes values of annotated type ``tp`` (built once per type): for callers
    that encode many values of one type, without looking the type up each time."""
    return _encoder(tp)


def decode(data: Any, tp: Any, where: str = "$") -> Any:
    """Decode JSON ``data`` into a value of type ``tp``; ``where`` names the position in errors."""
    return _decoder(tp)(data, where)


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def field_types(cls: type) -> dict[str, Any]:
    """The resolved annotations of a dataclass's fields, in field order."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _FIELD_TYPES[cls] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
    return found


def _identity(value: Any) -> Any:
    return value


def _scalar_decoder(py: type, name: str) -> Decoder:
    def dec(data: Any, where: str) -> Any:
        # bool is an int in Python but not in a save file.
        if type(data) is not py and not (py is float and type(data) is int):
            raise CodecError(f"{where}: expected {name}, found {type(data).__name__} {data!r:.40}")
        return float(data) if py is float else data  # type: ignore[arg-type]

    return dec


@functools.cache
def _encoder(tp: Any) -> Encoder:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in (int, str, bool, float, type(None), Any):
        return _identity
    if tp is Action:
        return lambda a: a.to_json()
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return lambda v: v.value
    if dataclasses.is_dataclass(tp):
        return _dataclass_encoder(tp)  # type: ignore[arg-type]
    if origin in (tuple, list, frozenset, set):
        if origin is tuple and args and args[-1] is not Ellipsis:
            encs = [_encoder(a) for a in args]
            return lambda v: [e(x) for e, x in zip(encs, v, strict=True)]
        enc = _encoder(args[0])
        if origin in (frozenset, set):
            # Sets are written sorted by their JSON text so that equal sets encode identically.
            return lambda v: sorted((enc(x) for x in v), key=repr)
        if enc is _identity:
            return list  # the common case (tuples of ints) at C speed: views are built in search loops
        if enc is list:
            return lambda v: [list(x) for x in v]
        return lambda v: [enc(x) for x in v]
    if origin is dict:
        kenc, venc = _encoder(args[0]), _encoder(args[1])
        return lambda v: {str(kenc(k)): venc(x) for k, x in v.items()}
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            enc1 = _encoder(inner[0])
            if enc1 is _identity:
                return _identity
            return lambda v: None if v is None else enc1(v)
        if all(a in (int, str, bool, float) for a in inner):
            return _identity
    raise TypeError(f"the codec cannot encode the annotation {tp!r}")


def _dataclass_encoder(cls: type) -> Encoder:
    """Generate the encoder of one dataclass: a single dict display, plain fields read inline.

    Views are built from these inside search loops and the conformance kit, so it is worth the
    ``exec`` (as ``GameState.clone`` is generated): about twice as fast as a loop over the fields.
    """
    namespace: dict[str, Any] = {}
    items = []
    for i, (name, tp) in enumerate(field_types(cls).items()):
        enc = _encoder(tp)
        if enc is _identity:
            items.append(f"{name!r}: v.{name}")
        else:
            namespace[f"e{i}"] = enc
            items.append(f"{name!r}: e{i}(v.{name})")
    exec(f"def enc(v):\n    return {{{', '.join(items)}}}", namespace)
    return namespace["enc"]  # type: ignore[no-any-return]


@functools.cache
def _decoder(tp: Any) -> Decoder:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return lambda data, where: data
    if tp in (int, str, bool, float):
        return _scalar_decoder(tp, tp.__name__)
    if tp is type(None):

        def dec_none(data: Any, where: str) -> None:
            if data is not None:
                raise CodecError(f"{where}: expected null, found {data!r:.40}")

        return dec_none
    if tp is Action:

        def dec_action(data: Any, where: str) -> Action:
            try:
                return Action.from_json(data)
            except CodecError as e:
                raise CodecError(f"{where}: {e}") from None

        return dec_action
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        members = {m.value: m for m in tp}

        def dec_enum(data: Any, where: str) -> Any:
            if isinstance(data, bool) or data not in members:
                raise CodecError(f"{where}: {data!r:.40} is not a {tp.__name__}")
            return members[data]

        return dec_enum
    if dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)  # type: ignore[arg-type]
    if origin in (tuple, list, frozenset, set):
        return _sequence_decoder(origin, args)
    if origin is dict:
        return _dict_decoder(args[0], args[1])
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(args)
    raise TypeError(f"the codec cannot decode the annotation {tp!r}")


def _sequence_decoder(origin: Any, args: tuple[Any, ...]) -> Decoder:
    fixed = origin is tuple and bool(args) and args[-1] is not Ellipsis
    decs = [_decoder(a) for a in args] if fixed else [_decoder(args[0])]
    build: Callable[[Any], Any] = {tuple: tuple, list: list, frozenset: frozenset, set: set}[origin]

    def dec(data: Any, where: str) -> Any:
        if not isinstance(data, list):
            raise CodecError(f"{where}: expected a list, found {type(data).__name__}")
        if fixed:
            if len(data) != len(decs):
                raise CodecError(f"{where}: expected {len(decs)} items, found {len(data)}")
            return tuple(d(x, f"{where}[{i}]") for i, (d, x) in enumerate(zip(decs, data, strict=True)))
        d0 = decs[0]
        return build(d0(x, f"{where}[{i}]") for i, x in enumerate(data))

    return dec


def _dict_decoder(ktp: Any, vtp: Any) -> Decoder:
    vdec = _decoder(vtp)
    if ktp is str:
        kconv: Callable[[str], Any] = str
    elif ktp is int:
        kconv = int
    elif isinstance(ktp, type) and issubclass(ktp, enum.Enum):
        byname = {str(m.value): m for m in ktp}
        kconv = byname.__getitem__
    else:
        raise TypeError(f"the codec cannot decode dict keys of type {ktp!r}")

    def dec(data: Any, where: str) -> Any:
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected an object, found {type(data).__name__}")
        out = {}
        for k, v in data.items():
            try:
                key = kconv(k)
            except (ValueError, KeyError):
                raise CodecError(f"{where}: {k!r:.40} is not a valid key") from None
            out[key] = vdec(v, f"{where}.{k}")
        return out

    return dec


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    inner = [a for a in args if a is not type(None)]
    optional = len(inner) < len(args)
    if len(inner) == 1:
        dec1 = _decoder(inner[0])

        def dec_opt(data: Any, where: str) -> Any:
            return None if data is None and optional else dec1(data, where)

        return dec_opt
    allowed = tuple(inner)

    def dec_scalars(data: Any, where: str) -> Any:
        if (data is None and optional) or type(data) in allowed:
            return data
        raise CodecError(f"{where}: {data!r:.40} is not one of {[a.__name__ for a in allowed]}")

    return dec_scalars


def _dataclass_decoder(cls: type) -> Decoder:
    fields = [(name, _decoder(tp)) for name, tp in field_types(cls).items()]
    names = {name for name, _ in fields}

    def dec(data: Any, where: str) -> Any:
        if not isinstance(data, dict):
            raise CodecError(f"{where}: expected an object for {cls.__name__}, found {type(data).__name__}")
        missing = names - data.keys()
        extra = data.keys() - names
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {sorted(missing)}")
            if extra:
                parts.append(f"unknown {sorted(extra)}")
            raise CodecError(f"{where}: {cls.__name__} has {', '.join(parts)}")
        values = {name: d(data[name], f"{where}.{name}") for name, d in fields}
        try:
            return cls(**values)
        except (TypeError, ValueError) as e:
            raise CodecError(f"{where}: not a valid {cls.__name__}: {e}") from None

    return dec
