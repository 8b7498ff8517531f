"""Setup (Rulebook › Setup; Playing with fewer players): factions, starting lands, neutral castles."""

from __future__ import annotations

from collections.abc import Sequence

from ludorum.engine import Config, ConfigError
from ludorum.engine import rng as rngmod

from .content import WATER, ContentError
from .rules import C, tokens_off_board
from .state import NO, PEACE, ReliquiumState

DEFAULT_ROUND_LIMIT = 20
"""Rounds after which a game ends without a ninth castle: the most castles on the board wins (ties share)."""

MAX_ROUNDS = 200
"""The longest round limit a game may be set up with."""

DEFAULT_FACTIONS = {2: (1, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
"""Factions when the config does not choose (designed, issue 14): with two players the neighbouring
Alliance and Order, who share the Groves and the Raven Heights and win about half each; the diagonal Legion
and Order, the default before, share no land and the Legion won two games in three (docs/reliquium.md)."""


def chosen_factions(config: Config) -> tuple[int, ...]:
    """The factions in play, from option ``factions`` ("legion,order") or the defaults, by initiative."""
    raw = config.option("factions")
    if raw is None:
        return DEFAULT_FACTIONS[config.players]
    keys = [f.key for f in C.factions]
    names = [x.strip().lower() for x in str(raw).split(",") if x.strip()]
    bad = [x for x in names if x not in keys]
    if bad or len(set(names)) != len(names) or len(names) != config.players:
        raise ConfigError(
            f"option factions needs {config.players} different factions out of {', '.join(keys)}; got {raw!r}"
        )
    return tuple(sorted(keys.index(x) for x in names))


def round_limit(config: Config) -> int:
    """The round limit: option ``rounds`` or :data:`DEFAULT_ROUND_LIMIT`."""
    value = config.option("rounds", DEFAULT_ROUND_LIMIT)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_ROUNDS:
        raise ConfigError(f"option rounds is a whole number of rounds from 1 to {MAX_ROUNDS}, not {value!r}")
    return value


def neutral_track(castle: Sequence[int], f: int, terrain: Sequence[int]) -> tuple[int, int, int]:
    """The castle tokens of neutral faction ``f`` not on the board (``terrain``: the side in play), by
    segment (:func:`tokens_off_board`)."""
    left = tokens_off_board(castle, f, terrain)
    if min(left) < 0:
        raise ContentError(f"the {C.factions[f].name} would need more than 3 neutral castles of one type")
    return left


def new_state(config: Config, seed: int) -> ReliquiumState:
    """The table after setup: three castles and units per faction, reserve 6, the track, markers."""
    factions = chosen_factions(config)
    n = len(C.names)
    occupant, castle = [NO] * n, [NO] * n
    units: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    reserve = []
    for f, fac in enumerate(C.factions):
        res = [3, 3, 3]
        for land, cls in zip(fac.starting_lands, fac.starting_units, strict=True):
            castle[land] = f
            if f in factions:
                occupant[land] = f
                units[land] = (int(cls == 0), int(cls == 1), int(cls == 2))
                res[cls] -= 1
        reserve.append((res[0], res[1], res[2]))
    # Rulebook › Playing with fewer players: neutral castles on the starting lands and all bordering lands
    # ("5 or 6 castles"); a land bordering two neutral corners goes to the one with fewer castles so far.
    borders: dict[int, list[int]] = {}
    for f, fac in enumerate(C.factions):
        if f not in factions:
            for land in fac.starting_lands:
                for r in C.adj[land]:
                    if C.terrain[r] != WATER and castle[r] == NO and f not in borders.setdefault(r, []):
                        borders[r].append(f)
    for r, claims in sorted(borders.items(), key=lambda item: (len(item[1]), item[0])):
        castle[r] = min(claims, key=lambda f: (castle.count(f), f))
    # "Place the remaining 6 castle tokens on the ownership track": a player's track holds 2 of each type.
    # A neutral faction's track takes no part in the game; it holds the tokens of its 9 (3 of each type)
    # that are not on the board, so that the castles on the board are 9 less the track for everyone.
    side = C.terrains(config.players)
    track = tuple(
        (2, 2, 2) if f in factions else neutral_track(castle, f, side) for f in range(len(C.factions))
    )
    return ReliquiumState(
        config=config,
        rng=rngmod.seed_state(seed),
        factions=factions,
        round_limit=round_limit(config),
        round=1,
        phase=PEACE,
        turn=factions[0],
        occupant=tuple(occupant),
        units=tuple(units),
        castle=tuple(castle),
        reserve=tuple(reserve),
        # "Place the remaining 6 castle tokens on the track so that one last division of each segment
        # remains uncovered"; the marker on the first free division (the plains segment's last).
        track=track,
        marker=(2, 2, 2, 2),
        done=tuple(f not in factions for f in range(4)),
        melee=(),
        ranged=(),
        melee_used=(0, 0, 0, 0),
        ranged_used=(0, 0, 0, 0),
        blocked=frozenset(),
        creatures=(),
        used_junctions=frozenset(),
        militia=(False,) * 4,
        pacts=(),
        proposed=frozenset(),
        refused=False,
        pending=(),
        queue=(),
        battle=(),
        winner=NO,
        reason="",
    )
