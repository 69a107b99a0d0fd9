"""Value jobs told what a question already answered (``value_job(..., floor, ceiling)``):
the count is the same as without, and its search does not prove the known target again."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import searches_unshared

from boston_sim import solver
from boston_sim.solver import SolverInputError, solve_jobs, value_job
from boston_sim.solver.kernels import benchmark_deals

TRUMPS = (0, 3, 4)  # spades, clubs, no trump


@pytest.mark.parametrize("trump", TRUMPS)
def test_a_count_within_known_bounds_is_the_count(trump):
    deals = benchmark_deals(6, 21)
    plain = solve_jobs(deals, np.tile(value_job(trump, 1, 0b0101), (len(deals), 1)))
    for target in range(1, 14):
        made = plain >= target
        rows = [value_job(trump, 1, 0b0101, "max", -1, target, 13) if m
                else value_job(trump, 1, 0b0101, "max", -1, 0, target - 1) for m in made]
        assert solve_jobs(deals, np.array(rows)).tolist() == plain.tolist(), target


def test_the_known_target_is_not_searched_again():
    """Fewer nodes in all than without the bound, on a lone declarer's counts (his target
    is where the search spends; no other worker joins a search: its nodes are its own)."""
    with searches_unshared():
        _fewer_nodes_with_the_known_target()


def _fewer_nodes_with_the_known_target():
    deals = benchmark_deals(8, 22)
    rows = np.tile(value_job(3, 0, 0b0001), (len(deals), 1))
    solver.reset_work_counters()
    plain = solve_jobs(deals, rows)
    without = solver.work_counters().nodes
    target = int(np.median(plain))  # "at least the median?" answered on every deal
    known = np.array([value_job(3, 0, 0b0001, "max", -1, target, 13) if v >= target
                      else value_job(3, 0, 0b0001, "max", -1, 0, target - 1) for v in plain])
    solver.reset_work_counters()
    assert solve_jobs(deals, known).tolist() == plain.tolist()
    assert solver.work_counters().nodes < without


def test_bounds_are_checked_where_jobs_are_made():
    with pytest.raises(SolverInputError, match="floor and ceiling"):
        value_job(4, 0, 1, "max", -1, 5, 4)
    with pytest.raises(SolverInputError, match="floor and ceiling"):
        value_job(4, 0, 1, "max", -1, 0, 14)
    row = np.array(value_job(4, 0, 1, "max", -1, 3, 6))
    row[solver.FLOOR_FIELD] = 7  # above the ceiling: not a row value_job makes
    with pytest.raises(SolverInputError, match="not a row"):
        solve_jobs(benchmark_deals(1, 1), row[None, :])
