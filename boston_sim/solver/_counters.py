"""The solver's work counters: expanded nodes, trick-boundary positions and jobs answered,
added up over every live workspace (:func:`work_counters`)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import NamedTuple

import numpy as np


class WorkCounters(NamedTuple):
    """How much search work the batch solver did (:func:`work_counters`)."""

    nodes: int  # expanded nodes (moves generated)
    positions: int  # trick-boundary positions entered below each root
    jobs: int  # jobs answered (a job given up at a deadline is not counted)


_counters_lock = threading.Lock()
# the parameter blocks of the live batch workspaces, each with a check of whether its owner
# (a Python thread or a worker pool, held weakly: a pool's tables must be freed once it is
# replaced) still works; the search counts into them, and these wrappers only ever read them
_blocks: list[tuple[Callable[[], bool], np.ndarray]] = []
_retired = [0, 0]  # nodes, positions of workspaces dropped since
_jobs_answered = [0]
_baseline = WorkCounters(0, 0, 0)


def _still_working(owner) -> Callable[[], bool]:
    """Whether ``owner`` (anything with ``is_alive()``) may still count work, asked without
    keeping it alive: a pool gone is a pool whose workers have ended."""
    ref = weakref.ref(owner)

    def alive() -> bool:
        o = ref()
        return o is not None and o.is_alive()
    return alive


def register_counters(P: np.ndarray, old: np.ndarray | None, owner=None) -> None:
    """Follow the new parameter block ``P`` of ``owner`` (this thread, or a worker pool:
    the block retires once ``owner.is_alive()`` is false or the owner is gone); fold the
    dropped ``old`` one's counts into the retired totals (a change of thread count must not
    lose work)."""
    with _counters_lock:
        if old is not None:
            _retire(old)
            _blocks[:] = [(t, b) for t, b in _blocks if b is not old]
        _prune()
        _blocks.append((_still_working(owner or threading.current_thread()), P))


def _prune() -> None:
    """Retire the blocks whose owners no longer work (lock held)."""
    alive = [working() for working, _ in _blocks]
    for (_, b), a in zip(_blocks, alive, strict=True):
        if not a:
            _retire(b)
    _blocks[:] = [tb for tb, a in zip(_blocks, alive, strict=True) if a]


def _retire(P: np.ndarray) -> None:
    from ._layout import P_NODES, P_TRICKS

    _retired[0] += int(P[:, P_NODES].sum())
    _retired[1] += int(P[:, P_TRICKS].sum())


def _totals() -> WorkCounters:
    """The counts since the process started (blocks of finished threads retire here)."""
    from ._layout import P_NODES, P_TRICKS

    with _counters_lock:
        _prune()
        nodes = _retired[0] + sum(int(b[:, P_NODES].sum()) for _, b in _blocks)
        positions = _retired[1] + sum(int(b[:, P_TRICKS].sum()) for _, b in _blocks)
        return WorkCounters(nodes, positions, _jobs_answered[0])


def work_counters() -> WorkCounters:
    """The search work of every batch (:func:`solve_jobs`, :func:`solve_batch`,
    :func:`solve_batch_target`) in this process, over all its threads, since the last
    :func:`reset_work_counters`: expanded nodes, trick-boundary positions, jobs answered.

    The searches count into their workspaces anyway; this only adds them up, so it costs
    the search nothing. Each job starts from an empty table, so with
    :func:`share_searches` off the counts of a set of jobs do not depend on the number of
    threads (on, a worker that joins a long search adds its nodes). A batch still running
    is counted as far as it
    got. The single-deal wrappers (:func:`solve`, :func:`solve_target`) are not counted."""
    now = _totals()
    return WorkCounters(*(a - b for a, b in zip(now, _baseline, strict=True)))


def reset_work_counters() -> None:
    """Start :func:`work_counters` from zero (the workspaces' own counters are left alone:
    the search reads them)."""
    global _baseline
    _baseline = _totals()


def count_answers(out: np.ndarray) -> None:
    """Add the jobs of a batch that answered (a job given up is not counted)."""
    with _counters_lock:
        _jobs_answered[0] += int(np.count_nonzero(out >= 0))
