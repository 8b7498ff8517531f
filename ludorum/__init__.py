"""Ludorum: rules engines, bots, a web platform and RL interfaces for three modern tabletop games."""

__version__ = "0.1.0"
