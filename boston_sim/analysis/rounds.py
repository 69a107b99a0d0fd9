"""How many deals each search gets: the sampling rounds of the default and precision modes,
the rule that lets a settled search stop early, and the time limit.

Default mode draws rounds of :data:`ROUND` deals up to :data:`DEFAULT_SAMPLES`; after each
round a search whose every row is settled (:func:`settle`) stops, the others go on; all stop
when no contest left could change by the cap (:func:`decided_by_cap`). Precision
mode samples until the SE of the recommended bid's net EV is below ``precision`` (cap
``max_samples``). The rounds and the stopping decisions depend only on the results, which do
not depend on the number of threads, so a seed still fixes every number (unless a time limit
ends the rounds early).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from ..config import DEFAULT_SAMPLES, ROUND, SE_TARGET, TIME_STEP
from ..sampler import Sampler
from .evaluate import Evaluation, Recommendation
from .plan import SolveKey
from .solving import Solver
from .statistics import CandidateStats, ac_se, diff_se, se

__all__ = ["DEFAULT_SAMPLES", "FLIP_MAX", "FORECAST_FROM", "LAST_STEP", "LOOK_AHEAD",
           "PRECISION_START", "RESOLVE_MIN", "ROUND", "SE_TARGET", "TIME_STEP",
           "WORKERS_PER_ROUND_AHEAD", "Z_OUT", "WorkCount", "decided_by_cap", "deals_for_se",
           "floor_bid", "forecast", "run_rounds", "settle", "solve_before"]

LAST_STEP = 5
"""When only the best bid's P(make) keeps its search going (:func:`settle`), the next round
is just long enough for its SE to reach the target at the proportion seen so far, but at
least ``ROUND // LAST_STEP`` deals."""

Z_OUT = 3.0
"""A row stops early only if its net EV is this many SEs of the paired difference below the
best bid's (or passing's)."""

FORECAST_FROM = 4 * ROUND
"""The rounds may end before the cap (:func:`decided_by_cap`) from this many deals on."""

FLIP_MAX = 0.01
"""A contest is foregone when its leader would be behind at the cap with at most this
predictive probability ..."""

RESOLVE_MIN = 0.01
"""... or when the cap would separate the two by ``Z_OUT`` SEs with at most this one: a tie
that 300 deals would still report as a tie (statistically indistinguishable)."""

LOOK_AHEAD = True
"""In default mode, a round's last batch queues the next rounds' jobs behind it, for the
workers' idle time (:meth:`Solver.solve_to`'s ``ahead``); False waits for each round to be
scored first. The numbers are the same either way."""

WORKERS_PER_ROUND_AHEAD = 2
"""The look-ahead reaches one round further per this many workers (one round on two): while
a round's slowest searches end, the more workers there are, the more later jobs they need."""

PRECISION_START = 200
"""First chunk drawn by ``precision=`` mode."""

PRECISION_MIN_STEP = 100  # precision mode draws at least this many more deals a round
PRECISION_MARGIN = 1.1  # ... and 10% more than the SE seen so far says it needs
BATCH_SHARE = 0.9  # a time-limited batch is sized to end within 90% of the time left
_PHI = statistics.NormalDist().cdf


class WorkCount:
    """Deal-solves done and planned; tells ``listener(done, total)`` after each batch."""

    def __init__(self, listener: Callable[[int, int], None] | None = None) -> None:
        self.done = 0
        self.total = 0
        self.listener = listener

    def set_total(self, total: int) -> None:
        self.total = total

    def advance(self, n: int) -> None:
        self.done += n
        if self.listener is not None:
            self.listener(self.done, self.total)


def settle(stats: Sequence[CandidateStats], rec: Recommendation | None = None,
           others: frozenset[str] = frozenset()) -> tuple[set[SolveKey], int]:
    """Searches that may stop: every candidate (rung, trump, discard) that uses them is
    settled. The reference is the best priced bid, or passing (``rec``'s pass value, paired
    per deal when simulated; missing: 0) when that is worth more; rows of rungs in
    ``others`` (no bids) are never the best bid. A priced candidate is settled when its net EV
    is :data:`Z_OUT` SEs of the paired difference below the reference's, or below another
    trump or discard of its own rung, after at least :data:`ROUND` deals (or with its P(make)
    known within :data:`SE_TARGET`, :func:`p_make_se`): a rung out of reach of the decision
    needs no precise P(make), nor does a candidate that cannot be its rung's choice. An
    unpriced one is settled when its P(make) is known.

    The best bid's own search stops once the decision is made: its net EV is ``Z_OUT`` SEs
    of the paired difference above passing, every other candidate is settled and its P(make)
    is known. More deals would only narrow its EV's interval, which ``--precision`` is for.

    Also returns, when only the best bid's P(make) stands in the way, the number of deals at
    which its SE would reach the target if the proportion stayed as it is (else 0): the next
    round need not go further (:func:`run_rounds`)."""
    v = _verdicts(stats, rec, others)
    good, b = v.good, v.best
    wanted = 0
    if v.bid_on_top and all(g for i, g in enumerate(good) if i != b):
        st = stats[b]
        if _ahead(_value(st), v.passing):
            if v.known[b]:
                good[b] = True
            else:
                wanted = deals_for_se(st.p_make, st.samples, _measured_se(st))
    ok: dict[SolveKey, bool] = {}
    for st, g in zip(stats, good, strict=True):
        key = st.candidate.key
        ok[key] = ok.get(key, True) and g
    return {k for k, v in ok.items() if v}, wanted


def decided_by_cap(stats: Sequence[CandidateStats], rec: Recommendation | None,
                   others: frozenset[str], n: int, cap: int = DEFAULT_SAMPLES) -> bool:
    """Whether the rounds may end at ``n`` deals, before the cap, because no contest left
    can change the answer. Every row that :func:`settle` leaves open must have its P(make)
    known within :data:`SE_TARGET` (a rung within reach of the decision keeps that precision),
    and each open contest (the reference against a row, the best bid against passing) must
    be decided in all but name: by the cap, the leader would fall behind with a predictive
    probability of at most :data:`FLIP_MAX`, or the difference would reach ``Z_OUT`` SEs
    with one of at most :data:`RESOLVE_MIN` (a tie that the cap would still call a tie).
    Not before :data:`FORECAST_FROM` deals."""
    return forecast(stats, rec, others, n, cap)[0]


def forecast(stats: Sequence[CandidateStats], rec: Recommendation | None,
             others: frozenset[str], n: int, cap: int = DEFAULT_SAMPLES) -> tuple[bool, int]:
    """:func:`decided_by_cap`, and when every open contest is foregone but some open rows'
    P(make) is still loose, the deals at which the loosest would reach the target at the
    proportion seen so far (:func:`deals_for_se`; else 0): the next round need not go
    further."""
    if n < FORECAST_FROM or n >= cap:
        return False, 0
    v = _verdicts(stats, rec, others)
    contests: list[tuple[_Value, _Value]] = []
    loose: list[CandidateStats] = []
    for i, st in enumerate(stats):
        if v.good[i]:
            continue
        if not v.known[i]:
            loose.append(st)
        if not st.priced or st.net is None:
            continue  # in no contest: its P(make) is all it needs
        if i == v.best and v.bid_on_top:
            contests.append((v.ref, v.passing))
        else:
            contests.append((v.ref, _value(st)))
    if not contests or not all(_foregone(hi, lo, n, cap) for hi, lo in contests):
        return False, 0
    if not loose:
        return True, 0
    return False, max(deals_for_se(st.p_make, st.samples, _measured_se(st)) for st in loose)


class _Value(NamedTuple):
    """A net EV and its per-deal terms (None for a fixed value, such as a rule file's pass)."""

    value: float
    terms: np.ndarray | None


def _value(st: CandidateStats) -> _Value:
    return _Value(st.ev_net, st.net)


class _Verdicts(NamedTuple):
    """Each row's standing against the reference (:func:`settle`): ``good`` (settled, the
    best bid's own row left False), ``known`` (P(make) within the target), the best priced
    row's index ``best`` (None: none), whether it is worth more than passing, the
    reference's value and passing's."""

    good: list[bool]
    known: list[bool]
    best: int | None
    bid_on_top: bool
    ref: _Value
    passing: _Value


def _verdicts(stats: Sequence[CandidateStats], rec: Recommendation | None,
              others: frozenset[str]) -> _Verdicts:
    passing = _Value(rec.pass_value, rec.pass_terms) if rec is not None else _Value(0.0, None)
    priced = [i for i, st in enumerate(stats)
              if st.priced and st.candidate.rung_id not in others and not math.isnan(st.ev_net)]
    b = max(priced, key=lambda i: stats[i].ev_net) if priced else None
    bid_on_top = b is not None and stats[b].ev_net >= passing.value
    ref = _value(stats[b]) if b is not None and bid_on_top else passing
    known = [p_make_se(st) <= SE_TARGET for st in stats]
    good: list[bool] = []
    for i, st in enumerate(stats):
        if not st.priced:
            good.append(known[i])
        elif i == b and bid_on_top:
            good.append(False)  # decided by settle, once every other row is
        else:
            good.append((known[i] or st.samples >= ROUND)
                        and (_ahead(ref, _value(st)) or _outclassed(stats, i)))
    return _Verdicts(good, known, b, bid_on_top, ref, passing)


def _outclassed(stats: Sequence[CandidateStats], i: int) -> bool:
    """Is priced row ``i`` :data:`Z_OUT` SEs of the paired difference below another trump or
    discard of its own rung? The rung is then worth that one's value, not this one's: its
    row needs no more deals even while the rung is within reach of the decision."""
    st = stats[i]
    return any(j != i and o.priced and o.candidate.rung_id == st.candidate.rung_id
               and not math.isnan(o.ev_net) and _ahead(_value(o), _value(st))
               for j, o in enumerate(stats))


def _gap(hi: _Value, lo: _Value) -> tuple[float, float]:
    """``hi``'s lead over ``lo`` and its SE: the SE of the paired difference when both have
    per-deal terms (they share their deals, common random numbers: the covariance narrows
    it), else the one with terms' own SE (0 when neither has any)."""
    if hi.terms is None or lo.terms is None:
        terms = hi.terms if lo.terms is None else lo.terms
        s = se(terms) if terms is not None else 0.0
    else:
        s = diff_se(hi.terms, lo.terms)
    return hi.value - lo.value, s


def _ahead(hi: _Value, lo: _Value) -> bool:
    """Is ``hi`` more than :data:`Z_OUT` SEs of the paired difference above ``lo``?"""
    d, s = _gap(hi, lo)
    return not math.isnan(s) and d > Z_OUT * s


def _foregone(hi: _Value, lo: _Value, n: int, cap: int) -> bool:
    """Would ``cap`` deals leave the contest where ``n`` leave it? The difference at the cap
    averages the ``n`` seen and the ``cap - n`` to come; with the mean unknown (flat prior),
    its predictive SD is ``s * sqrt((cap - n) / cap)`` around today's ``d``. Foregone if it
    changes sign with probability at most :data:`FLIP_MAX`, or passes ``Z_OUT`` SEs of the
    cap's difference (either way) with one of at most :data:`RESOLVE_MIN`."""
    d, s = _gap(hi, lo)
    if math.isnan(s):
        return False
    if s == 0.0:
        return True
    spread = s * math.sqrt((cap - n) / cap)
    bar = Z_OUT * s * math.sqrt(n / cap)  # Z_OUT SEs of the difference on ``cap`` deals
    flip = _PHI(-d / spread)
    resolve = _PHI((d - bar) / spread) + _PHI((-bar - d) / spread)
    return flip <= FLIP_MAX or resolve <= RESOLVE_MIN


def no_bids(result: Evaluation) -> frozenset[str]:
    """Rows that are no bid (a purchase's unsupported outcome) when the bid's value does not
    use them: they compete with no bid for the rounds' stopping rule."""
    return frozenset(r["rung"] for r in result.rows if r["outcome_of"]
                     and result.outcomes.get(r["outcome_of"], {}).get("support_share", 1) >= 1)


def p_make_se(st: CandidateStats) -> float:
    """The SE that settles a row's P(make): the one measured from its terms when the row has
    one (:func:`_measured_se`), else Agresti-Coull's at its proportion (:func:`ac_se`)."""
    measured = _measured_se(st)
    if measured is not None:
        return measured
    n = st.samples
    return ac_se(round(st.p_make * n), n)


def _measured_se(st: CandidateStats) -> float | None:
    """A row's P(make) SE from its terms, where a proportion's would understate or overstate
    it: control-variate adjusted terms, or a row above its search's lowest rung whose makes
    were sampled (their terms are not 0 or 1). Else None."""
    return st.p_make_se if st.controlled or st.makes_sampled else None


def floor_bid(result: Evaluation, wanted: int, floors: Mapping[SolveKey, int]
              ) -> SolveKey | None:
    """The search whose later makes need no counts: that of the best bid when only its
    P(make) keeps the rounds going (``wanted`` > 0, :func:`settle`) and it is its search's
    lowest rung (``floors``), whose P(make) the yes/no answers give. Else None."""
    if not wanted:
        return None
    v = _verdicts(result.stats, result.recommendation, no_bids(result))
    if v.best is None:
        return None
    cand = result.stats[v.best].candidate
    target = next(r["target"] for r in result.rows if r["rung"] == cand.rung_id)
    return cand.key if floors.get(cand.key) == target else None


def deals_for_se(p: float, n: int, se_now: float | None = None) -> int:
    """The least number of deals beyond ``n`` at which a proportion ``p`` has an
    Agresti-Coull SE of at most :data:`SE_TARGET`; with ``se_now`` (an adjusted SE on ``n``
    deals), the number at which that SE, shrinking as ``1 / sqrt(deals)``, reaches it."""
    if se_now is not None and not math.isnan(se_now):
        return max(n + 1, math.ceil(n * (se_now / SE_TARGET) ** 2))
    m = n + 1
    while ac_se(round(p * m), m) > SE_TARGET:
        m += 1
    return m


def solve_before(solver: Solver, keys: list[SolveKey], m: int, deadline: float) -> None:
    """``solver.solve_to(keys, m)`` in batches of deals, each sized from the time per deal so
    far to end before ``deadline`` (a ``time.perf_counter()`` value); no batch starts after
    it, except the first when the keys have no result yet. The searches running at the
    deadline give up (each key keeps its samples up to the first one left unsolved), except in
    that first batch: at least :data:`TIME_STEP` deals are always solved, so one slow search
    there can still overrun the limit.

    A batch is also at most as large as what the keys have solved before it (the batches at
    least double the work done): search times are heavy-tailed, so a few cheap first deals
    can promise a time per deal several times too small."""
    done = min(len(solver.results[k]) for k in keys)
    spent = 0.0
    solved = 0
    while done < m:
        left = deadline - time.perf_counter()
        if left <= 0 and done > 0:
            return
        step = TIME_STEP
        if solved:
            step = max(TIME_STEP, min(done, int(BATCH_SHARE * left * solved / spent)))
        n = min(m, done + step)
        t = time.perf_counter()
        solver.solve_to(keys, n, deadline if done > 0 else None)
        spent += time.perf_counter() - t
        solved += n - done
        done = min(len(solver.results[k]) for k in keys)
        if done < n:
            return  # the time limit cut the batch


def _next_size(result: Evaluation, active: list[SolveKey], m: int, cap: int, wanted: int,
               precision: float | None) -> int | None:
    """The pool size of the next round, or None when the sampling is done. In precision
    mode the best priced candidate's search joins ``active``: its SE is the one asked for."""
    if precision is None:
        if not active or m >= cap:
            return None
        # only P(make)s are still too loose (the best bid's, or those of rows whose contests
        # are foregone): a shorter round may do
        step = ROUND if not wanted else min(ROUND, max(wanted - m, ROUND // LAST_STEP))
        return min(cap, m + step)
    # the SE asked for is that of the best priced candidate (the bid, or the rung that
    # "pass" is compared with): its search goes on even when plainly negative
    others = no_bids(result)
    priced = [(st.ev_net, st.candidate.key) for st in result.stats
              if st.priced and st.candidate.rung_id not in others]
    if priced:
        best_key = max(priced, key=lambda x: x[0])[1]
        if best_key not in active:
            active.append(best_key)
    se = result.recommendation.rec_se
    if (se is not None and se <= precision) or m >= cap or not active:
        return None
    grow = m if se is None else int(m * ((se / precision) ** 2 * PRECISION_MARGIN - 1)) + 1
    return m + max(PRECISION_MIN_STEP, min(grow, cap - m))


def run_rounds(score: Callable[[bool], Evaluation], solver: Solver, sampler: Sampler,
               count: WorkCount, precision: float | None, max_samples: int,
               deadline: float | None = None) -> Evaluation:
    """Default and precision modes: draw samples in rounds, solve the searches not yet
    settled, score them (``score(risk_se)``), until done; ``deadline`` (a
    ``time.perf_counter()`` value) starts no batch of deals after it. The rounds score
    without CVaR's SEs, which no stopping rule reads; the answer is scored again with them
    (the rungs themselves are reused: ``evaluate``'s memo)."""
    cap = DEFAULT_SAMPLES if precision is None else max_samples
    m = min(ROUND if precision is None else PRECISION_START, cap)
    active = list(solver.keys)
    # the next round's jobs start while this one ends (Solver.solve_to): in default mode,
    # without a time limit, and where drawing deals early changes no reported count
    look = (LOOK_AHEAD and precision is None and deadline is None
            and not sampler.active_constraints)
    catch_up = False
    reach = ROUND * max(1, math.ceil(solver.workers / WORKERS_PER_ROUND_AHEAD)) if look else 0
    try:
        while True:
            ahead = min(cap, m + reach) if look and not catch_up else 0
            if max(m, ahead) > len(solver.deals):
                solver.add(sampler.draw(max(m, ahead) - len(solver.deals)))
            horizon = cap if precision is None else m  # the bar's total: the work still planned
            count.set_total(count.done + sum(horizon - len(solver.results[k]) for k in active))
            if deadline is None:
                solver.solve_to(active, m, ahead=ahead)
            else:
                solve_before(solver, active, m, deadline)
            result = score(False)
            rec = result.recommendation
            settled, wanted = settle(result.stats, rec, no_bids(result))
            solver.stop_ahead(settled)
            if precision is None:
                # from the round after next: the next one's jobs were started ahead already
                solver.sample_makes(floor_bid(result, wanted, solver.floors), m + ROUND)
            if deadline is not None and time.perf_counter() > deadline:
                result.time_limited = any(k not in settled for k in solver.keys)
                if result.time_limited:
                    break
            # a search stopped earlier that is no longer settled (the best bid moved) catches
            # up before anything else, and the round is scored again
            active = [k for k in solver.keys if k not in settled and len(solver.results[k]) < m]
            catch_up = bool(active)
            if active:
                continue
            active = [k for k in solver.keys if k not in settled]
            if precision is None and active:
                decided, more = forecast(result.stats, rec, no_bids(result), m, cap)
                if decided:
                    result.foregone = True
                    break
                wanted = max(wanted, more)
            size = _next_size(result, active, m, cap, wanted, precision)
            if size is None:
                break
            m = size
    finally:
        solver.drop_ahead()
    # a time limit may have cut the last round: the pool ends where the searches did
    solver.truncate(max(len(r) for r in solver.results.values()))
    final = score(True)
    final.time_limited, final.foregone = result.time_limited, result.foregone
    final.stopped_early = any(len(r) < len(solver.deals) for r in solver.results.values())
    return final
