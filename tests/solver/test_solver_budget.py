"""Node budgets on yes/no jobs (``question_job(..., budget, tiers)``): a search that expands
more nodes than its budget (times ``TIER_FACTOR`` per tier it may pass) gives up and answers
``OVER_BUDGET``; one that needs fewer answers as without a budget, marked once per tier of the
budget it passed. Where a search stops depends on its own nodes only, so the answers are the
same whatever the thread count or the jobs run before it on the same worker."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import searches_unshared

from boston_sim import solver
from boston_sim.cards import parse_hand
from boston_sim.limits import NODE_BUDGET_MAX
from boston_sim.sampler import Sampler
from boston_sim.solver import (
    FINISH,
    MAX_TIERS,
    OVER_BUDGET,
    PAST_BUDGET,
    TIER_FACTOR,
    SolverInputError,
    question_job,
    solve_jobs,
    value_job,
)

NT = 4
HAND = "T9532.642.53.742"  # misère-like: its escape proofs run to millions of nodes
BUDGET = 20_000


def _deals(n: int, seed: int) -> np.ndarray:
    return Sampler(parse_hand(HAND), 0, seed=seed).draw(n).deals


def _misere(budget: int = 0, tiers: int = 0) -> tuple[int, ...]:
    return question_job(NT, 0, 1, "at_most", 0, budget, tiers)


def _nodes_each(deals: np.ndarray) -> list[int]:
    """Each deal's expanded nodes without a budget, one job at a time (no other worker
    joining its search: ``solver.share_searches``)."""
    out = []
    with searches_unshared():
        for d in deals:
            solver.reset_work_counters()
            solve_jobs(d[None, :], np.array([_misere()]))
            out.append(solver.work_counters().nodes)
    return out


def test_a_search_past_its_budget_gives_up_and_the_others_answer_as_without_one():
    deals = _deals(24, 5)
    full = solve_jobs(deals, np.tile(_misere(), (len(deals), 1)))
    capped = solve_jobs(deals, np.tile(_misere(BUDGET), (len(deals), 1)))
    nodes = _nodes_each(deals)
    over = capped == OVER_BUDGET
    assert over.any() and (~over).any(), "the set should have searches on both sides"
    assert capped[~over].tolist() == full[~over].tolist()
    assert all(n > BUDGET for n, o in zip(nodes, over, strict=True) if o)
    assert all(n <= BUDGET for n, o in zip(nodes, over, strict=True) if not o)


def test_a_search_told_to_finish_marks_exactly_the_ones_that_would_have_given_up():
    deals = _deals(24, 5)
    full = solve_jobs(deals, np.tile(_misere(), (len(deals), 1)))
    capped = solve_jobs(deals, np.tile(_misere(BUDGET), (len(deals), 1)))
    finished = solve_jobs(deals, np.tile(_misere(BUDGET, FINISH), (len(deals), 1)))
    past = finished >= PAST_BUDGET
    assert past.any() and (~past).any(), "the set should have searches on both sides"
    assert past.tolist() == (capped == OVER_BUDGET).tolist()
    assert (finished % PAST_BUDGET).tolist() == full.tolist()
    # on one thread too, after other work on the same worker
    import numba

    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        rows = np.concatenate([np.tile(value_job(NT, 0, 1, "max"), (3, 1)),
                               np.tile(_misere(BUDGET, FINISH), (len(deals), 1))])
        again = solve_jobs(np.concatenate([_deals(3, 9), deals]), rows)[3:]
    finally:
        numba.set_num_threads(old)
    assert again.tolist() == finished.tolist()


def test_tiers_move_where_a_search_gives_up_and_its_marks_count_the_tiers_it_passed():
    deals = _deals(24, 5)
    nodes = np.array(_nodes_each(deals))
    full = solve_jobs(deals, np.tile(_misere(), (len(deals), 1)))
    passed = sum((nodes > BUDGET * TIER_FACTOR**i).astype(int) for i in range(12))
    assert (passed >= 2).any() and (passed == 1).any(), "the set should reach two tiers"
    for tiers in (1, 2, FINISH):
        got = solve_jobs(deals, np.tile(_misere(BUDGET, tiers), (len(deals), 1)))
        gives_up = passed > tiers if tiers != FINISH else np.zeros(len(deals), bool)
        assert (got == OVER_BUDGET).tolist() == gives_up.tolist()
        assert (got[~gives_up] // PAST_BUDGET).tolist() == passed[~gives_up].tolist()
        assert (got[~gives_up] % PAST_BUDGET).tolist() == full[~gives_up].tolist()


def test_where_a_search_stops_does_not_depend_on_the_worker_or_its_earlier_jobs():
    deals = _deals(16, 6)
    rows = np.tile(_misere(BUDGET), (len(deals), 1))
    alone = solve_jobs(deals, rows)
    # the same jobs behind other work (a worker's node count no longer starts at a round
    # number), in reverse order, on one thread and on two
    before = _deals(5, 7)
    mixed_deals = np.concatenate([before, deals[::-1]])
    mixed_rows = np.concatenate([np.tile(value_job(NT, 0, 1, "max"), (5, 1)), rows[::-1]])
    import numba

    for threads in (1, 2):
        old = numba.get_num_threads()
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        try:
            got = solve_jobs(mixed_deals, mixed_rows)[5:][::-1]
        finally:
            numba.set_num_threads(old)
        assert got.tolist() == alone.tolist()


def test_budgets_are_checked_where_jobs_are_made():
    with pytest.raises(SolverInputError, match="budget"):
        question_job(NT, 0, 1, "at_most", 0, -1)
    with pytest.raises(SolverInputError, match="budget"):
        question_job(NT, 0, 1, "at_most", 0, True)
    with pytest.raises(SolverInputError, match="tiers"):
        question_job(NT, 0, 1, "at_most", 0, BUDGET, -2)
    with pytest.raises(SolverInputError, match="tiers"):
        question_job(NT, 0, 1, "at_most", 0, BUDGET, MAX_TIERS + 1)
    with pytest.raises(SolverInputError, match="budget"):
        question_job(NT, 0, 1, "at_most", 0, NODE_BUDGET_MAX + 1)
    row = np.array(_misere(BUDGET, MAX_TIERS))
    row[solver.TIERS_FIELD] = MAX_TIERS + 1  # a row not made by question_job
    with pytest.raises(SolverInputError, match="not a row"):
        solve_jobs(_deals(1, 1), row[None, :])
    row = np.array(value_job(NT, 0, 1, "max"))
    row[solver.BUDGET_FIELD] = 1000  # a value job takes no budget
    with pytest.raises(SolverInputError, match="not a row"):
        solve_jobs(_deals(1, 1), row[None, :])


def test_the_serial_body_takes_whole_rows_only():
    """``kernels.run_jobs`` (tools replay recorded jobs with it) answers as the batch does,
    and refuses rows of another width rather than let the kernel read past them."""
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import new_workspace, run_jobs

    deals = _deals(4, 8)
    rows = np.tile(_misere(BUDGET), (len(deals), 1))
    ws = new_workspace(16)
    assert run_jobs(to_lanes(deals), rows, ws).tolist() == solve_jobs(deals, rows).tolist()
    with pytest.raises(SolverInputError, match="8 fields"):
        run_jobs(to_lanes(deals), rows[:, :6], ws)


def test_a_count_s_ceiling_is_not_read_as_tiers():
    """The tiers column holds a count's known ceiling too: ordering a batch by the tiers a
    job may run must see 0 for every count, whatever its ceiling."""
    rows = np.array([value_job(NT, 0, 1, "max", -1, 0, 4), _misere(BUDGET, 1),
                     _misere(BUDGET, FINISH), _misere(BUDGET), value_job(NT, 0, 1, "max")])
    tiers = solver.tiers_allowed(rows)
    assert tiers.tolist()[0] == 0 and tiers.tolist()[3:] == [0, 0]
    assert 0 < tiers[1] < tiers[2]
