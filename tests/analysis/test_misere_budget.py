"""Misère searches past their node budget (``misere_node_budget``, ``misere_count_rate``):
only a seeded random share of them goes on past each tier of the budget (``MISERE_LEVELS``
tiers, then to the end); those that give up enter at the counted deals' mean, each counted
deal weighed by its chance of being counted. The estimator is checked as a statistic on
simulated designs (unbiased, SEs that match the spread across runs), and the analysis's
bookkeeping on real searches: the deals searched to the end carry their exact answers and
the tiers they passed, and a seed gives the same numbers on any thread count."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import searches_unshared

from boston_sim import solver
from boston_sim.analysis import SolveKey, Solver, analyze
from boston_sim.analysis.solving import MISERE_LEVELS, UNCOUNTED, tier_chances
from boston_sim.analysis.statistics import ac_mean_se, estimator_terms, sample_weights, se
from boston_sim.cards import parse_hand
from boston_sim.errors import SamplingError
from boston_sim.limits import NODE_BUDGET_MAX
from boston_sim.sampler import Sampler

HAND = "T9532.642.53.742"  # its escape proofs run from 0 to millions of nodes
MISERE = SolveKey(4, 0, 1, -1, "zero")  # N alone at no trump, on lead: "no trick?"
OK = np.array([1.0] + [0.0] * 13)  # a misère is made with 0 tricks
NET = np.array([480.0] + [-480.0] * 13)  # a spread's net counters


DEEPER = 0.5  # the simulated share of the deals past a tier that pass the next one too
P_DEEP = 0.99  # ... and how often those past two tiers or more are made


def _design(rng: np.random.Generator, n: int, hard_share: float, p_hard: float,
            p_easy: float, q: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One run: each deal is hard (past the budget) with ``hard_share`` and passes each
    further tier with :data:`DEEPER`; it is made (t = 0) with ``p_easy``, ``p_hard`` past one
    tier, :data:`P_DEEP` past more. Its coin lets it pass ``j`` tiers (``u < q**l`` for
    ``l`` <= ``j``, all after :data:`MISERE_LEVELS`); one that passes more is not counted.
    Returns the recorded tricks, the hard mask and the per-deal rates."""
    hard = rng.random(n) < hard_share
    passed = np.where(hard, rng.geometric(1 - DEEPER, n), 0)
    made = rng.random(n) < np.select([passed == 0, passed == 1], [p_easy, p_hard], P_DEEP)
    t = np.where(made, 0, 1).astype(np.int8)
    u = rng.random(n)
    allowed = sum((u < q**level).astype(int) for level in range(1, MISERE_LEVELS + 1))
    counted = (passed <= allowed) | (allowed == MISERE_LEVELS)
    t[~counted] = UNCOUNTED
    return t, hard, tier_chances(np.where(counted, passed, allowed + 1), q)


@pytest.mark.parametrize(("p_hard", "label"), [(0.97, "escape proofs"), (0.7, "mixed")])
def test_the_estimates_are_unbiased_and_their_ses_match_their_spread(p_hard, label):
    """2,000 simulated runs of 120 deals, a third past the budget, half of those past a
    second tier, a quarter let past each: the mean of P(make) and of a spread's net EV lies
    within 3 SEs of the truth, and the SD across runs / the mean reported SE lies in
    0.75-1.33 (measured: P(make) 1.07 and 1.05, EV 1.07 and 1.04 for the two designs)."""
    rng = np.random.default_rng(11 if label == "mixed" else 12)
    share, p_easy, q, runs = 1 / 3, 0.5, 0.25, 2000
    truth = share * ((1 - DEEPER) * p_hard + DEEPER * P_DEEP) + (1 - share) * p_easy
    p, p_se, ev, ev_se = [], [], [], []
    for _ in range(runs):
        t, hard, rate = _design(rng, 120, share, p_hard, p_easy, q)
        y = estimator_terms(t, OK, 0, rate, hard)
        p.append(y.mean())
        p_se.append(ac_mean_se(y))
        v = estimator_terms(t, NET, 0, rate, hard)
        ev.append(v.mean())
        ev_se.append(se(v))
    for est, ses, true in ((p, p_se, truth), (ev, ev_se, 960 * truth - 480)):
        est = np.array(est)
        assert abs(est.mean() - true) < 3 * est.std() / np.sqrt(runs)
        assert 0.75 <= est.std() / np.mean(ses) <= 1.33


def test_a_stratum_with_no_deal_searched_to_the_end_stands_at_made():
    """While none of the deals past the budget is known, they enter as made (an escape
    proof is what runs long), with weight 1 in the distribution; once some are known, the
    others take their mean and weigh 0."""
    t = np.array([1, 0, -1, -1], dtype=np.int8)
    hard = np.array([False, False, True, True])
    assert estimator_terms(t, OK, 0, np.where(hard, 0.0, 1.0), hard).tolist() == [0, 1, 1, 1]
    tw, w = sample_weights(t, 0, np.where(hard, 0.0, 1.0), hard)
    assert tw.tolist() == [1, 0, 0, 0] and w.tolist() == [1, 1, 1, 1]
    t = np.array([1, 0, 1, -1], dtype=np.int8)  # one searched to the end: caught
    y = estimator_terms(t, OK, 0, np.where(hard, 0.5, 1.0), hard)
    assert y.tolist() == [0, 1, 1 + (0 - 1) / 0.5, 0]
    assert sample_weights(t, 0, np.where(hard, 0.5, 1.0), hard)[1].tolist() == [1, 1, 2, 0]
    # counted after different tiers: they share the stratum's mass in proportion to 1 / q
    t = np.array([0, 0, 1, 0, -1], dtype=np.int8)
    hard = np.array([False, True, True, True, True])
    q = np.array([1.0, 0.25, 0.25, 0.0625, 0.25])
    assert sample_weights(t, 0, q, hard)[1].tolist() == pytest.approx(
        [1, 4 * 4 / 24, 4 * 4 / 24, 16 * 4 / 24, 0])


def test_a_counted_deal_weighs_by_the_tiers_it_passed():
    """A deal within the budget is always counted; one past ``k`` tiers with the rate to the
    power ``k``, up to the last tier (after which every search runs to the end)."""
    chances = tier_chances(np.array([0, 1, 2, 5]), 0.25)
    assert chances.tolist() == [1.0, 0.25, 0.25**2, 0.25**MISERE_LEVELS]


def _nodes_each(deals: np.ndarray) -> np.ndarray:
    """Each deal's expanded nodes on the misère question without a budget (no other worker
    joining its search: ``solver.share_searches``)."""
    row = np.array([solver.question_job(4, 0, 1, "at_most", 0)])
    out = []
    with searches_unshared():
        for d in deals:
            solver.reset_work_counters()
            solver.solve_jobs(d[None, :], row)
            out.append(solver.work_counters().nodes)
    return np.array(out)


def _solver(n: int, seed: int, rate: float, budget: int = 100_000) -> Solver:
    s = Solver([MISERE], 0, seed=seed, misere_budget=budget, misere_rate=rate)
    s.add(Sampler(parse_hand(HAND), 0, seed=seed).draw(n))
    s.solve_to([MISERE], n)
    return s


def test_the_deals_searched_to_the_end_carry_their_exact_answers():
    exact = _solver(24, 3, 1.0).results[MISERE]
    s = _solver(24, 3, 0.5)
    t, hard = s.results[MISERE], s.strata[MISERE]
    assert hard.any() and (t[hard] == UNCOUNTED).any() and (t[hard] >= 0).any()
    assert (t[t >= 0] == exact[t >= 0]).all()
    assert (t[~hard] >= 0).all()
    q = s.rates[MISERE]
    assert q[~hard].tolist() == [1.0] * int((~hard).sum())
    assert ((q[hard] > 0) & (q[hard] < 1)).all()
    assert s.misere_skipped == int((t == UNCOUNTED).sum())
    # the tiers recorded: those a counted search passed, more than a skipped one was allowed
    nodes = _nodes_each(Sampler(parse_hand(HAND), 0, seed=3).draw(24).deals)
    passed = sum((nodes > 100_000 * solver.TIER_FACTOR**i).astype(int) for i in range(12))
    tiers = s.hard[MISERE]
    assert tiers[t >= 0].tolist() == passed[t >= 0].tolist()
    assert (tiers[t < 0] <= passed[t < 0]).all() and (tiers[t < 0] >= 1).all()
    # rate 1 searches every deal to the end: no stratum at all
    assert not _solver(24, 3, 1.0).strata


@pytest.mark.slow
def test_a_seed_gives_the_same_numbers_on_any_thread_count():
    kw = {"samples": 12, "seed": 4, "misere_node_budget": 100_000, "misere_count_rate": 0.25}
    one = analyze(HAND, threads=1, **kw)
    two = analyze(HAND, threads=2, **kw)
    assert any("misère searches that ran past" in n for n in two.notes)
    assert one.table.equals(two.table)


@pytest.mark.parametrize(("setting", "value"), [
    ("misere_node_budget", 0), ("misere_node_budget", NODE_BUDGET_MAX + 1),
    ("misere_node_budget", True), ("misere_count_rate", 0.0), ("misere_count_rate", 1.5)])
def test_a_budget_or_rate_out_of_range_is_refused_before_any_search(setting, value):
    with pytest.raises(SamplingError, match=setting) as err:
        analyze(HAND, samples=4, **{setting: value})
    assert "\n" not in str(err.value)


def test_counted_misere_tricks_take_no_budget():
    """``misere_tricks="min"`` counts the declarer's fewest tricks (a value search): no
    budget, no stratum, every deal known."""
    s = Solver([MISERE], 0, seed=3, misere_tricks="min", misere_budget=2_000, misere_rate=0.25)
    s.add(Sampler(parse_hand(HAND), 0, seed=3).draw(6))
    s.solve_to([MISERE], 6)
    assert not s.strata and s.misere_skipped == 0 and (s.results[MISERE] >= 0).all()
    assert len(s.hard[MISERE]) == 6


def test_every_row_s_trick_distribution_is_its_other_figures_distribution():
    """With misère searches past their budget subsampled (and trick searches two-phase), the
    trick distribution is estimated from the same terms as the rest: it sums to 1, its mean
    is the mean tricks, and a misère's share of failures is its P(loss) (they had read 7 and
    10 failures in 60 deals)."""
    from boston_sim.analysis import analyze

    a = analyze("T9532.642.53.742", seat="eldest", samples=60, seed=4)
    assert any("not searched to the end" in n for n in a.notes)
    for r in a.rows:
        td = r["trick_distribution"]
        assert min(td) >= 0 and sum(td) == pytest.approx(1.0, abs=1e-12)
        assert sum(k * x for k, x in enumerate(td)) == pytest.approx(r["mean_tricks"], abs=1e-9)
        if r["kind"] == "at_most" and r["priced"]:
            assert td[1] == pytest.approx(r["p_loss_gt"], abs=1e-9), r["rung"]
