"""Direct calls of the solver kernels, for tests, benchmarks and tools.

The wrappers in ``boston_sim.solver`` validate hands and run batches; here one search runs
on lane arrays (``to_lanes``) in a workspace the caller keeps, whose counters tell how much
the search did (``Workspace.stats``). Importing this module imports numba.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..config import SOLVER_TT_BITS
from . import JOB_WIDTH, SolverInputError, _driver, to_lanes
from ._driver import HCP_WEIGHT, HCP_WEIGHT_NT, TRUMP_WEIGHT, high_card_estimate
from ._layout import P_ABORT, P_FREE, P_NODES, P_PROBE_NODES, P_TRICKS
from ._search import PROBE_NODES

__all__ = ["HCP_WEIGHT", "HCP_WEIGHT_NT", "PROBE_NODES", "SearchStats", "TRUMP_WEIGHT",
           "Workspace", "ask_lanes", "benchmark_deals", "high_card_estimate", "new_workspace",
           "run_jobs", "solve_lanes", "to_lanes"]

_MODES = {"max": _driver.MODE_MAX, "min": _driver.MODE_MIN}
_KINDS = {"at_least": _driver.KIND_AT_LEAST, "at_most": _driver.KIND_AT_MOST,
          "exactly": _driver.KIND_EXACTLY}


class SearchStats(NamedTuple):
    """What the searches did since the counters were last reset."""

    nodes: int  # expanded nodes (moves generated)
    positions: int  # trick-boundary positions entered below each root


class Workspace(NamedTuple):
    """One worker's scratch: transposition table (key and data words), move buffer, search
    frames and the parameter block, then its table again as the one row of the stacked
    tables (which a pool's workers share, ``_share``). Unpacks (``*ws``) into the kernels'
    last arguments."""

    ttk: np.ndarray
    ttd: np.ndarray
    mv: np.ndarray
    fr: np.ndarray
    P: np.ndarray
    tk: np.ndarray
    td: np.ndarray

    def stats(self) -> SearchStats:
        """The counters of the searches run in this workspace."""
        return SearchStats(int(self.P[P_NODES]), int(self.P[P_TRICKS]))

    def reset_stats(self) -> None:
        self.P[P_NODES] = 0
        self.P[P_TRICKS] = 0

    @property
    def table_entries(self) -> int:
        """Entries stored in the table since the last game started (its serial counter)."""
        return int(self.P[P_FREE])

    @property
    def probe_nodes(self) -> int:
        """The first probing pass's node budget per move (misère defence near the root)."""
        return int(self.P[P_PROBE_NODES])

    @probe_nodes.setter
    def probe_nodes(self, value: int) -> None:
        self.P[P_PROBE_NODES] = value

    def abort(self, flag: bool = True) -> None:
        """Make every search in this workspace give up (-1), or stop doing so."""
        self.P[P_ABORT] = int(flag)


def new_workspace(tt_bits: int = SOLVER_TT_BITS) -> Workspace:
    """A workspace with a table of ``2**tt_bits`` entries (zero pages until touched)."""
    return Workspace(*_driver.new_workspace(tt_bits))


def solve_lanes(hl: np.ndarray, trump: int, leader: int, side: int, ws: Workspace, *,
                mode: str = "max", guess: int = -1) -> int:
    """Tricks of ``side`` under best play on lanes ``hl`` (int64[16], restored on return);
    ``mode="min"``: the misère game. ``guess``: the first target (-1: the driver's)."""
    return int(_driver.solve_value(hl, trump, leader, side, _MODES[mode], guess, *ws))


def ask_lanes(hl: np.ndarray, trump: int, leader: int, side: int, ws: Workspace, *,
              kind: str, target: int) -> int:
    """1 / 0: can ``side`` make sure of ``kind`` (at_least / at_most / exactly) ``target``
    tricks on lanes ``hl``? -1 if the workspace was told to give up (``Workspace.abort``)."""
    return int(_driver.solve_question(hl, trump, leader, side, _KINDS[kind], target, *ws))


def run_jobs(lanes: np.ndarray, jobs: np.ndarray, ws: Workspace) -> np.ndarray:
    """The pool's job loop on one workspace, in this thread: ``out[i]`` answers job row ``jobs[i]``
    (``boston_sim.solver.value_job`` / ``question_job``) on deal ``lanes[i]``."""
    jobs = np.ascontiguousarray(jobs, np.int64)
    if jobs.ndim != 2 or jobs.shape[1] != JOB_WIDTH:  # the kernel reads every column unchecked
        raise SolverInputError(f"job rows have {JOB_WIDTH} fields, got shape {jobs.shape}")
    out = np.empty(len(jobs), dtype=np.int8)
    counter = np.zeros(3, dtype=np.int64)  # jobs taken, jobs done, stop flag
    nodes = np.empty(len(jobs), dtype=np.int64)
    _driver.solve_range_jobs(np.ascontiguousarray(lanes), jobs, counter, out, nodes, *ws,
                             ws.P.reshape(1, -1), -1, 0, -1)
    return out


def benchmark_deals(m: int, seed: int) -> np.ndarray:
    """``m`` random complete deals, uint64[m, 4] (N, E, S, W): the fixed deals of the
    benchmarks and tools (the same seed gives the same deals on every commit)."""
    rng = np.random.default_rng(seed)
    bits = np.array([s * 16 + r for s in range(4) for r in range(2, 15)], dtype=np.uint64)
    out = np.zeros((m, 4), dtype=np.uint64)
    for i in range(m):
        perm = bits[rng.permutation(52)]
        for seat in range(4):
            out[i, seat] = np.bitwise_or.reduce(np.uint64(1) << perm[13 * seat : 13 * seat + 13])
    return out
