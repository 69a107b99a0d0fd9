"""The error types a user can see. The CLI turns each into a one-line message and exit code 2.

This module is the bottom of the import graph: it imports nothing from ``boston_sim``, so every
layer (``cards`` included) can raise these without import cycles. All of them are
``ValueError`` subclasses, so library callers may simply catch ``ValueError``.
"""

from __future__ import annotations


class BostonSimError(ValueError):
    """Base class of every user-facing error; the message is one line, naming the problem."""


class NotationError(BostonSimError):
    """A malformed hand, deal, card, seat or strain (raised by :mod:`boston_sim.cards`)."""


class RulesError(BostonSimError):
    """A rule-set file, rung, option or contract is unknown or invalid."""


class SolverInputError(BostonSimError):
    """A position given to the solver is not a legal position."""


class SamplingError(BostonSimError):
    """Known cards or constraints that can never be met, or a bad constraint."""


USER_ERRORS: tuple[type[Exception], ...] = (BostonSimError,)
"""What ``boston_sim.cli.common.user_errors()`` turns into ``error: ...`` and exit code 2."""
