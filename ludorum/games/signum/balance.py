"""Balance measurement for the designed content: heuristic bots play seeded games between two decks.

Run ``python -m ludorum.games.signum.balance empire_wings vallor_steam --games 40``: each seed is played
twice with the seats swapped, so the first player's edge cancels out; the script prints each deck's wins,
draws and the mean length.  Used to tune the designed values of ``data/*.toml`` (docs/signum.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from ludorum.engine.bots import play_game
from ludorum.games.signum import GAME
from ludorum.games.signum.bot import HeuristicBot
from ludorum.games.signum.state import SignumState


def duel(deck_a: str, deck_b: str, games: int, seed0: int = 1) -> dict[str, float]:
    """Play ``games`` games (half with each deck first) and count each deck's wins."""
    wins = {deck_a: 0, deck_b: 0, "draw": 0}
    first_wins = 0
    lengths = []
    for g in range(games):
        swap = g % 2 == 1
        decks = (deck_b, deck_a) if swap else (deck_a, deck_b)
        cfg = GAME.config(2, deck0=decks[0], deck1=decks[1])
        play = play_game(GAME, cfg, seed0 + g // 2, [HeuristicBot(), HeuristicBot()])
        s = play.state
        assert isinstance(s, SignumState)
        lengths.append(s.turn)
        if s.winner < 0:
            wins["draw"] += 1
            continue
        wins[decks[s.winner]] += 1
        first_wins += s.winner == s.first
    return {**wins, "first_player_wins": first_wins, "mean_turns": statistics.mean(lengths)}


def main(argv: list[str] | None = None) -> int:
    """Command line: two deck ids and the number of games."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("deck_a")
    ap.add_argument("deck_b")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(duel(args.deck_a, args.deck_b, args.games, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
