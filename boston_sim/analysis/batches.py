"""A round's jobs in one parallel batch of the solver (:class:`Batch`), ordered by what each
search's earlier jobs cost (:class:`JobCosts`), the answers of those started ahead taken
from them."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..solver import COUNT_OP, JOB_WIDTH, OP_FIELD
from .ahead import Ahead
from .plan import SolveKey

OP_COLUMN = OP_FIELD  # a solver job row's kind (a count or a question)


class Batch:
    """The jobs of one call of :func:`solver.solve_jobs`, with each key's span of them."""

    def __init__(self) -> None:
        self.hands: list[np.ndarray] = []
        self.jobs: list[np.ndarray] = []
        self.spans: list[tuple[SolveKey, int, np.ndarray, np.ndarray]] = []
        self.size = 0

    def add(self, key: SolveKey, deals: np.ndarray, rows: np.ndarray, todo: np.ndarray,
            res: np.ndarray) -> None:
        """Search ``deals[todo]`` with ``rows`` (one row for all, or one per deal)."""
        self.hands.append(deals[todo])
        self.jobs.append(np.broadcast_to(np.asarray(rows, np.int64), (len(todo), JOB_WIDTH)))
        self.spans.append((key, self.size, todo, res))
        self.size += len(todo)

    def arrays(self, solver, cost: JobCosts) -> tuple[np.ndarray, np.ndarray]:
        """Its deals and job rows, the misère searches that may run furthest past their
        budgets first, then the others by the mean nodes of their key's earlier jobs
        (``cost``), the dearest first: the cheap ones fill the workers' last idle gaps
        (the answers do not depend on the order; the rows of :meth:`run`'s ``out`` are in
        :meth:`add`'s order)."""
        hands = np.concatenate(self.hands)
        self.all_jobs = jobs = np.concatenate(self.jobs)
        dear = np.concatenate([cost.expected(key, jobs[lo : lo + len(todo)])
                               for key, lo, todo, _ in self.spans])
        self.order = np.lexsort((-dear, -solver.tiers_allowed(jobs)))
        return np.ascontiguousarray(hands[self.order]), jobs[self.order]

    def run(self, solver, cost: JobCosts, deadline: float | None,
            progress: Callable[[int], None] | None, ahead: Ahead | None = None,
            then: Callable[[], None] | None = None,
            waiting: Callable[[], None] | None = None) -> np.ndarray:
        """Every job's answer (:func:`solver.solve_jobs`); those that ``ahead`` ran already
        are taken from it. ``then()`` runs once the other jobs are with the workers,
        ``waiting()`` every few milliseconds while they run. The jobs' nodes go to
        ``cost``."""
        if not self.spans:
            if then is not None:
                then()
            return np.empty(0, np.int8)
        hands, jobs = self.arrays(solver, cost)
        got = ahead.find(hands, jobs) if ahead is not None else np.full(len(jobs), -1)
        rest = np.flatnonzero(got < 0)
        out = np.empty(len(jobs), np.int8)
        nodes = np.zeros(len(jobs), np.int64)
        nodes_rest = np.zeros(len(rest), np.int64)
        out[rest] = solver.solve_jobs(hands[rest], jobs[rest], deadline, progress, then,
                                      nodes_rest, waiting)
        nodes[rest] = nodes_rest
        took = np.flatnonzero(got >= 0)
        if len(took):
            out[took] = ahead.answers(got[took])
            nodes[took] = ahead.nodes(got[took])
            if progress is not None:
                progress(len(took))
        res = np.empty_like(out)
        res[self.order] = out
        spent = np.empty_like(nodes)
        spent[self.order] = nodes
        for key, lo, todo, _ in self.spans:
            hi = lo + len(todo)
            cost.learn(key, self.all_jobs[lo:hi], res[lo:hi], spent[lo:hi])
        return res


class JobCosts:
    """The mean nodes of each key's jobs answered so far, counts and questions apart: what
    a batch orders its jobs by (:meth:`Batch.arrays`). Each job's nodes depend only on its
    deal and row, so the order is the same whatever the thread count."""

    def __init__(self) -> None:
        self._sums: dict[tuple[SolveKey, bool], list[int]] = {}

    def learn(self, key: SolveKey, jobs: np.ndarray, answers: np.ndarray,
              nodes: np.ndarray) -> None:
        ran = answers != -1  # -1: cut by the time limit, its nodes say nothing
        counts = jobs[:, OP_COLUMN] == COUNT_OP
        for count in (True, False):
            mine = ran & (counts == count)
            if mine.any():
                total = self._sums.setdefault((key, count), [0, 0])
                total[0] += int(nodes[mine].sum())
                total[1] += int(mine.sum())

    def expected(self, key: SolveKey, jobs: np.ndarray) -> np.ndarray:
        """Per job row of ``key``, the mean nodes of its kind's earlier jobs (the other
        kind's while it has none; 0 while the key has none)."""
        counts = jobs[:, OP_COLUMN] == COUNT_OP
        out = np.zeros(len(jobs))
        for count in (True, False):
            total = self._sums.get((key, count)) or self._sums.get((key, not count))
            if total:
                out[counts == count] = total[0] / total[1]
        return out
