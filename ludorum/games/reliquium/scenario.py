"""The scenario builder: a compact description of a position → a legal state (tests, puzzles, tutorials).

A description is a mapping::

    {
        "players": ["legion", "brotherhood"],          # factions in play (the rest are neutral)
        "phase": "peace",                               # peace | support | attack
        "turn": "legion",                               # who acts (peace phase)
        "markers": {"legion": "plains"},                # segment (first free division there) or 0–8
        "done": ["brotherhood"],                        # players already back at the start
        "regions": {"Boundless Expanse": "legion castle WWM", "Wasteland": "legion W"},
        "melee": [("legion", 1, "Wasteland", "Saxum Ridge")],       # swords, attacking → defending
        "ranged": [("legion", 1, "Boundless Expanse", "Wasteland", "M")],  # arrows, from → to, units sent
        "creatures": [("Aquus", "Forest's Edge", "Sacrificial Forest", "Mossy Ridge")],
        "variants": ["militia"], "militia": ["order"], "pacts": [("legion", "order")],
    }

A region is written "<faction> [castle] [units]" with units as letters W (warrior), D (defender),
M (mage); a castle of a faction not in play is a neutral castle, and "order castle; legion WW" puts a
player's units in a neutral land.  Ownership tracks and reserves follow
from what stands on the board.  Impossible positions are refused with :class:`ScenarioError`.
In the attack phase the battles start at once, up to the first decision.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine import Config, LudorumError
from ludorum.engine import rng as rngmod

from .content import TERRAINS, WATER
from .rules import LIMIT, C, first_free, is_free, tokens_off_board
from .setup import DEFAULT_ROUND_LIMIT
from .state import ATTACK, NO, PEACE, SUPPORT, ReliquiumState
from .war import advance_support, next_battle

LETTERS = {"W": 0, "D": 1, "M": 2}


class ScenarioError(LudorumError, ValueError):
    """A scenario description that does not describe a legal position."""


def _faction(key: str) -> int:
    keys = [f.key for f in C.factions]
    if key not in keys:
        raise ScenarioError(f"no faction {key!r}; the factions are {', '.join(keys)}")
    return keys.index(key)


def _region(name: str) -> int:
    try:
        return C.region(name)
    except KeyError:
        raise ScenarioError(f"Sigillum has no region {name!r}") from None


def _units(text: str, where: str) -> tuple[int, int, int]:
    u = [0, 0, 0]
    for ch in text.upper():
        if ch not in LETTERS:
            raise ScenarioError(f"{where}: {ch!r} is not a unit (W warrior, D defender, M mage)")
        u[LETTERS[ch]] += 1
    return (u[0], u[1], u[2])


def scenario(desc: Mapping[str, Any] | str, seed: int = 0) -> ReliquiumState:
    """Build the state ``desc`` describes, or raise :class:`ScenarioError` saying what is impossible.

    ``desc`` may also be TOML text with the same keys (for puzzles and tutorials kept as files).
    """
    if isinstance(desc, str):
        try:
            desc = tomllib.loads(desc)
        except tomllib.TOMLDecodeError as e:
            raise ScenarioError(f"the scenario is not valid TOML: {e}") from None
    players, config = _players(desc)
    occupant, castle, units = _board(desc, players)
    reserve, track = _supplies(occupant, castle, units, config)
    markers = _markers(desc, track)
    melee, melee_used, borders = _melee(desc, players)
    ranged, ranged_used = _ranged(desc, players, occupant, units, borders)
    creatures, used = _creatures(desc, players)
    phase = {"peace": PEACE, "support": SUPPORT, "attack": ATTACK}.get(desc.get("phase", "peace"))
    if phase is None:
        raise ScenarioError("phase is peace, support or attack")
    done = [f not in players or markers[f] == NO for f in range(4)]
    for key in desc.get("done", ()):
        done[_faction(key)] = True
    turn = _faction(desc["turn"]) if "turn" in desc else next((f for f in players if not done[f]), players[0])
    s = ReliquiumState(
        config=config,
        rng=rngmod.seed_state(seed),
        factions=players,
        round_limit=config.option("rounds"),  # type: ignore[arg-type]
        round=int(desc.get("round", 1)),
        phase=phase,
        turn=turn,
        occupant=tuple(occupant),
        units=tuple(units),
        castle=tuple(castle),
        reserve=tuple(reserve),
        track=tuple(track),
        marker=tuple(markers),
        done=tuple(done),
        melee=tuple(melee),
        ranged=tuple(ranged),
        melee_used=tuple(melee_used),
        ranged_used=tuple(ranged_used),
        blocked=frozenset(),
        creatures=tuple(creatures),
        used_junctions=frozenset(used),
        militia=tuple(C.factions[f].key in desc.get("militia", ()) for f in range(4)),
        pacts=tuple((_faction(a), _faction(b)) for a, b in desc.get("pacts", ())),
        proposed=frozenset(),
        refused=False,
        pending=(),
        queue=(),
        battle=(),
        winner=NO,
        reason="",
    )
    if phase == PEACE and (s.done[turn] or turn not in players):
        raise ScenarioError(f"{C.factions[turn].key} cannot act: it is not in play or already done")
    if phase == SUPPORT:
        s.queue = tuple(i for i, t in enumerate(s.ranged) if not any(t[4:]))
        advance_support(s)
    elif phase == ATTACK:
        next_battle(s)
    return s


def _players(desc: Mapping[str, Any]) -> tuple[tuple[int, ...], Config]:
    """The factions in play, in order, and the game's configuration (its variants and round limit)."""
    from .game import Reliquium

    players = tuple(
        sorted(_faction(k) for k in desc.get("players", ("legion", "alliance", "order", "brotherhood")))
    )
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        raise ScenarioError("a scenario has 2–4 different players")
    options: dict[str, Any] = {
        "factions": ",".join(C.factions[f].key for f in players),
        "rounds": int(desc.get("rounds", DEFAULT_ROUND_LIMIT)),
    }
    return players, Reliquium().config(len(players), desc.get("variants", ()), **options)


def _board(
    desc: Mapping[str, Any], players: Sequence[int]
) -> tuple[list[int], list[int], list[tuple[int, int, int]]]:
    """What stands in each region: the faction whose units are there, the castle's faction, the units."""
    n = len(C.names)
    occupant, castle = [NO] * n, [NO] * n
    units: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    for rname, text in desc.get("regions", {}).items():
        r = _region(rname)
        where = f"region {C.names[r]}"
        for part in str(text).split(";"):  # "order castle; legion WW": a neutral castle and a player's units
            words = part.split()
            if not words:
                continue
            f = _faction(words[0].lower())
            rest = words[1:]
            if rest and rest[0].lower() == "castle":
                if C.terrain[r] == WATER:
                    raise ScenarioError(f"{where}: a castle cannot stand on water")
                if castle[r] != NO:
                    raise ScenarioError(f"{where}: only one castle may stand in a land")
                castle[r] = f
                rest = rest[1:]
            u = _units("".join(rest), where)
            if sum(u):
                if f not in players:
                    raise ScenarioError(f"{where}: {words[0]} is not in play and has no units")
                if occupant[r] != NO:
                    raise ScenarioError(f"{where}: units of different factions cannot share a region")
                if sum(u) > LIMIT:
                    raise ScenarioError(f"{where}: {sum(u)} units exceed the unit limit of three")
                occupant[r], units[r] = f, u
        if occupant[r] != NO and castle[r] in players and castle[r] != occupant[r]:
            raise ScenarioError(f"{where}: units cannot stand in another player's castle")
    return occupant, castle, units


def _supplies(
    occupant: Sequence[int], castle: Sequence[int], units: Sequence[tuple[int, int, int]], config: Config
) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """Each faction's reserve of units and its ownership track: what the board does not hold."""
    n = len(C.names)
    reserve = []
    track = []
    for f in range(4):
        on_board = [sum(units[r][c] for r in range(n) if occupant[r] == f) for c in range(3)]
        if any(x > 3 for x in on_board):
            raise ScenarioError(f"{C.factions[f].key} has only 3 units of each class, not {on_board}")
        reserve.append((3 - on_board[0], 3 - on_board[1], 3 - on_board[2]))
        left = tokens_off_board(castle, f, C.terrains(config.players))
        if min(left) < 0:
            raise ScenarioError(f"{C.factions[f].key} has only 3 castle tokens of each type")
        # a neutral faction's track, too, holds the tokens not on the board (as at set-up)
        track.append(left)
    return reserve, track


def _markers(desc: Mapping[str, Any], track: Sequence[tuple[int, int, int]]) -> list[int]:
    """Each faction's marker: the division its description names (a segment's first free one), else its
    track's first free division."""
    markers = []
    for f in range(4):
        spec = desc.get("markers", {}).get(C.factions[f].key)
        free = first_free(track[f])
        if spec is None:
            markers.append(free)
            continue
        if isinstance(spec, str):
            seg = TERRAINS.index(spec)
            options_ = [d for d in range(3 * seg, 3 * seg + 3) if is_free(track[f], d)]
            if not options_:
                raise ScenarioError(f"{C.factions[f].key}: no free division on the {spec} segment")
            markers.append(options_[0])
        else:
            if not is_free(track[f], int(spec)):
                raise ScenarioError(f"{C.factions[f].key}: the marker must stand on a free division")
            markers.append(int(spec))
    return markers


def _creatures(desc: Mapping[str, Any], players: Sequence[int]) -> tuple[list[tuple[int, int]], set[int]]:
    """The legendary creatures on the board, each with its junction, and the junctions they hold."""
    creatures: list[tuple[int, int]] = []
    used = set()
    for entry in desc.get("creatures", ()):
        cname, *regions = entry
        c = next((i for i, cr in enumerate(C.creatures) if cr.name == cname), None)
        if c is None:
            raise ScenarioError(f"no legendary creature called {cname!r}")
        trio = tuple(sorted(_region(x) for x in regions))
        if trio not in C.junctions:
            raise ScenarioError(f"{cname}: {', '.join(regions)} do not meet at a junction away from the edge")
        if C.creatures[c].faction not in players:
            raise ScenarioError(f"{cname} belongs to a faction not in play")
        j = C.junctions.index(trio)
        if j in used or any(cc == c for cc, _ in creatures):
            raise ScenarioError(f"{cname}: one creature per junction, each creature once")
        used.add(j)
        creatures.append((c, j))
    return creatures, used


def _melee(desc: Mapping[str, Any], players: Sequence[int]) -> tuple[list[Any], list[int], set[int]]:
    melee, used, borders = [], [0, 0, 0, 0], set()
    for key, swords, a, b in desc.get("melee", ()):
        f, src, dst = _faction(key), _region(a), _region(b)
        if f not in players:
            raise ScenarioError(f"melee token of {key}, which is not in play")
        if dst not in C.adj_set[src]:
            raise ScenarioError(f"melee token: {a} does not border {b}")
        if not 1 <= swords <= 3 or used[f] >> swords & 1:
            raise ScenarioError(f"{key} has one melee token of each strength 1–3")
        bid = C.border(src, dst)
        if bid in borders:
            raise ScenarioError(f"two tokens on the border of {a} and {b}")
        borders.add(bid)
        used[f] |= 1 << swords
        melee.append((f, swords, src, dst))
    return melee, used, borders


def _ranged(
    desc: Mapping[str, Any],
    players: Sequence[int],
    occupant: list[int],
    units: list[tuple[int, int, int]],
    borders: set[int],
) -> tuple[list[Any], list[int]]:
    ranged, used = [], [0, 0, 0, 0]
    sent: dict[int, list[int]] = {}
    for key, arrows, a, b, *rest in desc.get("ranged", ()):
        f, src, dst = _faction(key), _region(a), _region(b)
        if f not in players or dst not in C.adj_set[src]:
            raise ScenarioError(f"ranged token {a} → {b}: not in play or not neighbours")
        if not 1 <= arrows <= 3 or used[f] >> arrows & 1:
            raise ScenarioError(f"{key} has one ranged token of each strength 1–3")
        bid = C.border(src, dst)
        if bid in borders:
            raise ScenarioError(f"two tokens on the border of {a} and {b}")
        borders.add(bid)
        used[f] |= 1 << arrows
        u = _units(rest[0], f"ranged token {a} → {b}") if rest else (0, 0, 0)
        if sum(u) > arrows:
            raise ScenarioError(f"ranged token {a} → {b}: more units than arrows")
        acc = sent.setdefault(src, [0, 0, 0])
        for c in range(3):
            acc[c] += u[c]
            if sum(u) and (occupant[src] != f or acc[c] > units[src][c]):
                raise ScenarioError(f"ranged token {a} → {b}: those units are not in {a}")
        ranged.append((f, arrows, src, dst, u[0], u[1], u[2], 0))
    return ranged, used
