"""A bid's schedule replayed on W workers: the wall time and speed-up it would have on a
machine of W cores, for each reach of the look-ahead (how many rounds ahead the workers may
take jobs in their idle time).

    .venv/bin/python benchmarks/bench_schedule.py T9532.642.53.742 A82.KQT974.K7.75
    .venv/bin/python benchmarks/bench_schedule.py --random 8 --seed 21 --workers 2 16

Each hand is bid once on one thread, as the user would (warm kernels, default settings, or
``--samples N``), recording the rounds: each batch of searches the caller waits for (its
jobs, in the order handed over), the caller's own time between batches (building jobs,
scoring), the jobs the look-ahead makes for every later round (to the cap, whatever the
reach simulated), and when the rounds stop a settled search's jobs. Every recorded job is
then searched again to learn its nodes (each job's nodes depend only on its deal and row),
and a job's time on one worker is taken as its nodes over the solver's rate here (nodes per
second per worker, measured on that search again).

The replay runs those rounds on W simulated workers with the pool's rules: a waited batch's
jobs first, then jobs run ahead (nearest deals first) on all workers while the caller waits
and on all but one while it works; a worker on a job run ahead finishes it before it takes a
waited one; a job a batch wants that began ahead is waited for, not run again; a settled
search's jobs run ahead stop (running ones give up). Same rounds, same jobs, same numbers:
only the timing is modelled. A first round's misère searches and questions started behind
its pilots are not (they count as its batch's own): there the replay is a little slow. It
ignores what W cores share (memory bandwidth, clock speed under load), so its 16-worker
figures are bounds, not measurements; the 1- and 2-worker ones can be checked against
``bench_threads.py`` here. "unused": the share of the simulated workers' busy time that went
to jobs no batch took (or that were stopped before they ended).

A two-phase search's count, which waits for its question's answer, is run ahead (before the
other jobs run ahead) as soon as its question, run ahead, answers, as the analysis does
(``Solver._follow``; it looks every 20 ms, the replay at once); ``--no-follow`` replays each
bid also without that (``-f`` rows), as before it was built.
"""

from __future__ import annotations

import argparse
import heapq
import statistics
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from boston_sim import solver
from boston_sim.analysis import ahead, analyze, rounds, solving
from boston_sim.config import DEFAULT_SAMPLES, ROUND

# -------------------------------------------------------------------------- recording


@dataclass
class Event:
    """What the caller did, in order: a waited batch (its jobs, ``then``: whether the
    look-ahead started behind it, with its keys and first deal) or a stop of settled keys."""

    t0: float
    t1: float
    kind: str  # "batch" or "stop"
    ids: list[int] = field(default_factory=list)
    keys: frozenset = frozenset()
    lo: int = 0
    then: bool = False


@dataclass
class Trace:
    events: list[Event] = field(default_factory=list)
    rows: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # deal, job row
    ids: dict[bytes, int] = field(default_factory=dict)
    look: dict[int, tuple[object, int, int]] = field(default_factory=dict)  # key, deal, rank
    then_calls: list[tuple[float, frozenset, int]] = field(default_factory=list)
    begin: float = 0.0
    end: float = 0.0

    def id_of(self, hand: np.ndarray, row: np.ndarray, match: bytes) -> int:
        i = self.ids.get(match)
        if i is None:
            i = self.ids[match] = len(self.rows)
            self.rows.append((np.array(hand), np.array(row)))
        return i


_trace: list[Trace] = []
_looking = [False]


def _record() -> None:
    """Hooks that fill ``_trace[0]`` while a bid runs (one thread: the caller's times)."""
    arrays, run = solving._Batch.arrays, solving._Batch.run
    start_ahead, start, stop = (solving.Solver._start_ahead, ahead.Ahead.start,
                                solving.Solver.stop_ahead)

    def ids(hands, jobs):
        tr = _trace[0]
        return [tr.id_of(h, j, m) for h, j, m in zip(hands, jobs,
                                                     ahead._match_keys(hands, jobs),
                                                     strict=True)]

    def spy_arrays(self, solver_, cost):
        hands, jobs = arrays(self, solver_, cost)
        self.recorded = ids(hands, jobs)
        return hands, jobs

    def spy_run(self, *args, **kwargs):
        if not self.spans:
            return run(self, *args, **kwargs)
        ev = Event(time.perf_counter(), 0.0, "batch")
        try:
            return run(self, *args, **kwargs)
        finally:
            ev.t1 = time.perf_counter()
            ev.ids = self.recorded
            _trace[0].events.append(ev)

    def spy_start_ahead(self, keys, lo, hi):
        _trace[0].then_calls.append((time.perf_counter(), frozenset(keys), lo))
        _looking[0] = True
        try:
            start_ahead(self, keys, lo, hi)
        finally:
            _looking[0] = False

    def spy_start(self, jobs, owner, first=False):
        if _looking[0]:
            tr = _trace[0]
            for i, key, deal in zip(ids(jobs.hands, jobs.jobs), owner, jobs.deal, strict=True):
                if i not in tr.look:
                    tr.look[i] = (key, int(deal), len(tr.look))
        return start(self, jobs, owner, first)

    def spy_stop(self, keys):
        t = time.perf_counter()
        stop(self, keys)
        _trace[0].events.append(Event(t, t, "stop", keys=frozenset(keys)))

    solving._Batch.arrays, solving._Batch.run = spy_arrays, spy_run
    solving.Solver._start_ahead, ahead.Ahead.start = spy_start_ahead, spy_start
    solving.Solver.stop_ahead = spy_stop


def _mark_then(tr: Trace) -> None:
    """Which batch each look-ahead started behind: the one running when it was called."""
    for t, keys, lo in tr.then_calls:
        for ev in tr.events:
            if ev.kind == "batch" and ev.t0 <= t <= ev.t1:
                ev.then, ev.keys, ev.lo = True, keys, lo


def record(hand: str, samples: int | None) -> Trace:
    """Bid ``hand`` on one thread, recording its schedule (the look-ahead made to the cap)."""
    tr = Trace()
    _trace[:] = [tr]
    numba.set_num_threads(1)
    keep = rounds.WORKERS_PER_ROUND_AHEAD
    rounds.WORKERS_PER_ROUND_AHEAD = 1 / DEFAULT_SAMPLES  # every later round's jobs made
    try:
        tr.begin = time.perf_counter()
        analyze(hand, samples=samples, seed=0, threads=1)
        tr.end = time.perf_counter()
    finally:
        rounds.WORKERS_PER_ROUND_AHEAD = keep
    _mark_then(tr)
    return tr


def costs(tr: Trace, threads: int) -> tuple[np.ndarray, float]:
    """Every recorded job's nodes, searched again on ``threads`` threads, and the nodes per
    second one worker searches (the batch's nodes over its threads x wall)."""
    numba.set_num_threads(threads)
    hands = np.array([h for h, _ in tr.rows])
    jobs = np.array([j for _, j in tr.rows])
    nodes = np.zeros(len(jobs), np.int64)
    t0 = time.perf_counter()
    solver.solve_jobs(hands, jobs, nodes=nodes)
    wall = time.perf_counter() - t0
    return nodes, float(nodes.sum()) / (threads * wall)


# -------------------------------------------------------------------------- replay


def followers(tr: Trace) -> dict[int, int]:
    """Per question run ahead, the count a later batch ran on the same deal and game (a
    two-phase search's count, which waits for its question's answer)."""
    asked = {}
    for q in tr.look:
        hand, row = tr.rows[q]
        if row[solver.OP_FIELD] == solver.QUESTION_OP:
            asked[(hand.tobytes(), tuple(row[:3]))] = q
    out = {}
    for ev in tr.events:
        for c in ev.ids:
            hand, row = tr.rows[c]
            q = asked.get((hand.tobytes(), tuple(row[:3])))
            if row[solver.OP_FIELD] == solver.COUNT_OP and q is not None:
                out[q] = c
    return out


def replay(tr: Trace, secs: np.ndarray, workers: int, reach: int,
           follow: dict[int, int] | None = None) -> tuple[float, float]:
    """The bid's wall time on ``workers`` simulated workers with a look-ahead of ``reach``
    deals, and the share of their busy time on jobs no batch took. ``follow`` (question ->
    count): a count is run ahead once its question, run ahead, has answered."""
    follow = follow or {}
    asks = {c: q for q, c in follow.items()}
    done: dict[int, float] = {}  # job -> the time it answered
    running: dict[int, tuple[float, int]] = {}  # job -> (end, worker)
    free = list(range(workers))
    heap: list[tuple[float, int, int]] = []  # (end, worker, job)
    now_q: list[int] = []
    ahead_q: list[int] = []
    on_ahead: set[int] = set()  # workers on jobs run ahead
    ahead_ran: dict[int, float] = {}  # job run ahead -> its time
    taken: set[int] = set()
    busy = [0.0]  # the workers' time on jobs, ended or stopped
    lost = [0.0]  # ... on jobs run ahead and stopped before they ended
    clock = 0.0

    def assign(waiting: bool) -> None:
        share = workers if waiting else max(1, workers - 1)
        while free:
            if now_q:
                j = now_q.pop(0)
                if j in done or j in running:
                    continue
                w = free.pop()
            elif ahead_q and len(on_ahead) < share:
                j = ahead_q.pop(0)
                if j in done or j in running:
                    continue
                w = free.pop()
                on_ahead.add(w)
                ahead_ran[j] = secs[j]
            else:
                return
            running[j] = (clock + secs[j], w)
            heapq.heappush(heap, (clock + secs[j], w, j))

    def advance(until: float | None, wait_for: list[int] | None) -> None:
        nonlocal clock
        while True:
            assign(waiting=wait_for is not None)
            if wait_for is not None and all(j in done for j in wait_for):
                return
            nxt = heap[0][0] if heap else None
            if until is not None and (nxt is None or nxt > until):
                clock = until
                return
            if nxt is None:
                raise RuntimeError("a batch waits for a job that no worker runs")
            end, w, j = heapq.heappop(heap)
            clock = end
            if running.get(j) != (end, w):
                continue  # given up (a stop)
            del running[j]
            done[j] = end
            busy[0] += secs[j]
            free.append(w)
            on_ahead.discard(w)
            c = follow.get(j)
            if c is not None and c not in done and c not in running and j in ahead_ran:
                ahead_q.insert(0, c)

    last = tr.begin
    for ev in tr.events:
        advance(clock + max(0.0, ev.t0 - last), None)  # the caller's own time
        if ev.kind == "stop":
            ahead_q[:] = [j for j in ahead_q if tr.look[asks.get(j, j)][0] not in ev.keys]
            for j, (end, w) in list(running.items()):
                q = asks.get(j, j)
                if q in tr.look and tr.look[q][0] in ev.keys and w in on_ahead:
                    del running[j]
                    free.append(w)
                    on_ahead.discard(w)
                    del ahead_ran[j]  # what it ran is lost, whoever wants it later
                    lost[0] += secs[j] - (end - clock)
                    busy[0] += secs[j] - (end - clock)
            last = ev.t1
            continue
        ahead_q.clear()  # the batch's begin: nothing more starts ahead until its ``then``
        now_q[:] = [j for j in ev.ids if j not in done and j not in running]
        taken.update(ev.ids)
        if ev.then and reach:
            hi = min(DEFAULT_SAMPLES, ev.lo + reach)
            look = [j for j, (key, deal, _) in tr.look.items()
                    if key in ev.keys and ev.lo <= deal < hi]
            look += [follow[j] for j in look if j in follow and j in done]
            ahead_q[:] = sorted((j for j in look if j not in done and j not in running),
                                key=lambda j: tr.look[asks.get(j, j)][2])
        advance(None, ev.ids)
        last = ev.t1
    advance(clock + max(0.0, tr.end - last), None)  # the answer's last scoring
    for j, (end, _) in running.items():  # still running when the bid ends
        busy[0] += clock - (end - secs[j])
        if j in ahead_ran:
            ahead_ran[j] = clock - (end - secs[j])
    unused = lost[0] + sum(t for j, t in ahead_ran.items() if j not in taken)
    return clock, unused / busy[0] if busy[0] else 0.0


# -------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", nargs="*", metavar="HAND")
    ap.add_argument("--random", type=int, default=0, metavar="N", help="N random hands too")
    ap.add_argument("--seed", type=int, default=21, help="their seed (default 21)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8, 16, 64])
    ap.add_argument("--reach", type=int, nargs="+", default=[1, 2, 4, 8, 12],
                    help="look-ahead reaches to replay, in rounds (default 1 2 4 8 12)")
    ap.add_argument("--threads", type=int, default=2, help="threads for the nodes' pass")
    ap.add_argument("--samples", type=int, default=None, help="a fixed bid of this many deals")
    ap.add_argument("--no-follow", action="store_true",
                    help="also replay without two-phase counts run ahead once their "
                         "questions answer (the -f rows)")
    args = ap.parse_args()
    hands = list(args.hands)
    if args.random:
        from bench_bid import deal_hands

        hands += deal_hands(args.random, args.seed)
    analyze(hands[0], samples=4, seed=1, threads=1)  # compile or load the kernels
    _record()
    table: dict[tuple[str, int], list[float]] = {}
    for hand in hands:
        tr = record(hand, args.samples)
        nodes, rate = costs(tr, args.threads)
        secs = nodes / rate
        one = replay(tr, secs, 1, ROUND)[0]
        waits = sum(ev.t1 - ev.t0 for ev in tr.events)
        longest = max(secs[ev.ids].max() for ev in tr.events if ev.ids)
        print(f"{hand}: {tr.end - tr.begin:.2f} s bid on 1 thread, replayed {one:.2f} s; the "
              f"caller's own {tr.end - tr.begin - waits:.2f} s; {len(tr.rows)} jobs, "
              f"{nodes.sum() / 1e6:.0f} M nodes at {rate / 1e6:.2f} M/s a worker, the "
              f"longest job a batch took {longest:.2f} s", flush=True)
        designs = [("", followers(tr))] + ([("-f", None)] if args.no_follow else [])
        for r in args.reach:
            for tag, follow in designs:
                cells = []
                for w in args.workers:
                    t, unused = replay(tr, secs, w, r * ROUND, follow)
                    table.setdefault((f"{r}{tag}", w), []).append(one / t)
                    cells.append(f"{w}w {t:6.2f} s {one / t:5.2f}x ({unused:4.0%})")
                print(f"  reach {r:2d}{tag:2s}: " + "  ".join(cells), flush=True)
    print("median speed-up over the hands (reach in rounds, -f: --no-follow; x workers):")
    print("reach " + "".join(f"{w:>8d}w" for w in args.workers))
    for row in dict.fromkeys(r for r, _ in table):
        print(f"{row:>5s} " + "".join(f"{statistics.median(table[(row, w)]):8.2f}x"
                                      for w in args.workers))

if __name__ == "__main__":
    main()
