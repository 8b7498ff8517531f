"""Benchmarks: the speed figures of ``ludorum-bench speed`` and ``ludorum-bench executors``.

The top layer of the package: a bench may import any other layer (the engine, the search bots, the lab's
executors, the RL adapters, the server), and nothing imports a bench but the command line's bench
commands.  Each module measures one thing: ``engine`` (random-playout decisions/s, clone cost),
``search`` (MCTS iterations/s), ``executors`` (the lab's games/s per executor), ``rl`` (environment
steps/s and MCTS simulations/s against PettingZoo and OpenSpiel), ``strength`` (our search's share of
the wins against OpenSpiel's MCTSBot at equal time per move), ``server`` (actions through the API
as fast as they go) and ``server_paced`` (games one server holds at a human's pace).
"""
