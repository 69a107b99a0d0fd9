"""The next round's jobs, started while a round ends (``Solver.solve_to``'s ``ahead``): the
rounds take their answers, and no number changes, whatever the next round turns out to be."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boston_sim.analysis import SolveKey, Solver, analyze
from boston_sim.analysis.solving import PILOT
from boston_sim.cards import parse_hand
from boston_sim.sampler import Sampler

WEAK = "QT95.54.T973.J86"
MIXED = "KQJT9.AK.QJ2.432"
TWO_PHASE = SolveKey(0, 1, 1, -1, "at_least")  # spades, floor 5: mostly fails
COUNTED = SolveKey(2, 1, 1, -1, "at_least")  # diamonds, no floor: every deal counted
MISERE = SolveKey(4, 1, 1, -1, "zero")
KEYS = [TWO_PHASE, COUNTED, MISERE]


def _solver(hand: str, n: int) -> Solver:
    s = Solver(KEYS, 0, floors={TWO_PHASE: 5}, fail_rate=0.25, seed=4, misere_budget=3000,
               misere_rate=0.5)
    s.add(Sampler(parse_hand(hand), 0, seed=4).draw(n))
    return s


def _state(s: Solver) -> tuple:
    return ({k: v.tolist() for k, v in s.results.items()},
            {k: v.tolist() for k, v in s.rates.items()},
            {k: v.tolist() for k, v in s.strata.items()},
            s.questions, s.value_searches, s.solves)


@pytest.mark.parametrize("hand", [WEAK, MIXED])
def test_rounds_take_the_answers_started_ahead_and_end_where_they_would(hand):
    plain, ahead = _solver(hand, 60), _solver(hand, 60)
    # rounds: all keys to 20, 40; then the next round shorter and without the misère
    for keys, n, nxt in ((KEYS, 20, 40), (KEYS, 40, 60), (KEYS[:2], 50, 0)):
        plain.solve_to(keys, n)
        ahead.solve_to(keys, n, ahead=nxt)
    ahead.drop_ahead()
    assert _state(ahead) == _state(plain)
    assert ahead.taken_ahead > 0
    assert plain.taken_ahead == 0
    assert plain.two_phase[TWO_PHASE] == ahead.two_phase[TWO_PHASE]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_default_bid_is_the_same_with_and_without_the_look_ahead(small_rounds, monkeypatch,
                                                                   threads):
    taken = []
    retire = Solver._retire

    def spy(self, ahead):
        taken.append(ahead.taken)
        retire(self, ahead)

    monkeypatch.setattr(Solver, "_retire", spy)
    on = analyze(MIXED, seed=8, threads=threads).to_dict()
    assert sum(taken) > 0  # the rounds took answers run ahead
    monkeypatch.setattr(small_rounds, "LOOK_AHEAD", False)
    taken.clear()
    off = analyze(MIXED, seed=8, threads=threads).to_dict()
    assert taken == []
    assert json.dumps(on, sort_keys=True) == json.dumps(off, sort_keys=True)
    assert len({r["samples"] for r in on["rungs"]}) > 1  # rounds that stopped searches
    assert np.isfinite(on["pass_value"])


@pytest.mark.parametrize("threads", [1, 2])
def test_a_first_round_runs_its_misere_searches_and_questions_in_idle_time(monkeypatch,
                                                                          threads):
    """A first round starts its misère searches behind its pilots (``Solver._start_early``)
    and its two-phase questions behind the few counts that come first
    (``Solver._start_questions``); its batches take their answers, and nothing changes."""
    import numba

    if threads > numba.config.NUMBA_NUM_THREADS:
        pytest.skip("numba allows fewer threads here")
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        started: dict[str, list] = {}

        def spying(name):
            start = getattr(Solver, name)

            def spy(self, keys, n):
                ahead = start(self, keys, n)
                started.setdefault(name, []).append(None if ahead is None else len(ahead.jobs))
                return ahead
            return spy

        for name in ("_start_early", "_start_questions"):
            monkeypatch.setattr(Solver, name, spying(name))
        early = _solver(WEAK, 40)
        early.solve_to(KEYS, 40)
        assert early.two_phase[TWO_PHASE] and not early.two_phase.get(COUNTED)
        # every deal the misère must search (the counts' pilot, a round of its own, has
        # none), and the two-phase search's every deal past its pilot
        from boston_sim.solver import sure_misere

        deals = _solver(WEAK, 40).deals[:40]  # the misère key neither discards nor moves cards
        searched = int((~sure_misere(deals, MISERE.side_mask, MISERE.leader)).sum())
        assert 0 < searched <= 40
        assert started == {"_start_early": [searched, None], "_start_questions": [40 - PILOT]}
        for name in ("_start_early", "_start_questions"):
            monkeypatch.setattr(Solver, name, lambda self, keys, n: None)
        plain = _solver(WEAK, 40)
        plain.solve_to(KEYS, 40)
        assert _state(early) == _state(plain)
        assert plain.taken_early == 0 and early.taken_ahead == plain.taken_ahead == 0
    finally:
        numba.set_num_threads(before)
