"""The batch solver's work counters (``work_counters``): they grow with the work, add up the
counts of single jobs, do not depend on the thread count, survive a change of thread count
and a finished thread, and reset; ``kernels_cached`` and the ``on_first_compile`` hook."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from boston_sim import cards
from boston_sim.solver import (
    WorkCounters,
    kernels_cached,
    on_first_compile,
    question_job,
    reset_work_counters,
    solve_jobs,
    value_job,
    work_counters,
)

TWO = min(2, numba.config.NUMBA_NUM_THREADS)


def _endings(n: int, size: int, seed: int) -> np.ndarray:
    """``n`` random deals of ``size`` cards a hand (uint64[n, 4])."""
    rng = np.random.default_rng(seed)
    deck = np.array([cards.card_mask(s, r) for s in range(4) for r in range(2, 15)],
                    dtype=np.uint64)
    out = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        picked = rng.permutation(deck)[: 4 * size].reshape(4, size)
        out[i] = np.bitwise_or.reduce(picked, axis=1)
    return out


DEALS = _endings(12, 7, seed=5)
# a mix of games: tricks of a lone declarer and of a pair, a misère, a yes/no question
JOBS = np.array([value_job(i % 5, (i + 1) % 4, 1, "max") if i % 4 == 0
                 else value_job(i % 5, 1, 0b0101, "max") if i % 4 == 1
                 else value_job(4, 1, 1, "min") if i % 4 == 2
                 else question_job(i % 4, 1, 1, "at_least", 3)
                 for i in range(len(DEALS))], dtype=np.int64)


@pytest.fixture
def threads():
    """Set numba's thread count inside a test; restored afterwards."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)


def _counted(deals: np.ndarray, jobs: np.ndarray) -> tuple[np.ndarray, WorkCounters]:
    reset_work_counters()
    out = solve_jobs(deals, jobs)
    return out, work_counters()


def test_reset_starts_from_zero_and_counts_grow_with_the_work() -> None:
    solve_jobs(DEALS[:2], JOBS[:2])
    reset_work_counters()
    assert work_counters() == WorkCounters(0, 0, 0)
    solve_jobs(DEALS[:3], JOBS[:3])
    first = work_counters()
    assert first.jobs == 3 and first.nodes > 0 and first.positions > 0
    solve_jobs(DEALS, JOBS)
    both = work_counters()
    assert both.jobs == 3 + len(DEALS)
    assert both.nodes > first.nodes and both.positions > first.positions
    reset_work_counters()
    assert work_counters() == WorkCounters(0, 0, 0)


def test_the_batch_count_is_the_sum_of_its_jobs_counts() -> None:
    """Each job starts from an empty table, so a job's count is the same alone or in a batch
    (and the batch's is their sum, whichever worker ran which)."""
    _, batch = _counted(DEALS, JOBS)
    alone = [_counted(DEALS[i : i + 1], JOBS[i : i + 1])[1] for i in range(len(DEALS))]
    assert WorkCounters(*(sum(c[k] for c in alone) for k in range(3))) == batch
    assert len({c.nodes for c in alone}) > 1  # the jobs differ in cost: the sum is a real test


def test_same_counts_with_one_and_two_threads(threads) -> None:
    threads(1)
    out1, one = _counted(DEALS, JOBS)
    threads(TWO)
    out2, two = _counted(DEALS, JOBS)
    assert (out1 == out2).all()
    assert one == two


def test_a_change_of_thread_count_keeps_the_work_done_before(threads) -> None:
    """Changing the thread count re-makes the workspaces; their counts are kept."""
    threads(1)
    _, once = _counted(DEALS, JOBS)
    reset_work_counters()
    solve_jobs(DEALS, JOBS)
    threads(TWO)
    solve_jobs(DEALS, JOBS)
    assert work_counters() == WorkCounters(*(2 * x for x in once))


def test_work_of_other_python_threads_is_counted_after_they_end() -> None:
    _, here = _counted(DEALS, JOBS)
    reset_work_counters()
    worker = threading.Thread(target=solve_jobs, args=(DEALS, JOBS))
    worker.start()
    worker.join()
    assert work_counters() == here


def test_a_deadline_counts_only_the_jobs_answered() -> None:
    reset_work_counters()
    out = solve_jobs(DEALS, JOBS, deadline=0.0)  # already past: nothing runs
    assert (out == -1).all()
    assert work_counters() == WorkCounters(0, 0, 0)


def test_compile_hook_runs_only_when_the_kernel_must_compile() -> None:
    solve_jobs(DEALS[:1], JOBS[:1])
    assert kernels_cached()  # compiled (or loaded) in this process now
    calls: list[int] = []
    on_first_compile(lambda: calls.append(1))
    solve_jobs(DEALS[:1], JOBS[:1])
    assert calls == []
    on_first_compile(lambda: calls.append(1))
    on_first_compile(None)
    solve_jobs(DEALS[:1], JOBS[:1])
    assert calls == []


def test_compile_hook_runs_once_before_a_batch_that_compiles(monkeypatch) -> None:
    import boston_sim.solver as solver

    monkeypatch.setattr(solver, "kernels_cached", lambda: False)  # as on a fresh install
    calls: list[int] = []
    on_first_compile(lambda: calls.append(1))
    solve_jobs(DEALS[:1], JOBS[:1])
    solve_jobs(DEALS[:1], JOBS[:1])
    assert calls == [1]
