"""Score every candidate on the samples its search has solved, choose each rung's trump and
discard ex ante, and recommend a bid (docs/RULES.md §3.0).

The trump (and discard) reported for a rung is the one with the best mean net result (ties:
higher P(make), then higher suit preference; unpriced rungs: P(make), then mean tricks, then
suit preference): never best-per-sample. It is chosen by cross-fitting
(:func:`~.statistics.cross_fitted`): the choice made on the even deals is scored on the odd
ones and vice versa, so the chosen row is not the winner's-curse maximum of several means.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import format_card
from ..config import PARTNER_AVERAGE
from ..rules import RuleSet
from .all_pass import PassValue, fixed_pass
from .control import Controls
from .plan import Candidate, SolveKey, boston_bit, trick_floors
from .result import TABLE_COLUMNS
from .statistics import (
    CVAR_TAIL,
    CandidateStats,
    Solved,
    better,
    cross_fitted,
    diff_se,
    fill_risk_se,
    parts_stats,
    se,
    weighted_cvar,
)

INDISTINGUISHABLE_SES = 2  # two bids closer than this many SEs of their difference are a tie

_CLASS_LABELS = {"first_preference": "First Preference", "colour": "Colour", "plain": "Plain",
                 "turnup": "turn-up", "named": "named"}


@dataclass
class Recommendation:
    """The bid to make and how sure it is. ``recommended`` is a rung id, ``"pass"``, or None
    when no rung is priced; ``rec_se``: the SE of the net EV that precision mode narrows;
    ``pass_value`` ± ``pass_value_se``: what passing is worth (SE 0 for a fixed value),
    valued by the all-pass game ``pass_game`` (its name; empty for a fixed value) on the
    deals ``pass_terms`` (None for a fixed value): a bid's difference from it is paired."""

    recommended: str | None = None
    runner_up: str | None = None
    diff: float | None = None
    diff_se: float | None = None
    indistinguishable: bool = False
    reason: str = ""
    rec_se: float | None = None
    pass_value: float = 0.0
    pass_value_se: float = 0.0
    pass_game: str = ""
    pass_terms: np.ndarray | None = None


@dataclass
class Evaluation:
    """Every candidate scored (``stats``, in plan order), the table rows, the per-sample
    tricks, the per-sample estimator terms of the net counters (``payoffs``: their mean is
    the EV) and the net counters' weighted distribution (``payoff_samples``: the counted
    deals' values and weights, for pictures), and the recommendation; the sampling rounds
    add whether a time limit cut them and whether some searches stopped before the others."""

    rows: list[dict[str, Any]]
    tricks: dict[tuple[str, str | None], np.ndarray]
    payoffs: dict[str, np.ndarray]
    stats: list[CandidateStats]
    recommendation: Recommendation
    payoff_samples: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    time_limited: bool = False
    stopped_early: bool = False
    foregone: bool = False  # the rounds ended before the cap: no contest left could change
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)


def class_label(cls: str | None) -> str | None:
    """The readable name of a trump class (classic Boston's suit preference)."""
    if cls is None:
        return None
    return _CLASS_LABELS.get(cls, cls)


def rung_note(rung: Any, partner: str) -> str:
    """What the double-dummy model approximates for this rung (docs/RULES.md §3.0, §3.3, §3.5),
    after the rule file's own note on it."""
    notes = [rung.note] if rung.note else []
    if rung.kind != "at_least":
        notes.append("DD ≈ realistic for the defence (exposed)" if rung.exposed
                     else "DD pessimistic for the declarer")
    if rung.discard == "all_one":
        notes.append("defenders discard at random (A-12)")
    if rung.side == "pair":
        seat = ("in one of the three seats, drawn per deal" if partner == PARTNER_AVERAGE
                else partner)
        notes.append(f"random partner {seat}: pessimistic")
    if rung.outcome_of:
        notes.append("no bid of its own: what its purchase becomes if all three pass")
    return "; ".join(notes)


def _rates_of(rates: Mapping[SolveKey, np.ndarray] | None, key: SolveKey,
              t: np.ndarray) -> float | np.ndarray:
    """The per-deal counting rates of a key's solved deals (1.0: all exact)."""
    if rates is None or key not in rates:
        return 1.0
    return rates[key][: len(t)]


def candidate_payments(rs: RuleSet, rung: Any, c: Candidate, ctx: Mapping[str, Any],
                       hand: int) -> tuple[np.ndarray, np.ndarray]:
    """A candidate's payment per adversary and net to the declarer, by the side's tricks."""
    rctx = dict(ctx)
    if c.key.boston:
        rctx["declarer_holds_boston"] = bool(hand >> boston_bit(c.strain) & 1)
    trump_arg = c.trump if rung.trump != "none" else None
    pay = rs.payment_vector(rung.id, trump_arg, rctx)
    net = rs.net_vector(rung.id, trump_arg, rctx)
    if not rung.analysis_priced:  # priced by the rules, not by this model (§3.3)
        pay = net = np.full_like(net, np.nan)
    return pay, net


def _solved(rs: RuleSet, rung: Any, c: Candidate, t: np.ndarray, ctx: Mapping[str, Any],
            hand: int, floor: int, q: float | np.ndarray,
            xc: np.ndarray | None = None, stratum: np.ndarray | None = None) -> Solved:
    """One candidate's solved deals under the rule set's payments (``floor``, ``q``: its
    search's lowest target and share of failures counted, :mod:`.statistics`; ``xc``: their
    centred control features; ``stratum``: a misère's deals past the node budget)."""
    pay, net = candidate_payments(rs, rung, c, ctx, hand)
    trump_arg = c.trump if rung.trump != "none" else None
    suit_rank = rs.suit_rank(trump_arg, ctx) if trump_arg else -1
    return Solved(c, t, pay, net, rung.success_vector(), suit_rank, floor, q, xc, stratum)


def _describe(c: Candidate) -> str:
    """A candidate as the table names it: its trump (NT without one) and discard."""
    text = c.trump or "NT"
    return text + (f" −{format_card(c.discard)}" if c.discard >= 0 else "")


def _cross_fit_note(st: CandidateStats) -> str:
    """The row's note when its two halves of the deals chose different trumps. The halves
    may disagree by chance alone, one trump clearly the better on all the deals, so the note
    claims nothing about how close they are (and reads the same for every such rung, one
    footnote)."""
    if st.cross_fit is None:
        return ""
    even, odd = (_describe(c) for c in st.cross_fit)
    return (f"{even} best on the even deals, {odd} on the odd ones: each half's choice "
            "scored on the other half")


class RungMemo:
    """Each rung's scored candidates from the last evaluation of one analysis, reused while
    the rung's inputs (its searches' results, counting rates and strata) are the same: a
    round leaves most rungs' searches alone once they are settled. Within a rung scored
    again, each candidate whose own inputs are unchanged keeps its solved deals and
    statistics (:meth:`candidate`): usually one trump's search went on, not the others'."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[tuple, tuple[list[CandidateStats], CandidateStats]]] = {}
        self._cands: dict[tuple[str, int], tuple[tuple, tuple[Solved, CandidateStats]]] = {}

    def get(self, rung_id: str, inputs: tuple) -> tuple[list[CandidateStats],
                                                        CandidateStats] | None:
        hit = self._kept.get(rung_id)
        return hit[1] if hit is not None and hit[0] == inputs else None

    def put(self, rung_id: str, inputs: tuple,
            scored: tuple[list[CandidateStats], CandidateStats]) -> None:
        self._kept[rung_id] = (inputs, scored)

    def candidate(self, slot: tuple[str, int],
                  inputs: tuple) -> tuple[Solved, CandidateStats] | None:
        """Candidate ``slot`` (its rung, its place there) as last scored, if its inputs are
        the same."""
        hit = self._cands.get(slot)
        return hit[1] if hit is not None and hit[0] == inputs else None

    def put_candidate(self, slot: tuple[str, int], inputs: tuple,
                      scored: tuple[Solved, CandidateStats]) -> None:
        self._cands[slot] = (inputs, scored)


def _fingerprint(x: float | np.ndarray | None) -> Any:
    return x.tobytes() if isinstance(x, np.ndarray) else x


def _score_candidates(rung: Any, made: list[Callable[[], Solved]], inputs: tuple,
                      threshold: float, risk_se: bool,
                      memo: RungMemo | None) -> tuple[list[CandidateStats], CandidateStats]:
    """A rung's candidates' statistics (each ``made[i]()``'s deals, or the memo's where its
    ``inputs[i]`` are unchanged), and its trump and discard chosen ex ante (cross-fitted);
    ``risk_se``: as :func:`parts_stats`."""
    options, full = [], []
    for i, (make, key) in enumerate(zip(made, inputs, strict=True)):
        hit = memo.candidate((rung.id, i), key) if memo is not None else None
        if hit is None:
            s = make()
            hit = (s, parts_stats(s.cand, [(s, np.arange(len(s)))], threshold, risk_se))
            if memo is not None:
                memo.put_candidate((rung.id, i), key, hit)
        options.append(hit[0])
        full.append(hit[1])
    return full, cross_fitted(options, rung.kind, threshold, full, risk_se)


def _add_rung(ev: Evaluation, rs: RuleSet, rung: Any, full: list[CandidateStats],
              chosen: CandidateStats, ctx: Mapping[str, Any], partner: str) -> None:
    """Add a rung's rows to ``ev``: one per trump, the best discard of each; the chosen
    one's numbers are the cross-fitted ones."""
    ev.stats.extend(full)
    best_per_trump: dict[str | None, CandidateStats] = {}
    for st in full:
        prev = best_per_trump.get(st.candidate.trump)
        if prev is None or better(st, prev, rung.kind):
            best_per_trump[st.candidate.trump] = st
    best_per_trump[chosen.candidate.trump] = chosen
    for trump, st in best_per_trump.items():
        ev.tricks[(rung.id, trump)] = st.tricks
        if st is chosen and st.priced:
            ev.payoffs[rung.id] = st.net
            ev.payoff_samples[rung.id] = st.net_sample
        row = _row(rs, rung, st, st is chosen, ctx, partner)
        note = _cross_fit_note(st)
        if note:
            row["note"] = "; ".join(x for x in (row["note"], note) if x)
        ev.rows.append(row)


def _row(rs: RuleSet, rung: Any, st: CandidateStats, chosen: bool, ctx: Mapping[str, Any],
         partner: str) -> dict[str, Any]:
    """The table row (keys :data:`TABLE_COLUMNS`) of one rung's best candidate of a trump."""
    c = st.candidate
    trump = c.trump
    row = {
        "rung": rung.id, "name": rung.name, "rank": rung.rank, "kind": rung.kind,
        "target": rung.target, "trump": trump,
        "trump_class": class_label(rs.trump_class(trump, ctx)) if trump else None,
        "discard": format_card(c.discard) if c.discard >= 0 else None,
        "chosen": chosen, "samples": st.samples, "priced": st.priced,
        "recommended": False, "note": rung_note(rung, partner), "outcome_of": rung.outcome_of,
    }
    row.update({k: getattr(st, k) for k in (
        "p_make", "p_make_se", "mean_tricks", "ev_per_adversary", "ev_per_adversary_se",
        "ev_net", "ev_net_se", "p_loss_gt", "p_loss_se", "cvar5", "cvar5_se",
        "trick_distribution")})
    return {col: row[col] for col in TABLE_COLUMNS}


def evaluate(rs: RuleSet, cands: list[Candidate], results: Mapping[SolveKey, np.ndarray],
             ctx: Mapping[str, Any], hand: int, threshold: float, partner: str,
             rates: Mapping[SolveKey, np.ndarray] | None = None,
             pass_est: PassValue | None = None, controls: Controls | None = None,
             deals: np.ndarray | None = None,
             strata: Mapping[SolveKey, np.ndarray] | None = None,
             memo: RungMemo | None = None, risk_se: bool = True) -> Evaluation:
    """Score every candidate (each on the samples its search has solved: ``results``),
    choose trumps and discards ex ante, recommend a bid. ``rates``: each trick search's
    per-deal share of failures counted (:class:`~boston_sim.analysis.solving.Solver`;
    missing: every count known). ``pass_est``: the value of passing (missing: the rule
    file's fixed value). ``controls`` and the pool's ``deals``: adjust the estimates by
    control variates (:mod:`.control`; missing: none). ``strata``: per misère search, its
    deals past the node budget, of which only some were searched to the end (missing: none).
    ``memo``: the same analysis' last scoring, whose rungs are reused where their inputs are
    unchanged (the numbers are the same: a rung's scoring depends on nothing else).
    ``risk_se``: False leaves every ``cvar5_se`` NaN (:func:`parts_stats`); a later call with
    True works out those of reused rungs."""
    ev = Evaluation(rows=[], tricks={}, payoffs={}, stats=[], recommendation=Recommendation())
    floors = trick_floors(rs, cands)
    by_rung: dict[str, list[Candidate]] = {}
    for c in cands:
        by_rung.setdefault(c.rung_id, []).append(c)
    chosen_of: dict[str, CandidateStats | None] = {}
    features: dict[tuple[int, int], np.ndarray] = {}

    def centred(strain: int, n: int) -> np.ndarray:
        # the rungs' candidates share their strains' features (each rung's trumps)
        if (strain, n) not in features:
            features[strain, n] = controls.centred(deals, strain, n)
        return features[strain, n]

    def maker(rung: Any, c: Candidate, t: np.ndarray, q: float | np.ndarray,
              x: np.ndarray | None) -> Callable[[], Solved]:
        # (the features are worked out only for a candidate the memo does not hold)
        def make() -> Solved:
            xc = None if controls is None or deals is None else centred(c.strain, len(t))
            return _solved(rs, rung, c, t, ctx, hand, floors.get(c.key, 0), q, xc, x)
        return make

    for rung in rs.rungs:
        group = by_rung.get(rung.id, [])
        ts = [results[c.key] for c in group]
        qs = [_rates_of(rates, c.key, t) for c, t in zip(group, ts, strict=True)]
        ss = [(strata or {}).get(c.key) for c in group]
        inputs = tuple((t.tobytes(), _fingerprint(q), _fingerprint(x))
                       for t, q, x in zip(ts, qs, ss, strict=True))
        scored = memo.get(rung.id, inputs) if memo is not None else None
        if scored is None and group:
            made = [maker(rung, c, t, q, x) for c, t, q, x in zip(group, ts, qs, ss, strict=True)]
            scored = _score_candidates(rung, made, inputs, threshold, risk_se, memo)
            if memo is not None:
                memo.put(rung.id, inputs, scored)
        chosen_of[rung.id] = None
        if scored is not None:
            if risk_se:
                for st in (*scored[0], scored[1]):
                    fill_risk_se(st)
            _add_rung(ev, rs, rung, *scored, ctx, partner)
            chosen_of[rung.id] = scored[1]
    _value_outcomes(rs, ev, chosen_of, ctx, partner)
    ev.recommendation = recommend(rs, ev.rows, ev.payoffs, pass_est)
    if ev.recommendation.recommended is None:
        ev.notes.append("no priced rung; EV left empty (docs/RULES.md §3.0)")
    return ev


_OUTCOME_KEYS = ("samples", "p_make", "p_make_se", "mean_tricks", "ev_net", "ev_net_se",
                 "p_loss_gt", "p_loss_se", "cvar5", "cvar5_se")


def _outcome_numbers(st: CandidateStats) -> dict[str, Any]:
    return {k: getattr(st, k) for k in _OUTCOME_KEYS}


def mix_outcomes(bid: CandidateStats, other: CandidateStats, w: float) -> CandidateStats:
    """The numbers of a bid played as ``bid`` with probability ``w``, else as ``other``
    (docs/RULES.md §3.5), on the deals both were solved on. The EV's SE is paired per deal;
    a probability's SE is the weighted sum of the two (an upper bound)."""
    k = min(bid.samples, other.samples)
    net = w * bid.net[:k] + (1 - w) * other.net[:k]

    def mix(a: float, b: float) -> float:
        return w * a + (1 - w) * b

    (xa, wa), (xb, wb) = bid.net_sample, other.net_sample
    xs = np.concatenate([xa, xb])
    ws = np.concatenate([w * wa / wa.sum(), (1 - w) * wb / wb.sum()])
    return dataclasses.replace(
        bid, tricks=bid.tricks[:k], p_make=mix(bid.p_make, other.p_make),
        p_make_se=mix(bid.p_make_se, other.p_make_se),
        mean_tricks=mix(bid.mean_tricks, other.mean_tricks),
        trick_distribution=[mix(a, b) for a, b in zip(bid.trick_distribution,
                                                       other.trick_distribution, strict=True)],
        ev_per_adversary=mix(bid.ev_per_adversary, other.ev_per_adversary),
        ev_per_adversary_se=mix(bid.ev_per_adversary_se, other.ev_per_adversary_se),
        ev_net=float(net.mean()), ev_net_se=se(net),
        p_loss_gt=mix(bid.p_loss_gt, other.p_loss_gt),
        p_loss_se=mix(bid.p_loss_se, other.p_loss_se),
        cvar5=weighted_cvar(xs, ws, CVAR_TAIL) if ws.sum() > 0 else math.nan,
        cvar5_se=mix(bid.cvar5_se, other.cvar5_se),
        net=net, net_sample=(xs, ws), risk_inputs=None)


def _value_outcomes(rs: RuleSet, ev: Evaluation, chosen_of: Mapping[str, CandidateStats | None],
                    ctx: Mapping[str, Any], partner: str) -> None:
    """A bid with another outcome (a Russian purchase: supported, or alone if all pass) is
    valued as the mix :attr:`RuleSet.support_share` says; both outcomes' own numbers go to
    ``ev.outcomes`` beside it, and its row and payoffs become the mix's."""
    w = rs.support_share
    for rung in rs.rungs:
        bid, other = chosen_of.get(rung.outcome_of or ""), chosen_of.get(rung.id)
        if bid is None or other is None or not (bid.priced and other.priced):
            continue
        ev.outcomes[rung.outcome_of] = {
            "support_share": w, "supported": _outcome_numbers(bid),
            "unsupported": _outcome_numbers(other)}
        if w >= 1:
            continue
        mixed = mix_outcomes(bid, other, w)
        bid_rung = rs.rung(rung.outcome_of)
        i = next(i for i, r in enumerate(ev.rows) if r["rung"] == bid_rung.id and r["chosen"])
        ev.rows[i] = _row(rs, bid_rung, mixed, True, ctx, partner)
        ev.payoffs[bid_rung.id] = mixed.net
        ev.payoff_samples[bid_rung.id] = mixed.net_sample


def _pass_text(pe: PassValue) -> str:
    """The value of passing in words: the number, and for a simulated game its name and SE."""
    if not pe.simulated:
        return f"{pe.value:+.1f}"
    return f"{pe.label}, {pe.value:+.1f} ± {pe.se:.1f}"


def _order_key(row: Mapping[str, Any]) -> tuple[float, float, int]:
    """Rank priced rows by net EV, then P(make), then ladder rank (NaN last)."""
    ev, p = float(row["ev_net"]), float(row["p_make"])
    return (-math.inf if math.isnan(ev) else ev, -math.inf if math.isnan(p) else p,
            int(row["rank"]))


def recommend(rs: RuleSet, rows: list[dict[str, Any]],
              payoffs: Mapping[str, np.ndarray],
              pass_est: PassValue | None = None) -> Recommendation:
    """The bid with the best expected net result among the chosen priced rows (a bid's other
    outcome is no bid), or "pass" when every bid expects less than passing (``pass_est``:
    the simulated all-pass game, :mod:`.all_pass`; missing: :attr:`RuleSet.pass_value`, 0
    unless the file prices the all-pass outcome); marks its row ``recommended``."""
    pe = pass_est if pass_est is not None else fixed_pass(rs)
    priced = [r for r in rows if r["chosen"] and r["priced"] and not r["outcome_of"]]
    if not priced:
        return Recommendation(reason=f"no priced rung: {rs.name} gives no payments for these "
                                     "contracts, so only probabilities are shown",
                              pass_value=pe.value, pass_value_se=pe.se, pass_game=pe.label)
    order = sorted(priced, key=_order_key, reverse=True)
    best = order[0]
    second = order[1] if len(order) > 1 else None
    unit = rs.unit
    pv = pe.value
    r = Recommendation(pass_value=pv, pass_value_se=pe.se, pass_game=pe.label,
                       pass_terms=pe.terms if pe.simulated else None)
    # a simulated pass is paired with the bid per deal (the same deals: common random numbers)
    best_terms = payoffs.get(best["rung"])
    pass_diff_se = (diff_se(best_terms, pe.terms) if pe.simulated and best_terms is not None
                    else float(best["ev_net_se"]))
    if best["ev_net"] < pv:
        r.recommended, r.runner_up = "pass", best["rung"]
        r.diff = pv - float(best["ev_net"])
        r.rec_se = float(best["ev_net_se"])
        r.diff_se = pass_diff_se
        lose = ("loses on average" if pv == 0 and not pe.simulated
                else f"expects less than passing ({_pass_text(pe)})")
        r.reason = (f"every rung {lose}; the best, {best['name']}, expects "
                    f"{best['ev_net']:+.1f} {unit}")
    else:
        r.recommended = best["rung"]
        r.rec_se = float(best["ev_net_se"])
        if second is None or second["ev_net"] < pv:
            r.runner_up, r.diff, r.diff_se = "pass", float(best["ev_net"]) - pv, pass_diff_se
        else:
            r.runner_up = second["rung"]
            r.diff = float(best["ev_net"] - second["ev_net"])
            # each on all its samples, paired on the ones they share (common random numbers)
            r.diff_se = diff_se(payoffs[r.recommended], payoffs[r.runner_up])
        trump_txt = f" in {best['trump']}" if best["trump"] else ""
        r.reason = (f"{best['name']}{trump_txt} has the highest expected net result, "
                    f"{best['ev_net']:+.1f} ± {best['ev_net_se']:.1f} {unit} "
                    f"(P(make) {best['p_make']:.2f})")
    if r.diff_se is not None and not math.isnan(r.diff_se):
        r.indistinguishable = abs(r.diff) <= INDISTINGUISHABLE_SES * r.diff_se
    runner_name = "pass" if r.runner_up == "pass" else rs.rung(r.runner_up).name
    if r.indistinguishable:
        than = " from passing" if r.recommended == "pass" else ""
        r.reason += (f"; {runner_name} is statistically indistinguishable{than} "
                     f"(difference {r.diff:.1f} ± {r.diff_se:.1f})")
    else:
        r.reason += f"; ahead of {runner_name} by {r.diff:.1f} ± {r.diff_se:.1f}"
    for row in rows:
        if row["rung"] == r.recommended and row["chosen"]:
            row["recommended"] = True
    return r
