"""The layers of docs/architecture.md hold: no import runs up a layer or across to a sibling of its layer,
and no modules import each other in a circle (import-linter; the contracts are in pyproject.toml).

The planted imports show the check can fail: each adds one import that no module makes to the real graph
of ``ludorum``, as import-linter's own graph builder reads it, and names the contracts it breaks.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from grimp import ImportGraph
from importlinter import configuration
from importlinter.adapters.building import GraphBuilder
from importlinter.application.app_config import settings
from importlinter.application.use_cases import lint_imports

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
CONTRACTS = [c["id"] for c in tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]]

Import = tuple[str, str]


class PlantingBuilder(GraphBuilder):
    """ludorum's import graph as import-linter builds it, plus imports (importer, imported) planted in it."""

    def __init__(self, planted: tuple[Import, ...]) -> None:
        self.planted = planted

    def build(
        self,
        root_package_names: list[str],
        cache_dir: str | None,
        include_external_packages: bool = False,
        exclude_type_checking_imports: bool = False,
    ) -> ImportGraph:
        """The real graph (uncached: make test writes nothing), then the planted imports."""
        graph = super().build(
            root_package_names, None, include_external_packages, exclude_type_checking_imports
        )
        for importer, imported in self.planted:
            graph.add_import(importer=importer, imported=imported)
        return graph


@pytest.fixture(autouse=True)
def linter_settings() -> Iterator[None]:
    """import-linter's own settings, set again afterwards (a test replaces the graph builder)."""
    configuration.configure()
    yield
    configuration.configure()


def broken(*planted: Import) -> set[str]:
    """The ids of the contracts ludorum's imports break, with ``planted`` added (each contract's report on
    stdout, which pytest shows when an assertion fails)."""
    settings.configure(GRAPH_BUILDER=PlantingBuilder(planted))
    return {
        contract
        for contract in CONTRACTS
        if not lint_imports(str(PYPROJECT), (contract,), cache_dir=None, no_logo=True, is_debug_mode=True)
    }


def test_ludorum_keeps_its_layers_and_has_no_import_circle() -> None:
    assert broken() == set()


@pytest.mark.parametrize(
    "upward",
    [
        ("ludorum.engine.playout", "ludorum.games"),  # the kernel asking for the game registry
        ("ludorum.games.signum.balance", "ludorum.agents"),  # a game playing with the search bots
        ("ludorum.lab.play", "ludorum.bench"),  # nothing imports a bench
        ("ludorum.cli.main", "ludorum.bench"),
        ("ludorum.agents.kinds", "ludorum.server"),
    ],
)
def test_an_import_up_a_layer_breaks_the_layers(upward: Import) -> None:
    assert "layers" in broken(upward)


def test_an_import_between_two_packages_of_one_layer_breaks_the_layers_alone() -> None:
    """The lab and rl are independent: an import from one to the other is refused although it closes no
    circle (nothing in rl imports the lab)."""
    assert broken(("ludorum.lab.stats", "ludorum.rl.core")) == {"layers"}


def test_a_circle_inside_a_package_breaks_acyclic_alone() -> None:
    """record imports actions: actions importing record closes a circle inside the engine, in no
    layer's way."""
    assert broken(("ludorum.engine.actions", "ludorum.engine.record")) == {"acyclic"}
