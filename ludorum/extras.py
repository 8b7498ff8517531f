"""The optional extras: which one provides which module, and the error a command gives without it.

``pip install ludorum`` installs what it takes to play and serve (engine, games, search bots, server, web
client, command line).  The heavier parts are extras, named in pyproject.toml; a command that needs one
that is missing says which to install instead of showing a traceback.  Standard library only, so that
every layer may use it.
"""

from __future__ import annotations

import importlib.util

# The modules each extra brings that Ludorum imports (import names, not distribution names).  numpy comes
# with the lab's packages too, but only the RL code imports it directly.
EXTRAS: dict[str, tuple[str, ...]] = {
    "lab": ("matplotlib", "jinja2", "optuna", "openskill", "ray"),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "pygame"),
    "train": ("torch", "sb3_contrib", "stable_baselines3"),
    "postgres": ("psycopg",),
    "bench": ("aiohttp", "httpx", "websockets"),
    "docs": ("mkdocs", "material", "mkdocstrings", "mkdocs_gen_files"),
    "dev": ("pytest", "hypothesis", "playwright", "babel", "mypy", "ruff", "build", "schemathesis"),
}

_EXTRA_OF = {module: extra for extra, modules in EXTRAS.items() for module in modules}


class MissingExtra(ModuleNotFoundError):
    """A module of an optional extra is not installed; the message says how to install the extra.

    A :class:`ModuleNotFoundError`, so that code which treats an optional module as absent keeps doing so.
    """

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(
            f"this needs Ludorum's '{extra}' extra ({module} is not installed): "
            f"pip install 'ludorum[{extra}]' "
            f"(in a clone: .venv/bin/pip install -c constraints.txt -e '.[{extra}]')",
            name=module,
        )
        self.extra = extra


def require_extra(extra: str, *modules: str) -> None:
    """Raise :class:`MissingExtra` unless every one of ``modules`` (by default all the extra's) can be
    imported; nothing is imported (Ray alone takes a second)."""
    if extra not in EXTRAS:
        raise ValueError(f"no extra named {extra!r}: {', '.join(EXTRAS)}")
    for module in modules or EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:  # a blocked or broken parent package
            found = False
        if not found:
            raise MissingExtra(extra, module)


def missing_extra(error: ModuleNotFoundError) -> MissingExtra | None:
    """The extra to install for a failed import, or None when the missing module belongs to no extra."""
    if isinstance(error, MissingExtra):
        return error
    module = (error.name or "").partition(".")[0]
    extra = _EXTRA_OF.get(module)
    return MissingExtra(extra, module) if extra else None
