"""The uncertainty an analysis states: SEs that are never 0 for probabilities, SEs for the
risk figures, a trump choice free of the winner's curse, a consistent paired difference, and
the sampler's limits (checked as statistics over many synthetic seeds where that is fast)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from boston_sim.analysis import analyze
from boston_sim.analysis.choice import choice_variance
from boston_sim.analysis.evaluate import recommend
from boston_sim.analysis.plan import Candidate
from boston_sim.analysis.statistics import (
    FOLDS,
    CandidateStats,
    Solved,
    ac_mean_se,
    ac_se,
    better,
    candidate_stats,
    cross_fitted,
    cvar_terms,
    parts_stats,
    weighted_cvar,
)
from boston_sim.cards import parse_hand
from boston_sim.errors import SamplingError
from boston_sim.rules import load_rules
from boston_sim.sampler import Sampler, parse_constraint
from boston_sim.settings import AnalysisSettings

STRONG = "AQJT9.AK.KJ2.432"
RS = load_rules("boston_foster")
SEVEN = (RS.payment_vector("seven", "S"), RS.net_vector("seven", "S"),
         RS.rung("seven").success_vector())
# a trick distribution around Seven's target: it makes about half the time
TRICK_P = np.array([0, 0, 0, 0, 0.02, 0.08, 0.2, 0.3, 0.25, 0.1, 0.05, 0, 0, 0])


def _cand(trump: str) -> Candidate:
    return Candidate("seven", trump, "SHDC".index(trump), -1, None)


def _draw(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.choice(14, n, p=TRICK_P).astype(np.int8)


# ---------------------------------------------------------------- item: trump of unpriced rungs

def test_an_unpriced_rung_breaks_a_p_make_tie_by_mean_tricks_not_suit_preference():
    def st(trump: str, tricks: float, rank: int) -> CandidateStats:
        return CandidateStats(_cand(trump), np.zeros(4, np.int8), 0.0, 0.1, tricks, [],
                              priced=False, suit_rank=rank)

    hopeless_nt, more_tricks = st("S", 1.1, 4), st("H", 5.0, 1)
    assert better(more_tricks, hopeless_nt, "at_least")
    assert not better(hopeless_nt, more_tricks, "at_least")
    # P(make) still comes first
    assert better(CandidateStats(_cand("S"), np.zeros(4, np.int8), 0.5, 0.1, 1.0, [],
                                 priced=False), more_tricks, "at_least")


def test_hopeless_fontainebleau_rows_show_the_trump_that_takes_most_tricks():
    a = analyze(STRONG, rules="fontainebleau_foster", samples=20, seed=3)
    hopeless = 0
    for rung in {r["rung"] for r in a.rows if r["kind"] == "at_least"}:
        rows = [r for r in a.rows if r["rung"] == rung]
        if max(r["p_make"] for r in rows) > 0:
            continue
        hopeless += 1
        chosen = next(r for r in rows if r["chosen"])
        assert chosen["mean_tricks"] == max(r["mean_tricks"] for r in rows), rung
        assert chosen["trump"] == "S"  # the five-card suit, not NT (the preferred strain)
    assert hopeless >= 3


# ---------------------------------------------------------------- item: SE of P(make) never 0

def test_the_se_of_a_probability_is_agresti_coull_and_never_zero():
    for s, n in ((0, 30), (30, 30), (7, 20)):
        y = np.r_[np.ones(s), np.zeros(n - s)]
        assert ac_mean_se(y) == pytest.approx(ac_se(s, n))
    st = candidate_stats(_cand("S"), np.full(40, 9, np.int8), *SEVEN, 0.0)
    assert st.p_make == 1.0 and st.p_make_se == pytest.approx(ac_se(40, 40)) and ac_se(40, 40)
    assert st.p_loss_gt == 0.0 and st.p_loss_se == pytest.approx(ac_se(0, 40)) and ac_se(0, 40)


def test_no_p_make_se_is_zero_in_the_json_and_every_priced_rung_has_risk_ses():
    a = analyze(STRONG, samples=20, seed=4)
    d = json.loads(json.dumps(a.to_dict()))
    assert "Agresti-Coull" in d["standard_errors"]["p_make_se"]
    certain = 0
    for r in d["rungs"]:
        assert r["p_make_se"] > 0
        certain += r["p_make"] in (0.0, 1.0)
        for c in r["trump_candidates"]:
            assert c["p_make_se"] > 0
        if r["priced"]:
            assert r["p_loss_se"] > 0 and r["cvar5_se"] is not None and r["cvar5_se"] >= 0
    assert certain >= 3  # rows every deal agrees on, whose plain SE would be 0


# ---------------------------------------------------------------- item: SEs of P(loss) and CVaR

def test_cvar_terms_average_to_the_worst_tail_mean():
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    k = 10
    var = np.sort(x)[k - 1]
    assert cvar_terms(x, var, k / 200).mean() == pytest.approx(np.sort(x)[:k].mean())
    w = rng.uniform(0.5, 2, 200)
    tail = 0.05
    order = np.argsort(x)
    cum = np.cumsum(w[order])
    var = x[order][np.searchsorted(cum, tail * cum[-1])]
    assert (np.sum(w * cvar_terms(x, var, tail)) / w.sum()
            == pytest.approx(weighted_cvar(x, w, tail)))


SIX = (RS.payment_vector("six", "D"), RS.net_vector("six", "D"), RS.rung("six").success_vector())
# a middling hand's Six in diamonds: it fails nine times in ten, rarely by three or more
SIX_P = np.array([0, 0, 0.0017, 0.0167, 0.225, 0.6433, 0.105, 0.0083, 0, 0, 0, 0, 0, 0])


def _two_phase(rng: np.random.Generator, p: np.ndarray, n: int, floor: int, q: float):
    """Synthetic two-phase tricks: failures below ``floor`` past an 8-deal pilot are kept
    with probability ``q`` (else -1), as :class:`~boston_sim.analysis.solving.Solver` does."""
    t = rng.choice(14, n, p=p / p.sum()).astype(np.int8)
    rates = np.where(np.arange(n) >= 8, q, 1.0)
    drop = (t < floor) & (rng.random(n) >= rates)
    return np.where(drop, -1, t).astype(np.int8), rates


@pytest.mark.parametrize("q", [1.0, 0.25])
@pytest.mark.parametrize("n", [50, 200])
@pytest.mark.parametrize("rung", ["seven", "six"])
def test_risk_ses_are_calibrated_across_seeds(rung, n, q):
    """The spread of P(loss), CVaR, EV and P(make) across 300 seeds of synthetic deals
    matches their mean reported SE, exact and two-phase, with a tail of common results
    (Seven) or of rare ones (Six) (the estimator-level check; the solver-level one is in
    test_two_phase)."""
    vecs, p, floor = (SEVEN, TRICK_P, 7) if rung == "seven" else (SIX, SIX_P, 6)
    runs = []
    for seed in range(300):
        t, rates = _two_phase(np.random.default_rng(seed), p, n, floor, q)
        runs.append(candidate_stats(_cand("S"), t, *vecs, 0.0, floor=floor if q < 1 else 0,
                                    q=rates))
    for field, se_field in (("p_loss_gt", "p_loss_se"), ("cvar5", "cvar5_se"),
                            ("ev_net", "ev_net_se"), ("p_make", "p_make_se")):
        est = np.array([getattr(r, field) for r in runs])
        ratio = est.std(ddof=1) / np.mean([getattr(r, se_field) for r in runs])
        assert 0.75 <= ratio <= 1.33, (field, ratio)


def test_a_cvar_se_does_not_claim_that_nothing_worse_can_happen():
    """Every deal the same: the plain bootstrap's SE would be 0; part of a deal at the next
    worse result keeps it honest, as Agresti-Coull does for a proportion."""
    st = candidate_stats(_cand("S"), np.full(40, 8, np.int8), *SEVEN, 0.0)
    assert st.cvar5 == SEVEN[1][8] and st.cvar5_se > 0
    worst = candidate_stats(_cand("S"), np.zeros(40, np.int8), *SEVEN, 0.0)
    assert worst.cvar5_se == 0  # nothing the rules pay is worse than losing every trick


# ---------------------------------------------------------------- item: winner's curse

def test_cross_fitted_trump_choice_has_no_winners_curse():
    """Two equally good trumps: the best of the two full-sample means is biased upward by
    about half an SE; the cross-fitted choice is not (below 0.1 SE over 1500 seeds)."""
    n, seeds = 40, 1500
    true_ev = float(SEVEN[1] @ TRICK_P)
    naive, fitted, ses = [], [], []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        opts = [Solved(_cand(s), _draw(rng, n), *SEVEN) for s in "SH"]
        full = [parts_stats(o.cand, [(o, np.arange(n))], 0.0, False) for o in opts]
        naive.append(max(f.ev_net for f in full))
        st = cross_fitted(opts, "at_least", 0.0, full)
        fitted.append(st.ev_net)
        ses.append(st.ev_net_se)
    se_mean = np.mean(ses)
    assert (np.mean(naive) - true_ev) / se_mean > 0.4  # the bias the choice must avoid
    assert abs(np.mean(fitted) - true_ev) / se_mean < 0.1


def test_cross_fitting_keeps_a_clearly_better_trump_whole():
    rng = np.random.default_rng(5)
    good = Solved(_cand("S"), np.minimum(_draw(rng, 60) + 2, 13).astype(np.int8), *SEVEN)
    bad = Solved(_cand("H"), _draw(rng, 60), *SEVEN)
    st = cross_fitted([bad, good], "at_least", 0.0)
    assert st.candidate.trump == "S" and st.cross_fit is None
    assert st.ev_net == pytest.approx(candidate_stats(good.cand, good.t, *SEVEN, 0.0).ev_net)


def test_a_split_choice_names_both_trumps_and_claims_no_tie():
    """When the halves choose different trumps the row's note names them, in the halves'
    order, without calling them equally good: the halves may disagree by chance while one
    trump is clearly the better on all the deals (T93.Q2.AK94.AKQ4's Six, 12 counters
    apart, split in 17 of 60 seeds)."""
    from boston_sim.analysis.evaluate import _cross_fit_note

    for seed in range(200):
        rng = np.random.default_rng(seed)
        opts = [Solved(_cand(s), _draw(rng, 40), *SEVEN) for s in "SH"]
        full = [parts_stats(o.cand, [(o, np.arange(40))], 0.0, False) for o in opts]
        st = cross_fitted(opts, "at_least", 0.0, full)
        if st.cross_fit is not None:
            break
    else:
        pytest.fail("no seed split the choice")
    even, odd = (c.trump for c in st.cross_fit)
    assert even != odd
    note = _cross_fit_note(st)
    assert note.startswith(f"{even} best on the even deals, {odd} on the odd ones")
    assert "equal" not in note
    assert _cross_fit_note(full[0]) == ""


def test_the_chosen_rows_ses_count_the_choice_of_trump():
    """A sure trump and a noisier one of about the same value (its failures counted one in
    ten, two-phase): the halves often choose differently, and the chosen row's EV spreads
    across seeds more than its pooled terms say. With the choice's variance added its SE
    matches the spread; without it (``choice_var`` taken off again) it would fall short by
    more than a tenth. The probabilities keep their own (Agresti-Coull) SEs."""
    n, seeds = 200, 600
    runs = []
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        sure = Solved(_cand("S"), _draw(rng, n), *SEVEN)
        t, rates = _two_phase(rng, TRICK_P, n, 7, 0.1)
        noisy = Solved(_cand("H"), t, *SEVEN, floor=7, q=rates)
        full = [parts_stats(o.cand, [(o, np.arange(n))], 0.0, False) for o in (sure, noisy)]
        st = cross_fitted([sure, noisy], "at_least", 0.0, full)
        if st.cross_fit is None:  # the chosen trump's own P(make) SE
            assert st.p_make_se == full["SH".index(st.candidate.trump)].p_make_se
        runs.append(st)
    assert sum(st.cross_fit is not None for st in runs) > seeds // 4
    est = np.array([st.ev_net for st in runs])
    ses = np.array([st.ev_net_se for st in runs])
    pooled = np.sqrt(ses**2 - [st.choice_var["ev_net"] for st in runs])
    assert 0.9 <= est.std(ddof=1) / ses.mean() <= 1.1
    assert est.std(ddof=1) / pooled.mean() > 1.1


def test_the_choice_adds_the_spread_of_the_values_it_may_pick():
    """Two independent candidates of equal means: each half picks either about half the time,
    so the row's value varies by ``p (1 - p) (a - b)**2 / FOLDS``; a candidate far behind the
    leader adds nothing, and a chosen row that is its trump's own stats is a copy of them."""
    rng = np.random.default_rng(3)
    terms = [rng.normal(0.0, 1.0, 400), rng.normal(0.0, 1.0, 400)]
    v = choice_variance(terms, {"ev_net": np.array([10.0, 20.0])}, FOLDS)
    assert v["ev_net"] == pytest.approx(0.25 * 100 / FOLDS, rel=0.05)
    far = [terms[0], terms[1] - 3.0]  # 3 below, 3 / 0.1 = 30 SEs of the gap behind
    assert choice_variance(far, {"ev_net": np.array([10.0, 20.0])}, FOLDS)["ev_net"] == 0.0
    good = Solved(_cand("S"), np.minimum(_draw(rng, 60) + 2, 13).astype(np.int8), *SEVEN)
    bad = Solved(_cand("H"), _draw(rng, 60), *SEVEN)
    full = [parts_stats(o.cand, [(o, np.arange(60))], 0.0) for o in (bad, good)]
    st = cross_fitted([bad, good], "at_least", 0.0, full)
    assert st is not full[1] and st.ev_net == full[1].ev_net


# ---------------------------------------------------------------- item: diff and diff_se

def test_diff_and_its_se_describe_the_same_samples():
    """The best row was scored on 60 deals, the runner-up's search stopped after 30 on
    which the two agree: the difference of the rows' EVs is not 0, so its SE is not either."""
    rng = np.random.default_rng(2)
    b = rng.normal(10, 5, 30)
    a = np.r_[b, rng.normal(14, 5, 30)]
    rows = [{"rung": r, "name": r, "rank": i, "chosen": True, "priced": True, "trump": "S",
             "ev_net": float(v.mean()), "ev_net_se": float(v.std(ddof=1) / math.sqrt(len(v))),
             "p_make": 0.5, "recommended": False, "outcome_of": None}
            for i, (r, v) in enumerate((("seven", a), ("eight", b)))]
    rs = load_rules("boston_foster")
    r = recommend(rs, rows, {"seven": a, "eight": b})
    assert r.recommended == "seven" and r.runner_up == "eight"
    assert r.diff == pytest.approx(a.mean() - b.mean()) and r.diff > 0
    # Var(mean a - mean b) with the covariance of the 30 shared deals
    cov = np.cov(a[:30], b)[0, 1]
    want = math.sqrt(a.var(ddof=1) / 60 + b.var(ddof=1) / 30 - 2 * 30 * cov / (60 * 30))
    assert r.diff_se == pytest.approx(want) and r.diff_se > 0


# ---------------------------------------------------------------- item: sampler limits

def test_the_rejection_cap_counts_per_request_not_per_run():
    """A constraint met by one deal in nine: 5,000 deals reject about 41,000; a cap of
    20,000 stops neither many small requests nor one large one."""
    hand = parse_hand("AKQ2.JT9.876.543")
    con = [parse_constraint("second:S>=5")]
    small = Sampler(hand, 0, constraints=con, seed=0, max_rejections=20_000)
    deals = np.concatenate([small.draw(50).deals for _ in range(100)])
    assert small.rejected > 20_000
    big = Sampler(hand, 0, constraints=con, seed=0, max_rejections=20_000)
    assert (big.draw(5000).deals == deals).all()
    # constraints that never meet still stop at the cap within one request
    never = [parse_constraint("second:S>=6"), parse_constraint("third:S>=6")]
    with pytest.raises(SamplingError, match="rejected"):
        Sampler(hand, 0, constraints=never, seed=0, max_rejections=20_000).draw(10)


def test_a_negative_seed_is_a_user_error():
    with pytest.raises(SamplingError, match="seed"):
        AnalysisSettings(seed=-1)
    with pytest.raises(SamplingError, match="seed"):
        analyze(STRONG, samples=5, seed=-1)
    with pytest.raises(SamplingError, match="seed"):
        Sampler(parse_hand(STRONG), 0, seed=-1)
