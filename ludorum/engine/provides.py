"""What a game offers the layers above its rules, declared in one place: ``Game.provides``.

As OpenSpiel's ``GameType`` and boardgame.io's game object do, a game states what it brings, and every
layer reads that declaration instead of looking for modules by file name:

- ``evaluation``: what search bots need (an :class:`~ludorum.engine.evaluation.Evaluation`);
- ``facts``: what the lab reads of a played game (a :class:`~ludorum.engine.facts.FactReader`);
- ``tunables``: the evaluation's constants that ``ludorum tune`` may vary (name → :class:`Tunable`);
- ``encoding``: the numbering of actions and the observation schema of the RL adapters (a
  :class:`~ludorum.engine.encoding.GameEncoding`);
- ``rules``: how its rules page is built (:class:`RulesPage`).

The hooks are dotted paths (``"package.module:NAME"``) resolved on first use, not objects: loading a game
must not import what only one layer needs (its search code, its encoding, and through the adapters numpy,
which only the ``rl`` extra installs).  The conformance kit resolves every declared hook and checks its
type (:func:`check_provides`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the types only: the modules load when a hook is resolved
    from ludorum.engine.encoding import GameEncoding
    from ludorum.engine.evaluation import Evaluation
    from ludorum.engine.facts import FactReader

T = TypeVar("T")


class HookError(LookupError):
    """A declared hook does not resolve, or resolves to the wrong kind of object."""


@functools.cache
def _module(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:  # the module exists but something it imports does not: say that, not "no hook"
            raise
        raise HookError(f"no module {name!r}") from None


def resolve(path: str) -> Any:
    """The object a dotted path ``"package.module:NAME"`` names (modules are imported once)."""
    module, colon, attribute = path.partition(":")
    if not colon or not module or not attribute.isidentifier():
        raise HookError(f"a hook is 'package.module:NAME', not {path!r}")
    try:
        return getattr(_module(module), attribute)
    except AttributeError:
        raise HookError(f"{module} has no {attribute}") from None


def _typed(path: str, kind: type[T], what: str) -> T:
    found = resolve(path)
    if not isinstance(found, kind):
        raise HookError(f"{path} is {type(found).__name__}, not {what}")
    return found


@dataclass(frozen=True, slots=True)
class Tunable:
    """A number the game's bots or evaluation read at decision time, which ``ludorum tune`` may vary.

    It is a module-level constant (``module.attribute``), read when a bot decides, so the lab can give
    one seat other values than another by setting it only while that seat's bot decides.
    """

    module: str
    attribute: str
    low: float
    high: float
    description: str = ""
    log: bool = False
    """Search on a logarithmic scale (for positive scales such as temperatures)."""

    def read(self) -> float:
        """The constant's value now."""
        return float(resolve(f"{self.module}:{self.attribute}"))

    def swap(self, value: Any) -> Any:
        """Set the constant and return the value it had, exactly (so that a tuner restores it as it was)."""
        module = _module(self.module)
        old = getattr(module, self.attribute)
        setattr(module, self.attribute, value)
        return old


@dataclass(frozen=True, slots=True)
class RulesPage:
    """How a game's rules page (``ludorum/web/rules/<game>.md``) is built from the project's texts.

    Either ``rulebook``, the rulebook's plain text (a file in the rulebooks folder), followed by the
    sections of the doc ``notes`` (in ``docs/``) whose headings contain one of ``designed``; or ``doc``, a
    page already written in Markdown in ``docs/``.  ``translations`` maps a language to the doc in
    ``docs/`` that is the page in that language.
    """

    rulebook: str = ""
    notes: str = ""
    designed: tuple[str, ...] = ()
    doc: str = ""
    translations: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Provides:
    """A game's declarations for the layers above: each hook a ``"package.module:NAME"`` path (or empty)."""

    evaluation: str = ""
    """The :class:`~ludorum.engine.evaluation.Evaluation` search bots use (none: play out to the end)."""
    facts: str = ""
    """The :class:`~ludorum.engine.facts.FactReader` of the lab's reports (none: the neutral defaults)."""
    tunables: str = ""
    """A mapping of names to :class:`Tunable` (none: nothing to tune)."""
    encoding: str = ""
    """The :class:`~ludorum.engine.encoding.GameEncoding` of the RL adapters (none: no adapter)."""
    rules: RulesPage | None = None
    """How the rules page is built (none: the game has no rules page)."""

    def load_evaluation(self) -> Evaluation[Any] | None:
        """The declared evaluation, or ``None``."""
        from ludorum.engine.evaluation import Evaluation

        return _typed(self.evaluation, Evaluation, "an Evaluation") if self.evaluation else None

    def load_facts(self) -> FactReader[Any]:
        """The declared fact reader, or one answering with the neutral defaults."""
        from ludorum.engine.facts import FactReader

        return _typed(self.facts, FactReader, "a FactReader") if self.facts else FactReader()

    def load_tunables(self) -> Mapping[str, Tunable]:
        """The declared tunable weights by name (empty when none are declared)."""
        if not self.tunables:
            return {}
        found = resolve(self.tunables)
        if not isinstance(found, Mapping):
            raise HookError(f"{self.tunables} is {type(found).__name__}, not a mapping of names to Tunable")
        for name, t in found.items():
            if not isinstance(name, str) or not isinstance(t, Tunable):
                raise HookError(f"{self.tunables}[{name!r}] is {type(t).__name__}, not a Tunable")
        return found

    def load_encoding(self) -> GameEncoding | None:
        """The declared RL encoding, or ``None``."""
        from ludorum.engine.encoding import GameEncoding

        return _typed(self.encoding, GameEncoding, "a GameEncoding") if self.encoding else None


def check_provides(provides: Provides) -> list[str]:
    """What is wrong with the declarations: each declared hook resolves to an object of its kind, and
    each tunable's constant exists and lies within its range (empty: nothing)."""
    loads = (provides.load_evaluation, provides.load_facts, provides.load_tunables, provides.load_encoding)
    problems: list[str] = []
    for load in loads:
        try:
            load()
        except HookError as e:
            problems.append(str(e))
    if not problems:
        problems += _check_tunables(provides.load_tunables())
    if provides.rules is not None:
        problems += _check_rules(provides.rules)
    return problems


def _check_tunables(tunables: Mapping[str, Tunable]) -> list[str]:
    problems = []
    for name, t in tunables.items():
        try:
            value = t.read()
        except (HookError, TypeError, ValueError) as e:
            problems.append(f"tunable {name!r}: {e}")
            continue
        if not t.low <= value <= t.high:
            problems.append(f"tunable {name!r} is {value}, outside its range [{t.low}, {t.high}]")
        if t.log and t.low <= 0:
            problems.append(f"tunable {name!r} is searched on a log scale, so its range must be positive")
    return problems


def _check_rules(rules: RulesPage) -> list[str]:
    if bool(rules.rulebook) == bool(rules.doc):
        return ["a rules page is built from a rulebook or from a doc: exactly one of them"]
    if rules.rulebook and not (rules.notes and rules.designed):
        return ["a rules page from a rulebook names the doc of its designed parts and their headings' words"]
    return []


__all__ = ["HookError", "Provides", "RulesPage", "Tunable", "check_provides", "resolve"]
