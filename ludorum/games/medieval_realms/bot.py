"""placeholder"""
class HeuristicBot:
    def choose(self, view, legal, seat, rng):
        return legal[0]
