"""The error types a user can see. The CLI turns each into a one-line message and an exit code:
2 for a usage error (the request is wrong), 1 for a failure (the request was fine, the
machine could not carry it out: a full disk, a read-only file system).

This module is the bottom of the import graph: it imports nothing from ``boston_sim``, so every
layer (``cards`` included) can raise these without import cycles. All of them are
``ValueError`` subclasses, so library callers may simply catch ``ValueError``.
"""

from __future__ import annotations

USAGE_EXIT = 2  # same code click uses for a bad command line
FAILURE_EXIT = 1


class BostonSimError(ValueError):
    """Base class of every user-facing error; the message is one line, naming the problem."""

    exit_code: int = USAGE_EXIT


class NotationError(BostonSimError):
    """A malformed hand, deal, card, seat or strain (raised by :mod:`boston_sim.cards`)."""


class RulesError(BostonSimError):
    """A rule-set file, rung, option or contract is unknown or invalid."""


class SolverInputError(BostonSimError):
    """A position given to the solver is not a legal position."""


class SamplingError(BostonSimError):
    """Known cards or constraints that can never be met, or a bad constraint."""


class LimitError(BostonSimError):
    """A number, text or file beyond the documented limits (:mod:`boston_sim.limits`)."""


class OutputError(BostonSimError):
    """An output path that cannot or must not be written (checked before any work)."""


class InputFileError(BostonSimError):
    """An input file that cannot be read as its format says (not UTF-8, malformed CSV, a line
    too long, nested too deeply)."""


class EnvironmentSettingError(BostonSimError):
    """A ``BOSTON_SIM_*`` environment override that is not a valid value
    (:mod:`boston_sim.config`)."""


class WriteFailure(BostonSimError):
    """The machine could not carry out a valid request (disk full, read-only file system);
    exit code 1. Nothing partial is left behind."""

    exit_code = FAILURE_EXIT


USER_ERRORS: tuple[type[Exception], ...] = (BostonSimError,)
"""What ``boston_sim.cli.common.user_errors()`` turns into ``error: ...`` and its exit code."""
