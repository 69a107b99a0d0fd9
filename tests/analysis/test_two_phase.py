"""Two-phase trick searches (``fail_count_rate``): every deal answers "at least T?", only the
makes and a seeded random share of the failures are counted exactly, and the estimates stay
unbiased with honest standard errors (checked as statistics, over many seeds)."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest
from helpers import coin_patterns

from boston_sim.analysis import SolveKey, Solver, analyze
from boston_sim.analysis.plan import Candidate
from boston_sim.analysis.solving import MIN_COUNTED, PILOT, UNCOUNTED, fail_count_uniforms
from boston_sim.analysis.statistics import candidate_stats, se
from boston_sim.cards import parse_hand
from boston_sim.config import FAIL_COUNT_RATE, TWO_PHASE_MIN_FAIL_SHARE
from boston_sim.rules import load_rules
from boston_sim.sampler import Sampler

SNAPSHOTS = Path(__file__).resolve().parents[1] / "data" / "bid_snapshots"
WEAK = "QT95.54.T973.J86"
MIDDLING = "AK8.KT73.KQ932.9"
MIXED = "KQJT9.AK.QJ2.432"
CLOSE = "AKJT9.K2.Q72.432"  # spades: N on lead makes 5 on about 30% of deals
Q = 0.25
# the estimates whose spread across seeds is checked against their reported SEs
CALIBRATED = (("ev_net", "ev_net_se"), ("p_make", "p_make_se"), ("p_loss_gt", "p_loss_se"),
              ("cvar5", "cvar5_se"))


def _solve(hand: str, key: SolveKey, floor: int, n: int, seed: int, q: float) -> Solver:
    """One trick search of a lone declarer at N on ``n`` seeded deals."""
    s = Solver([key], 0, floors={key: floor}, fail_rate=q, seed=seed)
    s.add(Sampler(parse_hand(hand), 0, seed=seed).draw(n))
    s.solve_to([key], n)
    return s


@pytest.mark.parametrize(("name", "hand", "seat", "rules"), [
    ("bid_1_boston_foster.json", "AK8.KT73.KQ932.9", "second", "boston_foster"),
    ("bid_5_solo_whist_foster.json", "AQJT9.AK.KJ2.432", "eldest", "solo_whist_foster"),
])
def test_counting_every_failure_reproduces_the_exact_snapshots(name, hand, seat, rules):
    """fail_count_rate = 1 is today's exact analysis: the JSON written by the exact code
    (tools/bid_snapshot.py) comes back number for number."""
    extra = {"turnup": "S2"} if rules == "solo_whist_foster" else {}
    a = analyze(hand, seat=seat, rules=rules, samples=24, seed=7, fail_count_rate=1.0, **extra)
    got = json.loads(json.dumps(a.to_dict()))
    assert got == json.loads((SNAPSHOTS / name).read_text(encoding="utf-8"))


def test_counting_every_failure_gives_the_exact_counts_of_its_deals():
    """Independently of the snapshots: with fail_count_rate = 1 every trick row's per-deal
    counts are the double-dummy values of the analysis' own deals (``solve_batch``, the
    lone declarer against the three others, the rung's leader on lead)."""
    from boston_sim.analysis.plan import leader_seat
    from boston_sim.cards import parse_strain
    from boston_sim.solver import solve_batch

    hand = "AK8.KT73.KQ932.9"
    a = analyze(hand, seat="second", samples=24, seed=7, fail_count_rate=1.0)
    rs = load_rules("boston_foster")
    mine = int(parse_hand(hand))
    declarer = next(k for k in range(4) if int(a.deals[0][k]) == mine)
    checked = 0
    for (rung_id, trump), t in a.tricks.items():
        rung = rs.rung(rung_id)
        if rung.kind != "at_least" or trump is None:
            continue
        exact = solve_batch(a.deals, parse_strain(trump), leader_seat(rung.leader, declarer),
                            1 << declarer)
        assert np.asarray(t).tolist() == exact.tolist(), (rung_id, trump)
        checked += 1
    assert checked >= 4  # a trick rung in each suit at least


def _counted(t: np.ndarray, floor: int, q: float, seed: int) -> np.ndarray:
    """The counting rule written out from the exact counts ``t``: a search whose first
    :data:`PILOT` deals mostly failed ``floor`` counts its makes, its first
    :data:`MIN_COUNTED` failures and each later failure whose uniform is below ``q``; any
    other search counts every deal."""
    failed = t < floor
    if np.mean(failed[:PILOT]) < TWO_PHASE_MIN_FAIL_SHARE:
        return np.ones(len(t), dtype=bool)
    rank = np.cumsum(failed)
    return ~failed | (rank <= MIN_COUNTED) | (fail_count_uniforms(seed, len(t)) < q)


def _rate(t: np.ndarray, floor: int, counted: np.ndarray) -> float:
    """The share of the failures that were counted."""
    failed = t < floor
    return float((failed & counted).sum() / failed.sum()) if failed.any() else 1.0


def test_only_makes_and_drawn_failures_are_counted_and_they_are_exact():
    """On a weak hand: the pilot's questions fail, so the search goes two-phase; it counts
    exactly the deals that made T, its first few failures and those whose uniform is below
    q, with the exact counts; the others are recorded as uncounted failures, and far fewer
    value searches run (a deterministic count, not a time)."""
    key = SolveKey(0, 0, 1, -1, "at_least")
    n, seed = 28, 3
    exact = _solve(WEAK, key, 5, n, seed, 1.0)
    two = _solve(WEAK, key, 5, n, seed, Q)
    t, r = exact.results[key], two.results[key]
    assert (t[:PILOT] < 5).mean() >= TWO_PHASE_MIN_FAIL_SHARE
    counted = _counted(t, 5, Q, seed)
    assert (r[counted] == t[counted]).all()
    assert (r[~counted] == UNCOUNTED).all()
    assert (r[: PILOT][t[: PILOT] < 5] >= 0).sum() >= min(MIN_COUNTED, (t[:PILOT] < 5).sum())
    assert two.rates[key].tolist() == [_rate(t, 5, counted)] * n
    assert exact.rates[key].tolist() == [1.0] * n
    assert exact.value_searches == n and exact.questions == 0
    assert two.questions == n
    assert two.value_searches == counted.sum() < n // 2
    assert exact.solves == two.solves == n
    assert fail_count_uniforms(seed, 5).tolist() == fail_count_uniforms(seed, n)[:5].tolist()


def _terms(t: np.ndarray, f_of: np.ndarray, floor: int, q) -> np.ndarray:
    """The estimator's terms, written out: a make counts f(t); a failure c_i, plus
    (f(t) - c_i) / q_i if counted, c_i the mean f of the *other* counted failures
    (``q``: one rate or one per deal)."""
    qs = np.broadcast_to(np.asarray(q, float), (len(t),))
    fails = [j for j, x in enumerate(t) if 0 <= x < floor]
    y = []
    for i, x in enumerate(t):
        if x >= floor:
            y.append(f_of[x])
            continue
        others = [f_of[t[j]] for j in fails if j != i]
        c = float(np.mean(others)) if others else float(f_of[floor - 1])
        y.append(c + (f_of[x] - c) / qs[i] if x >= 0 else c)
    return np.array(y)


@pytest.mark.parametrize("t", [
    [6, 5, -1, -1, 2, 3, -1, 7],  # several counted failures
    [6, -1, 3, 8, -1],  # one: its own c falls back to f(T - 1), the others' is its f
    [7, -1, -1, 5],  # none counted
    [9, 6, 5],  # no failure
])
def test_estimator_terms_follow_the_written_out_rule(t):
    from boston_sim.analysis.statistics import estimator_terms

    t = np.array(t, dtype=np.int8)
    f_of = np.array([-150.0, -123, -93, -63, -33, 12, 14, 17, 20, 23, 26, 29, 31, 33])
    for q in (0.25, 0.6):
        assert estimator_terms(t, f_of, 5, q) == pytest.approx(_terms(t, f_of, 5, q))
    assert estimator_terms(t[t >= 0], f_of, 5, 1.0).tolist() == f_of[t[t >= 0]].tolist()


def test_exactly_counted_failures_enter_with_rate_one():
    """Mixed rates (some deals counted for sure, then coin-drawn ones): a sure deal's term
    is its own f(t); a drawn failure's weighs (f - c_i) by 1/q; and over the coins the
    terms' mean is E[f] (enumerated: every pattern of counted two-phase failures). Every
    make is counted (its rate 1)."""
    from boston_sim.analysis.statistics import estimator_terms

    f_of = np.array([-150.0, -123, -93, -63, -33, 12, 14, 17, 20, 23, 26, 29, 31, 33])
    full = np.array([2, 6, 3, 1, 4, 7, 2, 0], dtype=np.int8)
    q = np.array([1, 1, 1, 0.3, 0.3, 1, 0.3, 0.3])
    y = estimator_terms(full, f_of, 5, q)
    assert y == pytest.approx(_terms(full, f_of, 5, q))
    assert y[:3].tolist() == f_of[full[:3]].tolist()
    lots = [i for i in range(len(full)) if q[i] < 1 and full[i] < 5]
    mean = np.zeros(len(full))
    for t, p in coin_patterns(full, q, lots, lambda _: UNCOUNTED):
        yt = estimator_terms(t, f_of, 5, q)
        assert yt == pytest.approx(_terms(t, f_of, 5, q))
        mean += p * yt
    assert mean == pytest.approx(f_of[full])


def test_the_estimates_are_the_means_of_the_weighted_terms():
    """Every figure of a two-phase row from its per-sample tricks (:func:`_terms`); the mean
    is the ratio estimate (failures at the counted failures' mean), P(make) stays exact and
    the trick distribution puts the exact failure share below T."""
    q = 0.5
    a = analyze(MIXED, seat="second", samples=30, seed=4, fail_count_rate=q)
    ref = analyze(MIXED, seat="second", samples=30, seed=4, fail_count_rate=1.0)
    assert any("random 50% of the later" in n for n in a.notes)
    assert not any("random" in n for n in ref.notes)
    floor = 5  # boston, the lowest trick rung of the spade search
    rows = a.rungs.set_index("rung")
    for rung in ("boston", "eight"):
        row = rows.loc[rung]
        t = a.tricks[(rung, row["trump"])]
        exact = ref.tricks[(rung, row["trump"])]
        kept = _counted(exact, floor, q, 4)
        assert (t[kept] == exact[kept]).all() and (t[~kept] == UNCOUNTED).all()
        net = a.rules.net_vector(rung, row["trump"], {})
        rates = np.full(len(t), _rate(exact, floor, kept))
        y = _terms(t, net, floor, rates)
        assert row["ev_net"] == pytest.approx(y.mean())
        assert row["ev_net_se"] == pytest.approx(y.std(ddof=1) / math.sqrt(len(y)))
        counted = (t >= 0) & (t < floor)
        if counted.sum() >= 2 and (rates == rates[-1]).all():
            ratio = (net[t[t >= floor]].sum() + (t < floor).sum() * net[t[counted]].mean())
            assert row["ev_net"] == pytest.approx(ratio / len(t))
        assert row["p_make"] == ref.rungs.set_index("rung").loc[rung, "p_make"]
        dist = np.asarray(row["trick_distribution"])
        assert dist.sum() == pytest.approx(1.0)
        assert dist[floor:] == pytest.approx(np.bincount(exact, minlength=14)[floor:] / 30)
        assert dist[:floor].sum() == pytest.approx((exact < floor).mean())
    if a.recommended not in ("pass", None) and a.runner_up != "pass":
        d = a.payoffs[a.recommended] - a.payoffs[a.runner_up]
        assert a.diff_se == pytest.approx(se(d))
    # the pictures get the counted deals' real net results, weighted
    trump = {r["rung"]: r["trump"] for r in a.rung_rows}
    for rung, (values, w) in a.payoff_samples.items():
        assert w.sum() == pytest.approx(len(a.payoffs[rung]))  # the failures' exact mass
        assert np.isin(values, a.rules.net_vector(rung, trump[rung], {})).all()


def test_two_phase_default_mode_does_not_depend_on_threads():
    one = analyze(MIDDLING, samples=16, seed=9, threads=1, fail_count_rate=Q).to_dict()
    two = analyze(MIDDLING, samples=16, seed=9, threads=2, fail_count_rate=Q).to_dict()
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_a_cut_two_phase_batch_keeps_its_solved_prefix(monkeypatch):
    """A time limit cutting phase A (or phase B) leaves the search its results up to the first
    deal left unanswered, equal to an uncut run's; it goes on from there."""
    from boston_sim import solver

    key = SolveKey(0, 0, 1, -1, "at_least")
    n = PILOT + 12
    full = _solve(WEAK, key, 5, n, 3, Q)
    part = Solver([key], 0, floors={key: 5}, fail_rate=Q, seed=3)
    part.add(Sampler(parse_hand(WEAK), 0, seed=3).draw(n))
    part.solve_to([key], PILOT)
    real = solver.solve_jobs
    calls = []

    def cut_off(hands, jobs, deadline=None, progress=None, started=None, nodes=None,
                waiting=None):
        out = real(hands, jobs, progress=progress, started=started, nodes=nodes)
        calls.append(len(out))
        if len(calls) == 1:
            out[7] = -1  # phase A, the eighth deal past the pilot
        return out

    monkeypatch.setattr(solver, "solve_jobs", cut_off)
    part.solve_to([key], n, deadline=time.perf_counter() + 3600)
    assert part.questions == PILOT + 7  # the pilot failed: the later deals were asked
    assert len(part.results[key]) == PILOT + 7
    assert (part.results[key] == full.results[key][: PILOT + 7]).all()
    monkeypatch.setattr(solver, "solve_jobs", real)
    part.solve_to([key], n)
    assert (part.results[key] == full.results[key]).all()
    assert (part.rates[key] == full.rates[key]).all()


def test_a_search_whose_pilot_made_stays_exact():
    """The pilot rule: a search whose pilot mostly made its floor asks no question past it
    and counts every deal, as with q = 1; one that mostly failed asks every deal."""
    key = SolveKey(0, 0, 1, -1, "at_least")
    n = 3 * PILOT
    exact = _solve(MIXED, key, 5, n, 3, 1.0)
    assert (exact.results[key][:PILOT] < 5).mean() < TWO_PHASE_MIN_FAIL_SHARE
    two = _solve(MIXED, key, 5, n, 3, Q)
    assert two.questions == PILOT and two.value_searches == n
    assert (two.results[key] == exact.results[key]).all()
    assert two.rates[key].tolist() == [1.0] * n
    # the same hand, a floor it mostly fails: the later deals are asked
    high = _solve(MIXED, key, 11, n, 3, Q)
    assert (high.results[key][:PILOT] < 11).mean() >= TWO_PHASE_MIN_FAIL_SHARE
    assert high.questions == n


def _calibration(hand: str, strain: str, rung_id: str, floor: int, seeds: int, n: int,
                 ref_n: int, q: float = Q,
                 fields: tuple[str, ...] = tuple(f for f, _ in CALIBRATED)) -> None:
    """Over ``seeds`` analyses of ``n`` deals with rate ``q``: the spread of the estimates
    across seeds matches their mean reported SE, and their mean is within 3 SEs of an exact
    (q = 1) reference on ``ref_n`` other deals."""
    rs = load_rules("boston_foster")
    rung = rs.rung(rung_id)
    strain_i = "SHDC".index(strain)
    key = SolveKey(strain_i, 0, 1, -1, "at_least")
    cand = Candidate(rung_id, strain, strain_i, -1, key)
    vecs = (rs.payment_vector(rung_id, strain), rs.net_vector(rung_id, strain),
            rung.success_vector())

    def stats(s: Solver):
        return candidate_stats(cand, s.results[key], *vecs, 0.0, floor=floor, q=s.rates[key])

    runs = [stats(_solve(hand, key, floor, n, seed, q)) for seed in range(seeds)]
    ref = stats(_solve(hand, key, floor, ref_n, 10_000, 1.0))
    for field, se_field in CALIBRATED:
        if field not in fields:
            continue
        est = np.array([getattr(r, field) for r in runs])
        ses = np.array([getattr(r, se_field) for r in runs])
        ratio = est.std(ddof=1) / ses.mean()
        assert 0.75 <= ratio <= 1.33, (field, ratio)
        ref_se = getattr(ref, se_field)
        tol = 3 * math.sqrt(est.var(ddof=1) / seeds + ref_se ** 2)
        assert abs(est.mean() - getattr(ref, field)) <= tol, (field, est.mean(), tol)
    # the failures' counts are what the two-phase search saves: most were not searched
    assert np.mean([(r.tricks == UNCOUNTED).mean() for r in runs]) > 0.15


def test_two_phase_estimates_are_calibrated_on_a_middling_hand():
    """Diamonds, lone declarer on lead, Six (about nine deals in ten fail it, so nearly every
    seed's pilot sends the search two-phase): EV, P(make), P(loss) and CVaR 5%."""
    _calibration(MIDDLING, "D", "six", 6, seeds=30, n=50, ref_n=300)


def test_the_default_rate_is_calibrated_on_a_middling_and_a_weak_hand():
    """The default share of failures counted (few counts: the variance of their mean is
    most of the SE). The weak hand never makes Boston: only its EV varies."""
    _calibration(MIDDLING, "D", "six", 6, seeds=30, n=50, ref_n=300, q=FAIL_COUNT_RATE)
    _calibration(WEAK, "S", "boston", 5, seeds=30, n=50, ref_n=100, q=FAIL_COUNT_RATE,
                 fields=("ev_net",))


def test_two_phase_estimates_are_calibrated_on_a_close_call():
    """Boston in spades, lone declarer on lead, made on about three deals in ten: a pilot
    with a quarter of failures goes two-phase (``TWO_PHASE_MIN_FAIL_SHARE``), so a close
    call's failures are subsampled beside many makes; at the default rate: EV, P(make) and
    P(loss) (its worst 5% are all one trick short on every seed: CVaR does not vary)."""
    _calibration(CLOSE, "S", "boston", 5, seeds=30, n=50, ref_n=600, q=FAIL_COUNT_RATE,
                 fields=("ev_net", "p_make", "p_loss_gt"))


def test_the_weighted_distribution_gives_the_failures_their_exact_mass():
    """Pictures and CVaR: makes weigh 1, the counted failures share the failures' whole mass
    (none counted: they lie at T - 1); the weighted CVaR reads the worst tail of it."""
    from boston_sim.analysis.statistics import sample_weights, weighted_cvar

    t = np.array([6, 5, -1, -1, 2, 3, -1, 7, 1, -1], dtype=np.int8)
    tw, w = sample_weights(t, 5, Q)
    assert w.tolist() == pytest.approx([1, 1, 0, 0, 7 / 3, 7 / 3, 0, 1, 7 / 3, 0])
    assert w.sum() == pytest.approx(len(t)) and (tw == t).all()
    net = np.array([-150.0, -123, -93, -63, -33, 12, 14, 17, 20, 23, 26, 29, 31, 33])
    x = net[tw[w > 0]]
    # the worst 20% (2 of 10 deals' mass) all lie at 1 trick, which carries 7/3
    assert weighted_cvar(x, w[w > 0], 0.2) == pytest.approx(-123)
    # 40%: 7/3 at -123, then 5/3 of the 7/3 at 2 tricks (-93)
    assert weighted_cvar(x, w[w > 0], 0.4) == pytest.approx((7 / 3 * -123 + 5 / 3 * -93) / 4)
    tw, w = sample_weights(np.array([6, -1, -1], dtype=np.int8), 5, Q)
    assert tw.tolist() == [6, 4, 4] and w.tolist() == [1, 1, 1]
    # equal weights: the plain mean of the worst k
    v = np.arange(40.0)[::-1]
    assert weighted_cvar(v, np.ones(40), 0.05) == np.sort(v)[:2].mean()


def test_a_mean_trick_count_stays_a_trick_count():
    """Two-phase terms of a trump where nearly every deal takes no trick averaged -0.03 on
    this hand: the reported mean is clipped to 0..13, like P(make) to 0..1."""
    a = analyze("T9532.642.53.742", seat="eldest", samples=60, seed=0)
    two_phase = [r for r in a.rows if r["kind"] == "at_least"]
    assert two_phase and all(0.0 <= r["mean_tricks"] <= 13.0 for r in a.rows)
    assert min(r["mean_tricks"] for r in two_phase) == 0.0
