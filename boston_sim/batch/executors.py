"""Executors: run the per-hand function over jobs in this process, in local worker processes,
or on a Dask distributed cluster; each yields results in completion order."""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..errors import BostonSimError
from ..limits import clip, clip_words
from .jobs import Job, analyze_one
from .records import HandResult

# Jobs in flight per worker: enough to keep every worker busy, bounded so that a huge input
# file does not become a huge queue.
JOBS_PER_WORKER = 4
DASK_CONNECT_TIMEOUT = "20s"


PARENT_POLL_S = 1.0  # how often a worker checks that the process that started it is alive


def _init_worker(parent: int | None = None) -> None:
    """Worker process start-up: one numba thread per process (the processes are the
    parallelism); set before numba is imported by the first job. No look-ahead
    (``rounds.LOOK_AHEAD``): the other workers fill every core, so jobs run ahead would take
    theirs, and some are never used. Ctrl-C is the parent's to handle (it stops the
    workers), and a worker whose parent died exits."""
    import signal

    os.environ["NUMBA_NUM_THREADS"] = "1"
    from ..analysis import rounds

    rounds.LOOK_AHEAD = False
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        import threading

        threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True,
                         name="boston-sim-parent-watch").start()


def _exit_with_parent(parent: int) -> None:
    """Exit this worker once its parent is gone (killed with SIGKILL, say): a worker left
    behind would hold memory and the caller's pipes for good."""
    import time

    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


@contextlib.contextmanager
def _children_ignore_ctrl_c() -> Iterator[None]:
    """Processes started within (the pool starts its workers in ``submit``) begin with
    Ctrl-C ignored: a worker still importing when Ctrl-C comes must not print a traceback.
    Python keeps an inherited "ignore" at start-up; the parent's handler is back at once."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _stop_workers(ex: Any) -> None:
    """End a pool's worker processes now (Ctrl-C: do not wait for the hands in flight)."""
    for proc in list((getattr(ex, "_processes", None) or {}).values()):
        try:
            proc.terminate()
        except (OSError, AttributeError):
            continue


MAX_CRASHES = 2
"""A hand that was running when a worker process died this many times is reported as failed
(the other hands in flight are simply resubmitted to a fresh pool)."""


class _JobQueue:
    """Jobs taken from an iterator as they are needed (a streamed input is never held
    whole); jobs pushed back (to run again) come out first, the last pushed first."""

    def __init__(self, jobs: Iterable[Job]) -> None:
        self._it = iter(jobs)
        self._back: list[Job] = []

    def __bool__(self) -> bool:
        if not self._back:
            nxt = next(self._it, None)
            if nxt is None:
                return False
            self._back.append(nxt)
        return True

    def pop(self) -> Job:
        return self._back.pop() if self._back else next(self._it)

    def append(self, job: Job) -> None:
        self._back.append(job)

    def extend(self, jobs: Iterable[Job]) -> None:
        self._back.extend(jobs)


def _run_local(jobs: Iterable[Job], workers: int,
               fn: Callable[[Job], HandResult]) -> Iterator[HandResult]:
    pending = iter(jobs)
    first = list(itertools.islice(pending, 2))
    if workers <= 1 or len(first) <= 1:
        for j in itertools.chain(first, pending):
            yield fn(j)
        return
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # spawn, not fork: the parent may hold numba / threading state that must not be copied
    ctx = mp.get_context("spawn")
    queue = _JobQueue(itertools.chain(first, pending))  # in input order
    window = JOBS_PER_WORKER * workers
    crashes: dict[int, int] = {}
    while queue:
        ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                                 initargs=(os.getpid(),))
        running: dict[Any, Job] = {}
        broken = False
        completed = False
        try:
            while queue or running:
                with _children_ignore_ctrl_c():
                    while queue and len(running) < window:
                        j = queue.pop()
                        running[ex.submit(fn, j)] = j
                finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for fut in finished:
                    j = running.pop(fut)
                    try:
                        res = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        crashes[j.index] = crashes.get(j.index, 0) + 1
                        if crashes[j.index] >= MAX_CRASHES:
                            yield HandResult(j.index, j.line,
                                             error="a worker process died while analysing "
                                                   "this hand")
                        else:
                            queue.append(j)
                        continue
                    yield res
                if broken:
                    # every other job in flight is lost with the pool: run them again
                    queue.extend(running.values())
                    running.clear()
                    break
            completed = True
        finally:
            if not completed and not broken:
                # Ctrl-C, or the consumer stopped early: end the workers now; the pool marks
                # every future broken (cancelling them first would trip the pool's own
                # manager thread into a traceback)
                _stop_workers(ex)
                ex.shutdown(wait=True)
            else:
                for fut in running:
                    fut.cancel()
                ex.shutdown(wait=completed and not broken, cancel_futures=True)


def _run_dask(jobs: Iterable[Job], address: str,
              fn: Callable[[Job], HandResult]) -> Iterator[HandResult]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BostonSimError(
            "--scheduler needs dask.distributed: pip install 'boston-sim[dask]'"
        ) from None
    # a Client that failed to connect is closed by its __del__, which takes the lock that a
    # new Client's event loop holds while it starts: collect it here, never inside that
    gc.collect()
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except Exception as e:  # noqa: BLE001 (ValueError: not an address; under load
        # distributed has also failed with a bare AssertionError: any failure to connect is
        # the user's address or network, reported in one line)
        raise BostonSimError(f"cannot reach the Dask scheduler at {clip(address)}: "
                             f"{clip_words(str(e)) or type(e).__name__}") from None
    try:
        n = max(1, sum(client.nthreads().values()))
        window = JOBS_PER_WORKER * n
        pending = iter(jobs)
        # pure=False: every job is submitted once; the key never collides between runs
        submitted: dict[str, Job] = {}

        def submit(j: Job) -> Any:
            fut = client.submit(fn, j, pure=False)
            submitted[fut.key] = j
            return fut

        ac = as_completed([submit(j) for j in _take(pending, window)])
        for fut in ac:
            j = submitted.pop(fut.key)
            try:
                res = fut.result()
            except Exception as e:  # e.g. KilledWorker: the hand crashed workers repeatedly
                res = HandResult(j.index, j.line,
                                 error=f"dask: {type(e).__name__}: {' '.join(str(e).split())}")
            fut.release()
            yield res
            nxt = next(pending, None)
            if nxt is not None:
                ac.add(submit(nxt))
    finally:
        client.close()


def _take(it: Iterator[Job], n: int) -> list[Job]:
    out = []
    for x in it:
        out.append(x)
        if len(out) >= n:
            break
    return out


def execute(jobs: Iterable[Job], *, workers: int | None = None, scheduler: str | None = None,
            fn: Callable[[Job], HandResult] = analyze_one) -> Iterator[HandResult]:
    """Run ``fn`` over ``jobs`` (any iterable: taken as workers are free, at most
    :data:`JOBS_PER_WORKER` per worker in flight); yields results in completion order."""
    if scheduler:
        return _run_dask(jobs, scheduler, fn)
    return _run_local(jobs, workers or default_workers(), fn)


def default_workers() -> int:
    """All cores available to this process."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
