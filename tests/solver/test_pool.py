"""The worker pool behind every batch: jobs started ahead of need (``start_jobs``) answer as
``solve_jobs`` does, wait behind the batches a caller waits for, and can be cancelled (the
started ones answer, the others never run) or stopped."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from helpers import searches_unshared

from boston_sim import solver
from boston_sim.solver import question_job, solve_jobs, start_jobs, value_job
from boston_sim.solver.kernels import benchmark_deals


@pytest.fixture
def one_worker():
    """One solver thread (one worker) inside a test; restored afterwards."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


@pytest.fixture
def no_sharing():
    """No worker joins another's search inside a test (each job's nodes are its own)."""
    with searches_unshared():
        yield


DEALS = benchmark_deals(40, seed=11)  # full deals: a job takes milliseconds (4 on average)
JOBS = np.array([value_job(i % 5, i % 4, 1 << (i % 4), "max") if i % 3
                 else question_job(i % 5, 1, 1, "at_least", 7) for i in range(len(DEALS))],
                dtype=np.int64)


def test_jobs_started_ahead_answer_as_a_batch_does():
    ref = solve_jobs(DEALS, JOBS)
    pending = start_jobs(DEALS, JOBS)
    got = pending.answers(np.arange(len(JOBS)))
    assert (got == ref).all()
    assert pending.cancel() == len(JOBS)  # nothing was left to cancel


def test_a_cancel_keeps_the_jobs_not_started_from_running(one_worker):
    ref = solve_jobs(DEALS, JOBS)
    pending = start_jobs(DEALS, JOBS)
    started = pending.cancel()
    assert 0 <= started < len(JOBS)
    assert pending.cancel() == started  # the same answer twice
    assert (pending.answers(np.arange(started)) == ref[:started]).all()


def test_a_waited_batch_runs_before_jobs_started_ahead(one_worker):
    """With one worker busy on jobs started ahead, a batch that a caller waits for is answered
    while most of those are still to start: it jumps the queue."""
    ref = solve_jobs(DEALS, JOBS)
    pending = start_jobs(DEALS, JOBS)
    quick = solve_jobs(DEALS[:3], JOBS[:3])
    assert (quick == ref[:3]).all()
    started = pending.cancel()
    assert started < len(JOBS) // 2
    assert (pending.answers(np.arange(started)) == ref[:started]).all()


def test_stopped_jobs_answer_minus_one_or_their_answer():
    ref = solve_jobs(DEALS, JOBS)
    pending = start_jobs(DEALS, JOBS)
    pending.abort()
    started = pending.cancel()
    got = pending.answers(np.arange(started))
    assert ((got == ref[:started]) | (got == -1)).all()


def test_a_closed_pool_still_answers_a_caller_that_held_it():
    """A change of thread count closes the old pool; a caller that took it just before
    submits to it all the same, and its workers start again for that batch."""

    ref = solve_jobs(DEALS[:4], JOBS[:4])
    pool = solver._the_pool()
    pool.close()
    ticket = pool.submit(solver.to_lanes(DEALS[:4]), np.ascontiguousarray(JOBS[:4]))
    assert (pool.wait(ticket) == ref).all()
    assert (solve_jobs(DEALS[:4], JOBS[:4]) == ref).all()  # a fresh pool for later callers


def test_a_change_of_thread_count_frees_the_old_pools_tables(one_worker):
    """Each pool holds a table of hundreds of MB per worker: the one a change of thread
    count replaces must be freed once its workers end (the work counters once kept it, and a
    process that switched counts ran out of memory)."""
    import gc
    import time
    import weakref


    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba allows one thread here")
    solve_jobs(DEALS[:2], JOBS[:2])
    old = weakref.ref(solver._the_pool())
    numba.set_num_threads(2)
    solve_jobs(DEALS[:2], JOBS[:2])  # a new pool; the old one's workers end
    end = time.monotonic() + 10
    while old() is not None and time.monotonic() < end:
        gc.collect()
        time.sleep(0.01)
    assert old() is None


def test_no_two_workers_share_a_cache_line():
    # each worker writes its own rows at every node; a shared 64-byte line would make the
    # cores fight over it (false sharing: two threads 1.6x where two processes were 2.0x)
    from boston_sim.solver._driver import new_workspaces

    for arr in new_workspaces(3, 10):
        for w in range(3):
            lo = arr[w].ctypes.data
            hi = lo + arr[w].nbytes
            assert lo % 64 == 0 and hi % 64 == 0, (arr.shape, w)


@pytest.fixture
def two_workers():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba allows one thread here")
    before = numba.get_num_threads()
    numba.set_num_threads(2)
    yield
    numba.set_num_threads(before)


def _most_workers_on(ticket, seconds: float | None, until=None) -> int:
    """The most workers seen at once on ``ticket``, looked at every 0.2 ms for ``seconds``
    or until ``until()`` is true."""
    import time

    most, end = 0, time.perf_counter() + (seconds or 0.0)
    while (time.perf_counter() < end) if until is None else not until():
        most = max(most, len(ticket.workers))
        time.sleep(0.0002)
    return most


def test_jobs_started_ahead_leave_a_working_caller_a_core_but_not_a_waiting_one(two_workers):
    import threading


    many = np.tile(DEALS, (3, 1))  # about half a second of jobs for two workers
    jobs = np.tile(JOBS, (3, 1))
    ref = solve_jobs(many, jobs)
    pending = start_jobs(many, jobs)
    ticket = pending._ticket
    # the caller is at work (not waiting): one worker runs ahead (a loaded machine may take
    # a while to start it), the other stays free
    import time

    end = time.perf_counter() + 10
    assert _most_workers_on(ticket, None, lambda: ticket.counter[0] > 0
                            or time.perf_counter() > end) <= 1
    assert ticket.counter[0] > 0  # a job was taken while the caller worked
    assert _most_workers_on(ticket, 0.05) <= 1
    seen = []
    watch = threading.Thread(target=lambda: seen.append(
        _most_workers_on(ticket, None, ticket.finished.is_set)))
    watch.start()
    got = pending.answers(np.arange(len(jobs)))  # now it waits: both workers take them
    watch.join()
    assert (got == ref).all()
    assert seen == [2]
    assert solver._the_pool()._waiting == 0


def test_a_batch_reports_each_jobs_nodes_the_same_on_every_run(no_sharing):
    nodes = np.zeros(len(JOBS), np.int64)
    ref = solve_jobs(DEALS, JOBS, nodes=nodes)
    assert (nodes > 0).all()
    again = np.zeros(len(JOBS), np.int64)
    assert (solve_jobs(DEALS[::-1], JOBS[::-1], nodes=again) == ref[::-1]).all()
    assert (again[::-1] == nodes).all()  # each search's own: not the order, not the worker
    pending = start_jobs(DEALS, JOBS)
    pending.answers(np.arange(len(JOBS)))
    assert (pending.nodes(np.arange(len(JOBS))) == nodes).all()


def test_a_first_ticket_goes_before_the_older_ones_of_its_priority():
    from boston_sim.solver._pool import _STOP, AHEAD, NOW, Pool

    pool = Pool(0, None, None, None)  # no workers: which ticket would one take?
    lanes, jobs = solver.to_lanes(DEALS[:2]), np.ascontiguousarray(JOBS[:2])
    old = pool.submit(lanes, jobs, AHEAD)
    assert pool._pick() is old and old.counter[_STOP] == 0
    first = pool.submit(lanes, jobs, AHEAD, first=True)
    assert old.counter[_STOP] == 1  # a worker on it comes back for the first one
    later = pool.submit(lanes, jobs, AHEAD, first=True)
    assert pool._pick() is first and first.counter[_STOP] == 0  # the oldest marked first
    now = pool.submit(lanes, jobs, NOW)
    assert first.counter[_STOP] == 1 and later.counter[_STOP] == 1
    assert pool._pick() is now
    assert {old, later} < set(pool._tickets)


def test_a_caller_is_called_back_while_it_waits_for_a_batch():
    import threading

    ref = solve_jobs(DEALS, JOBS)
    many, jobs = np.tile(DEALS, (8, 1)), np.tile(JOBS, (8, 1))  # over a second of one core
    calls = []
    got = solve_jobs(many, jobs, waiting=lambda: calls.append(threading.get_ident()))
    assert (got == np.tile(ref, 8)).all()
    assert len(calls) >= 2 and set(calls) == {threading.get_ident()}
