"""Scoring: the seeds' worked examples, options, pair rungs, the boston bonus, misère partout.

Expected numbers come from the seed prose as quoted in docs/RULES.md (line numbers given).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from boston_sim.errors import RulesError
from boston_sim.rules import load_rules, misere_partout, misere_partout_red, score, trump_class


@pytest.fixture(scope="module")
def spec_text() -> str:
    from test_rules_tables import RULES_MD

    return RULES_MD.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- classic Boston


def test_underbidding_example() -> None:
    """000 L107-L112: seven bid / ten taken pays 22, ten bid / ten taken pays 42; an
    underbidder loses 60 counters over his three adversaries."""
    seven = score("boston_foster", "seven", 10)
    ten = score("boston_foster", "ten", 10)
    assert seven.per_adversary == [22, 22, 22]
    assert ten.per_adversary == [42, 42, 42]
    assert ten.net - seven.net == 60


def test_put_in_for_one_example() -> None:
    """000 L220-L224: bidding eight and taking seven pays each adversary 23 white."""
    s = score("boston_foster", "eight", 7)
    assert not s.success
    assert s.per_adversary == [-23, -23, -23]
    assert s.net == -69
    assert s.unit == "white counters"


def test_russian_seed_call_names(spec_text: str) -> None:
    """The order of bids as printed (L77, quoted verbatim in docs/RULES.md §2.5.4): each call
    name is accepted and names the rungs in the ladder's order (docs/RULES.md §2.5.4 table,
    ranks 1-6: junior purchase, senior purchase, solo/independence, nine junior, nine
    senior, misère)."""
    m = re.search(r"«Прикупы располагаются в следующем порядке: (.*?)\.»", spec_text)
    names = re.split(r", | и ", m.group(1))
    assert len(names) == 6
    rules = load_rules("boston_russian")
    ids = [rules.rung(n).id for n in names]
    assert ids == [
        "pair_junior",
        "pair_senior",
        "independence",
        "nine_junior",
        "nine_senior",
        "misere",
    ]
    ranks = [rules.rung(i).rank for i in ids]
    assert ranks == sorted(ranks)
    # the tariff's rubric headings (§2.5.9 T1, T2, T9, T10) and the misère purchase (L85)
    assert rules.rung("Прикуп младшей масти").id == "pair_junior"
    assert rules.rung("ПРИКУП СТАРШЕЙ МАСТИ").id == "pair_senior"
    assert rules.rung("Прикуп младшей масти, не купленный").id == "alone_junior"
    assert rules.rung("прикуп старшей масти, не купленный").id == "alone_senior"
    assert rules.rung("покупка к мизеру").id == "misere"
    assert score("boston_russian", "прикуп младшей", 9).amount == 4  # T1: 9 tricks, 4 chips


def test_english_ids_across_rule_sets() -> None:
    """Foster's English ids name the same calls in the other rule sets: modern Petite /
    Grande Misère (§2.4.2), Fontainebleau's Slam (§2.2.2, Boston's Grand Slam)."""
    modern = load_rules("boston_modern")
    assert modern.rung("little_misere").id == "petite_misere"
    assert modern.rung("grand_misere").id == "grande_misere"
    assert score("boston_modern", "little_misere", 0).amount == 30  # A-32 midpoint
    assert score("boston_modern", "Grand Misère", 1).amount == -50
    assert load_rules("fontainebleau_foster").rung("grand_slam").id == "slam"
    assert score("fontainebleau_foster", "grand_slam", 13, trump="NT").contract == "slam"


def test_seed_names_accepted() -> None:
    for name in ("Eight Tricks", "EIGHT TRICKS", "eight", "  eight tricks "):
        assert score("boston_foster", name, 7).contract == "eight"
    for name in ("Little Misère", "little misere", "LITTLE-MISERE", "little_misere"):
        assert score("boston_foster", name, 0).per_adversary == [20, 20, 20]
    assert score("solo_whist_foster", "Abundance Déclarée", 13).contract == "slam"
    assert score("solo_whist_foster", "misere sur table", 0).contract == "spread"


def test_misere_is_flat() -> None:
    """§2.1.10: the same amount is lost whatever the trick on which the misère fails."""
    for t in range(1, 14):
        assert score("boston_foster", "grand_spread", t).per_adversary == [-160] * 3


def test_american_option() -> None:
    """A-06: no over-tricks (§2.1.7) and the decimal failure table (§2.1.9)."""
    s = score("boston_foster", "seven", 10, {"payments": "american"})
    assert s.per_adversary == [20, 20, 20]
    assert score("boston_foster", "eight", 7, {"payments": "american"}).per_adversary == [-25] * 3


def test_slam_failure_options() -> None:
    """A-09: played out (s = 13 - t) by default; one_trick charges s = 1 (177 w)."""
    assert score("boston_foster", "grand_slam", 10).amount == -222  # short 3
    assert score("boston_foster", "grand_slam", 10, {"slam_failure": "one_trick"}).amount == -177
    assert score("boston_foster", "grand_slam", 0, {"slam_failure": "one_trick"}).amount == -177
    assert score("boston_foster", "grand_slam", 13, {"slam_failure": "one_trick"}).amount == 166
    with pytest.raises(RulesError, match="tricks_before_first_loss.*play history"):
        load_rules("boston_foster", {"slam_failure": "tricks_before_first_loss"})


def test_pool_term() -> None:
    """A-07, §3.1: a successful pool bid (Seven or better, misères included) wins the pool;
    any failure doubles it."""
    rules = load_rules("boston_foster", {"pool": "12"})
    assert score(rules, "seven", 7).net == 3 * 18 + 12
    assert score(rules, "six", 6).net == 3 * 15  # not a pool bid
    assert score(rules, "six", 5).net == -3 * 15 - 12  # failure doubles the pool anyway
    assert score(rules, "little_misere", 0).net == 3 * 20 + 12
    assert score(rules, "little_misere", 1).net == -3 * 20 - 12
    net = rules.net_vector("seven")
    pay = rules.payment_vector("seven")
    assert np.array_equal(net, 3 * pay + np.where(np.arange(14) >= 7, 12, -12))


def test_tricks_out_of_range() -> None:
    with pytest.raises(RulesError, match="out of range 0..13"):
        score("boston_foster", "eight", 14)
    with pytest.raises(RulesError, match="out of range"):
        score("boston_foster", "eight", -1)
    # 12-card rungs: every player discards one card
    with pytest.raises(RulesError, match="out of range 0..12"):
        score("boston_foster", "little_misere", 13)
    assert math.isnan(load_rules("boston_foster").payment_vector("little_misere")[13])
    with pytest.raises(RulesError, match="whole number"):
        score("boston_foster", "eight", "seven")


def test_unknown_contract_and_trump() -> None:
    with pytest.raises(RulesError, match="unknown contract 'nine tricks and a half'"):
        score("boston_foster", "nine tricks and a half", 9)
    with pytest.raises(RulesError, match="no-trump"):
        score("boston_foster", "eight", 8, trump="NT")  # no NT trick bids
    with pytest.raises(RulesError, match="without trumps"):
        score("boston_foster", "grand_misere", 0, trump="S")
    assert score("fontainebleau_foster", "eight", 8, trump="NT").trump == "NT"


def test_vectors_are_dense_and_read_only() -> None:
    rules = load_rules("boston_foster")
    pay = rules.payment_vector("eight")
    assert pay.shape == (14,) and pay.dtype == np.float64
    with pytest.raises(ValueError):
        pay[0] = 1.0
    tricks = np.array([7, 8, 13, 0], dtype=np.int8)
    assert rules.net_vector("eight")[tricks].tolist() == [-69, 69, 93, -330]


# --------------------------------------------------------------------------- misère partout


@pytest.mark.parametrize(
    "tricks,loser,red_lost",
    [
        ([4, 3, 3, 3], 0, 3),  # "A wins 4: 3 x 4 = 12, minus 9 not taken -> loses 3"
        ([7, 2, 2, 2], 0, 15),  # "A wins 7: 21 - 6 -> loses 15"
        ([2, 2, 7, 2], 2, 15),
    ],
)
def test_partout_single_loser(tricks: list[int], loser: int, red_lost: int) -> None:
    res = misere_partout(tricks)
    assert res[loser] == -red_lost * 10
    assert sum(res) == 0


def test_partout_split_example() -> None:
    """A 6, Y 2, B 5, Z 0: A loses 11 red: 4 to Y, 1 to B, 6 to Z (1 red = 10 white, A-02)."""
    assert misere_partout([6, 2, 5, 0]) == [-110, 40, 10, 60]


def test_partout_ties() -> None:
    """Two-way tie: A and Y 5 each, B 1, Z 2: 7 red divided -> 35 white each.
    Three-way tie: three players take four tricks each and each pays the fourth one red."""
    res = misere_partout([5, 5, 1, 2])
    assert res[0] == res[1] == -35
    assert sum(res) == 0
    assert misere_partout([4, 4, 4, 1]) == [-10, -10, -10, 30]
    assert misere_partout([1, 4, 4, 4]) == [30, -10, -10, -10]


def test_partout_red_counters() -> None:
    """§2.1.5: "A 6, Y 2, B 5, Z 0: A loses ... 11: 4 to Y, 1 to B, 6 to Z" (red counters)."""
    assert misere_partout_red([6, 2, 5, 0]) == [-11, 4, 1, 6]
    assert misere_partout([6, 2, 5, 0], options={"red_in_white": 1}) == [-11, 4, 1, 6]


@pytest.mark.parametrize("ratio", [1, 5, 6, 12.5])
def test_partout_ratio_is_the_rule_set_option(ratio: float) -> None:
    """§2.1.5: the loss is counted in red counters; the tie example "A and Y each take 5
    tricks; B taking 1, and Z 2. The 7 red counters lost by A and Y being divided" gives 3.5
    red each, which the seed reads as 35 white at 1 red = 10 white (A-02). The white result
    is the red one times the rule set's option red_in_white, whatever its value."""
    red = [-3.5, -3.5, 5 - 1, 5 - 2]
    want = [r * ratio for r in red]
    assert misere_partout([5, 5, 1, 2], options={"red_in_white": ratio}) == want
    rules = load_rules("boston_foster", {"red_in_white": str(ratio)})
    assert rules.red_in_white == ratio
    assert rules.misere_partout([5, 5, 1, 2]) == want
    assert misere_partout([5, 5, 1, 2], rules) == want
    # the default is the rule set's own (A-02: 10), not a number of the code
    assert misere_partout([5, 5, 1, 2]) == [-35, -35, 40, 30]


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "0.5", "ten"])
def test_partout_bad_ratio(bad: str) -> None:
    with pytest.raises(RulesError, match=rf"option red_in_white: bad value '{bad}'"):
        misere_partout([5, 5, 1, 2], options={"red_in_white": bad})


@pytest.mark.parametrize("rid", ["solo_whist_foster", "boston_modern", "fontainebleau_foster"])
def test_partout_only_where_the_rules_have_it(rid: str) -> None:
    """Misère partout is classic Boston's all-pass game (§2.1.5); Solo Whist's all-pass
    Grand is settled otherwise (§2.3.3) and the other rule sets redeal."""
    with pytest.raises(RulesError, match=f"{rid} has no misère partout"):
        misere_partout([4, 3, 3, 3], rid)


@pytest.mark.parametrize(
    "bad,msg",
    [
        ([4, 3, 3], "exactly 4"),
        ([4, 3, 3, 2], "sum to 12"),
        ([14, 0, 0, -1], ">= 0"),
        ([4.5, 3, 3, 2.5], "whole numbers"),
        ("4 3 3 3", "exactly 4"),
    ],
)
def test_partout_bad_input(bad: object, msg: str) -> None:
    with pytest.raises(RulesError, match=msg):
        misere_partout(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Solo Whist


def test_solo_whist_seed_examples() -> None:
    """001 L34: a solo won with seven tricks: each adversary pays two red and two white
    (1 red = 5 white: 12 white); lost with four tricks: 2 red + 1 white to each."""
    made = score("solo_whist_foster", "solo", 7)
    assert made.per_adversary == [2 * 5 + 2] * 3
    assert made.net == 36
    lost = score("solo_whist_foster", "solo", 4)
    assert lost.per_adversary == [-(2 * 5 + 1)] * 3
    # "a single player calling a solo would win or lose 6 red counters" (at exactly 5 tricks)
    assert score("solo_whist_foster", "solo", 5).net == 6 * 5
    # the English 6:1 proportion as an option
    assert score("solo_whist_foster", "solo", 7, {"red_in_white": 6}).amount == 2 * 6 + 2


def test_solo_whist_proposal_is_pair() -> None:
    """A-28: each partner wins or loses 1 red plus odd tricks against ONE adversary;
    the revoke example (L43): 8 - 3 = 5 tricks -> each pays one red and three white."""
    s = score("solo_whist_foster", "proposal", 5)
    assert s.amount == -(5 + 3)
    assert s.per_adversary == [-8, 0]
    assert s.net == -8
    assert load_rules("solo_whist_foster").rung("proposal").leader == "eldest"
    assert load_rules("solo_whist_foster").rung("slam").leader == "declarer"


# --------------------------------------------------------------------------- modern


def test_modern_examples() -> None:
    """§2.4.4: 5 tricks = 10 each; over-tricks 5; failure 5 per missing trick (A-34)."""
    assert score("boston_modern", "boston", 5).per_adversary == [10, 10, 10]
    assert score("boston_modern", "boston", 7).amount == 20
    assert score("boston_modern", "chelem", 12).amount == -405
    assert score("boston_modern", "petite_misere", 0).amount == 30
    assert score("boston_modern", "petite_misere", 1, {"misere_amounts": "lower"}).amount == -20
    rules = load_rules("boston_modern", {"pool": 10})
    assert score(rules, "boston", 5).net == 40  # the pot goes to a successful declarer
    assert score(rules, "boston", 4).net == -45  # pot untouched on failure


# --------------------------------------------------------------------------- Russian


def test_russian_pair_and_round() -> None:
    """T1: a junior pair with 9 tricks: each winner receives 4 from the other player (A-48);
    T13: double rounds pay double."""
    s = score("boston_russian", "pair_junior", 9)
    assert s.amount == 4 and s.payers == 1 and s.per_adversary == [4, 0] and s.net == 4
    each = score("boston_russian", "pair_junior", 9, {"pair_payment": "each"})
    assert each.per_adversary == [4, 4] and each.net == 8
    assert score("boston_russian", "pair_junior", 9, {"round_multiplier": "2"}).amount == 8
    # T7: lost independence in the junior suit, one short: 16 + 4 = 20 to each of three
    s = score("boston_russian", "independence", 7, trump="H", context={"senior": "S"})
    assert s.per_adversary == [-20] * 3


def test_russian_independence_needs_trump() -> None:
    """A-43: independence has two tariffs (T3/T7 junior, T4/T8 senior): without the trump
    the amount is unknown, so score() refuses rather than assume the junior tariff."""
    with pytest.raises(RulesError, match=r"independence.*depends on the trump.*--trump"):
        score("boston_russian", "independence", 8)
    with pytest.raises(RulesError, match=r"--trump"):
        score("boston_russian", "independence", 8, context={"senior": "S"})
    with pytest.raises(RulesError, match=r"--trump"):
        load_rules("boston_russian").payment_vector("independence")


def test_russian_independence_needs_senior() -> None:
    """A-43: the senior tariff applies when the chosen trump is the senior suit."""
    assert (
        score("boston_russian", "independence", 8, trump="S", context={"senior": "S"}).amount == 32
    )
    assert (
        score("boston_russian", "independence", 8, trump="D", context={"senior": "S"}).amount == 16
    )
    with pytest.raises(RulesError, match="senior"):
        score("boston_russian", "independence", 8, trump="D")


def test_russian_boston_bonus() -> None:
    """L87, A-50: +2 from each other player to a declarer holding the boston card,
    otherwise -2 to the holder; nothing in misère (L85) or with the card off."""
    holds = score("boston_russian", "alone_junior", 5, context={"declarer_holds_boston": True})
    assert holds.bonus == 6 and holds.net == 3 * 2 + 6
    other = score("boston_russian", "alone_junior", 5, context={"declarer_holds_boston": False})
    assert other.bonus == -2 and other.net == 6 - 2
    only = score(
        "boston_russian",
        "alone_junior",
        5,
        {"boston_bonus": "declarer_only"},
        context={"declarer_holds_boston": False},
    )
    assert only.bonus == 0
    off = score(
        "boston_russian",
        "alone_junior",
        5,
        {"boston_card_mode": "off"},
        context={"declarer_holds_boston": True},
    )
    assert off.bonus == 0
    rules = load_rules("boston_russian")
    assert rules.bonus_net("misere", None, {"declarer_holds_boston": True}) == 0
    assert rules.bonus_net("alone_junior", None, {"declarer_holds_boston": True}) == 6
    assert (
        load_rules("boston_russian", {"round_multiplier": 2}).bonus_net(
            "alone_junior", None, {"declarer_holds_boston": True}
        )
        == 12
    )
    net = rules.net_vector("alone_junior", None, {"declarer_holds_boston": True})
    assert np.array_equal(net, 3 * rules.payment_vector("alone_junior") + 6)


def test_russian_unpriced() -> None:
    s = score("boston_russian", "misere", 0)
    assert s.success and s.net is None and s.per_adversary == [None, None, None]
    assert load_rules("boston_russian", {"nine_side": "pair"}).rung("nine_senior").side == "pair"


# --------------------------------------------------------------------------- trump classes


def test_trump_classes() -> None:
    boston = load_rules("boston_foster")
    pref = {"preference": "D"}
    assert trump_class(boston, "D", pref) == "first_preference"
    assert trump_class(boston, "H", pref) == "colour"
    assert trump_class(boston, "S", pref) == "plain"
    assert trump_class(boston, "C", pref) == "plain"
    assert trump_class(boston, "S", None) is None
    assert boston.suit_rank("D", pref) > boston.suit_rank("H", pref) > boston.suit_rank("C", pref)
    modern = load_rules("boston_modern")  # D > H > C > S
    ranks = [modern.suit_rank(s) for s in "DHCS"]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 4
    fb = load_rules("fontainebleau_foster")  # NT on top
    assert fb.suit_rank("NT") > fb.suit_rank("D") > fb.suit_rank("S")
    ru = load_rules("boston_russian")
    ctx = {"senior": "S", "junior": "H"}
    assert [trump_class(ru, s, ctx) for s in "SHDC"] == ["senior", "junior", "plain", "plain"]
    sw = load_rules("solo_whist_foster")
    assert trump_class(sw, "C", {"turnup": "C"}) == "turnup"
    assert trump_class(sw, "H", {"turnup": "C"}) == "named"


# --------------------------------------------------------------------------- properties


def _all_partout_deals() -> list[list[int]]:
    return [
        [a, b, c, 13 - a - b - c]
        for a in range(14)
        for b in range(14 - a)
        for c in range(14 - a - b)
    ]


def test_partout_general_formula() -> None:
    """§2.1.5 [derived]: with m the most tricks and k players tied on it, each of them pays
    (4m - 13)/k red in all, and every other player j receives m - t_j red."""
    for tricks in _all_partout_deals():
        res = misere_partout(tricks)
        m = max(tricks)
        k = tricks.count(m)
        for t, w in zip(tricks, res, strict=False):
            want = -(4 * m - 13) / k if t == m else m - t
            assert w == pytest.approx(10 * want), tricks
        assert sum(res) == pytest.approx(0)


@pytest.mark.parametrize(
    "rid", ["boston_foster", "boston_modern", "solo_whist_foster", "boston_russian"]
)
def test_net_is_payers_times_amount(rid: str) -> None:
    """Without pool or bonus, the net is the per-adversary amount times the payers, and
    score() agrees with the dense vectors at every trick count."""
    rules = load_rules(rid)
    for rung in rules.rungs:
        trump = "S" if rung.trump.startswith("declarer") else None
        ctx = {"senior": "H"}
        pay = rules.payment_vector(rung.id, trump, ctx)
        net = rules.net_vector(rung.id, trump, ctx)
        np.testing.assert_array_equal(net, rung.payers * pay)
        for t in range(rung.tricks + 1):
            s = score(rules, rung.id, t, trump=trump, context=ctx)
            assert s.success == rung.success(t)
            if rung.priced:
                assert s.amount == pay[t] and s.net == net[t]
                assert (s.amount > 0) == s.success  # success is paid, failure pays
            else:
                assert s.amount is None and s.net is None


# --------------------------------------------------------------------------- dense arrays


@pytest.mark.parametrize(
    "rid",
    [
        "boston_foster",
        "boston_modern",
        "solo_whist_foster",
        "boston_russian",
        "fontainebleau_foster",
    ],
)
@pytest.mark.parametrize("senior_trump", [False, True])
def test_payment_table_equals_score(rid: str, senior_trump: bool) -> None:
    """payment_table()[i, t] is score()'s per-adversary amount for rung i and t tricks, cell
    by cell (NaN where score() has no amount or t is impossible); net_table() likewise for
    the net. A trump-dependent tariff (Russian independence, A-43) follows senior_trump."""
    rules = load_rules(rid)
    if "pool" in rules.option_specs:
        rules = rules.with_options({"pool": 7})  # the net then has a pool term
    pay = rules.payment_table(senior_trump=senior_trump)
    net = rules.net_table(senior_trump=senior_trump)
    assert pay.shape == net.shape == (len(rules.rungs), 14) and pay.dtype == np.float64
    with pytest.raises(ValueError):
        pay[0, 0] = 1.0
    cells = 0
    for i, rung in enumerate(rules.rungs):
        trump, ctx = None, None
        if rung.trump.startswith("declarer"):
            trump = "S"
            ctx = {"senior": "S" if senior_trump else "H"}
        for t in range(14):
            if t > rung.tricks:
                assert math.isnan(pay[i, t]) and math.isnan(net[i, t])
                continue
            s = score(rules, rung.id, t, trump=trump, context=ctx)
            if s.amount is None:
                assert math.isnan(pay[i, t]) and math.isnan(net[i, t])
            else:
                assert pay[i, t] == s.amount and net[i, t] == s.net, (rung.id, t)
                cells += 1
    assert cells == sum(r.tricks + 1 for r in rules.rungs if r.priced)


def test_payment_table_trump_dependence() -> None:
    """Russian independence: junior T3 (16 at 8 tricks) or senior T4 (32), A-43; a rule set
    with such a rung wants to be told which, the others do not."""
    ru = load_rules("boston_russian")
    i = next(k for k, r in enumerate(ru.rungs) if r.id == "independence")
    assert ru.payment_table(senior_trump=False)[i, 8] == 16
    assert ru.payment_table(senior_trump=True)[i, 8] == 32
    other = [k for k in range(len(ru.rungs)) if k != i]
    np.testing.assert_array_equal(
        ru.payment_table(senior_trump=False)[other], ru.payment_table(senior_trump=True)[other]
    )
    with pytest.raises(RulesError, match="independence.*senior suit"):
        ru.payment_table()
    foster = load_rules("boston_foster")
    np.testing.assert_array_equal(foster.payment_table(), foster.payment_table(True))
