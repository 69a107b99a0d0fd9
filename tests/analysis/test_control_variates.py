"""Control variates (:mod:`boston_sim.analysis.control`): the features' exact means, the
regression adjustment of the terms, and the adjusted estimates' calibration over seeds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from boston_sim.analysis import SolveKey, Solver, analyze
from boston_sim.analysis.control import (
    MIN_DEALS,
    Controls,
    adjust,
    common_range,
    controls_for,
    deal_lengths,
    split_features,
    split_law,
)
from boston_sim.analysis.plan import Candidate
from boston_sim.analysis.rounds import deals_for_se, settle
from boston_sim.analysis.statistics import candidate_stats, se
from boston_sim.cards import parse_card, parse_hand
from boston_sim.rules import load_rules
from boston_sim.sampler import Sampler, parse_constraint

FAST = "KQJT9.AK.QJ2.432"  # spade searches of a few ms: Six makes about 0.88
WEAKISH = "AQJT9.K2.Q72.432"  # spades: Boston makes about 0.06, two-phase at a low rate


def _brute_mean(sampler: Sampler, controls: Controls, strain: int, n: int) -> tuple:
    deals = sampler.draw(n).deals
    x = controls.centred(deals, strain, n) + controls.mean(strain)
    return x.mean(axis=0), x.std(axis=0, ddof=1) / math.sqrt(n)


@pytest.mark.parametrize("known", [[], [(parse_card("S2"), 3), (parse_card("SA"), 1)]])
def test_the_exact_means_match_a_large_draw_of_the_sampler(known):
    """Every suit's features (with pinned cards, e.g. a turn-up, moving the law): the exact
    multivariate hypergeometric mean is within 4 SEs of 40,000 sampled deals' mean."""
    hand = parse_hand("QJT98.K2.Q72.432" if known else "KQJT9.AK.QJ2.432")
    smp = Sampler(hand, 0, known=known, seed=5)
    controls = Controls(smp)
    for strain in range(4):
        mean, err = _brute_mean(Sampler(hand, 0, known=known, seed=5 + strain), controls,
                                strain, 40_000)
        assert np.all(np.abs(mean - controls.mean(strain)) <= 4 * err + 1e-12), strain


def test_the_split_law_is_the_enumerated_one():
    """Three free spades over hands with 2, 1 and 1 free places (one spade pinned to the
    first): every way of dealing the four free cards, counted by hand."""
    from itertools import permutations

    rows, p = split_law([1, 0, 0], [2, 1, 1], 3)
    assert p.sum() == pytest.approx(1.0)
    cards = ["s", "s", "s", "x"]  # three spades and one other card
    counts: dict[tuple, int] = {}
    for perm in set(permutations(cards)):
        split = (1 + perm[:2].count("s"), perm[2:3].count("s"), perm[3:].count("s"))
        counts[split] = counts.get(split, 0) + 1
    total = sum(counts.values())
    got = {tuple(int(v) for v in r): q for r, q in zip(rows, p, strict=True)}
    assert got == pytest.approx({k: v / total for k, v in counts.items()})
    # the longest holding's indicators (3 the base, clipped into 3..5), then the squares
    x = split_features(np.array([[4, 2, 1], [2, 2, 3], [7, 0, 0], [3, 3, 1]]), 3, 5)
    assert x.tolist() == [[1, 0, 21], [0, 0, 17], [0, 1, 49], [0, 0, 19]]
    rows, p = split_law([0, 0, 0], [13, 13, 13], 7)  # seven missing cards: 6+ is rare
    assert common_range(rows, p) == (3, 5)


def test_adjust_is_the_regression_estimator_with_residual_spread():
    """mean(y - b (x - mu)) with b the least-squares slope, the centred terms the residuals
    scaled for the slopes; too few deals or constant features leave y alone."""
    rng = np.random.default_rng(1)
    n = 80
    x = rng.normal(size=(n, 2))
    y = 3 * x[:, 0] - x[:, 1] + rng.normal(size=n)
    mu = np.array([0.2, -0.1])
    out = adjust(y, x - mu)
    design = np.column_stack([np.ones(n), x])
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    assert out.mean() == pytest.approx(y.mean() - (x.mean(axis=0) - mu) @ coef[1:])
    assert out.std(ddof=1) == pytest.approx(resid.std(ddof=3))
    assert se(out) < 0.5 * se(y)
    assert adjust(y[: MIN_DEALS - 1], (x - mu)[: MIN_DEALS - 1]).tolist() == \
        y[: MIN_DEALS - 1].tolist()
    assert adjust(y, np.ones((n, 2))).tolist() == y.tolist()


def test_the_adjusted_mean_is_unbiased_and_its_se_calibrated_on_synthetic_terms():
    """400 replications of a 0/1 outcome that depends on a feature with a known mean (no
    solver): the adjusted means centre on the truth and spread as their SEs say, and the
    SEs are smaller than the plain ones."""
    rng = np.random.default_rng(7)
    est, ses, plain = [], [], []
    for _ in range(400):
        x = rng.integers(3, 8, size=(50, 1)).astype(float)
        y = (rng.random(50) < 0.1 + 0.2 * (x[:, 0] - 3)).astype(float)
        out = adjust(y, x - 5.0)
        est.append(out.mean())
        ses.append(se(out))
        plain.append(se(y))
    est = np.array(est)
    assert abs(est.mean() - 0.5) < 3 * est.std(ddof=1) / math.sqrt(len(est))
    assert 0.9 <= est.std(ddof=1) / np.mean(ses) <= 1.1
    assert np.mean(ses) < 0.9 * np.mean(plain)


def _solve(hand: str, key: SolveKey, floor: int, n: int, seed: int, q: float):
    smp = Sampler(parse_hand(hand), 0, seed=seed)
    s = Solver([key], 0, floors={key: floor}, fail_rate=q, seed=seed)
    s.add(smp.draw(n))
    s.solve_to([key], n)
    return s, Controls(smp)


def _calibration(hand: str, rung_id: str, floor: int, n: int, ref_n: int, q: float,
                 fields: tuple[str, ...], seeds: int = 30) -> None:
    """Over ``seeds`` adjusted analyses of ``n`` deals (a lone declarer in spades on lead):
    the spread of each estimate across seeds over its mean reported SE lies in 0.75-1.33,
    and the mean is within 3 SEs of a plain (unadjusted, exact) reference on ``ref_n``
    other deals."""
    rs = load_rules("boston_foster")
    rung = rs.rung(rung_id)
    key = SolveKey(0, 0, 1, -1, "at_least")
    cand = Candidate(rung_id, "S", 0, -1, key)
    vecs = (rs.payment_vector(rung_id, "S"), rs.net_vector(rung_id, "S"),
            rung.success_vector())

    def stats(s: Solver, controls: Controls | None):
        t = s.results[key]
        xc = None if controls is None else controls.centred(s.deals, 0, len(t))
        st = candidate_stats(cand, t, *vecs, 0.0, floor=floor, q=s.rates[key])
        if xc is None:
            return st
        from boston_sim.analysis.statistics import Solved, parts_stats

        solved = Solved(cand, t, *vecs, floor=floor, q=s.rates[key], xc=xc)
        return parts_stats(cand, [(solved, np.arange(len(t)))], 0.0)

    runs, plain = [], []
    for seed in range(seeds):
        s, c = _solve(hand, key, floor, n, seed, q)
        runs.append(stats(s, c))
        plain.append(stats(s, None))
    ref = stats(_solve(hand, key, floor, ref_n, 10_000, 1.0)[0], None)
    assert all(r.controlled for r in runs)
    for field in fields:
        est = np.array([getattr(r, field) for r in runs])
        ses = np.array([getattr(r, field + "_se") for r in runs])
        ratio = est.std(ddof=1) / ses.mean()
        assert 0.75 <= ratio <= 1.33, (field, ratio)
        ref_se = getattr(ref, field + "_se")
        tol = 3 * math.sqrt(est.var(ddof=1) / seeds + ref_se ** 2)
        assert abs(est.mean() - getattr(ref, field)) <= tol, (field, est.mean(), tol)
        # the point of it: the adjusted SEs are smaller than the plain ones on the same deals
        assert ses.mean() < np.mean([getattr(r, field + "_se") for r in plain]), field


@pytest.mark.slow
def test_adjusted_estimates_are_calibrated_on_an_exact_search():
    """Six in spades on a strong hand (P(make) about 0.88), every deal counted."""
    _calibration(FAST, "six", 5, n=MIN_DEALS, ref_n=600, q=1.0, fields=("ev_net", "p_make"))


@pytest.mark.slow
def test_adjusted_estimates_are_calibrated_on_a_two_phase_search():
    """Boston in spades on a hand that mostly fails it: the two-phase terms (a quarter of
    the failures counted) are adjusted like any others; EV only (P(make) near 0)."""
    _calibration(WEAKISH, "boston", 5, n=50, ref_n=400, q=0.25, fields=("ev_net",))


def test_settle_uses_the_adjusted_se_of_p_make():
    """A row whose adjusted P(make) SE is below the target settles where the plain
    Agresti-Coull SE at the same proportion would not; and the next round's size follows the
    adjusted SE."""
    from boston_sim.analysis.statistics import CandidateStats

    key = SolveKey(0, 0, 1, -1, "at_least")
    cand = Candidate("six", "S", 0, -1, key)
    st = CandidateStats(cand, np.zeros(100, np.int8), p_make=0.5, p_make_se=0.025,
                        mean_tricks=5.0, trick_distribution=[0.0] * 14, priced=False)
    assert not settle([st])[0]  # plain: 0.05 at p = 0.5 on 100 deals
    st.controlled = True
    assert settle([st])[0] == {key}
    assert deals_for_se(0.5, 100, 0.06) == 400
    assert deals_for_se(0.5, 100) == deals_for_se(0.5, 100, None) > 250


def test_analyses_with_constraints_are_not_adjusted():
    smp = Sampler(parse_hand(FAST), 0, constraints=[parse_constraint("second:S4+")], seed=1)
    assert controls_for(smp, True) is None
    assert controls_for(Sampler(parse_hand(FAST), 0, seed=1), False) is None
    assert controls_for(Sampler(parse_hand(FAST), 0, seed=1), True) is not None


def test_a_default_analysis_is_adjusted_and_the_switch_turns_it_off():
    """On the same deals: the adjusted rows keep their pairing (the difference of two rows'
    EVs is the mean of their paired terms), differ from the plain ones, and Six's SEs
    shrink."""
    on = analyze(FAST, samples=MIN_DEALS, seed=2, threads=1)
    off = analyze(FAST, samples=MIN_DEALS, seed=2, threads=1, control_variates=False)
    row_on = next(r for r in on.rows if r["rung"] == "six" and r["chosen"])
    row_off = next(r for r in off.rows if r["rung"] == "six" and r["chosen"])
    assert row_on["trump"] == row_off["trump"] == "S"
    assert row_on["ev_net"] != row_off["ev_net"]
    assert row_on["ev_net_se"] < row_off["ev_net_se"]
    assert row_on["p_make_se"] < row_off["p_make_se"]
    assert row_on["ev_net"] == pytest.approx(on.payoffs["six"].mean())
    assert 0 <= row_on["p_make"] <= 1
    assert on.runner_up not in ("pass", None)
    d = on.payoffs[on.recommended] - on.payoffs[on.runner_up]
    assert on.diff == pytest.approx(d.mean())
    assert on.diff_se == pytest.approx(se(d))
    # the trick counts are the same searches: only the estimates changed
    assert all((on.tricks[k] == off.tricks[k]).all() for k in off.tricks)


def test_the_adjusted_analysis_does_not_depend_on_threads():
    one = analyze(FAST, samples=MIN_DEALS, seed=3, threads=1).to_dict()
    two = analyze(FAST, samples=MIN_DEALS, seed=3, threads=2).to_dict()
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    lengths = deal_lengths(analyze(FAST, samples=4, seed=3).deals, 0, 0)
    assert (lengths.sum(axis=1) == 8).all()  # the eight spades he lacks


def test_a_row_mixing_two_trumps_gives_each_its_own_columns():
    """A cross-fitted row takes the even deals from one trump and the odd ones from another:
    each part's features (of different suits, even different counts) fill columns of their
    own, zero on the other part's deals, and the row is the regression on all of them."""
    from boston_sim.analysis.statistics import Solved, parts_stats

    rs = load_rules("boston_foster")
    rung = rs.rung("boston")
    rng = np.random.default_rng(3)
    n = 2 * MIN_DEALS
    solved = []
    for strain, trump, width in ((0, "S", 3), (3, "C", 5)):
        key = SolveKey(strain, 0, 1, -1, "at_least")
        cand = Candidate("boston", trump, strain, -1, key)
        xc = rng.normal(size=(n, width))
        t = np.clip(np.round(5 + xc[:, 0] + rng.normal(size=n)), 0, 13).astype(np.int8)
        solved.append(Solved(cand, t, rs.payment_vector("boston", trump),
                             rs.net_vector("boston", trump), rung.success_vector(), xc=xc))
    even, odd = np.arange(0, n, 2), np.arange(1, n, 2)
    st = parts_stats(solved[0].cand, [(solved[0], even), (solved[1], odd)], 0.0)
    assert st.controlled
    x = np.zeros((n, 8))
    x[even, :3] = solved[0].xc[even]
    x[odd, 3:] = solved[1].xc[odd]
    ok = np.where(np.arange(n) % 2 == 0, solved[0].t >= 5, solved[1].t >= 5).astype(float)
    assert st.p_make == pytest.approx(float(np.clip(adjust(ok, x).mean(), 0, 1)))
    net = np.where(np.arange(n) % 2 == 0, solved[0].net[solved[0].t], solved[1].net[solved[1].t])
    assert st.ev_net == pytest.approx(adjust(net, x).mean())
    assert st.ev_net_se == pytest.approx(se(adjust(net, x)))
