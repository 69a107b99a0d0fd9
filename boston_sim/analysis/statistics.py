"""Statistics of one way of playing a rung, from its per-sample tricks and the rule set's
dense payment vectors: P(make), mean tricks, expected counters with standard errors, risk.
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
    net: np.ndarray | None = None  # per-sample net counters (priced rungs)
    suit_rank: int = -1  # the trump's suit preference (ties between trumps), -1 for none

    @property
    def samples(self) -> int:
        return len(self.tricks)


def candidate_stats(cand: Candidate, t: np.ndarray, pay: np.ndarray, net: np.ndarray,
                    ok: np.ndarray, threshold: float, suit_rank: int = -1) -> CandidateStats:
    """Per-candidate statistics from per-sample tricks ``t`` and the rung's dense vectors
    (``ok[t]``: made, ``pay[t]`` / ``net[t]``: counters per adversary / net);
    ``p_loss_gt`` is P(net < -threshold)."""
    m = len(t)
    p = float(ok[t].mean())
    dist = np.bincount(t.astype(np.int64), minlength=TRICK_COUNTS)[:TRICK_COUNTS] / m
    st = CandidateStats(cand, t, p_make=p, p_make_se=math.sqrt(p * (1 - p) / m),
                        mean_tricks=float(t.mean()), trick_distribution=[float(x) for x in dist],
                        priced=not np.isnan(net[:TRICK_COUNTS]).all(), suit_rank=suit_rank)
    if st.priced:
        pay_s = pay[t]
        net_s = net[t]
        if np.isnan(net_s).any():
            raise RulesError("the rules give no price for a trick count the solver produced")
        k = max(1, math.ceil(CVAR_TAIL * m))
        st.ev_per_adversary = float(pay_s.mean())
        st.ev_per_adversary_se = se(pay_s)
        st.ev_net = float(net_s.mean())
        st.ev_net_se = se(net_s)
        st.p_loss_gt = float((net_s < -threshold).mean())
        st.cvar5 = float(np.sort(net_s)[:k].mean())
        st.net = net_s
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
