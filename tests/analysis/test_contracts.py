"""Contracts the analysis must model as the rules say (docs/RULES.md §3.1-§3.5): Solo Whist's
Proposal (nobody may accept), a Russian purchase (one bid, two outcomes), the value of
passing (the all-pass outcome), and pair rungs averaged over the partner's seat."""

from __future__ import annotations

import numpy as np
import pytest

from boston_sim.analysis import SolveKey, Solver, analyze
from boston_sim.analysis.evaluate import mix_outcomes, recommend
from boston_sim.analysis.plan import Candidate
from boston_sim.analysis.solving import partner_draws
from boston_sim.analysis.statistics import candidate_stats
from boston_sim.cards import parse_hand
from boston_sim.rules import load_rules
from boston_sim.sampler import Sampler

SOLO_HAND = "KQ.AJ975.K84.Q63"
RUSSIAN_HAND = "KQ.AJ975.AJ4.Q63"


def test_solo_whist_proposal_is_not_priced_or_recommended_by_default():
    """§3.3: nobody may accept, so the Proposal shows probabilities only and is never the
    bid, however good its P(make); the notes say acceptance is not modelled."""
    a = analyze(SOLO_HAND, seat="third", rules="solo_whist_foster", turnup="H2", samples=12,
                seed=0)
    row = a.rungs.set_index("rung").loc["proposal"]
    assert not row["priced"] and np.isnan(row["ev_net"])
    assert a.recommended != "proposal"
    assert "acceptance not modelled" in row["note"]
    d = a.to_dict()
    assert d["recommended"] != "proposal"
    assert next(r for r in d["rungs"] if r["rung"] == "proposal")["ev_net"] is None


def test_solo_whist_proposal_priced_on_request_with_the_partner_seat_or_averaged():
    base = dict(seat="third", rules="solo_whist_foster", turnup="H2", samples=12, seed=0)
    on = {"proposal": "priced"}
    fixed = analyze(SOLO_HAND, options=on, partner="left", **base)
    avg = analyze(SOLO_HAND, options=on, partner="average", **base)
    for a in (fixed, avg):
        row = a.rungs.set_index("rung").loc["proposal"]
        assert row["priced"] and not np.isnan(row["ev_net"])
        assert "acceptance not modelled" in row["note"]
    assert "of the three seats" in avg.rungs.set_index("rung").loc["proposal", "note"]
    assert avg.to_dict()["partner"] == "average"


def test_partner_average_draws_a_seat_per_deal_and_solves_that_game():
    """Each deal of an averaged pair search is the fixed-partner game of the seat it drew
    (uniform over the three, from a stream of its own): its mean is the seats' average."""
    hand, n, seed = parse_hand(SOLO_HAND), 12, 5
    deals = Sampler(hand, 2, seed=seed).draw(n)
    avg = SolveKey(1, 0, 1 << 2, -1, "at_least", partners=(0, 1, 3))
    fixed = {p: SolveKey(1, 0, (1 << 2) | (1 << p), -1, "at_least") for p in (0, 1, 3)}
    s = Solver([avg, *fixed.values()], 2, seed=seed)
    s.extend(deals)
    pick = partner_draws(seed, n, 3)
    want = np.array([s.results[fixed[(0, 1, 3)[k]]][i] for i, k in enumerate(pick)])
    assert (s.results[avg] == want).all()
    # the same in a two-phase search: its questions and its counts (where drawn) too
    two = Solver([avg], 2, floors={avg: 13}, fail_rate=0.25, seed=seed)
    two.extend(deals)
    got = two.results[avg]
    assert (got[got >= 0] == want[got >= 0]).all() and (want[got < 0] < 13).all()
    draws = partner_draws(1, 30000, 3)
    assert np.allclose(np.bincount(draws) / len(draws), 1 / 3, atol=0.01)
    assert (partner_draws(1, 10, 3) == draws[:10]).all()  # a longer draw extends a shorter


def test_russian_purchase_is_one_bid_and_unsupported_is_never_recommended():
    """§3.5: a purchase is one bid with two outcomes side by side; the unsupported one (alone
    for 5, when all three pass) is no bid, so it is never the recommendation, even where it
    has the best EV."""
    a = analyze(RUSSIAN_HAND, rules="boston_russian", turnup="H2", context={"senior": "S"},
                samples=16, seed=0)
    rows = a.rungs.set_index("rung")
    assert rows.loc["alone_junior", "ev_net"] > rows.loc["pair_junior", "ev_net"]  # the trap
    assert a.recommended not in ("alone_junior", "alone_senior")
    assert rows.loc["alone_junior", "outcome_of"] == "pair_junior"
    assert rows.loc["alone_junior", "rank"] == rows.loc["pair_junior", "rank"] == 1
    d = a.to_dict()
    entry = next(r for r in d["rungs"] if r["rung"] == "pair_junior")
    out = entry["outcomes"]
    assert out["support_share"] == 1
    assert out["supported"]["ev_net"] == pytest.approx(entry["ev_net"])
    assert out["unsupported"]["ev_net"] == pytest.approx(rows.loc["alone_junior", "ev_net"])
    assert any("one bid" in n for n in d["notes"])


def test_purchase_support_mixes_the_two_outcomes_deal_by_deal():
    kw = dict(rules="boston_russian", turnup="H2", context={"senior": "S"}, samples=16, seed=0)
    full = analyze(RUSSIAN_HAND, **kw)
    half = analyze(RUSSIAN_HAND, options={"purchase_support": 0.5}, **kw)
    none = analyze(RUSSIAN_HAND, options={"purchase_support": 0}, **kw)
    f = full.rungs.set_index("rung")
    sup, uns = f.loc["pair_junior", "ev_net"], f.loc["alone_junior", "ev_net"]
    assert half.rungs.set_index("rung").loc["pair_junior", "ev_net"] == pytest.approx(
        (sup + uns) / 2)
    assert none.rungs.set_index("rung").loc["pair_junior", "ev_net"] == pytest.approx(uns)
    assert half.to_dict()["rungs"][0]["outcomes"]["supported"]["ev_net"] == pytest.approx(sup)
    assert half.recommended not in ("alone_junior", "alone_senior")


def test_mix_outcomes_pairs_the_deals_and_weights_the_tails():
    rs = load_rules("boston_russian")
    t_pair = np.array([8, 9, 7, 10, 8, 6], np.int8)
    t_alone = np.array([5, 6, 4, 7, 5, 3], np.int8)

    def stats(rid: str, t: np.ndarray):
        rung = rs.rung(rid)
        key = SolveKey(1, 0, 1, -1, "at_least")
        c = Candidate(rid, "H", 1, -1, key)
        return candidate_stats(c, t, rs.payment_vector(rid), rs.net_vector(rid),
                               rung.success_vector(), 0.0)

    a, b = stats("pair_junior", t_pair), stats("alone_junior", t_alone)
    m = mix_outcomes(a, b, 0.25)
    assert m.ev_net == pytest.approx(0.25 * a.ev_net + 0.75 * b.ev_net)
    assert m.ev_net_se == pytest.approx(np.std(0.25 * a.net + 0.75 * b.net, ddof=1)
                                        / np.sqrt(6))
    assert m.p_make == pytest.approx(0.25 * a.p_make + 0.75 * b.p_make)
    assert sum(m.trick_distribution) == pytest.approx(1)


def test_first_deal_offers_no_junior_rungs():
    """A-43: when the turn-up is the senior suit there is no junior suit this deal: the
    junior rungs are not offered at all (no row), not merely noted."""
    a = analyze(RUSSIAN_HAND, rules="boston_russian", turnup="H2", context={"senior": "H"},
                samples=8, seed=0)
    ids = {r["rung"] for r in a.rows}
    assert not ids & {"pair_junior", "alone_junior", "nine_junior"}
    assert {"pair_senior", "alone_senior", "independence"} <= ids
    assert any("no junior rungs" in n for n in a.notes)


@pytest.mark.parametrize(("rules", "options", "value"), [
    ("boston_foster", {}, 0.0),
    ("boston_foster", {"pass_value": 12}, 12.0),
    ("solo_whist_foster", {"pass_value": -3}, -3.0),
    ("boston_modern", {}, 0.0),
    ("boston_modern", {"all_pass_penalty": 5}, -5.0),
    ("boston_russian", {}, 0.0),
    ("fontainebleau_foster", {}, 0.0),
])
def test_pass_value_is_the_all_pass_outcome_the_rule_file_states(rules, options, value):
    rs = load_rules(rules, options)
    assert rs.pass_value == value
    assert rs.pass_model.startswith("all pass")


def _row(rung: str, ev: float) -> dict:
    return {"rung": rung, "name": rung, "rank": 1, "chosen": True, "priced": True,
            "ev_net": ev, "ev_net_se": 1.0, "p_make": 0.5, "trump": "S", "outcome_of": None,
            "recommended": False}


def test_recommendation_compares_with_the_value_of_passing():
    """A bid expecting +5 is made when passing is worth 0, and passed when all pass pays
    the declarer +12 (an option: the Misère Partout's value for this hand)."""
    rows = [_row("seven", 5.0)]
    pay = {"seven": np.array([5.0, 4.0, 6.0])}
    assert recommend(load_rules("boston_foster"), rows, pay).recommended == "seven"
    r = recommend(load_rules("boston_foster", {"pass_value": 12}), [_row("seven", 5.0)], pay)
    assert r.recommended == "pass" and r.pass_value == 12
    assert r.diff == pytest.approx(7.0)


def test_pass_value_in_the_json_and_the_notes():
    a = analyze("AQJT9.AK.KJ2.432", rules="boston_modern", samples=6, seed=0,
                options={"all_pass_penalty": 4})
    d = a.to_dict()
    assert d["pass_value"] == -4
    assert "all_pass_penalty" in d["pass_model"]
    assert any(n.startswith("pass = -4") for n in d["notes"])
