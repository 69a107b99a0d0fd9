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


def _solver(hand: str, n: int, floor: int = 5) -> Solver:
    s = Solver(KEYS, 0, floors={TWO_PHASE: floor}, fail_rate=0.25, seed=4, misere_budget=3000,
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


def _finish(s: Solver) -> None:
    """Wait until every job the look-ahead started has answered."""
    for part in s._ahead._parts:
        part.pending.answers(np.arange(len(part.owner)))


def test_jobs_started_rounds_ahead_answer_the_later_rounds():
    """A look-ahead of 40 deals, every job answered before the later rounds: each round
    takes its answers (the third round's too, started before the second), nothing is started
    again, and the numbers are those without it."""
    plain, ahead = _solver(MIXED, 60), _solver(MIXED, 60)
    for s in (plain, ahead):
        s.solve_to(KEYS, 20)
    ahead._start_ahead(KEYS, 20, 60)
    _finish(ahead)  # as if the workers had been idle long enough
    jobs = len(ahead._ahead)
    assert jobs >= 2 * 20  # the two-phase key's questions alone: one a deal
    for n in (40, 50, 60):
        plain.solve_to(KEYS, n)
        ahead.solve_to(KEYS, n, ahead=60)  # as the rounds ask: 60 is as far as they go
        assert len(ahead._ahead) == jobs  # nothing started again: every job had begun
    ahead.drop_ahead()
    assert _state(ahead) == _state(plain)
    assert ahead.taken_ahead == jobs  # every job run ahead was taken, the third round's too


@pytest.mark.parametrize("floor", [5, 2])
def test_counts_start_ahead_once_their_questions_answer(floor):
    """The two-phase key's questions run ahead and answered: the caller, while it waits
    (``Solver._follow``), starts the counts a later round will want of those deals, the
    makes' and the failures' whose coins say count them, before the other jobs run ahead;
    the rounds take them all, and the numbers are those without it. (Spades at 5 tricks:
    failures only; at 2: makes too.)"""
    from boston_sim.analysis.solving import fail_count_uniforms

    plain, ahead = _solver(WEAK, 60, floor), _solver(WEAK, 60, floor)
    for s in (plain, ahead):
        s.solve_to(KEYS, 20)
    assert ahead.two_phase[TWO_PHASE]
    ahead._start_ahead(KEYS, 20, 60)
    _finish(ahead)
    asked = len(ahead._ahead._parts)
    ahead._follow()
    ahead._follow()  # a second look finds nothing new
    counts = ahead._ahead._parts[asked:]
    assert counts and all(p.keys == {TWO_PHASE} and p.pending._ticket.first for p in counts)
    _finish(ahead)
    jobs = len(ahead._ahead)
    for n in (40, 60):
        plain.solve_to(KEYS, n)
        ahead.solve_to(KEYS, n, ahead=60)
        assert len(ahead._ahead) == jobs  # nothing started again
    ahead.drop_ahead()
    assert _state(ahead) == _state(plain)
    assert ahead.taken_ahead == jobs  # every count started ahead was wanted
    t = plain.results[TWO_PHASE][20:60]
    coin = fail_count_uniforms(4, 60)[20:60] < 0.25
    want = 20 + np.flatnonzero((t >= floor) | coin)
    assert sorted(np.concatenate([p.jobs.deal for p in counts]).tolist()) == want.tolist()
    assert ((t < floor) & coin).any() and ((t >= floor).any() == (floor == 2))


def test_a_settled_keys_jobs_started_ahead_stop_and_the_others_go_on():
    plain, ahead = _solver(WEAK, 60), _solver(WEAK, 60)
    for s in (plain, ahead):
        s.solve_to(KEYS, 20)
    ahead._start_ahead(KEYS, 20, 60)
    ahead.stop_ahead([MISERE])
    misere = [p for p in ahead._ahead._parts if MISERE in p.keys]
    assert misere and all(p.pending._ticket.finished.is_set() for p in misere)
    assert MISERE not in ahead._ahead.held and MISERE not in ahead._ahead.covered
    _finish(ahead)
    before = len(ahead._ahead._parts)
    for n in (40, 60):
        plain.solve_to(KEYS[:2], n)
        ahead.solve_to(KEYS[:2], n, ahead=60)
    assert not any(MISERE in p.keys for p in ahead._ahead._parts[before:])
    ahead.drop_ahead()
    assert _state(ahead) == _state(plain)
    assert ahead.taken_ahead > 0


@pytest.mark.parametrize("reach", ["one round", "to the cap"])
@pytest.mark.parametrize("threads", [1, 2])
def test_a_default_bid_is_the_same_with_and_without_the_look_ahead(small_rounds, monkeypatch,
                                                                   threads, reach):
    if reach == "to the cap":  # as on many workers: every later round's jobs queued
        monkeypatch.setattr(small_rounds, "WORKERS_PER_ROUND_AHEAD", 0.01)
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
                started.setdefault(name, []).append(None if ahead is None else len(ahead))
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


@pytest.mark.parametrize(("workers", "reach"), [(1, 20), (2, 20), (4, 30), (16, 40)])
def test_the_look_ahead_reaches_a_round_further_per_two_workers(small_rounds, monkeypatch,
                                                                workers, reach):
    """Rounds of 10 deals to at most 40 (``small_rounds``): the first round queues the jobs
    of the next round on two workers, of the next two on four, of all on sixteen."""
    calls = []
    solve_to = Solver.solve_to

    def spy(self, keys, n, deadline=None, ahead=0):
        calls.append((n, ahead))
        return solve_to(self, keys, n, deadline, ahead)

    monkeypatch.setattr(Solver, "solve_to", spy)
    monkeypatch.setattr(Solver, "workers", property(lambda self: workers))
    analyze(MIXED, seed=8, threads=1)
    assert calls[0] == (10, reach)


class _Ticket:
    """A stand-in for the pool's jobs: the first ``began`` start, each answers its own
    number; abort makes those given up (odd numbers) answer -1."""

    def __init__(self, jobs, began):
        self.n, self.began, self.aborted = len(jobs), began, False

    def cancel(self):
        return min(self.began, self.n)

    def abort(self):
        self.aborted = True

    def answers(self, idx):
        idx = np.asarray(idx)
        return np.where(self.aborted & (idx % 2 == 1), -1, idx).astype(np.int8)

    def nodes(self, idx):
        return 100 * np.asarray(idx, np.int64)

    @property
    def done(self):
        return min(self.began, self.n)

    def answers_given(self):
        out = np.full(self.n, np.iinfo(np.int8).min, np.int8)  # not run
        out[: self.done] = np.arange(self.done)
        return out


def _stand_in(m: int, began: int):
    """An ``Ahead`` over stand-in tickets, whose first ``began`` jobs start; its tickets;
    ``m`` distinct deals and one job row (its fields 0..7) for each."""
    from boston_sim.analysis.ahead import Ahead

    tickets = []

    def start_jobs(hands, jobs):
        tickets.append(_Ticket(jobs, began=began))
        return tickets[-1]

    hands = np.arange(4 * m, dtype=np.uint64).reshape(m, 4)
    return Ahead(start_jobs), tickets, hands, np.tile(np.arange(8, dtype=np.int64), (m, 1))


def test_an_ahead_indexes_the_jobs_that_began_and_holds_the_others():
    from boston_sim.analysis.ahead import Jobs

    ahead, tickets, hands, rows = _stand_in(4, began=2)
    ahead.start(Jobs(hands, rows, np.array([5, 6, 7, 8])), [COUNTED] * 4)
    assert ahead.find(hands, rows).tolist() == [0, 1, -1, -1]  # only two began
    assert ahead.answers(np.array([1, 0])).tolist() == [1, 0]
    assert ahead.nodes(np.array([1])).tolist() == [100]
    later = ahead.take_held(COUNTED, 8)  # held: deals 7 and 8; from deal 8 on: one
    assert later.deal.tolist() == [8] and (later.hands == hands[3]).all()
    assert ahead.take_held(COUNTED, 0) is None  # taken once
    ahead.stop([COUNTED])  # job 1 gave up (-1): no longer found; job 0 stays
    assert tickets[0].aborted
    assert ahead.find(hands, rows).tolist() == [0, -1, -1, -1]


def test_an_ahead_reports_each_answered_question_of_one_key_once():
    from boston_sim.analysis.ahead import Jobs
    from boston_sim.solver import COUNT_OP, OP_FIELD, QUESTION_OP

    ahead, tickets, hands, rows = _stand_in(5, began=3)
    rows[:, OP_FIELD] = [QUESTION_OP, COUNT_OP, QUESTION_OP, QUESTION_OP, COUNT_OP]
    jobs = Jobs(hands, rows, np.arange(10, 15))
    ahead.start(jobs, [TWO_PHASE] * 5)
    ahead.start(jobs, [TWO_PHASE, COUNTED] * 2 + [COUNTED])  # two keys' part: never reported
    (key, asked, ans), = ahead.answered_questions()  # jobs 0-2 answered; 1 is a count
    assert key == TWO_PHASE and asked.deal.tolist() == [10, 12] and ans.tolist() == [0, 2]
    assert (asked.hands == hands[[0, 2]]).all() and (asked.jobs == rows[[0, 2]]).all()
    assert ahead.answered_questions() == []  # reported once
    tickets[0].began = 5
    (_, asked, ans), = ahead.answered_questions()
    assert asked.deal.tolist() == [13] and ans.tolist() == [3]


def test_job_rows_are_matched_by_deal_and_row_without_the_first_guess():
    """Rows made from one row (``job_rows``) match the same jobs started elsewhere, a
    count's first guess left out: the index of jobs started ahead rests on it."""
    from boston_sim.analysis.ahead import _match_keys
    from boston_sim.analysis.solving import TARGET_COLUMN, job_rows
    from boston_sim.solver import question_job, value_job

    hands = np.arange(12, dtype=np.uint64).reshape(3, 4)
    counts = job_rows(value_job(0, 1, 1, "max"), 3)
    assert counts.flags.c_contiguous
    guessed = counts.copy()
    guessed[:, TARGET_COLUMN] = 7
    assert _match_keys(hands, counts) == _match_keys(hands, guessed)
    asks = job_rows(question_job(0, 1, 1, "at_least", 5), 3)
    other = job_rows(question_job(0, 1, 1, "at_least", 6), 3)
    assert len(set(_match_keys(hands, asks))) == 3  # three deals
    assert set(_match_keys(hands, asks)).isdisjoint(_match_keys(hands, other))
