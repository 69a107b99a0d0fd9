"""A batch runs the jobs of the keys whose earlier jobs cost the most nodes first
(``solving.JobCosts``), so that the cheap ones fill the workers' last gaps; the answers are
the same in any order."""

from __future__ import annotations

import numpy as np

from boston_sim import solver
from boston_sim.analysis import SolveKey, Solver
from boston_sim.analysis.solving import JobCosts, _Batch
from boston_sim.cards import parse_hand
from boston_sim.sampler import Sampler

CHEAP = SolveKey(0, 1, 1, -1, "at_least")
DEAR = SolveKey(2, 1, 1, -1, "at_least")


def _rows(key: SolveKey, n: int, count: bool = True) -> np.ndarray:
    row = (solver.value_job(key.strain, key.leader, key.side_mask, "max") if count
           else solver.question_job(key.strain, key.leader, key.side_mask, "at_least", 5))
    return np.tile(np.asarray(row, np.int64), (n, 1))


def test_the_dearest_keys_jobs_go_first_and_an_unknown_key_last():
    costs = JobCosts()
    costs.learn(CHEAP, _rows(CHEAP, 3), np.array([5, 6, 7]), np.array([10, 20, 30]))
    costs.learn(DEAR, _rows(DEAR, 2), np.array([5, -1]), np.array([900, 1]))  # -1: cut
    assert costs.expected(DEAR, _rows(DEAR, 1))[0] == 900
    # a key's questions are priced by its counts while it has none of its own
    assert costs.expected(CHEAP, _rows(CHEAP, 1, count=False))[0] == 20
    other = SolveKey(3, 1, 1, -1, "at_least")
    deals = Sampler(parse_hand("AKQT5.K82.A7.QJ3"), 0, seed=2).draw(4).deals
    batch = _Batch()
    for key in (other, CHEAP, DEAR):
        batch.add(key, deals, _rows(key, 4), np.arange(4), np.empty(0, np.int8))
    _, jobs = batch.arrays(solver, costs)
    strains = jobs[:, 0].tolist()
    assert strains == [DEAR.strain] * 4 + [CHEAP.strain] * 4 + [other.strain] * 4


def test_a_solvers_results_do_not_depend_on_what_it_learnt_of_costs():
    hand = "KQJT9.AK.QJ2.432"
    keys = [CHEAP, DEAR, SolveKey(4, 1, 1, -1, "zero")]
    runs = []
    for learn in (True, False):
        s = Solver(keys, 0, seed=4)
        s.add(Sampler(parse_hand(hand), 0, seed=4).draw(30))
        if not learn:
            s.costs.learn = lambda *args: None
        s.solve_to(keys, 10)
        s.solve_to(keys, 30)
        assert (s.costs.expected(DEAR, _rows(DEAR, 1))[0] > 0) == learn
        runs.append({k: v.tolist() for k, v in s.results.items()})
    assert runs[0] == runs[1]
