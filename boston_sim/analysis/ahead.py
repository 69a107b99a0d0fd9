"""Jobs started before the batches that will want them, in the workers' idle time: the next
rounds' (:meth:`~boston_sim.analysis.solving.Solver.solve_to`'s ``ahead``), or a first
round's own searches behind its pilots and questions.

A question run ahead for a two-phase search may, once answered, start the count its round
will ask of the deal (:meth:`Ahead.answered_questions`, then :meth:`Ahead.start` with
``first``): such parts go before the other jobs run ahead, so a count does not wait for its
round to learn the answer.

They run in parts, each a ticket of the solver's pool (``solver.start_jobs``): a look-ahead
gives each key's jobs on a stretch of :data:`PART_DEALS` deals a part of its own, so that the
nearest deals of every key go first and a settled key's jobs can be stopped alone
(:meth:`Ahead.stop`). A batch's job whose deal and row match a started one takes its answer:
every answer depends only on the two (a value search's first guess changes its path, not its
result, so it is left out of the match), so nothing run ahead changes a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..config import ROUND
from ..solver import COUNT_OP, OP_FIELD, QUESTION_OP, TARGET_FIELD
from .plan import SolveKey

PART_DEALS = ROUND
"""Deals per part of a look-ahead (one key's jobs on them): a round's worth."""


class Jobs(NamedTuple):
    """Jobs not started: their deals (``hands``), rows, and sample numbers in the pool."""

    hands: np.ndarray
    jobs: np.ndarray
    deal: np.ndarray

    def where(self, mask: np.ndarray) -> Jobs:
        return Jobs(self.hands[mask], self.jobs[mask], self.deal[mask])

    @staticmethod
    def joined(parts: Sequence[Jobs]) -> Jobs:
        return Jobs(*(np.concatenate(a) for a in zip(*parts, strict=True)))


class _Part:
    """One ticket's jobs, ``owner[i]`` the key of job ``i``; its global job numbers start at
    ``base``. ``started``: how many began before it was cancelled (None: not yet)."""

    def __init__(self, pending, jobs: Jobs, owner: list[SolveKey], base: int) -> None:
        self.pending, self.jobs, self.owner, self.base = pending, jobs, owner, base
        self.keys = frozenset(owner)
        self.started: int | None = None
        self.stopped = False
        # the questions :meth:`Ahead.answered_questions` reports once answered (one key's)
        self.unseen = (jobs.jobs[:, OP_FIELD] == QUESTION_OP) & (len(self.keys) == 1)
        self.seen = 0  # answers given when it last looked


class Ahead:
    """Parts started ahead (:meth:`start`), the index of the jobs that began, and, per key,
    the jobs cancelled before they began (``held``, for a look-ahead to start again) and the
    deal up to which its jobs were made (``covered``)."""

    def __init__(self, start_jobs) -> None:
        self._start_jobs = start_jobs
        self._parts: list[_Part] = []
        self._index: dict[bytes, int] = {}
        self.held: dict[SolveKey, list[Jobs]] = {}
        self.covered: dict[SolveKey, int] = {}
        self.size = 0  # jobs started in all
        self.taken = 0  # answers the batches took from it

    def __len__(self) -> int:
        return self.size

    def start(self, jobs: Jobs, owner: list[SolveKey], first: bool = False) -> None:
        """Start one part: ``jobs`` in the order given, job ``i`` of key ``owner[i]``
        (``first``: before the parts started without it)."""
        if not len(owner):
            return
        hands = np.ascontiguousarray(jobs.hands)
        pending = (self._start_jobs(hands, jobs.jobs, first=True) if first
                   else self._start_jobs(hands, jobs.jobs))
        self._parts.append(_Part(pending, Jobs(hands, jobs.jobs, jobs.deal), owner, self.size))
        self.size += len(owner)

    def answered_questions(self) -> list[tuple[SolveKey, Jobs, np.ndarray]]:
        """The questions run ahead that have answered since the last call, per part (all of
        one key): the key, those jobs and their answers (1 / 0)."""
        out = []
        for p in self._parts:
            if p.stopped or p.pending.done == p.seen or not p.unseen.any():
                continue
            p.seen = p.pending.done
            ans = p.pending.answers_given()
            new = (ans >= 0) & p.unseen
            if new.any():
                p.unseen &= ~new
                out.append((p.owner[0], p.jobs.where(new), ans[new]))
        return out

    def begin(self) -> None:
        """A batch begins: start no more jobs (it runs those not begun itself). The jobs
        that began finish and answer through :meth:`find`; the others are ``held``."""
        for p in self._parts:
            if p.started is not None:
                continue
            p.started = k = p.pending.cancel()
            for i, m in enumerate(_match_keys(p.jobs.hands[:k], p.jobs.jobs[:k])):
                self._index[m] = p.base + i
            rest = p.jobs.where(np.arange(len(p.owner)) >= k)
            for key in dict.fromkeys(p.owner[k:]):
                mine = np.array([o == key for o in p.owner[k:]], bool)
                self.held.setdefault(key, []).append(rest.where(mine))

    def take_held(self, key: SolveKey, lo: int) -> Jobs | None:
        """``key``'s held jobs on deals from ``lo`` on, the nearest first (None: none); no
        longer held."""
        held = self.held.pop(key, None)
        if not held:
            return None
        jobs = Jobs.joined(held)
        jobs = jobs.where(jobs.deal >= lo)
        return jobs.where(np.argsort(jobs.deal, kind="stable"))

    def stop(self, keys: Sequence[SolveKey]) -> None:
        """No batch will want the jobs of ``keys`` (they are settled): those not begun never
        run, the running ones give up; the answers given stay to be found."""
        gone = set(keys)
        for p in self._parts:
            if not (p.stopped or gone.isdisjoint(p.keys)):
                self._stop(p)
        for key in gone:
            self.held.pop(key, None)
            self.covered.pop(key, None)

    def stop_from(self, key: SolveKey, start: int) -> None:
        """No batch will want ``key``'s jobs on deals from ``start`` on (its rounds will ask
        other jobs there): the parts that hold any stop as in :meth:`stop`, and its jobs are
        made again from ``start`` on at most."""
        for p in self._parts:
            if not p.stopped and key in p.keys and (p.jobs.deal >= start).any():
                self._stop(p)
        held = [j.where(j.deal < start) for j in self.held.pop(key, [])]
        if any(len(j.deal) for j in held):
            self.held[key] = held
        if key in self.covered:
            self.covered[key] = min(self.covered[key], start)

    def _stop(self, p: _Part) -> None:
        """Cancel part ``p``'s jobs not begun and abort those running; the answers given stay
        to be found."""
        k = p.pending.cancel()
        p.pending.abort()
        p.stopped = True
        ans = p.pending.answers(np.arange(k))
        for i, m in enumerate(_match_keys(p.jobs.hands[:k], p.jobs.jobs[:k])):
            if ans[i] == -1:  # given up: not an answer
                if self._index.get(m) == p.base + i:
                    del self._index[m]
            elif p.started is None:
                self._index[m] = p.base + i
        p.started = k

    def find(self, hands: np.ndarray, jobs: np.ndarray) -> np.ndarray:
        """Per job, the number of the same job begun ahead, else -1 (:meth:`begin` first)."""
        self.begin()
        return np.array([self._index.get(m, -1) for m in _match_keys(hands, jobs)], np.int64)

    def answers(self, ids: np.ndarray) -> np.ndarray:
        """The answers of jobs ``ids`` (found by :meth:`find`), waited for if still running."""
        self.taken += len(ids)
        return self._gather(ids, lambda p, i: p.pending.answers(i), np.int8)

    def nodes(self, ids: np.ndarray) -> np.ndarray:
        """The nodes jobs ``ids`` expanded (once they have answered)."""
        return self._gather(ids, lambda p, i: p.pending.nodes(i), np.int64)

    def _gather(self, ids: np.ndarray, get, dtype) -> np.ndarray:
        out = np.empty(len(ids), dtype)
        bases = np.array([p.base for p in self._parts], np.int64)
        which = np.searchsorted(bases, ids, side="right") - 1
        for w in np.unique(which):
            sel = which == w
            p = self._parts[int(w)]
            out[sel] = get(p, ids[sel] - p.base)
        return out

    def drop(self) -> None:
        """Stop whatever still runs (no batch will come)."""
        for p in self._parts:
            if not p.stopped:
                p.pending.abort()
                p.stopped = True


def _match_keys(hands: np.ndarray, jobs: np.ndarray) -> list[bytes]:
    """Each job's deal and row as bytes, a value search's first guess left out."""
    rows = np.array(jobs, np.int64, order="C")  # a copy (the guess is cleared), viewed as bytes
    if not len(rows):
        return []
    rows[rows[:, OP_FIELD] == COUNT_OP, TARGET_FIELD] = 0  # the first guess
    both = np.concatenate([np.ascontiguousarray(hands).view(np.uint8).reshape(len(rows), -1),
                           rows.view(np.uint8).reshape(len(rows), -1)], axis=1)
    return [r.tobytes() for r in both]
