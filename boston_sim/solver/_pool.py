"""The solver's workers: one Python thread per worker, each with its own workspace, running
the job kernel (``_driver.solve_range_jobs``, without the GIL) on batches of jobs handed to
the pool.

A batch is a :class:`Ticket`. Workers take its jobs one at a time through an atomic counter,
so a slow search never leaves a worker idle while jobs are left. Tickets have a priority:
an ``AHEAD`` ticket (jobs the caller may want later) runs only when no ``NOW`` ticket has jobs
left to start, on all but one worker while the caller works (it keeps a core) and on all of
them while it waits; a worker on it returns to ``NOW`` work after its current job. A caller can
cancel a ticket (:meth:`Pool.cancel`): the jobs already started finish, the others never run,
and the answer says which are which. Every answer is exact and depends only on its deal and
job row, never on the worker, so none of this changes a number. :class:`Pending` is a
ticket as the solver's callers hold it.

A worker with no ``NOW`` job to start helps instead: it joins a long job of a ``NOW``
ticket that another worker is running (one that has offered itself, ``_share``), else of an
``AHEAD`` one if it has no ``AHEAD`` job to start either, counted as a worker on ``AHEAD``
work, until that job answers or a ``NOW`` ticket arrives. A job the caller waits for comes
before jobs it may never use.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable

import numpy as np

NOW = 0  # a ticket the caller is waiting for
AHEAD = 1  # jobs run ahead of need, in the workers' idle time
NOT_RUN = np.iinfo(np.int8).min  # the answer of a job a cancel kept from running
_NEXT, _DONE, _STOP = 0, 1, 2  # a ticket's counter: jobs taken, jobs answered, stop flag
_POLL = 0.1  # seconds between a waiting caller's looks (progress, Ctrl-C)
_ANSWER_POLL = 0.002  # ... and between looks at the few answers it takes from a ticket
_WAITING_POLL = 0.02  # ... and when it has work of its own to do meanwhile (``waiting``)
_HELP_POLL = 0.005  # seconds between an idle worker's looks for a long job to join


class Ticket:
    """One batch of jobs in the pool: ``out[i]`` answers job ``i`` once it has run, and
    ``nodes[i]`` is the nodes its search expanded."""

    _order = itertools.count()

    def __init__(self, lanes: np.ndarray, jobs: np.ndarray, priority: int,
                 first: bool = False) -> None:
        self.lanes, self.jobs, self.priority, self.first = lanes, jobs, priority, first
        self.m = len(jobs)
        self.out = np.full(self.m, NOT_RUN, np.int8)
        self.nodes = np.zeros(self.m, np.int64)
        self.counter = np.zeros(3, np.int64)
        self.runs = self.m  # the jobs that run: all, or those started before a cancel
        self.seq = next(Ticket._order)
        self.workers: set[int] = set()
        self.error: BaseException | None = None
        self.finished = threading.Event()

    @property
    def done(self) -> int:
        """How many jobs have answered so far."""
        return int(self.counter[_DONE])


class Pool:
    """``n`` workers, each with row ``w`` of the stacked workspaces ``ws`` (``new_workspaces``)."""

    def __init__(self, n: int, ws: tuple, kernel, claim: Callable[[np.ndarray], int]) -> None:
        self.n, self.ws, self._kernel, self._claim = n, ws, kernel, claim
        self.pid = os.getpid()
        self._cv = threading.Condition()
        self._tickets: list[Ticket] = []
        self._closed = False
        self._live = 0  # workers running
        self._waiting = 0  # callers blocked on answers: their cores are free for AHEAD work
        self._helping: dict[int, int] = {}  # worker -> the worker whose job it helps
        self._start_workers()

    def _start_workers(self) -> None:
        self._live = self.n
        for w in range(self.n):
            threading.Thread(target=self._work, args=(w,), daemon=True,
                             name=f"boston-sim-solver-{w}").start()

    @property
    def closed(self) -> bool:
        return self._closed

    def is_alive(self) -> bool:
        """Whether work may still come to this pool (the work counters follow it until not)."""
        with self._cv:
            return not self._closed or self._live > 0

    def submit(self, lanes: np.ndarray, jobs: np.ndarray, priority: int = NOW,
               first: bool = False) -> Ticket:
        """Queue ``jobs[i]`` on deal ``lanes[i]``; a ``NOW`` ticket stops the workers on
        ``AHEAD`` ones after their current job. ``first``: taken before the other tickets
        of its priority that are not ``first`` (their workers too stop after their job)."""
        t = Ticket(lanes, jobs, priority, first)
        with self._cv:
            if t.m == 0:
                t.finished.set()
                return t
            for o in self._tickets:
                if o.priority > priority or (first and o.priority == priority and not o.first):
                    o.counter[_STOP] = 1
            if priority == NOW:
                self._stop_helpers()  # they take it
            self._tickets.append(t)
            if self._live == 0:  # closed and idle, but a caller still held it
                self._start_workers()
            self._cv.notify_all()
        return t

    def cancel(self, t: Ticket) -> int:
        """Start no more jobs of ``t``: returns how many started (jobs ``0 ..`` that count,
        in the ticket's order; they finish and answer, the others stay :data:`NOT_RUN`)."""
        with self._cv:
            if t.runs == t.m and not t.finished.is_set():
                t.runs = min(self._claim(t.counter), t.m)
                self._settle(t)
            return t.runs

    def abort(self, t: Ticket) -> None:
        """Cancel ``t`` and make its running searches give up: every job that has not
        answered answers -1."""
        from ._layout import P_ABORT

        with self._cv:
            self.cancel(t)
            t.out[t.runs :] = -1
            for w in t.workers:
                self.ws[4][w, P_ABORT] = 1

    def wait(self, t: Ticket, progress: Callable[[int], None] | None = None,
             waiting: Callable[[], None] | None = None) -> np.ndarray:
        """``t``'s answers once every job that runs has answered; ``progress(n)`` is told, in
        this thread, the jobs answered since its last call, and ``waiting()`` is called
        every few milliseconds meanwhile. An exception raised here meanwhile (Ctrl-C)
        aborts the ticket before it is raised."""
        seen = 0
        poll = _POLL if waiting is None else _WAITING_POLL
        try:
            self.caller_waits(True)
            try:
                while not t.finished.wait(poll):
                    if progress is not None and t.done > seen:
                        progress(t.done - seen)
                        seen = t.done
                    if waiting is not None:
                        waiting()
            finally:
                self.caller_waits(False)
        except BaseException:
            self.abort(t)
            t.finished.wait()
            raise
        if progress is not None and t.done > seen:
            progress(t.done - seen)
        if t.error is not None:
            raise t.error
        return t.out

    def caller_waits(self, waiting: bool) -> None:
        """A caller begins (True) or ends (False) a wait for answers. While one waits, every
        worker may take ``AHEAD`` jobs; when none does any more, the workers on them beyond
        the usual share go back to :meth:`_pick` after their current job."""
        with self._cv:
            self._waiting += 1 if waiting else -1
            if waiting:
                self._cv.notify_all()
            elif self._waiting == 0 and self._on_ahead() + len(self._helping) > self._ahead_share():
                for o in self._tickets:
                    if o.priority == AHEAD:
                        o.counter[_STOP] = 1
                self._stop_helpers()

    def _stop_helpers(self) -> None:
        """The workers helping another's job give up after their next look (lock held)."""
        from ._layout import P_ABORT

        for w in self._helping:
            self.ws[4][w, P_ABORT] = 1

    def _on_ahead(self) -> int:
        return sum(len(o.workers) for o in self._tickets if o.priority == AHEAD)

    def _ahead_share(self) -> int:
        """How many workers may be on ``AHEAD`` tickets at once (lock held)."""
        return self.n if self._waiting else max(1, self.n - 1)

    def close(self) -> None:
        """The workers end once no ticket has jobs left (a later ticket starts them again)."""
        with self._cv:
            self._closed = True
            self._cv.notify_all()

    def _pick(self) -> Ticket | None:
        """The most urgent ticket with jobs left to start (the oldest of its priority, those
        marked ``first`` before the others); an
        ``AHEAD`` one only while fewer workers than :meth:`_ahead_share` are on such tickets:
        a caller at work (scoring, say) keeps a core."""
        live = [t for t in self._tickets if t.counter[_NEXT] < t.m]
        if not live:
            return None
        t = min(live, key=lambda t: (t.priority, not t.first, t.seq))
        if t.priority == AHEAD and self._on_ahead() >= self._ahead_share():
            return None
        t.counter[_STOP] = 0  # nothing more urgent is waiting
        return t

    def _help_target(self, w: int, now_only: bool) -> tuple[Ticket, int] | None:
        """A ticket (``NOW`` only, or any) and a worker on it whose running job is open for
        ``w`` to join (lock held), while the workers on ``AHEAD`` work and helping leave room
        (they share :meth:`_ahead_share`); the kernel checks again that the job is open."""
        from ._layout import P_SIG
        from ._share import is_open

        if self._on_ahead() + len(self._helping) >= self._ahead_share():
            return None
        helped = set(self._helping.values())
        for t in self._tickets:
            if now_only and t.priority != NOW:
                continue
            for v in t.workers:
                if v not in helped and is_open(int(self.ws[4][v, P_SIG])):
                    return t, v
        return None

    def _settle(self, t: Ticket) -> None:
        """Mark ``t`` finished once every job that runs has answered (lock held)."""
        if t.counter[_NEXT] >= t.m and t.counter[_DONE] >= t.runs and not t.finished.is_set():
            if t in self._tickets:
                self._tickets.remove(t)
            t.finished.set()

    def _next(self, w: int) -> tuple[Ticket, int] | None:
        """What worker ``w`` does next (lock held): a ticket's jobs (and -1), or a ticket
        and the worker on it whose job it helps; ``None``: the pool is closed."""
        while True:
            t = self._pick()
            if t is None and self._closed:
                return None
            if t is None or t.priority == AHEAD:
                h = self._help_target(w, t is not None)
                if h is not None:
                    self._helping[w] = h[1]
                    return h
            if t is not None:
                t.workers.add(w)
                return t, -1
            busy = any(t.workers for t in self._tickets)
            self._cv.wait(_HELP_POLL if busy else None)

    def _work(self, w: int) -> None:
        from ._layout import P_ABORT

        mine = tuple(a[w] for a in self.ws)
        shared = (self.ws[0], self.ws[1], self.ws[4], w)
        while True:
            with self._cv:
                job = self._next(w)
                if job is None:
                    self._live -= 1
                    return
            t, helped = job
            try:
                self._kernel(t.lanes, t.jobs, t.counter, t.out, t.nodes, *mine, *shared,
                             t.seq, helped)
            except BaseException as e:  # noqa: BLE001 -- raised again in the waiting caller
                with self._cv:
                    t.error = e
                    t.counter[_DONE] = self.cancel(t)  # nothing more of it runs or answers
            with self._cv:
                if helped < 0:
                    t.workers.discard(w)
                else:
                    del self._helping[w]
                self.ws[4][w, P_ABORT] = 0
                self._settle(t)
                self._cv.notify_all()  # a worker held back from AHEAD work may take it


class Pending:
    """Jobs handed to the workers (``solver.start_jobs``); ``count(out)`` is told the answers
    once they are all in (the work counters)."""

    def __init__(self, pool: Pool, ticket: Ticket,
                 count: Callable[[np.ndarray], None]) -> None:
        self._pool, self._ticket, self._count = pool, ticket, count
        self._counted = False

    def wait(self, deadline: float | None = None,
             progress: Callable[[int], None] | None = None,
             waiting: Callable[[], None] | None = None) -> np.ndarray:
        """Every answer, as ``solve_jobs`` (``deadline``, ``progress``, ``waiting``) gives
        them."""
        t = self._ticket
        timer = None
        if deadline is not None:
            timer = threading.Timer(max(0.0, deadline - time.perf_counter()), self._pool.abort,
                                    (t,))
            timer.start()
        try:
            out = self._pool.wait(t, progress, waiting)
        finally:
            if timer is not None:
                timer.cancel()
                timer.join()
        self._counted = True
        self._count(out)
        return out

    def cancel(self) -> int:
        """Start no more of the jobs: returns how many started (jobs ``0 .. k-1``, in the
        order given; they run to their end, and :meth:`answers` waits for them)."""
        return self._pool.cancel(self._ticket)

    @property
    def done(self) -> int:
        """How many jobs have answered so far."""
        return self._ticket.done

    def answers_given(self) -> np.ndarray:
        """Every job's answer so far, without waiting (negative: none yet, or given up)."""
        return self._ticket.out.copy()

    def answers(self, idx: np.ndarray) -> np.ndarray:
        """The answers of jobs ``idx`` (all started), once each has answered."""
        t = self._ticket
        self._pool.caller_waits(True)
        try:
            while (t.out[idx] == NOT_RUN).any() and not t.finished.wait(_ANSWER_POLL):
                pass
        finally:
            self._pool.caller_waits(False)
        if t.error is not None:
            raise t.error
        return t.out[idx].copy()

    def nodes(self, idx: np.ndarray) -> np.ndarray:
        """The nodes jobs ``idx`` expanded (once they have answered; 0: not run)."""
        return self._ticket.nodes[idx].copy()

    def abort(self) -> None:
        """Stop every job now (the running ones give up, the answers already given stay)."""
        self._pool.abort(self._ticket)
        self._ticket.finished.wait()
        if not self._counted:  # count the answers once
            self._counted = True
            self._count(self._ticket.out)

