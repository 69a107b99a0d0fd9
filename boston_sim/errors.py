"""The error types a user can see. The CLI turns each into a one-line message and exit code 2."""

from __future__ import annotations

from .cards import NotationError


class BostonSimError(ValueError):
    """Base class for user-facing errors other than notation errors."""


class RulesError(BostonSimError):
    """A rule-set file, rung, option or contract is unknown or invalid."""


class SolverInputError(BostonSimError):
    """A position given to the solver is not a legal position."""


class SamplingError(BostonSimError):
    """Known cards or constraints that can never be met, or a bad constraint."""


USER_ERRORS = (NotationError, BostonSimError)
