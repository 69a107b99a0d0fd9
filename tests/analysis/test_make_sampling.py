"""Sampled makes (``make_count_rate``): once a trick search's only open row is its lowest
rung's, as the best bid whose P(make) is still loose, its later deals answer "at least T?"
and only a seeded share of the makes (as of the failures) is counted. The makes' counts are
then a second stratum of the estimator: checked against the rule written out, exactly over
every pattern of coins, and as statistics over many seeds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers import coin_patterns

from boston_sim.analysis import SolveKey, Solver, analyze
from boston_sim.analysis.plan import Candidate
from boston_sim.analysis.solving import MIN_COUNTED, UNCOUNTED, fail_count_uniforms
from boston_sim.analysis.statistics import (
    candidate_stats,
    estimator_terms,
    mark_make,
    marked_floor,
    sample_weights,
)
from boston_sim.cards import parse_hand
from boston_sim.errors import SamplingError
from boston_sim.rules import load_rules
from boston_sim.sampler import Sampler

STRONG = "AKQT9.KJ.QJ2.432"  # spades, lone declarer on lead: makes Boston on 3 deals in 4
FLOOR = 5
EXACT_FIRST = 25  # deals counted exactly before the makes are sampled (a first round)
RATE = 0.25
FAIL_RATE = 0.1
F_OF = np.array([-150.0, -123, -93, -63, -33, 12, 14, 17, 20, 23, 26, 29, 31, 33])


def _terms(t: np.ndarray, f_of: np.ndarray, floor: int, q: np.ndarray) -> np.ndarray:
    """The two strata's terms, written out: a deal of a stratum (failures: a count below
    ``floor`` or -1; makes: the rest) is ``c_i``, plus ``(f(t) - c_i) / q_i`` if counted,
    ``c_i`` the mean f of the *other* counted deals of its stratum (none: f of the
    stratum's fallback, ``floor - 1`` or ``floor``)."""
    made = [x >= floor or x < -1 for x in t]
    y = []
    for i, x in enumerate(t):
        mine = [j for j in range(len(t)) if made[j] == made[i] and t[j] >= 0 and j != i]
        fallback = floor if made[i] else floor - 1
        c = float(np.mean([f_of[t[j]] for j in mine])) if mine else float(f_of[fallback])
        y.append(c + (f_of[x] - c) / q[i] if x >= 0 else c)
    return np.array(y)


def test_sampled_makes_terms_follow_the_rule_and_are_unbiased_over_the_coins():
    """Deals counted for sure (rate 1), then failures and makes each drawn with its own
    rate: every pattern of coins gives the written-out terms, and over the coins their mean
    is each deal's own f(t)."""
    full = np.array([6, 2, 7, 5, 3, 6, 5, 1, 8, 5], dtype=np.int8)
    q = np.array([1, 1, 1, 0.3, 0.3, 0.5, 0.5, 0.3, 0.5, 0.5])
    drawn = [i for i in range(len(full)) if q[i] < 1]
    mean = np.zeros(len(full))
    for t, p in coin_patterns(full, q, drawn,
                              lambda x: mark_make(FLOOR) if x >= FLOOR else UNCOUNTED):
        y = estimator_terms(t, F_OF, FLOOR, q)
        assert y == pytest.approx(_terms(t, F_OF, FLOOR, q))
        mean += p * y
    assert mean == pytest.approx(F_OF[full])


def test_each_stratum_keeps_its_exact_mass_in_the_weighted_distribution():
    """Pictures and CVaR: the counted makes share the makes' mass, the counted failures the
    failures'; an uncounted deal weighs 0; a stratum with none counted lies at its
    fallback (a make at T)."""
    t = np.array([6, mark_make(FLOOR), 5, -1, 2, mark_make(FLOOR), 7], dtype=np.int8)
    q = np.array([1, 0.5, 0.5, 0.2, 0.2, 0.5, 0.5])
    tw, w = sample_weights(t, FLOOR, q)
    made = np.array([1, 1, 1, 0, 0, 1, 1], bool)
    assert w[made].sum() == pytest.approx(made.sum())
    assert w[~made].sum() == pytest.approx((~made).sum())
    assert w.tolist() == pytest.approx([5 / 5, 0, 2 * 5 / 5, 0, 2, 0, 2 * 5 / 5])
    t2 = np.array([mark_make(FLOOR), mark_make(FLOOR), 3], dtype=np.int8)
    tw, w = sample_weights(t2, FLOOR, np.array([0.5, 0.5, 1]))
    assert tw.tolist() == [FLOOR, FLOOR, 3] and w.tolist() == [1, 1, 1]


def test_an_uncounted_make_records_its_floor():
    marks = np.array([mark_make(f) for f in range(1, 14)])
    assert (marks < UNCOUNTED).all()
    assert marked_floor(marks).tolist() == list(range(1, 14))
    assert marked_floor(np.array([-1, 0, 5, 13])).tolist() == [-1, -1, -1, -1]


def _solve(seed: int, n: int, rate: float, sample_from: int | None = EXACT_FIRST,
           named_at: int | None = None, fail_rate: float = FAIL_RATE) -> Solver:
    """The spade search of :data:`STRONG` on ``n`` seeded deals in rounds, its failures
    counted at ``fail_rate``: every make counted on the first ``sample_from``, then a share
    ``rate`` of them (None: never); the key is named at deal ``named_at`` (default
    ``sample_from``), its sampling to start at ``sample_from``. ``rate`` and ``fail_rate``
    1: the exact counts."""
    key = SolveKey(0, 0, 1, -1, "at_least")
    s = Solver([key], 0, floors={key: FLOOR}, fail_rate=fail_rate, seed=seed, make_rate=rate)
    s.add(Sampler(parse_hand(STRONG), 0, seed=seed).draw(n))
    if sample_from is not None:
        named_at = sample_from if named_at is None else named_at
        s.solve_to([key], named_at)
        s.sample_makes(key, sample_from)
        s.solve_to([key], sample_from)
    s.solve_to([key], n)
    return s


def test_sampled_makes_are_drawn_by_their_coins_and_counted_exactly():
    """The pilot sends this search two-phase (a quarter of its deals fail): every deal is
    asked, the failures counted by their coins; once its makes are sampled, a later make is
    counted when its uniform is below the rate, else recorded as an uncounted make of the
    floor. Counted deals have their exact counts, and whether each deal made the floor is
    known on every deal. Counting every make again restores the later makes' counts."""
    key = SolveKey(0, 0, 1, -1, "at_least")
    n, seed = 70, 5
    exact = _solve(seed, n, 1.0, None, fail_rate=1.0)
    sampled = _solve(seed, n, RATE, EXACT_FIRST, named_at=EXACT_FIRST - 10)
    t, r = exact.results[key], sampled.results[key]
    assert sampled.two_phase[key] and sampled.questions == n
    u = fail_count_uniforms(seed, n)
    made = t >= FLOOR
    assert 0.5 < made.mean() < 0.95  # the class this is for: makes are common
    # each stratum's first MIN_COUNTED deals are counted whatever their coins; the makes
    # are drawn from the start on
    rank = np.where(made, np.cumsum(made), np.cumsum(~made))
    drawn = np.where(made, (u < RATE) | (np.arange(n) < EXACT_FIRST), u < FAIL_RATE)
    counted = (rank <= MIN_COUNTED) | drawn
    assert (r[counted] == t[counted]).all()
    assert (r[~counted & made] == mark_make(FLOOR)).all()
    assert (r[~counted & ~made] == UNCOUNTED).all()
    assert (~counted & made).sum() > 0 and (~counted & ~made).sum() > 0
    assert sampled.value_searches == counted.sum()
    rates = sampled.rates[key]
    assert rates[made] == pytest.approx((r[made] >= 0).mean())
    assert rates[~made] == pytest.approx((r[~made] >= 0).mean())
    # back to counting every make: the later deals' makes are all counted
    back = Solver([key], 0, floors={key: FLOOR}, fail_rate=FAIL_RATE, seed=seed, make_rate=RATE)
    back.add(Sampler(parse_hand(STRONG), 0, seed=seed).draw(2 * n))
    back.solve_to([key], EXACT_FIRST)
    back.sample_makes(key, EXACT_FIRST)
    back.solve_to([key], n)
    back.sample_makes(None, n)
    back.solve_to([key], 2 * n)
    assert (back.results[key][:n] == r).all()
    more = back.results[key][n:]
    assert not (more < UNCOUNTED).any() and (more >= FLOOR).sum() > 0


def test_sampled_makes_estimates_are_calibrated():
    """Over 30 seeds: Boston's EV and P(make) (the bid: its P(make) from every deal's
    answer) and the Six's P(make) and EV (a rung above the floor, now estimated from the
    counted makes) spread across seeds as their reported SEs say, and their mean matches an
    exact reference on other deals within 3 SEs. (The worst 5% are one trick short on every
    seed: CVaR does not vary.)"""
    rs = load_rules("boston_foster")
    key = SolveKey(0, 0, 1, -1, "at_least")
    seeds, n, ref_n = 30, 80, 400
    runs = {rung: [] for rung in ("boston", "six")}
    refs = {}
    ref_solver = _solve(10_000, ref_n, 1.0, None, fail_rate=1.0)
    for seed in range(seeds):
        s = _solve(seed, n, RATE)
        for rung in runs:
            cand = Candidate(rung, "S", 0, -1, key)
            vecs = (rs.payment_vector(rung, "S"), rs.net_vector(rung, "S"),
                    rs.rung(rung).success_vector())
            runs[rung].append(candidate_stats(cand, s.results[key], *vecs, 0.0, floor=FLOOR,
                                              q=s.rates[key]))
            refs[rung] = candidate_stats(cand, ref_solver.results[key], *vecs, 0.0,
                                         floor=FLOOR, q=ref_solver.rates[key])
    checks = {"boston": ("ev_net", "p_make"), "six": ("p_make", "ev_net")}
    for rung, fields in checks.items():
        assert all(st.makes_sampled for st in runs[rung])
        for field in fields:
            est = np.array([getattr(st, field) for st in runs[rung]])
            ses = np.array([getattr(st, field + "_se") for st in runs[rung]])
            ratio = est.std(ddof=1) / ses.mean()
            assert 0.75 <= ratio <= 1.33, (rung, field, ratio)
            ref_se = getattr(refs[rung], field + "_se")
            tol = 3 * math.sqrt(est.var(ddof=1) / seeds + ref_se ** 2)
            assert abs(est.mean() - getattr(refs[rung], field)) <= tol, (rung, field)
    # the bid's P(make) is every deal's answer: the same as counting every make
    exact_p = [(_solve(seed, n, 1.0, None, fail_rate=1.0).results[key] >= FLOOR).mean()
               for seed in range(3)]
    assert [st.p_make for st in runs["boston"][:3]] == pytest.approx(exact_p)


@pytest.mark.parametrize("value", [0.0, 1.5, True, "0.5"])
def test_a_make_count_rate_out_of_range_is_refused_before_any_search(value):
    with pytest.raises(SamplingError, match="make_count_rate") as err:
        analyze(STRONG, samples=4, make_count_rate=value)
    assert "\n" not in str(err.value)


BID_HAND = "T93.Q2.AK94.AKQ4"  # eldest: Boston is the bid, its P(make) settles last


@pytest.fixture(scope="module")
def bid_runs():
    return {threads: analyze(BID_HAND, seed=0, threads=threads) for threads in (1, 2)}


def _bid_tricks(a) -> tuple[dict, np.ndarray]:
    row = next(r for r in a.rung_rows if r["rung"] == a.recommended)
    return row, a.tricks[(row["rung"], row["trump"])]


def test_a_default_bid_samples_the_makes_once_only_its_p_make_is_open(bid_runs):
    """The default mode names the bid's search once every other row is settled: its later
    makes are partly uncounted, the note says so, and the same seed gives the same numbers
    on one thread and on two. Counting every make gives the bid the same deals and the same
    P(make) (every deal's yes/no answer, which also decides when the rounds stop)."""
    a = bid_runs[2]
    row, t = _bid_tricks(a)
    assert a.recommended == "boston" and row["target"] == FLOOR
    assert (marked_floor(t) == FLOOR).sum() > 0 and (t >= 0).sum() > 0
    assert any("BOSTON_SIM_MAKE_COUNT_RATE=1" in n for n in a.notes)
    one, two = (json.dumps(r.to_dict(), sort_keys=True) for r in (bid_runs[1], a))
    assert one == two
    every = analyze(BID_HAND, seed=0, threads=2, make_count_rate=1.0)
    row_e, t_e = _bid_tricks(every)
    assert not (t_e < UNCOUNTED).any()
    assert not any("BOSTON_SIM_MAKE_COUNT_RATE" in n for n in every.notes)
    assert len(t) == len(t_e)
    assert ((t >= FLOOR) | (t < UNCOUNTED)).tolist() == (t_e >= FLOOR).tolist()
    assert row["p_make"] == row_e["p_make"]


def test_an_uncounted_make_reads_as_made_for_the_bid_and_undecided_above_it(bid_runs):
    from boston_sim.views.deals import known, made, result_text

    a = bid_runs[2]
    row, t = _bid_tricks(a)
    mark = mark_make(FLOOR)
    six = dict(row, rung="six", target=FLOOR + 1)
    assert result_text(row, mark) == f"{row['trump']} >={FLOOR} made"
    assert result_text(six, mark) == f"{row['trump']} >={FLOOR} undecided"
    assert made(row, np.array([mark])).tolist() == [True]
    assert known(six, np.array([mark, FLOOR + 1, UNCOUNTED])).tolist() == [False, True, True]


def test_the_stopping_rule_reads_a_sampled_rows_p_make_se_from_its_terms():
    """A rung above the floor estimated from the counted makes: its P(make) terms are not 0
    or 1, so a proportion's SE on all the deals would claim more than the deals know."""
    from boston_sim.analysis.rounds import p_make_se
    from boston_sim.analysis.statistics import ac_se

    rs = load_rules("boston_foster")
    key = SolveKey(0, 0, 1, -1, "at_least")
    s = _solve(3, 80, RATE)
    vecs = (rs.payment_vector("six", "S"), rs.net_vector("six", "S"),
            rs.rung("six").success_vector())
    st = candidate_stats(Candidate("six", "S", 0, -1, key), s.results[key], *vecs, 0.0,
                         floor=FLOOR, q=s.rates[key])
    assert st.makes_sampled
    assert p_make_se(st) == st.p_make_se
    assert st.p_make_se > ac_se(round(st.p_make * st.samples), st.samples)


def test_the_look_ahead_changes_no_number_when_the_makes_are_sampled(bid_runs, monkeypatch):
    """The switch stops the counts run ahead from its start on and asks there instead
    (``Ahead.stop_from``, ``Solver._jobs_of``): with the look-ahead two rounds deep (as on
    four workers: past the switch's start) and without any look-ahead the numbers are the
    same."""
    from boston_sim.analysis import rounds

    monkeypatch.setattr(rounds, "WORKERS_PER_ROUND_AHEAD", 1)
    deep = analyze(BID_HAND, seed=0, threads=2)
    monkeypatch.setattr(rounds, "LOOK_AHEAD", False)
    plain = analyze(BID_HAND, seed=0, threads=2)
    want = json.dumps(bid_runs[2].to_dict(), sort_keys=True)
    assert json.dumps(deep.to_dict(), sort_keys=True) == want
    assert json.dumps(plain.to_dict(), sort_keys=True) == want
