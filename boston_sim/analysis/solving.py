"""The searches of an analysis, batched: :class:`Solver` runs each distinct
:class:`~boston_sim.analysis.plan.SolveKey` over a growing pool of samples, all keys of a call
in one parallel batch of the solver (:func:`boston_sim.solver.solve_jobs`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..cards import boston_card_transform
from ..sampler import Samples, nth_card
from .plan import SolveKey

PILOT = 8
"""Deals a trick search solves before the others of its first round, to learn a first guess."""

NO_TRICK = 0  # the misère question: can the declarer take no trick?


def first_guess(done: np.ndarray) -> int:
    """The first target of the value searches of a key: the median of its results so far
    (-1, the solver's own guess, before any). The answers do not depend on it; the nearer
    the true value, the fewer zero-window searches."""
    if len(done) == 0:
        return -1
    return int(np.median(done))


class Solver:
    """Runs each distinct :class:`SolveKey` over a growing pool of samples. Every key is
    solved on a prefix of the pool (``results[key]`` has one entry per sample solved so far),
    so a key that is settled early can stop while others go on (adaptive mode).

    ``misere_tricks``: ``"bool"`` answers a misère key by the yes/no search "no trick?" (a
    failure recorded as 1 trick), ``"min"`` by the declarer's fewest tricks."""

    def __init__(self, keys: Sequence[SolveKey], declarer: int,
                 tick: Callable[[int], None] | None = None, misere_tricks: str = "bool") -> None:
        from .. import solver  # numba: imported when an analysis runs, not with the package

        self._solver = solver
        self.misere_tricks = misere_tricks
        self.keys = list(dict.fromkeys(keys))
        self.declarer = declarer
        self.results: dict[SolveKey, np.ndarray] = {k: np.empty(0, np.int8) for k in self.keys}
        self.tick = tick or (lambda n: None)
        self.solves = 0
        self.deals = np.empty((0, 4), np.uint64)
        self.discards = np.empty((0, 4), np.uint64)

    def add(self, smp: Samples) -> None:
        """Append samples to the pool (with each defender's random discard, A-12)."""
        disc = np.zeros_like(smp.deals)
        for seat in range(4):
            if seat != self.declarer:
                disc[:, seat] = nth_card(smp.deals[:, seat], smp.discard_pick[:, seat])
        self.deals = np.concatenate([self.deals, smp.deals])
        self.discards = np.concatenate([self.discards, disc])

    def truncate(self, n: int) -> None:
        """Keep only the first ``n`` samples of the pool (no key has solved more)."""
        assert all(len(r) <= n for r in self.results.values())
        self.deals = self.deals[:n]
        self.discards = self.discards[:n]

    def extend(self, smp: Samples) -> None:
        """Add samples and solve every key on the whole pool."""
        self.add(smp)
        self.solve_to(self.keys, len(self.deals))

    def _deals_for(self, key: SolveKey, lo: int, hi: int) -> np.ndarray:
        """Samples ``lo:hi`` as the key's game sees them (discards made, boston card moved)."""
        deals = self.deals[lo:hi]
        if key.discard >= 0:
            disc = self.discards[lo:hi].copy()
            disc[:, self.declarer] = np.uint64(1) << np.uint64(key.discard)
            deals = deals & ~disc
        if key.boston:
            deals = boston_card_transform(deals, key.strain)
        return deals

    def _counts_misere(self) -> bool:
        return self.misere_tricks == "min"

    def _job_row(self, key: SolveKey, deals: np.ndarray,
                 res: np.ndarray) -> tuple[list[int], np.ndarray]:
        """The solver's job row for a key, and the samples it must search (a misère certain
        by :func:`solver.sure_misere` is settled here, in ``res``)."""
        s = self._solver
        todo = np.arange(len(deals))
        if key.mode == "at_least":
            row = s.value_job(key.strain, key.leader, key.side_mask, "max",
                                   first_guess(self.results[key]))
        elif key.mode == "zero":
            safe = s.sure_misere(deals, key.side_mask, key.leader)
            res[safe] = NO_TRICK
            todo = np.flatnonzero(~safe)
            if self._counts_misere():
                row = s.value_job(key.strain, key.leader, key.side_mask, "min")
            else:
                # boolean search: 0 tricks if he can lose every trick, else recorded as 1
                row = s.question_job(key.strain, key.leader, key.side_mask, "at_most",
                                          NO_TRICK)
        else:
            # "exactly target" (Piccolissimo): a yes/no search; a success is recorded as
            # ``target`` tricks, a failure as 0 (the count is not searched)
            row = s.question_job(key.strain, key.leader, key.side_mask, "exactly",
                                      key.target)
        return row, todo

    def _record(self, key: SolveKey, todo: np.ndarray, ans: np.ndarray,
                res: np.ndarray) -> None:
        """Store a key's answers; a time limit's unsolved jobs (-1) cut its results at the
        first one, so that every key keeps a prefix of the pool."""
        gave_up = np.flatnonzero(ans < 0)
        if len(gave_up):
            cut = todo[gave_up[0]]
            keep = todo < cut
            todo, ans, res = todo[keep], ans[keep], res[:cut]
        if key.mode == "at_least" or (key.mode == "zero" and self._counts_misere()):
            res[todo] = ans
        elif key.mode == "zero":
            res[todo] = 1 - ans  # he can lose every trick: 0, else recorded as 1
        else:
            res[todo] = np.where(ans == 1, key.target, 0)
        self.results[key] = np.concatenate([self.results[key], res])
        self.solves += len(res)

    def solve_to(self, keys: Sequence[SolveKey], n: int, deadline: float | None = None) -> None:
        """Solve each of ``keys`` on the pool's samples it has not seen, up to the ``n``-th,
        all in one parallel batch (:func:`solver.solve_jobs`): trick searches first, the
        usually quick misère questions last, so they fill the workers' idle tail.

        ``deadline`` (a ``time.perf_counter()`` value): the searches still running then give
        up, and each key keeps its results up to its first sample left unsolved."""
        fresh = [k for k in keys if k.mode == "at_least" and len(self.results[k]) == 0]
        if fresh and n > 2 * PILOT:
            # a few deals first, so that the rest start from their median (first_guess)
            self.solve_to(fresh, PILOT, deadline)
        order = sorted(keys, key=lambda k: k.mode != "at_least")
        hands: list[np.ndarray] = []
        jobs: list[np.ndarray] = []
        spans: list[tuple[SolveKey, int, np.ndarray, np.ndarray]] = []
        start = 0
        for key in order:
            done = len(self.results[key])
            if n <= done:
                continue
            deals = self._deals_for(key, done, n)
            res = np.ones(len(deals), dtype=np.int8)
            row, todo = self._job_row(key, deals, res)
            hands.append(deals[todo])
            jobs.append(np.tile(np.asarray(row, dtype=np.int64), (len(todo), 1)))
            spans.append((key, start, todo, res))
            start += len(todo)
        if not spans:
            return
        all_hands = np.ascontiguousarray(np.concatenate(hands))
        out = self._solver.solve_jobs(all_hands, np.concatenate(jobs), deadline, progress=self.tick)
        for key, lo, todo, res in spans:
            self._record(key, todo, out[lo : lo + len(todo)], res)
