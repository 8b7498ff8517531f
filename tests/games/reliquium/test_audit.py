"""Audit against the rulebook: fled units joining ranged support, the Allies rule's consent asked for
each use (Rulebook › Battle › Movements; Additional rules › Allies); and issue 14: neutral factions'
castles and militia, and a second attack into a region the attacker already took."""

from __future__ import annotations

import pytest

from ludorum.engine import Action, IllegalAction
from ludorum.games.reliquium import GAME
from ludorum.games.reliquium.content import content
from ludorum.games.reliquium.scenario import scenario
from ludorum.games.reliquium.state import (
    ATT_WINS,
    ATTACK,
    B_ADVANCE,
    B_FLEE,
    CONSENT_RANGED,
    CONSENT_SUMMON,
    P_ABILITY,
    P_CONSENT,
    PEACE,
    UNOPPOSED,
    ReliquiumState,
)

C = content()
R = C.region
LEGION, ALLIANCE, ORDER, BROTHERHOOD = range(4)


def step(s: ReliquiumState, kind: str, *args: object) -> ReliquiumState:
    a = Action(kind, args)  # type: ignore[arg-type]
    assert a in GAME.legal_actions(s), (a, GAME.legal_actions(s))
    return GAME.apply(s, a)


def creature(name: str) -> int:
    return next(i for i, c in enumerate(C.creatures) if c.name == name)


def junction(*names: str) -> int:
    return C.junctions.index(tuple(sorted(R(n) for n in names)))


# -- fleeing units may join ranged support (Rulebook › Battle › Movements) ---------------------------


def _flight(arrows: int, sent: str) -> ReliquiumState:
    """The Alliance beats the Order's two defenders in the Groves (2 swords, fought first); the Legion
    then attacks the Order in Thornmarch (1 sword), which the Cliff of Sorrow supports."""
    return scenario(
        {
            "players": ["legion", "alliance", "order"],
            "phase": "attack",
            "regions": {
                "Forest's Edge": "alliance castle WWW",
                "Groves": "order DD",
                "Cliff of Sorrow": "order castle M" + "W" * (len(sent) - 1),
                "Thornmarch": "order D",
                "Shattered Peaks": "legion WW",
            },
            "melee": [
                ("alliance", 2, "Forest's Edge", "Groves"),
                ("legion", 1, "Shattered Peaks", "Thornmarch"),
            ],
            "ranged": [("order", arrows, "Cliff of Sorrow", "Thornmarch", sent)],
        }
    )


def test_fled_unit_joins_support_in_a_later_battle() -> None:
    """ "Fleeing units may take part in the subsequent battles of this round ... supporting units (if they
    can be moved up to a ranged combat token immediately after fleeing)"."""
    s = _flight(2, "M")
    start = s.round
    assert s.battle[0] == B_FLEE and s.battle[5] == ATT_WINS and s.units[R("Groves")] == (0, 1, 0)
    cliff, thornmarch = R("Cliff of Sorrow"), R("Thornmarch")
    s = step(s, "flee", cliff, 1, thornmarch)  # flees and moves up to the token (1 of 2 arrows used)
    assert s.units[cliff] == (0, 1, 1)
    assert s.ranged[0][4:7] == (0, 1, 1)
    s = step(s, "advance", 1, 0, 0)
    # Thornmarch: the Legion 2+2 + 1 sword = 5; the Order: defender 2 + mage 2 + the fled defender 1 = 5,
    # a draw: nobody moves, no losses (5 < 10), and the war phase is over.
    assert not s.battle and s.phase == PEACE and s.round == start + 1
    assert s.occupant[thornmarch] == ORDER and s.units[thornmarch] == (0, 1, 0)
    assert s.units[R("Shattered Peaks")] == (2, 0, 0)


def test_fled_unit_stays_out_of_support_when_it_chooses_or_the_token_is_full() -> None:
    s = _flight(2, "M")
    cliff, thornmarch = R("Cliff of Sorrow"), R("Thornmarch")
    s = step(s, "flee", cliff, 1)  # it may also just flee
    assert s.ranged[0][4:7] == (0, 0, 1)
    s = step(s, "advance", 1, 0, 0)
    assert s.battle[9:11] == (5, 4) and s.battle[5] == ATT_WINS
    full = _flight(1, "M")  # one arrow, already used by the mage: no room
    assert Action("flee", (cliff, 1, thornmarch)) not in GAME.legal_actions(full)
    assert Action("flee", (cliff, 1)) in GAME.legal_actions(full)
    with pytest.raises(IllegalAction, match="Battle"):
        GAME.apply(full, Action("flee", (cliff, 1, thornmarch)))


# -- Allies: the ally's consent each time (Rulebook › Additional rules › Allies) ----------------------


def _allies(**extra: object) -> ReliquiumState:
    desc: dict[str, object] = {
        "players": ["legion", "alliance", "brotherhood"],
        "variants": ["allies"],
        "pacts": [("legion", "alliance")],
        "regions": {
            "Boundless Expanse": "legion castle W",
            "Ashen Peaks": "legion castle W",
            "Blackthorn Wood": "legion castle W",
            "Wasteland": "alliance W",
            "Golden Fields": "alliance W",
            "Howling Wilds": "brotherhood castle WD",
            "Saxum Ridge": "brotherhood castle WD",
        },
        "melee": [
            ("brotherhood", 1, "Saxum Ridge", "Wasteland"),
            ("brotherhood", 2, "Howling Wilds", "Golden Fields"),
        ],
        "markers": {"legion": "mountains"},
    }
    desc.update(extra)
    return scenario(desc)


def test_ranged_support_to_an_ally_asks_consent_every_time() -> None:
    """A second ranged token towards the ally asks again: a consent given once is no standing licence."""
    s = _allies(ranged=[("legion", 1, "Boundless Expanse", "Wasteland")])
    s = step(s, "ranged", R("Ashen Peaks"), R("Golden Fields"))
    assert s.pending[:3] == (P_CONSENT, ALLIANCE, CONSENT_RANGED)
    assert GAME.seat_name(s, GAME.to_move(s)) == "Alliance of Nature"
    refused = step(s, "refuse")
    assert len(refused.ranged) == 1 and refused.turn == LEGION
    s = step(s, "consent")
    assert s.ranged[-1][:4] == (LEGION, 2, R("Ashen Peaks"), R("Golden Fields"))


def test_summoning_into_an_allys_lands_asks_consent() -> None:
    """A junction where only the ally controls a region of presence: the ally's consent first."""
    s = _allies(markers={"legion": "forests"})
    j = junction("Wasteland", "Howling Wilds", "Saxum Ridge")  # none of these is the Legion's
    with pytest.raises(IllegalAction, match="Summon"):
        GAME.apply(
            _allies(markers={"legion": "forests"}, pacts=[]), Action("summon", (creature("Mortum"), j))
        )
    s = step(s, "summon", creature("Mortum"), j)
    assert s.pending == (P_CONSENT, ALLIANCE, CONSENT_SUMMON, creature("Mortum"), j)
    refused = step(s, "refuse")
    assert not refused.creatures and refused.turn == LEGION and not refused.pending
    assert Action("summon", (creature("Mortum"), j)) not in GAME.legal_actions(refused)
    s = step(s, "consent")
    assert s.pending[0] == P_ABILITY
    s = step(s, "forgo")
    assert s.creatures == ((creature("Mortum"), j),)


# -- one war phase, one round (Rulebook › Game process) ------------------------------------------------


def test_a_war_phase_with_several_battles_ends_the_round_once() -> None:
    """ "After the war phase ends, a new round begins": battles fought without a decision advance the
    round by one (the war phase used to end once more per battle, skipping rounds); then "players remove
    from the game board all their ranged combat tokens and legendary creatures"."""
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "regions": {
                "Boundless Expanse": "legion castle D",
                "Ashen Peaks": "legion castle W",
                "Wasteland": "brotherhood D",
                "Howling Wilds": "brotherhood W",
                "Saxum Ridge": "brotherhood castle M",
            },
            "melee": [
                ("legion", 2, "Boundless Expanse", "Wasteland"),  # 1 + 2 = 3 ...
                ("legion", 3, "Ashen Peaks", "Howling Wilds"),  # 2 + 3 against 1: the Legion wins
            ],
            "ranged": [("brotherhood", 1, "Saxum Ridge", "Wasteland", "M")],  # the mage: 2 + 2 = 4
            "creatures": [("Armus", "Saxum Ridge", "Wasteland", "Howling Wilds")],  # defender +1: 3 + 2 = 5
        }
    )
    assert s.battle[1] == LEGION and s.battle[4] == R("Howling Wilds")  # strength 3 first
    s = step(s, "advance", 0, 0, 0)  # declined; the Wasteland battle follows by itself
    # 3 against the defender 2 + Armus 1 + the supporting mage 2 = 5: the Legion loses its defender.
    assert s.units[R("Boundless Expanse")] == (0, 0, 0) and s.reserve[LEGION][1] == 3
    assert s.phase == PEACE and s.round == 2 and not s.melee and not s.battle
    assert not s.ranged and not s.creatures and not s.used_junctions


# -- neutral lands (Rulebook › Playing with fewer players) --------------------------------------------


def test_neutral_land_no_castle_but_support_both_ways() -> None:
    """ "A castle cannot be built in a neutral land"; players may "give support to their own units in
    neutral lands, and vice versa"."""
    desc: dict[str, object] = {
        "players": ["legion", "order"],
        "regions": {
            "Boundless Expanse": "legion castle W",
            "Ashen Peaks": "legion castle",
            "Blackthorn Wood": "legion castle",
            "Wasteland": "brotherhood castle; legion W",
            "Howling Wilds": "brotherhood castle; legion M",
            "Saxum Ridge": "brotherhood castle; order WW",
        },
        "melee": [("order", 1, "Saxum Ridge", "Wasteland")],
        "markers": {"legion": "forests"},
    }
    s = scenario(desc)
    with pytest.raises(IllegalAction, match="Build castle: the Wasteland already has a castle"):
        GAME.apply(s, Action("build", (R("Wasteland"),)))
    assert not any(a.kind == "build" for a in GAME.legal_actions(s))
    s = scenario({**desc, "markers": {"legion": "mountains"}})
    into = step(s, "ranged", R("Boundless Expanse"), R("Wasteland"))  # to own units in a neutral land
    assert into.ranged[-1][:4] == (LEGION, 1, R("Boundless Expanse"), R("Wasteland"))
    out = step(s, "ranged", R("Howling Wilds"), R("Wasteland"))  # from own units in a neutral land
    assert out.ranged[-1][:4] == (LEGION, 1, R("Howling Wilds"), R("Wasteland"))


# -- issue 14: neutral factions in the view, a second attack into a region already taken -----------------


def test_the_view_counts_a_neutral_factions_castles_on_the_board() -> None:
    """ "Place the castle tokens of these factions on their starting lands and on all the bordering lands.
    In this way the neutral side will have 5 or 6 castles": the view counts them (it showed 3, the
    castles a player starts with), and each faction's 9 castle tokens are on the board or on its track."""
    s = GAME.new(GAME.config(2, factions="legion,order"), 0)  # the Alliance and the Brotherhood neutral
    v = GAME.view(s, 0)
    assert v["castles_on_board"] == [3, 6, 3, 6]
    for f in range(4):
        assert v["castles_on_board"][f] == s.castle.count(f)
        assert v["castles_on_board"][f] + sum(v["track"][f]) == 9


def test_a_neutral_faction_is_never_militia() -> None:
    """Militia turns "all of his castles" into units for a *player* attacked by two others; "Neutral
    factions take no part in the game", so melee tokens of both players into neutral castle lands (held by
    the players' units) never make the neutral faction militia."""
    s = scenario(
        {
            "players": ["legion", "order"],
            "variants": ["militia"],
            "phase": "peace",
            "regions": {
                "Boundless Expanse": "legion castle",
                "Cliff of Sorrow": "order castle",
                "Wasteland": "brotherhood castle; legion W",
                "Howling Wilds": "brotherhood castle; legion W",
                "Saxum Ridge": "brotherhood castle; order WW",
            },
            "melee": [
                ("legion", 1, "Wasteland", "Saxum Ridge"),
                ("order", 1, "Saxum Ridge", "Howling Wilds"),
            ],
            "done": ["legion"],
            "turn": "order",
        }
    )
    while s.phase == PEACE:
        s = step(s, "pass")
    assert s.phase == ATTACK  # the first battle waits for the Order's flight
    assert s.militia == (False, False, False, False)
    assert GAME.view(s, 0)["militia"] == [False, False, False, False]


def _two_attacks_into_the_howling_wilds(first_march: tuple[int, int, int]) -> ReliquiumState:
    """The Legion attacks the Howling Wilds twice: with 3 swords from the Wasteland (and wins), then with
    1 sword from the Ashen Peaks; ``first_march`` is the victory march after the first battle."""
    s = scenario(
        {
            "players": ["legion", "brotherhood"],
            "phase": "attack",
            "regions": {
                "Wasteland": "legion WWW",
                "Ashen Peaks": "legion castle DDM",
                "Howling Wilds": "brotherhood M",
                "Saxum Ridge": "brotherhood castle D",
            },
            "melee": [
                ("legion", 3, "Wasteland", "Howling Wilds"),
                ("legion", 1, "Ashen Peaks", "Howling Wilds"),
            ],
        }
    )
    # 3 warriors × 2 + 3 swords = 9 against a mage's 1: the mage is lost, nobody is left to flee.
    assert s.battle[0] == B_ADVANCE and s.battle[5] == ATT_WINS and s.battle[4] == R("Howling Wilds")
    return step(s, "advance", *first_march)


def test_a_second_attack_into_a_region_already_taken_offers_the_victory_march() -> None:
    """ "If there are no units in the defending region, the battle does not begin, and the attacking
    faction may immediately carry out the victory march"; "After the march, no region may contain more
    than the unit limit". The second token used to be removed without the march."""
    s = _two_attacks_into_the_howling_wilds((1, 0, 0))
    assert s.phase == ATTACK and s.battle[0] == B_ADVANCE
    assert s.battle[3:5] == (R("Ashen Peaks"), R("Howling Wilds")) and s.battle[5] == UNOPPOSED
    marches = {a.args for a in GAME.legal_actions(s)}
    # one warrior stands there already: up to two more may march in (the limit is three)
    assert marches == {(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 0, 1), (0, 1, 1)}
    s = step(s, "advance", 0, 1, 1)
    assert s.units[R("Howling Wilds")] == (1, 1, 1) and s.units[R("Ashen Peaks")] == (0, 1, 0)
    assert s.castle[R("Ashen Peaks")] == LEGION
    assert s.phase == PEACE and s.round == 2 and not s.melee


def test_a_second_attack_into_a_full_region_just_removes_the_token() -> None:
    """With three of the attacker's units already there no unit may march in: nothing to decide."""
    s = _two_attacks_into_the_howling_wilds((3, 0, 0))
    assert s.phase == PEACE and s.round == 2 and not s.melee and not s.battle
    assert s.units[R("Howling Wilds")] == (3, 0, 0) and s.units[R("Ashen Peaks")] == (0, 2, 1)
