"""The kernel's errors: every refusal names what is wrong."""

from __future__ import annotations


class LudorumError(Exception):
    """Base of every error the kernel raises on purpose."""


class IllegalAction(LudorumError):
    """An action that the rules do not allow in this state.

    ``rule`` names where the rulebook states the rule that was broken (for example
    ``"Peace phase › Recruit"``); the message says what is wrong in the player's words.
    The state an action was refused on is never changed.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.message = message
        self.rule = rule


class ConfigError(LudorumError, ValueError):
    """A game configuration that the game cannot be set up with."""


class RecordError(LudorumError, ValueError):
    """A record that is corrupt, or that does not match its game."""


class CodecError(LudorumError, ValueError):
    """JSON that does not decode into the expected type."""
