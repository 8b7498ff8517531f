"""A game's declared hooks (``Game.provides``): found by declaration, resolved on use, checked by the kit."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import pytest

from ludorum.engine import Action
from ludorum.engine.encoding import GameEncoding
from ludorum.engine.evaluation import Evaluation
from ludorum.engine.facts import FactReader
from ludorum.engine.provides import HookError, Provides, RulesPage, Tunable, check_provides, resolve
from ludorum.games import registry
from tests.fixtures import kit_refuses
from tests.fixtures.sealed_bids import ROUNDS, BidsState, SealedBids

HERE = __name__
WEIGHT = 2
"""A constant a planted tunable names (an int, to see it restored as an int)."""


class RoundsRead(FactReader[BidsState]):
    """A fact reader that counts the rounds played."""

    length_unit = "rounds"

    def length(self, last: BidsState) -> int | None:
        """The round the game ended in."""
        return last.round


def even(state: BidsState) -> Sequence[float]:
    """Equal shares: a stand-in evaluation."""
    return [1.0 / state.config.players] * state.config.players


READER = RoundsRead()
EVALUATION: Evaluation[BidsState] = Evaluation(even)
TUNABLES = {"weight": Tunable(HERE, "WEIGHT", 0.0, 5.0)}
OUT_OF_RANGE = {"weight": Tunable(HERE, "WEIGHT", 3.0, 5.0)}
NOT_TUNABLES = {"weight": 2.0}


class DeclaringBids(SealedBids):
    """Sealed Bids declaring hooks from this test module, which no file-name convention would find."""

    provides = Provides(evaluation=f"{HERE}:EVALUATION", facts=f"{HERE}:READER", tunables=f"{HERE}:TUNABLES")


def test_every_game_declares_hooks_that_resolve_to_their_kinds() -> None:
    for game in registry():
        p = game.provides
        assert check_provides(p) == [], game.name
        assert isinstance(p.load_evaluation(), Evaluation) and game.evaluation() is p.load_evaluation()
        assert type(p.load_facts()) is not FactReader, game.name  # its own reader, not the defaults
        assert p.load_tunables() and isinstance(p.load_encoding(), GameEncoding)
        assert p.rules is not None, game.name


def test_loading_the_games_imports_no_hook_and_not_numpy() -> None:
    """The hooks are paths: registering the games imports neither their search, lab and RL modules nor
    numpy (which only the ``rl`` extra installs)."""
    code = (
        "import sys\n"
        "from ludorum.games import registry\n"
        "assert [g.provides for g in registry()]\n"
        "print(sorted(m for m in sys.modules if m == 'numpy' or m.startswith('ludorum.games') "
        "and m.rpartition('.')[2] in ('encoding', 'evaluation', 'facts', 'bot')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_layers_find_a_hook_by_its_declaration() -> None:
    from ludorum.agents import make_bot, play_game
    from ludorum.lab.facts import derive_facts

    game = DeclaringBids()
    assert game.evaluation() is EVALUATION
    record = play_game(game, game.config(2), 4, [make_bot(game, "random") for _ in range(2)]).record
    assert derive_facts(game, record).length == ROUNDS + 1  # RoundsRead's: the counter past the last round
    assert SealedBids().provides.load_facts().length(game.new(game.config(2), 0)) is None  # the defaults
    assert game.provides.load_tunables() == TUNABLES


def test_a_game_declaring_nothing_gets_the_neutral_answers() -> None:
    game = SealedBids()
    assert game.evaluation() is None and game.provides.load_encoding() is None
    assert game.provides.load_tunables() == {} and type(game.provides.load_facts()) is FactReader
    assert check_provides(game.provides) == []


def test_a_tunable_is_set_and_restored_exactly() -> None:
    t = TUNABLES["weight"]
    assert t.read() == 2.0
    old = t.swap(4.5)
    try:
        assert old == 2 and type(old) is int and WEIGHT == 4.5 and t.read() == 4.5
    finally:
        t.swap(old)
    assert WEIGHT == 2 and type(WEIGHT) is int


@pytest.mark.parametrize(
    ("provides", "match"),
    [
        (Provides(facts=f"{HERE}.nowhere:READER"), "no module 'tests.engine.test_provides.nowhere'"),
        (Provides(evaluation=f"{HERE}:NOTHING"), "tests.engine.test_provides has no NOTHING"),
        (Provides(facts=f"{HERE}:EVALUATION"), "is Evaluation, not a FactReader"),
        (Provides(evaluation=f"{HERE}.EVALUATION"), "a hook is 'package.module:NAME'"),
        (Provides(encoding=f"{HERE}:READER"), "is RoundsRead, not a GameEncoding"),
        (Provides(tunables=f"{HERE}:READER"), "not a mapping of names to Tunable"),
        (Provides(tunables=f"{HERE}:NOT_TUNABLES"), r"\['weight'\] is float, not a Tunable"),
        (Provides(tunables=f"{HERE}:OUT_OF_RANGE"), r"'weight' is 2.0, outside its range \[3.0, 5.0\]"),
        (Provides(rules=RulesPage(rulebook="x.txt", doc="x.md")), "from a rulebook or from a doc"),
        (Provides(rules=RulesPage(rulebook="x.txt")), "names the doc of its designed parts"),
    ],
)
def test_the_kit_refuses_a_declaration_that_does_not_hold(provides: Provides, match: str) -> None:
    class Declared(SealedBids):
        pass

    Declared.provides = provides
    kit_refuses(Declared(), match, games=1)


def test_a_bad_path_is_named_in_the_error() -> None:
    with pytest.raises(HookError, match=r"not 'ludorum\.engine'"):
        resolve("ludorum.engine")
    assert resolve("ludorum.engine:Action") is Action
