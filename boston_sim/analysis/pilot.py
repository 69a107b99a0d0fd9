"""A first round's pilot questions run as jobs started ahead, one part per search, so that
each search's next jobs start as soon as its own pilot has answered instead of when the
slowest pilot of all has (:class:`Pilot`).

The pilot decides whether a search goes two-phase (:mod:`.solving`); what the round then asks
of it first (its questions on the later deals, or its counts on the pilot's deals) depends
only on its own answers, so those jobs can start, behind the pilot, while other searches'
pilots still run. The round's batches take their answers by deal and job row (:class:`Ahead`),
so nothing here changes a number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from .ahead import Ahead, Jobs
from .plan import SolveKey

Follow = Callable[[SolveKey, np.ndarray], tuple[str, Jobs] | None]
"""What a search's complete pilot answers (1 / 0, in deal order) let start: the kind of jobs
(an :class:`Ahead` of their own per kind) and the jobs, or None."""


class Pilot:
    """The pilot questions ``questions`` (per search) started ahead, and, once a search's are
    all answered, the jobs ``follow`` names for it started behind them (:attr:`after`, one
    :class:`Ahead` per kind of jobs). Call it while waiting (:meth:`wait`)."""

    def __init__(self, start_jobs, questions: Mapping[SolveKey, Jobs], follow: Follow) -> None:
        self._start_jobs, self._follow = start_jobs, follow
        self.asked = Ahead(start_jobs)
        self._answers: dict[SolveKey, np.ndarray] = {}
        self._first: dict[SolveKey, int] = {}
        for key, jobs in questions.items():
            self.asked.start(jobs, [key] * len(jobs.deal), first=True)
            self._answers[key] = np.full(len(jobs.deal), -1, np.int8)
            self._first[key] = int(jobs.deal.min(initial=0))
        self.after: dict[str, Ahead] = {}

    def __call__(self) -> None:
        """Note the answers given since the last look; start the jobs of each search whose
        pilot is now complete."""
        for key, jobs, ans in self.asked.answered_questions():
            mine = self._answers[key]
            mine[jobs.deal - self._first[key]] = ans
            if (mine >= 0).all():
                self._start_next(key, mine)

    def _start_next(self, key: SolveKey, answers: np.ndarray) -> None:
        nxt = self._follow(key, answers)
        if nxt is None or not len(nxt[1].deal):
            return
        kind, jobs = nxt
        ahead = self.after.setdefault(kind, Ahead(self._start_jobs))
        ahead.start(jobs, [key] * len(jobs.deal), first=True)

    def wait(self) -> None:
        """Every pilot answered (and each search's next jobs started)."""
        self.asked.wait(self)
        self()

    def drop(self) -> None:
        """Stop whatever it started that still runs (no batch will take it)."""
        for ahead in (self.asked, *self.after.values()):
            ahead.drop()
