"""Statistics of one way of playing a rung, from its per-sample tricks and the rule set's
dense payment vectors: P(make), mean tricks, expected counters with standard errors, risk.

A two-phase trick search (:mod:`.solving`) counts a deal that fails its lowest target ``T``
only when its coin flip says so (probability ``q``); the others are recorded as -1. Every mean
is then taken over per-deal terms ``y`` (:func:`estimator_terms`): ``f(t)`` for a make, and for
a failure ``c_i + (f(t) - c_i) * S / q`` with ``S`` = 1 if counted. ``c_i``, the mean of ``f``
over the *other* counted failures (``f(T - 1)`` when there is none), does not depend on deal
``i``'s own coin, so every ``y_i`` has mean ``E[f]`` and ``mean(y)`` is unbiased; it equals the
ratio estimate (makes exact, failures at the counted failures' mean), whose variance is far
smaller than with a fixed ``c``. ``se(y)`` is its standard error (the ``y`` share the ``c``
only through O(1/n) terms; tested for calibration), paired differences too.

``q`` may be one rate or one per deal (``q_i``): a deal counted exactly (a search's pilot, or
a search that stayed exact) has ``q_i`` = 1, so its term is its own ``f(t)``; the ``c_i`` still
take every other counted failure, which leaves each term's mean ``E[f]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import RulesError
from .plan import Candidate

TRICK_COUNTS = 14  # 0..13 tricks
CVAR_TAIL = 0.05  # cvar5: the mean net result of the worst 5% of the samples
AC_PSEUDO = 2  # Agresti-Coull: add this many successes and as many failures


@dataclass
class CandidateStats:
    """The numbers of one :class:`Candidate` on the samples its search has solved.
    The EV and risk fields are NaN (and ``net`` None) when the rung is not priced."""

    candidate: Candidate
    tricks: np.ndarray  # per-sample tricks
    p_make: float
    p_make_se: float
    mean_tricks: float
    trick_distribution: list[float]
    priced: bool
    ev_per_adversary: float = math.nan
    ev_per_adversary_se: float = math.nan
    ev_net: float = math.nan
    ev_net_se: float = math.nan
    p_loss_gt: float = math.nan
    cvar5: float = math.nan
    net: np.ndarray | None = None  # per-sample net counters (priced rungs): the terms y
    # the net counters of the deals with a known count and their weights (pictures, CVaR)
    net_sample: tuple[np.ndarray, np.ndarray] | None = None
    suit_rank: int = -1  # the trump's suit preference (ties between trumps), -1 for none

    @property
    def samples(self) -> int:
        return len(self.tricks)


def all_exact(q: float | np.ndarray) -> bool:
    """Whether every deal's count is known (every rate ``q_i`` is 1)."""
    return bool(np.all(np.asarray(q) >= 1))


def sample_weights(t: np.ndarray, floor: int,
                   q: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The weighted empirical distribution of a two-phase search's tricks: each deal's count
    and weight. A make weighs 1; the counted failures share the failures' exact mass (each
    weighs failures / counted; an uncounted failure 0), as in the ratio estimate of the EV;
    when none was counted, the failures lie at ``floor - 1``. All 1 when ``q`` = 1."""
    if all_exact(q):
        return t, np.ones(len(t))
    failed = t < floor
    counted = failed & (t >= 0)
    k = int(counted.sum())
    if k == 0:
        return np.where(failed, floor - 1, t), np.ones(len(t))
    return t, np.where(failed, np.where(counted, failed.sum() / k, 0.0), 1.0)


def estimator_terms(t: np.ndarray, values: np.ndarray, floor: int,
                    q: float | np.ndarray) -> np.ndarray:
    """The terms ``y`` whose mean estimates ``E[values[t]]`` (module docstring); ``q``: one
    rate, or each deal's. With every ``q_i`` = 1 every count is known and ``y = values[t]``."""
    f = values[np.maximum(t, 0)].astype(float)
    if all_exact(q):
        return f
    q = np.broadcast_to(np.asarray(q, float), t.shape)
    counted = (t >= 0) & (t < floor)
    k = int(counted.sum())
    total = float(f[counted].sum())
    others = np.where(counted, k - 1, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(others > 0, (total - np.where(counted, f, 0.0)) / others,
                     float(values[floor - 1]))
    return np.where(t >= floor, f, np.where(counted, c + (f - c) / q, c))


def trick_bins(t: np.ndarray, floor: int, q: float | np.ndarray) -> np.ndarray:
    """The trick distribution over 0..13. Counts from ``floor`` up are exact; the failures'
    mass is the exact share of failures, spread over 0..floor-1 as the counted failures are
    (a ratio estimate: consistent, never negative, summing to 1); when none was counted, it
    lies at ``floor - 1``."""
    m = len(t)
    if all_exact(q):
        return np.bincount(t.astype(np.int64), minlength=TRICK_COUNTS)[:TRICK_COUNTS] / m
    dist = np.bincount(np.maximum(t, 0)[t >= floor].astype(np.int64),
                       minlength=TRICK_COUNTS)[:TRICK_COUNTS] / m
    failed = t < floor
    counted = np.bincount(t[failed & (t >= 0)].astype(np.int64), minlength=floor)[:floor]
    share = failed.mean()
    if counted.sum():
        dist[:floor] = share * counted / counted.sum()
    else:
        dist[floor - 1] = share
    return dist


def weighted_cvar(x: np.ndarray, w: np.ndarray, tail: float) -> float:
    """The mean of the worst ``tail`` share of the weighted empirical distribution of ``x``
    (the last value taken in part). A consistent plug-in estimate, as the unweighted one is
    (which it equals for equal weights when ``tail * len`` is whole)."""
    order = np.argsort(x, kind="stable")
    xs, ws = x[order], w[order]
    need = tail * ws.sum()
    cum = np.cumsum(ws)
    take = np.clip(need - (cum - ws), 0.0, ws)
    return float((xs * take).sum() / take.sum())


def candidate_stats(cand: Candidate, t: np.ndarray, pay: np.ndarray, net: np.ndarray,
                    ok: np.ndarray, threshold: float, suit_rank: int = -1, floor: int = 0,
                    q: float | np.ndarray = 1.0) -> CandidateStats:
    """Per-candidate statistics from per-sample tricks ``t`` and the rung's dense vectors
    (``ok[t]``: made, ``pay[t]`` / ``net[t]``: counters per adversary / net);
    ``p_loss_gt`` is P(net < -threshold). ``floor`` and ``q``: a two-phase search's lowest
    target and share of failures counted, one or per deal (module docstring)."""
    m = len(t)
    q = 1.0 if floor <= 0 else q
    p = float(estimator_terms(t, ok, floor, q).mean())
    st = CandidateStats(cand, t, p_make=p, p_make_se=math.sqrt(p * (1 - p) / m),
                        mean_tricks=float(estimator_terms(t, np.arange(TRICK_COUNTS), floor,
                                                          q).mean()),
                        trick_distribution=[float(x) for x in trick_bins(t, floor, q)],
                        priced=not np.isnan(net[:TRICK_COUNTS]).all(), suit_rank=suit_rank)
    if st.priced:
        pay_s = estimator_terms(t, pay, floor, q)
        net_s = estimator_terms(t, net, floor, q)
        if np.isnan(net_s).any():
            raise RulesError("the rules give no price for a trick count the solver produced")
        st.ev_per_adversary = float(pay_s.mean())
        st.ev_per_adversary_se = se(pay_s)
        st.ev_net = float(net_s.mean())
        st.ev_net_se = se(net_s)
        st.p_loss_gt = float(estimator_terms(t, net < -threshold, floor, q).mean())
        st.net = net_s
        tw, w = sample_weights(t, floor, q)
        known = w > 0
        st.net_sample = (net[tw[known]], w[known])
        if all_exact(q):
            k = max(1, math.ceil(CVAR_TAIL * m))
            st.cvar5 = float(np.sort(net_s)[:k].mean())
        else:
            st.cvar5 = weighted_cvar(*st.net_sample, CVAR_TAIL)
    return st


def se(x: np.ndarray) -> float:
    """The standard error of the mean of ``x`` (NaN for fewer than two values)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan


def ac_se(successes: int, n: int) -> float:
    """Agresti-Coull standard error of a proportion: add two successes and two failures.
    Unlike the plain estimate it is not 0 when every sample agrees, so it is the one that
    decides whether a probability is known well enough to stop sampling it."""
    p = (successes + AC_PSEUDO) / (n + 2 * AC_PSEUDO)
    return math.sqrt(p * (1 - p) / n)


def better(a: CandidateStats, b: CandidateStats, kind: str) -> bool:
    """Is candidate ``a`` better than ``b`` ex ante (docs/RULES.md §3.0)? Net EV, then P(make),
    then suit preference, then tricks (more for trick rungs, fewer for misères)."""
    def key(c: CandidateStats) -> tuple:
        tricks = c.mean_tricks if kind == "at_least" else -c.mean_tricks
        ev = c.ev_net if c.priced else -math.inf
        return (ev, c.p_make, c.suit_rank, tricks)
    return key(a) > key(b)
