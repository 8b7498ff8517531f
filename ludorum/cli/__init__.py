"""The ``ludorum`` command: play, serve, simulate, replay, bench."""
