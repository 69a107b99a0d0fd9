"""The all-pass game played with heuristic play on sampled deals (analysis.all_pass): legal
play, its payments (the seed's misère-partout examples, the Grand), the pass value's SE, and
its place in the recommendation."""

from __future__ import annotations

import time

import numpy as np
import pytest

from boston_sim.analysis.all_pass import (
    PASS_DEALS_PER_DEAL,
    PassEstimator,
    PassValue,
    deal_results,
    play_all_pass,
    settle_all_pass,
)
from boston_sim.analysis.evaluate import recommend
from boston_sim.analysis.statistics import diff_se
from boston_sim.cards import parse_hand
from boston_sim.rules import load_rules
from boston_sim.sampler import Sampler

LANE = 16
BOSTON = load_rules("boston_foster")


def _deal_with_low_hand(rng: np.random.Generator) -> np.ndarray:
    """E holds every 2, 3 and 4 and the five of spades; the rest is dealt at random."""
    low = [s * LANE + r for s in range(4) for r in (2, 3, 4)] + [5]
    rest = [s * LANE + r for s in range(4) for r in range(2, 15) if s * LANE + r not in low]
    rng.shuffle(rest)
    hands = [rest[:13], low, rest[13:26], rest[26:]]
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)


def test_a_hand_of_all_low_cards_takes_no_trick():
    rng = np.random.default_rng(5)
    deals = np.stack([_deal_with_low_hand(rng) for _ in range(50)])
    tricks, last = play_all_pass(deals)
    assert (tricks[:, 1] == 0).all() and (tricks.sum(axis=1) == 13).all()
    assert (last != 1).all()


def test_a_hand_of_every_top_card_takes_every_trick():
    deals = Sampler(parse_hand("AKQ.AKQ.AKQ.AKQJ"), 2, seed=1).draw(20).deals
    tricks, last = play_all_pass(deals)
    assert (tricks[:, 2] == 13).all() and (last == 2).all()


def _check_play(deal: np.ndarray, plays: np.ndarray, tricks: np.ndarray, last: int) -> None:
    """Every card from its player's hand, suit followed when held, the highest card of the
    suit led wins and leads next, eldest (N) leads first, 52 distinct cards."""
    hands = [int(h) for h in deal]
    seen: set[int] = set()
    won = [0] * 4
    leader = 0
    for t in range(13):
        assert plays[t, 4] == leader
        led = int(plays[t, 0]) // LANE
        best, winner = -1, -1
        for i in range(4):
            p = (leader + i) % 4
            card = int(plays[t, i])
            assert hands[p] >> card & 1, "a card the player does not hold"
            if i and (hands[p] >> (LANE * led)) & 0xFFFF:
                assert card // LANE == led, "revoke"
            if card // LANE == led and card % LANE > best:
                best, winner = card % LANE, p
            hands[p] &= ~(1 << card)
            seen.add(card)
        won[winner] += 1
        leader = winner
    assert len(seen) == 52 and hands == [0, 0, 0, 0]
    assert won == list(tricks) and last == leader


def test_the_heuristic_plays_legally_on_a_thousand_random_deals():
    deals = Sampler(parse_hand("KJ9.Q82.T75.A643"), 1, seed=11).draw(1000).deals
    tricks, last, plays = play_all_pass(deals, record=True)
    assert plays.shape == (1000, 13, 5)
    for m in range(1000):
        _check_play(deals[m], plays[m], tricks[m], int(last[m]))
    plain, plain_last = play_all_pass(deals)
    assert (plain == tricks).all() and (plain_last == last).all()


def test_a_thousand_deals_cost_under_half_a_second():
    deals = Sampler(parse_hand("KJ9.Q82.T75.A643"), 0, seed=3).draw(1000).deals
    deal_results(BOSTON, deals[:10], 0)  # compiled (or loaded from the cache) first
    t = time.perf_counter()
    deal_results(BOSTON, deals, 0)
    assert time.perf_counter() - t < 0.5


@pytest.mark.parametrize(("tricks", "white"), [
    # docs/RULES.md §2.1.5, the seed's five examples (red counters x 10 = white, A-02, A-15)
    ([4, 3, 3, 3], [-30, 10, 10, 10]),           # A wins 4: loses 3 red
    ([7, 2, 2, 2], [-150, 50, 50, 50]),          # A wins 7: loses 15 red
    ([6, 5, 2, 0], [-110, 10, 40, 60]),          # A 6, B 5, Y 2, Z 0: A loses 11
    ([5, 1, 5, 2], [-35, 40, -35, 30]),          # A and Y tie at 5: 35 white each
    ([4, 4, 4, 1], [-10, -10, -10, 30]),         # three tie at 4: a red counter each
])
def test_the_pass_value_pays_the_seed_misere_partout_examples(tricks, white):
    t = np.array([tricks, tricks[1:] + tricks[:1]])
    for seat in range(4):
        got = settle_all_pass(BOSTON, t, np.zeros(2, dtype=np.int64), seat)
        assert got[0] == pytest.approx(white[seat])
        assert got[1] == pytest.approx(white[(seat + 1) % 4])


def test_the_grand_is_paid_by_the_last_tricks_winner():
    rs = load_rules("solo_whist_foster", {"all_pass": "grand"})
    t = np.full((4, 4), 3, dtype=np.int64)
    t[:, 0] = 4
    last = np.arange(4)
    assert list(settle_all_pass(rs, t, last, 2)) == [10.0, 10.0, -30.0, 10.0]


def test_an_average_hand_is_worth_nothing_at_misere_partout():
    """Zero-sum among four seats playing alike: the four seats' results on each deal add to
    0, so the game cannot favour the user's seat by itself."""
    deals = Sampler(parse_hand("KJ9.Q82.T75.A643"), 0, seed=4).draw(300).deals
    total = sum(deal_results(BOSTON, deals, seat) for seat in range(4))
    assert np.allclose(total, 0)


def test_the_pass_values_se_is_calibrated_across_seeds():
    """SD of the pass value across 30 seeds / its mean reported SE within 0.75-1.33."""
    hand = parse_hand("KJ9.Q82.T75.A643")
    vals, ses = [], []
    for seed in range(30):
        deals = Sampler(hand, 0, seed=seed).draw(200).deals
        pv = PassEstimator(BOSTON, 0).value(deals)
        vals.append(pv.value)
        ses.append(pv.se)
    ratio = np.std(vals, ddof=1) / np.mean(ses)
    assert 0.75 <= ratio <= 1.33, ratio


def test_the_estimator_plays_each_deal_once_and_reads_a_prefix():
    deals = Sampler(parse_hand("QT95.54.T973.J86"), 0, seed=9).draw(120).deals
    est = PassEstimator(BOSTON, 0)
    first = est.value(deals[:50])
    whole = est.value(deals)
    again = PassEstimator(BOSTON, 0).value(deals, 50)
    assert first.value == again.value and first.se == again.se
    assert len(whole.terms) == 120 and whole.simulated and whole.label == "Misère Partout"
    assert whole.value > 0  # a hand of low cards gains when nobody bids
    fixed = PassEstimator(load_rules("boston_foster", {"all_pass": "none"}), 0).value(deals)
    assert not fixed.simulated and fixed.value == 0 and fixed.se == 0


def test_with_a_stream_the_game_is_played_on_more_deals_that_begin_with_the_pools():
    hand = parse_hand("QT95.54.T973.J86")
    sampler = Sampler(hand, 0, seed=9)
    pool = np.concatenate([sampler.draw(25).deals, sampler.draw(25).deals])  # two rounds
    est = PassEstimator(BOSTON, 0, sampler.twin())
    first = est.value(pool, 25)
    both = est.value(pool)
    assert len(first.terms) == 25 * PASS_DEALS_PER_DEAL
    assert len(both.terms) == 50 * PASS_DEALS_PER_DEAL
    assert both.terms[: len(first.terms)].tolist() == first.terms.tolist()  # a prefix
    # paired: its first deals are the pool's, played as without a stream
    assert both.terms[:50].tolist() == PassEstimator(BOSTON, 0).value(pool).terms.tolist()
    # and the same stream again gives the same numbers
    again = PassEstimator(BOSTON, 0, Sampler(hand, 0, seed=9)).value(pool)
    assert again.value == both.value and again.se == both.se
    with pytest.raises(AssertionError, match="stream"):
        PassEstimator(BOSTON, 0, Sampler(hand, 0, seed=10)).value(pool)


def test_the_extra_deals_are_capped(monkeypatch):
    import boston_sim.analysis.all_pass as all_pass

    monkeypatch.setattr(all_pass, "PASS_DEALS_MAX", 100)
    sampler = Sampler(parse_hand("QT95.54.T973.J86"), 0, seed=9)
    pool = sampler.draw(150).deals
    est = PassEstimator(BOSTON, 0, sampler.twin())
    assert len(est.value(pool, 20).terms) == 100
    assert len(est.value(pool).terms) == 150  # never fewer than the searches' own


def test_a_bids_difference_from_a_pass_on_more_deals_is_calibrated():
    """A stand-in bid (the result of the seat on the declarer's left: per-deal terms that
    move with the pass value's) on ``n`` deals, passing on 16 times as many beginning with
    them: over 40 seeds the SD of the difference / its mean reported SE (``diff_se`` of
    unequal lengths, the covariance from the common deals) lies in 0.75-1.33, and the mean
    difference matches a large sample's within 3 SEs. On the same ``n`` deals alone its SE
    is wider."""
    hand = parse_hand("KJ9.Q82.T75.A643")
    n = 60
    diffs, ses, paired_only = [], [], []
    for seed in range(40):
        sampler = Sampler(hand, 0, seed=seed)
        pool = sampler.draw(n).deals
        bid = deal_results(BOSTON, pool, 1)
        passing = PassEstimator(BOSTON, 0, sampler.twin()).value(pool)
        diffs.append(bid.mean() - passing.value)
        ses.append(diff_se(bid, passing.terms))
        paired_only.append(diff_se(bid, passing.terms[:n]))
    ratio = np.std(diffs, ddof=1) / np.mean(ses)
    assert 0.75 <= ratio <= 1.33, ratio
    big = Sampler(hand, 0, seed=1000).draw(20_000).deals
    ref = deal_results(BOSTON, big, 1).mean() - deal_results(BOSTON, big, 0).mean()
    assert abs(np.mean(diffs) - ref) <= 3 * np.std(diffs, ddof=1) / np.sqrt(40)
    assert np.mean(ses) < 0.8 * np.mean(paired_only)


def _row(rung: str, ev: float, se: float = 1.0) -> dict:
    return {"rung": rung, "name": rung.title(), "chosen": True, "priced": True,
            "outcome_of": None, "ev_net": ev, "ev_net_se": se, "p_make": 0.5, "rank": 1,
            "trump": "S", "recommended": False}


def test_a_simulated_pass_value_that_beats_every_bid_is_recommended():
    terms = np.linspace(0, 24, 25)  # mean 12
    pv = PassValue(12.0, 1.5, "misere_partout", "Misère Partout", terms)
    bid = np.full(25, 5.0)
    r = recommend(BOSTON, [_row("seven", 5.0)], {"seven": bid}, pv)
    assert r.recommended == "pass" and r.runner_up == "seven"
    assert r.pass_value == 12.0 and r.pass_value_se == 1.5 and r.pass_game == "Misère Partout"
    assert "Misère Partout, +12.0 ± 1.5" in r.reason
    assert r.diff == pytest.approx(7.0) and r.diff_se == pytest.approx(terms.std(ddof=1) / 5)
    # below the best bid, the pass is its runner-up, paired per deal
    r = recommend(BOSTON, [_row("seven", 15.0)], {"seven": bid + 10}, pv)
    assert r.recommended == "seven" and r.runner_up == "pass" and r.diff == pytest.approx(3.0)


def test_an_analysis_plays_passing_on_more_deals_unless_constraints_bind():
    from boston_sim.analysis import analyze

    free = analyze("KJ9.Q82.T75.A643", samples=20, seed=3)
    assert free.pass_samples == 20 * PASS_DEALS_PER_DEAL
    assert free.to_dict()["pass_samples"] == free.pass_samples
    assert f"on {free.pass_samples:,} deals" in " ".join(free.notes)
    bound = analyze("KJ9.Q82.T75.A643", samples=20, seed=3, constraints=["second:H4+"])
    assert bound.pass_samples == 20
