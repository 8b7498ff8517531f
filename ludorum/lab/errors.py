"""The lab's one error type: a bad request or a bad results file, with a message naming what is wrong."""

from __future__ import annotations

from ludorum.engine import LudorumError


class LabError(LudorumError):
    """A tournament, balance run or tuning that cannot go on; the message says why and what to do."""
