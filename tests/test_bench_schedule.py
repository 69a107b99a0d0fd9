"""The schedule replay of ``benchmarks/bench_schedule.py`` (what PERFORMANCE's many-worker
figures rest on), on small traces whose wall times can be worked out by hand."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest
from conftest import REPO_ROOT

_spec = importlib.util.spec_from_file_location(
    "bench_schedule", REPO_ROOT / "benchmarks" / "bench_schedule.py")
bench = sys.modules["bench_schedule"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

K, L = "key K", "key L"


def _trace(events, look=None, end=None):
    tr = bench.Trace(events=events, look=look or {})
    tr.begin = 0.0
    tr.end = events[-1].t1 if end is None else end
    return tr


def _batch(t0, t1, ids, then=False, keys=(), lo=0):
    return bench.Event(t0, t1, "batch", ids=list(ids), keys=frozenset(keys), lo=lo, then=then)


@pytest.mark.parametrize(("workers", "wall"), [(1, 4.0), (2, 2.0), (3, 2.0), (4, 1.0)])
def test_a_batch_of_equal_jobs_takes_its_jobs_over_the_workers(workers, wall):
    tr = _trace([_batch(0.0, 4.0, range(4))])
    assert bench.replay(tr, np.ones(4), workers, 0)[0] == pytest.approx(wall)


def test_the_callers_own_time_adds_between_batches():
    # a batch of one 1 s job, 0.5 s of scoring, another; the answer's last 0.25 s
    tr = _trace([_batch(0.0, 1.0, [0]), _batch(1.5, 2.5, [1])], end=2.75)
    assert bench.replay(tr, np.ones(2), 2, 0)[0] == pytest.approx(2.75)


@pytest.mark.parametrize(("reach", "wall", "unused"), [(0, 4.0, 0.0), (2, 3.0, 0.0),
                                                       (3, 3.0, 1 / 5)])
def test_jobs_run_ahead_fill_a_batchs_idle_worker(reach, wall, unused):
    """Batch 1 is one 2 s job; jobs 1-3 (1 s each, deals 0-2 of key K) are queued ahead
    behind it, within the reach; batch 2 wants jobs 1 and 2, then the caller works 1 s. On
    two workers the second runs them while the first job runs; job 3, run ahead only with a
    reach of 3 deals, is unused: 1 s of the workers' 5."""
    look = {1: (K, 0, 0), 2: (K, 1, 1), 3: (K, 2, 2)}
    tr = _trace([_batch(0.0, 2.0, [0], then=True, keys={K}), _batch(2.0, 4.0, [1, 2])], look,
                end=5.0)
    got = bench.replay(tr, np.array([2.0, 1.0, 1.0, 1.0]), 2, reach)
    assert got == pytest.approx((wall, unused))


def test_a_stop_ends_a_settled_keys_jobs_run_ahead_and_a_later_batch_runs_them_again():
    """Job 1 (key L, 4 s) runs ahead behind batch 1 (a 1 s job); the stop at 1 s gives it up
    and frees its worker; batch 2 wants it after all and runs it whole: 1 + 4 s."""
    look = {1: (L, 0, 0)}
    events = [_batch(0.0, 1.0, [0], then=True, keys={L}),
              bench.Event(1.0, 1.0, "stop", keys=frozenset({L})),
              _batch(1.0, 5.0, [1])]
    wall, unused = bench.replay(_trace(events, look), np.array([1.0, 4.0]), 2, 5)
    assert wall == pytest.approx(5.0)
    assert unused == pytest.approx(1.0 / 6.0)  # 1 s of its first start, of 6 s busy


def test_a_count_followed_ahead_starts_once_its_question_answers():
    """``follow``: job 2 (the count of job 1's question) runs ahead once job 1, run ahead,
    has answered, so batch 2, which wants both, has nothing left to wait for."""
    look = {1: (K, 0, 0)}
    tr = _trace([_batch(0.0, 3.0, [0], then=True, keys={K}), _batch(3.0, 5.0, [1, 2])], look)
    secs = np.array([3.0, 1.0, 1.0])
    assert bench.replay(tr, secs, 2, 5)[0] == pytest.approx(4.0)  # the count waits for batch 2
    assert bench.replay(tr, secs, 2, 5, {1: 2})[0] == pytest.approx(3.0)
