"""Passwords: hashed with Argon2id through pwdlib, never stored or logged in clear.

The parameters are OWASP's first recommendation for Argon2id (19 MiB, two passes, one lane): about
20–40 ms of one core per hash here, so that sign-ins stay cheap for the server and costly to guess
offline.  Hashes made with other parameters still verify, and are rehashed at the next sign-in.
"""

from __future__ import annotations

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from ludorum.engine.errors import LudorumError
from ludorum.engine.i18n import T

MIN_LENGTH, MAX_LENGTH = 8, 256
"""How long a password may be, in characters (the upper bound bounds the hashing work)."""

HASHER = PasswordHash((Argon2Hasher(memory_cost=19 * 1024, time_cost=2, parallelism=1),))
"""The one password hasher (Argon2id)."""


class BadPassword(LudorumError):
    """A password that cannot be set, with the reason in words."""


def check_password(password: object) -> str:
    """``password`` if it may be set, else :class:`BadPassword`."""
    if not isinstance(password, str):
        raise BadPassword(T("a password is text"))
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise BadPassword(T("a password has {low} to {high} characters", low=MIN_LENGTH, high=MAX_LENGTH))
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash stored for ``password``."""
    return HASHER.hash(password)


def verify(password: str, stored: str) -> tuple[bool, str | None]:
    """Whether ``password`` matches ``stored``, and a new hash to store when the parameters changed."""
    return HASHER.verify_and_update(password, stored)
