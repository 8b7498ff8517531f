"""OpenSpiel: every game is a registered Python game with a truthful type that passes OpenSpiel's own
``random_sim_test`` (with serialisation) and that OpenSpiel's MCTSBot and ISMCTSBot play to the end."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from ludorum.rl.openspiel import NAMES, short_name
from tests.rl.helpers import game_configs

T = pyspiel.GameType

# Reliquium's round limit keeps its games short; the others have no such option.
SHORT = {"reliquium": {"options": "rounds:3"}}


def _load(name: str, players: int, **extra: object) -> pyspiel.Game:
    return pyspiel.load_game(short_name(name), {"players": players, **SHORT.get(name, {}), **extra})


def test_registered_with_truthful_types() -> None:
    """Sequential, terminal rewards, constant-sum (the shares of the win sum to 1, what CFR-family and
    exploitability tools ask of a game); chance and information as each game has them."""
    assert set(NAMES) <= set(pyspiel.registered_names())
    expect = {
        "reliquium": (T.ChanceMode.DETERMINISTIC, T.Information.PERFECT_INFORMATION),
        "medieval-realms": (T.ChanceMode.EXPLICIT_STOCHASTIC, T.Information.IMPERFECT_INFORMATION),
        "signum": (T.ChanceMode.EXPLICIT_STOCHASTIC, T.Information.IMPERFECT_INFORMATION),
    }
    for name, (chance, info) in expect.items():
        gt = pyspiel.load_game(short_name(name)).get_type()
        assert (gt.chance_mode, gt.information) == (chance, info)
        assert gt.dynamics == T.Dynamics.SEQUENTIAL and gt.reward_model == T.RewardModel.TERMINAL
        assert gt.utility == T.Utility.CONSTANT_SUM
        assert pyspiel.load_game(short_name(name)).utility_sum() == 1.0


# Every game at its least and most players, and Reliquium (the quickest) at each count: the slowest
# (Signum at three, Medieval Realms at four) would add twenty seconds and check nothing new.
SIM_CONFIGS = [
    (n, p) for n, p in game_configs() if n == "reliquium" or p in (2, 5) or (n, p) == ("signum", 4)
]


@pytest.mark.parametrize(("name", "players"), SIM_CONFIGS)
def test_random_sim_test_with_serialisation(name: str, players: int) -> None:
    """OpenSpiel's own conformance test, serialising and deserialising every state on the way."""
    game = _load(name, players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_variants_options_and_bad_input() -> None:
    """Variants and options load; an unknown variant or player count and an illegal action are
    ``SpielError``s; the infostate string is perfect recall, the observation string the view."""
    params = {
        "players": 3,
        "variants": "allies+militia",
        "options": "rounds:2;factions:legion+order+brotherhood",
    }
    game = pyspiel.load_game("ludorum_reliquium", params)
    assert game.num_players() == 3
    with pytest.raises(pyspiel.SpielError, match="no variant"):
        pyspiel.load_game("ludorum_signum", {"variants": "chaos"})
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game("ludorum_medieval_realms", {"players": 9})
    for deals in (0, -1, 10**9):  # the opening chance node lists every deal: bounded, and never empty
        with pytest.raises(pyspiel.SpielError, match="deals is a whole number from 1 to 65536"):
            pyspiel.load_game("ludorum_signum", {"deals": deals})
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match="not legal"):
        state.apply_action(illegal)
    before = state.information_state_string(1)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(1) != before
    assert state.observation_string(0).startswith("{")
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_chance_nodes_are_explicit() -> None:
    """Signum opens with the deal (seeds) and rolls dice as chance nodes whose probabilities sum to 1."""
    game = _load("signum", 2, deals=16)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    rng = np.random.default_rng(0)
    dice = 0
    while not state.is_terminal() and dice < 3:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            dice += 1
            actions, probs = zip(*outcomes, strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert dice == 3


class _Uniform(mcts.Evaluator):  # type: ignore[misc]
    """No rollouts (whole games are long): value 0, uniform prior — the search itself is OpenSpiel's."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        return np.zeros(state.get_game().num_players())

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()  # type: ignore[no-any-return]
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("name", ["reliquium", "medieval-realms", "signum"])
def test_openspiel_bots_play_to_the_end(name: str) -> None:
    """MCTSBot (and, with hidden information, ISMCTSBot from resampled information states) play every
    seat until the game ends."""
    game = _load(name, 2, **({"deals": 64} if name != "reliquium" else {}))
    rs = np.random.RandomState(0)
    bots = [mcts.MCTSBot(game, 2.0, 4, _Uniform(), random_state=rs, solve=False)]
    if game.get_type().information == T.Information.IMPERFECT_INFORMATION:
        bots.append(ismcts.ISMCTSBot(game, _Uniform(), 2.0, 4, random_state=rs))
    else:
        bots.append(mcts.MCTSBot(game, 2.0, 4, _Uniform(), random_state=rs, solve=False))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_resample_keeps_the_information_state() -> None:
    """A resampled state is in the player's information set: same infostate string, same observation
    and same legal actions when the player decides."""
    game = _load("medieval-realms", 3, deals=8)
    state = game.new_initial_state()
    rs = np.random.RandomState(1)
    for _ in range(80):
        if state.is_chance_node():
            state.apply_action(int(rs.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    p = state.current_player()
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.observation_tensor(p) == state.observation_tensor(p)
    assert other.information_state_tensor(p) == state.information_state_tensor(p)
    assert other.legal_actions() == state.legal_actions()
    # With its history: replaying its action ids from the start gives it again.
    assert len(other.history()) == len(state.history())
    replayed = game.new_initial_state()
    for action in other.history():
        replayed.apply_action(action)
    assert replayed.information_state_string(p) == state.information_state_string(p)
    assert str(replayed) == str(other)
