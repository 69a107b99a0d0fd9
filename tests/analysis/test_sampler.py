"""The sampler deals the unseen cards uniformly and honours known cards, the turn-up and
constraints (docs/RULES.md §1.3, §3.0)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boston_sim.cards import (
    FULL_DECK,
    cards_of,
    hcp,
    parse_card,
    parse_hand,
    suit_length,
    validate_deal,
)
from boston_sim.errors import SamplingError
from boston_sim.sampler import (
    Sampler,
    nth_card,
    parse_constraint,
    parse_known,
    parse_seat,
    seed_for,
)

HAND = parse_hand("AKQ2.JT9.876.543")
N, E, S, W = range(4)


def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty normal approximation,
    accurate to a few per cent in the tail for df > 30, which is all this test needs)."""
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def card_seat_counts(deals: np.ndarray, cards: list[int]) -> np.ndarray:
    """counts[i, seat] = number of deals in which card ``cards[i]`` lies with ``seat``."""
    out = np.zeros((len(cards), 4), dtype=np.int64)
    for i, c in enumerate(cards):
        bit = np.uint64(1) << np.uint64(c)
        for seat in range(4):
            out[i, seat] = int(((deals[:, seat] & bit) != 0).sum())
    return out


def test_deals_are_valid_and_keep_the_declarers_hand():
    smp = Sampler(HAND, N, seed=3).draw(500)
    assert smp.deals.shape == (500, 4) and smp.deals.dtype == np.uint64
    assert (smp.deals[:, N] == np.uint64(HAND)).all()
    for d in smp.deals[:50]:
        validate_deal(d)
        assert all(int(h).bit_count() == 13 for h in d)


def test_uniform_over_card_and_seat():
    """Chi-square over the 39 x 3 table of (unseen card, seat) counts; each cell expects M/3."""
    m = 6000
    deals = Sampler(HAND, N, seed=12345).draw(m).deals
    unseen = cards_of(FULL_DECK & ~HAND)
    assert len(unseen) == 39
    counts = card_seat_counts(deals, unseen)[:, 1:]
    assert (counts.sum(axis=1) == m).all()
    expected = m / 3
    stat = float(((counts - expected) ** 2 / expected).sum())
    # 39 cards x 2 free cells, less 2 for the fixed hand sizes
    p = chi2_sf(stat, 39 * 2 - 2)
    assert p > 1e-3, (stat, p)
    # and a sanity check that the test has teeth: a biased table fails it
    biased = counts.copy()
    biased[:, 0] += 60
    biased[:, 1] -= 60
    assert chi2_sf(float(((biased - expected) ** 2 / expected).sum()), 76) < 1e-3


def test_uniform_with_a_pinned_card_and_declarer_elsewhere():
    """Declarer third (compass S), SJ pinned to the dealer: W holds it every time, and the
    other 38 unseen cards are uniform over E, N, W with W's 12 free places (12/38 of them)."""
    m = 6000
    sj = parse_card("SJ")
    smp = Sampler(HAND, S, known=[(sj, W)], seed=99).draw(m)
    deals = smp.deals
    assert ((deals[:, W] >> np.uint64(sj)) & np.uint64(1) == 1).all()
    assert (deals[:, S] == np.uint64(HAND)).all()
    unseen = [c for c in cards_of(FULL_DECK & ~HAND) if c != sj]
    counts = card_seat_counts(deals, unseen)[:, [N, E, W]]
    expected = np.array([13, 13, 12]) / 38 * m
    stat = float(((counts - expected) ** 2 / expected).sum())
    assert chi2_sf(stat, 38 * 2 - 2) > 1e-3, stat


def test_same_seed_same_deals_whatever_the_request_sizes():
    a = Sampler(HAND, N, seed=7).draw(700)
    s = Sampler(HAND, N, seed=7)
    b1, b2 = s.draw(300), s.draw(400)
    assert np.array_equal(a.deals, np.concatenate([b1.deals, b2.deals]))
    assert np.array_equal(a.discard_pick, np.concatenate([b1.discard_pick, b2.discard_pick]))
    c = Sampler(HAND, N, seed=8).draw(700)
    assert not np.array_equal(a.deals, c.deals)


def test_constraints_are_honoured_and_rejections_counted():
    # the declarer is the dealer (W); SK is not his
    hand = parse_hand("AQ2.KQJ.AKQJ.432")
    s = Sampler(hand, W, constraints=[parse_constraint("second:S>=5"),
                                      parse_constraint("third:hcp>=12"),
                                      parse_constraint("eldest:has=SK")], seed=1)
    deals = s.draw(400).deals
    for d in deals:
        assert suit_length(int(d[E]), 0) >= 5
        assert hcp(int(d[S])) >= 12
        assert int(d[N]) >> parse_card("SK") & 1
    assert s.rejected > 0
    s2 = Sampler(HAND, N, constraints=[parse_constraint("dealer:H<=1"),
                                       parse_constraint("second:lacks=SJ")], seed=2)
    for d in s2.draw(300).deals:
        assert suit_length(int(d[W]), 1) <= 1
        assert not int(d[E]) >> parse_card("SJ") & 1


def test_discard_picks_choose_a_card_of_the_hand():
    smp = Sampler(HAND, N, seed=5).draw(300)
    for seat in (E, S, W):
        cards = nth_card(smp.deals[:, seat], smp.discard_pick[:, seat].copy())
        assert ((cards & smp.deals[:, seat]) == cards).all()
        assert (np.bitwise_count(cards) == 1).all()
    # the pick is the idx-th set bit from the lowest
    h = np.array([parse_hand("AKQ2.JT9.876.543")], dtype=np.uint64)
    assert int(nth_card(h, np.array([0]))[0]) == 1 << parse_card("S2")
    assert int(nth_card(h, np.array([12]))[0]) == 1 << parse_card("C5")
    assert int(nth_card(h, np.array([4]))[0]) == 1 << parse_card("H9")


@pytest.mark.parametrize(
    "known, constraints, match",
    [
        ([(parse_card("SA"), E)], [], "declarer's hand"),
        ([(parse_card("SJ"), E), (parse_card("SJ"), W)], [], "two seats"),
        ([(parse_card("SJ"), N)], [], "not in his hand"),
        ([], ["second:S>=10"], "never be met"),
        ([], ["third:hcp>=31"], "never be met"),
        ([], ["second:has=SA"], "never be met"),
        ([(parse_card("SJ"), E)], ["second:lacks=SJ"], "never be met"),
        ([], ["eldest:S>=5"], "declarer's own hand"),
    ],
)
def test_impossible_inputs_raise(known, constraints, match):
    with pytest.raises(SamplingError, match=match):
        Sampler(HAND, N, known=known, constraints=[parse_constraint(c) for c in constraints])


def test_jointly_impossible_constraints_hit_the_rejection_cap():
    # E and S each 6+ spades: possible separately (9 unseen spades), never together
    cons = [parse_constraint("second:S>=6"), parse_constraint("third:S>=6")]
    s = Sampler(HAND, N, constraints=cons, seed=0, max_rejections=20_000)
    with pytest.raises(SamplingError, match="rejected"):
        s.draw(10)


def test_parsers():
    assert parse_seat("eldest") == N and parse_seat("dealer") == W and parse_seat("S") == S
    assert parse_known("SA@dealer") == (parse_card("SA"), W)
    assert parse_known("h10@E") == (parse_card("HT"), E)
    c = parse_constraint("second:S>=5")
    assert (c.seat, c.kind, c.suit, c.op, c.value) == (E, "length", 0, ">=", 5)
    assert parse_constraint("third:hcp<12").kind == "hcp"
    assert parse_constraint("W:has=DK").card == parse_card("DK")
    for bad in ("second", "second:X>=5", "nobody:S>=1", "second:S>>5", "eldest:has=ZZ"):
        with pytest.raises(SamplingError):
            parse_constraint(bad)
    with pytest.raises(SamplingError):
        parse_known("SA")


def test_seed_for_matches_the_contract():
    expected = int(np.random.SeedSequence([42, 7]).generate_state(1)[0])
    assert seed_for(42, 7) == expected
    assert seed_for(42, 7) != seed_for(42, 8)
