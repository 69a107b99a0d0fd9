"""One search on two workers (``solver._share``): a search reads another worker's table only
for entries of the game it names (their generation), never an entry being written or
overwritten, and answers as it does alone; in the pool, an idle worker joins a long job and
the job's answer is the one a lone search gives, whoever finds it first."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from boston_sim import solver
from boston_sim.cards import parse_hand
from boston_sim.sampler import Sampler
from boston_sim.solver import question_job, solve_jobs, value_job
from boston_sim.solver._driver import new_workspaces, solve_question, solve_value
from boston_sim.solver._layout import (
    K_SERIAL,
    K_SIZE,
    P_FGEN,
    P_FIRST,
    P_FREE,
    P_FROW,
    P_GEN,
    P_HELP_AFTER,
    P_JOINS,
    P_NODES,
    P_POOL,
)
from boston_sim.solver._ttable import position_key, tt_lookup_other, tt_new_game, tt_store
from boston_sim.solver.kernels import new_workspace as lone_workspace
from boston_sim.solver.kernels import run_jobs, to_lanes

NT = 4
HAND = "962.42.A3.KJT962"  # its 1 v 3 clubs questions run to millions of nodes


def _deals(n: int, seed: int) -> np.ndarray:
    return Sampler(parse_hand(HAND), 0, seed=seed).draw(n).deals


def _row(ws: tuple, w: int) -> tuple:
    """Worker ``w``'s workspace in the stacked ``ws``, with the stacked tables."""
    return tuple(a[w] for a in ws) + (ws[0], ws[1])


SEARCHES = [  # (kind, trump, leader, side, mode or kind, target)
    ("value", 3, 0, 1, 0, -1),  # the lone declarer's clubs
    ("value", NT, 0, 1, 0, -1),  # ... at no trump
    ("question", 3, 0, 1, 0, 5),  # at least 5 in clubs
]


def _solve(hl: np.ndarray, search: tuple, ws: tuple) -> int:
    op, trump, leader, side, arg, target = search
    if op == "value":
        return solve_value(hl.copy(), trump, leader, side, arg, -1, *ws)
    return solve_question(hl.copy(), trump, leader, side, arg, target, *ws)


@pytest.mark.parametrize("search", SEARCHES)
def test_a_search_reads_another_workers_table_only_for_the_game_it_names(search) -> None:
    ws = new_workspaces(2, 16)
    P = ws[4]
    fewer = 0
    for hand in to_lanes(_deals(4, 3)):
        a = _solve(hand, search, _row(ws, 0))  # worker 0 fills its table
        game = P[0, P_GEN]
        nodes = []
        for frow, fgen in ((0, 0), (1, game + 1), (1, game)):
            P[1, P_FROW], P[1, P_FGEN] = frow, fgen
            start = P[1, P_NODES]
            assert _solve(hand, search, _row(ws, 1)) == a
            nodes.append(P[1, P_NODES] - start)
        P[1, P_FROW] = 0
        alone, later_game, same_game = nodes
        assert later_game == alone  # entries of another generation are never read
        assert same_game <= alone
        fewer += same_game < alone
    assert fewer >= 2  # the other table's entries are read and settle positions


def test_an_entry_being_written_or_overwritten_is_not_read() -> None:
    ttk, ttd, mv, fr, P, tk, td = lone_workspace(12)
    tt_new_game(P, ttd)
    hl = to_lanes(_deals(1, 4))[0]
    lens, w1, w2 = position_key(hl)
    tt_store(ttk, ttd, P, lens, w1, w2, 0, 0, 0, 1 << 3, 0)
    slot = (P[P_FREE] - 1) & (P[P_POOL] - 1)
    serial = ttk[K_SIZE * slot + K_SERIAL]
    assert tt_lookup_other(tk, td, 0, P[P_GEN], P, lens, w1, w2, 0, 3)[0] == 1
    ttk[K_SIZE * slot + K_SERIAL] = -1  # its owner is writing it
    assert tt_lookup_other(tk, td, 0, P[P_GEN], P, lens, w1, w2, 0, 3)[0] == -1
    ttk[K_SIZE * slot + K_SERIAL] = serial + P[P_POOL]  # a later entry took the slot
    assert tt_lookup_other(tk, td, 0, P[P_GEN], P, lens, w1, w2, 0, 3)[0] == -1
    ttk[K_SIZE * slot + K_SERIAL] = serial
    assert tt_lookup_other(tk, td, 0, P[P_GEN], P, lens, w1, w2, 0, 3)[0] == 1


@pytest.fixture
def two_workers_sharing_every_job():
    """Two solver threads, each job offered to the idle worker at once."""
    before = numba.get_num_threads()
    numba.set_num_threads(2)
    pool = solver._the_pool()
    pool.ws[4][:, P_HELP_AFTER] = 0
    yield pool
    solver.share_searches(True)
    numba.set_num_threads(before)


def test_a_job_joined_by_an_idle_worker_answers_as_a_lone_search(
        two_workers_sharing_every_job) -> None:
    pool = two_workers_sharing_every_job
    deals = _deals(8, 5)
    rows = [value_job(3, 0, 1, "max"), value_job(NT, 0, 1, "max"),
            question_job(3, 0, 1, "at_least", 5), question_job(NT, 0, 1, "at_most", 0)]
    joins, first = (int(pool.ws[4][:, f].sum()) for f in (P_JOINS, P_FIRST))
    for row in rows:
        jobs = np.tile(np.array(row, np.int64), (len(deals), 1))
        alone = run_jobs(to_lanes(deals), jobs, lone_workspace(20))
        # one job at a time: the other worker has nothing to start but to join it
        got = [solve_jobs(deals[i : i + 1], jobs[i : i + 1])[0] for i in range(len(deals))]
        assert got == alone.tolist()
    assert pool.ws[4][:, P_JOINS].sum() - joins >= len(deals)
    assert pool.ws[4][:, P_FIRST].sum() - first >= 1  # a helper's answer was taken
