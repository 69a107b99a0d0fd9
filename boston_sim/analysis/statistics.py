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

The makes may be subsampled as well (a search whose best bid needs only its yes/no answers,
:mod:`.solving`): where a make has ``q_i`` < 1 the makes are a second stratum with terms of
their own (``c_i`` over the other counted makes, ``f(T)`` when there is none); an uncounted
make is recorded as :func:`mark_make` of ``T``. The strata are :func:`strata`.

The SEs of the probabilities (P(make), P(loss)) are Agresti-Coull's (:func:`ac_mean_se`),
never 0; CVaR's SE comes from a seeded bootstrap that reweighs the failures as the estimate
does (:func:`cvar_se`), or, once the tail holds many deals, from its influence function.
With controls (:mod:`.control`: features of the deal whose exact mean is known), the
terms of P(make), the payments and the net EV are first adjusted by the regression on them
(:func:`~.control.adjust`); every mean, SE and paired difference then uses the adjusted terms.
The trump (and discard) of a rung is chosen by cross-fitting (:func:`cross_fitted`), so that
the chosen row is not biased upward by being the best of several means on the deals it is
scored on. The SEs of its EVs and CVaR are those of the pooled terms with the variance of
the choice itself added (:mod:`.choice`): a half may choose a worse trump whose mean its
deals overrate; its probabilities keep their Agresti-Coull SEs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import RulesError
from .choice import choice_variance
from .control import MIN_DEALS, adjust
from .plan import Candidate

TRICK_COUNTS = 14  # 0..13 tricks
CVAR_TAIL = 0.05  # cvar5: the mean net result of the worst 5% of the samples
AC_PSEUDO = 2  # Agresti-Coull: add this many successes and as many failures
FOLDS = 2  # cross-fitting: choose the trump on one half of the deals, score it on the other
BOOT_TAIL_DEALS = 50  # CVaR's SE: bootstrap while its tail holds at most this many deals
BOOT_DRAWS = 200  # ... from this many resamples
BOOT_SEED = 0x43566152  # ... drawn from a stream of their own, so that a seed fixes them
PSEUDO_DEALS = 0.3  # ... with this share of a deal at the next worse result (calibrated)
MADE, COUNTED, UNCOUNTED = 0, 1, 2  # a deal's kind in the bootstrap: weight 1, F/K, 0
UNCOUNTED_FAIL = -1  # a failure whose count was not searched (or a misère past its budget)
MAKE_MARK = -2  # an uncounted make of lowest target T is recorded as MAKE_MARK - T
CUM_EPS = 1e-12  # relative slack for a cumulative weight that should reach a share exactly
MAX_STRATA = 2  # subsampled strata of one search: its failures and its makes (:func:`strata`)
# a chosen row's values whose SEs take the choice's variance (:func:`_with_choice`)
CHOICE_SE = {"ev_per_adversary": "ev_per_adversary_se", "ev_net": "ev_net_se",
             "cvar5": "cvar5_se"}


@dataclass
class CandidateStats:
    """The numbers of one :class:`Candidate` on the samples its search has solved.
    The EV and risk fields are NaN (and ``net`` None) when the rung is not priced.
    ``p_make_se`` and ``p_loss_se`` are Agresti-Coull SEs (:func:`ac_mean_se`: never 0);
    ``cvar5_se`` is :func:`cvar_se`'s. ``cross_fit``: the two candidates whose halves of the
    deals make up these numbers when the trump chosen on the even deals differs from the one
    chosen on the odd ones (:func:`cross_fitted`)."""

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
    p_loss_se: float = math.nan
    cvar5: float = math.nan
    cvar5_se: float = math.nan
    net: np.ndarray | None = None  # per-sample net counters (priced rungs): the terms y
    # the net counters of the deals with a known count and their weights (pictures, CVaR)
    net_sample: tuple[np.ndarray, np.ndarray] | None = None
    suit_rank: int = -1  # the trump's suit preference (ties between trumps), -1 for none
    cross_fit: tuple[Candidate, Candidate] | None = None
    controlled: bool = False  # P(make) and the EVs are the control-variate adjusted ones
    makes_sampled: bool = False  # some makes' counts were left out (their own stratum)
    # what :func:`cvar_se` needs while ``cvar5_se`` waits for :func:`fill_risk_se`
    risk_inputs: tuple | None = field(default=None, repr=False, compare=False)
    # a chosen row's: the variance its trump's choice adds to each field (:mod:`.choice`)
    choice_var: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    @property
    def samples(self) -> int:
        return len(self.tricks)


_TRICKS = np.arange(TRICK_COUNTS)  # each count's own value: the terms of the mean tricks
_EACH_COUNT = np.eye(TRICK_COUNTS)  # column k: "took k tricks", the terms of the distribution


def per_deal(q: float | np.ndarray, t: np.ndarray) -> np.ndarray:
    """The counting rates ``q`` (one, or one per deal) as one per deal of ``t``."""
    return np.broadcast_to(np.asarray(q, float), t.shape)


def all_exact(q: float | np.ndarray) -> bool:
    """Whether every deal's count is known (every rate ``q_i`` is 1)."""
    return bool(np.all(np.asarray(q) >= 1))


def mark_make(floor: int) -> int:
    """The record of a make of ``floor`` whose count was not searched: below -1 (an uncounted
    failure), and its floor read back by :func:`marked_floor`."""
    return MAKE_MARK - floor


def marked_floor(t: np.ndarray) -> np.ndarray:
    """Per record, the floor an uncounted make is known to reach (:func:`mark_make`), else -1."""
    t = np.asarray(t)
    return np.where(t <= MAKE_MARK - 1, MAKE_MARK - t, -1)


def made_floor(t: np.ndarray, floor: int) -> np.ndarray:
    """Which recorded results of a trick search made its lowest target ``floor`` (a count
    from it up, or an uncounted make)."""
    return (t >= floor) | (t < UNCOUNTED_FAIL)


Stratum = tuple[np.ndarray, int]
"""A subsampled stratum: its deals (a mask), and the count that stands for them while none
of them is known."""


def strata(t: np.ndarray, floor: int, q: float | np.ndarray,
           stratum: np.ndarray | None = None) -> list[Stratum]:
    """The subsampled strata of a search's deals: a misère's ``stratum`` (deals past the node
    budget, at 0 tricks while none is known); else the failures ``t < floor`` (at
    ``floor - 1``), and the makes (at ``floor``) when ``q`` gives each deal its rate and a
    make's is below 1 (one rate is the failures')."""
    if stratum is not None:
        return [(np.asarray(stratum, bool), 0)]
    made = made_floor(t, floor)
    out = [(~made, floor - 1)]
    if np.ndim(q) and (np.asarray(q)[made] < 1).any():
        out.append((made, floor))
    return out


def sample_weights(t: np.ndarray, floor: int, q: float | np.ndarray,
                   stratum: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The weighted empirical distribution of a two-phase search's tricks: each deal's count
    and weight. A deal outside the strata weighs 1; the counted deals of a stratum share its
    exact mass (in proportion to ``1 / q_i``: failures / counted for one rate; an uncounted
    deal 0), as in the ratio estimate of the EV; when none was counted, the stratum lies at
    its fallback count (:func:`strata`). All 1 when ``q`` = 1."""
    if all_exact(q):
        return t, np.ones(len(t))
    return _weights(t, q, strata(t, floor, q, stratum))


def _weights(t: np.ndarray, q: float | np.ndarray,
             groups: list[Stratum]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sample_weights` given the strata ``groups``."""
    tw, w = t.copy(), np.ones(len(t))
    rate = per_deal(q, t)
    for mask, fallback in groups:
        counted = mask & (t >= 0)
        if not counted.any():
            tw[mask] = fallback
            continue
        share = np.zeros(len(t))
        share[counted] = 1.0 / rate[counted]
        w[mask] = share[mask] * (mask.sum() / share.sum())
    return tw, w


def estimator_terms(t: np.ndarray, values: np.ndarray, floor: int,
                    q: float | np.ndarray, stratum: np.ndarray | None = None) -> np.ndarray:
    """The terms ``y`` whose mean estimates ``E[values[t]]`` (module docstring); ``q``: one
    rate, or each deal's. With every ``q_i`` = 1 every count is known and ``y = values[t]``.
    ``stratum``: as :func:`strata`."""
    if all_exact(q):
        return values[np.maximum(t, 0)].astype(float)
    return _terms(t, values, q, strata(t, floor, q, stratum))


def _terms(t: np.ndarray, values: np.ndarray, q: float | np.ndarray,
           groups: list[Stratum]) -> np.ndarray:
    """:func:`estimator_terms` given the strata ``groups`` (none: every count known).
    ``values`` may have a second axis (several functions of the count at once: a term per
    deal and column)."""
    f = values[np.maximum(t, 0)].astype(float)
    col = (slice(None),) + (None,) * (f.ndim - 1)  # a per-deal vector against f's columns
    q = per_deal(q, t)[col]
    y = f.copy()
    for mask, fallback in groups:
        counted = (t >= 0) & mask
        k = int(counted.sum())
        total = f[counted].sum(axis=0)
        others = np.where(counted, k - 1, k)[col]
        with np.errstate(divide="ignore", invalid="ignore"):
            c = np.where(others > 0, (total - np.where(counted[col], f, 0.0)) / others,
                         values[fallback].astype(float))
            y = np.where(mask[col], np.where(counted[col], c + (f - c) / q, c), y)
    return y


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


class Solved:
    """One candidate's solved deals: per-sample tricks ``t`` and the rung's dense vectors
    (``ok[t]``: made, ``pay[t]`` / ``net[t]``: counters per adversary / net), with its
    search's lowest target ``floor`` and counting rates ``q`` (module docstring);
    ``xc``: its deals' control features less their exact means (``[n, p]``), or None."""

    def __init__(self, cand: Candidate, t: np.ndarray, pay: np.ndarray, net: np.ndarray,
                 ok: np.ndarray, suit_rank: int = -1, floor: int = 0,
                 q: float | np.ndarray = 1.0, xc: np.ndarray | None = None,
                 stratum: np.ndarray | None = None) -> None:
        self.cand, self.t, self.pay, self.net, self.ok = cand, t, pay, net, ok
        self.xc = xc
        self.suit_rank = suit_rank
        self.floor = floor
        self.stratum = stratum
        self.q = 1.0 if floor <= 0 and stratum is None else q
        self.exact = all_exact(self.q)
        self.priced = not np.isnan(net[:TRICK_COUNTS]).all()
        # its subsampled strata (:func:`strata`; none when every count is known)
        self.strata = [] if self.exact else strata(t, floor, self.q, stratum)
        tw, self.w = (t, np.ones(len(t))) if self.exact else _weights(t, self.q, self.strata)
        self.tw = np.maximum(tw, 0)  # an uncounted failure weighs 0: any count will do
        self._terms: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.half_keys: dict[tuple[int, str], tuple] = {}  # :func:`_half_key`'s, per fold

    def __len__(self) -> int:
        return len(self.t)

    @property
    def stratum_of(self) -> np.ndarray:
        """Per deal, the number of its subsampled stratum from 1 (0: none)."""
        out = np.zeros(len(self.t), np.int64)
        for i, (mask, _) in enumerate(self.strata):
            out[mask] = i + 1
        return out

    @property
    def fallback_t(self) -> np.ndarray:
        """Per deal, its count, or its stratum's fallback count where it is not known."""
        out = self.t.astype(np.int64)
        for mask, fallback in self.strata:
            out[mask & (self.t < 0)] = fallback
        return out

    @property
    def makes_sampled(self) -> bool:
        """Whether the makes are a subsampled stratum of their own (:func:`strata`)."""
        return self.stratum is None and len(self.strata) > 1

    def terms(self, values: np.ndarray) -> np.ndarray:
        """:func:`estimator_terms` of ``values`` over this candidate's deals, worked out once
        per values array (a rung's statistics ask for the same ones many times: each trump,
        each half of the cross-fit)."""
        hit = self._terms.get(id(values))
        if hit is None or hit[0] is not values:
            hit = (values, _terms(self.t, values, self.q, self.strata))
            self._terms[id(values)] = hit  # the array is kept, so its id is not reused
        return hit[1]


Parts = list[tuple[Solved, np.ndarray]]
"""Deals drawn from one or more candidates: (candidate, indices of its deals taken). The
deals are put in index order, so two parts that split ``0..n-1`` make one sample of n."""


class _Mix:
    """Per-deal quantities of :data:`Parts`, in deal order."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.order = np.argsort(np.concatenate([idx for _, idx in parts]), kind="stable")

    def gather(self, fn) -> np.ndarray:
        """``fn(candidate)[idx]`` of every part, in deal order (``fn``: per-deal values)."""
        return np.concatenate([np.asarray(fn(s))[idx] for s, idx in self.parts])[self.order]

    def terms(self, values) -> np.ndarray:
        """The estimator terms of ``values(candidate)`` (a dense vector over tricks)."""
        return self.gather(lambda s: s.terms(values(s)))

    @property
    def controlled(self) -> bool:
        return all(s.xc is not None for s, _ in self.parts)

    def controls(self) -> np.ndarray:
        """The parts' centred control features in deal order. Parts of different trumps
        (a cross-fitted row) have features of different suits: each gets columns of its
        own, 0 on the other parts' deals, so that every column still has mean 0."""
        if len({s.cand.strain for s, _ in self.parts}) == 1:
            return self.gather(lambda s: s.xc)
        widths = [s.xc.shape[1] for s, _ in self.parts]
        blocks = []
        for k, (s, idx) in enumerate(self.parts):
            block = np.zeros((len(idx), sum(widths)))
            start = sum(widths[:k])
            block[:, start : start + widths[k]] = s.xc[idx]
            blocks.append(block)
        return np.concatenate(blocks)[self.order]

    def adjusted(self, values) -> np.ndarray:
        """:meth:`terms`, adjusted by the control features when every part has them."""
        y = self.terms(values)
        return adjust(y, self.controls()) if self.controlled else y


def candidate_stats(cand: Candidate, t: np.ndarray, pay: np.ndarray, net: np.ndarray,
                    ok: np.ndarray, threshold: float, suit_rank: int = -1, floor: int = 0,
                    q: float | np.ndarray = 1.0) -> CandidateStats:
    """Per-candidate statistics from per-sample tricks ``t`` and the rung's dense vectors
    (``ok[t]``: made, ``pay[t]`` / ``net[t]``: counters per adversary / net);
    ``p_loss_gt`` is P(net < -threshold). ``floor`` and ``q``: a two-phase search's lowest
    target and share of failures counted, one or per deal (module docstring)."""
    s = Solved(cand, t, pay, net, ok, suit_rank, floor, q)
    return parts_stats(cand, [(s, np.arange(len(t)))], threshold)


def parts_stats(cand: Candidate, parts: Parts, threshold: float,
                risk_se: bool = True) -> CandidateStats:
    """The statistics of the deals of ``parts`` (one candidate's, or halves of two), labelled
    ``cand``: each part's per-deal estimator terms, pooled in deal order. ``risk_se``: False
    leaves ``cvar5_se`` NaN until :func:`fill_risk_se` (no stopping rule reads it: the
    sampling rounds work it out for their last scoring only)."""
    mix = _Mix(parts)
    first = parts[0][0]
    ok = mix.adjusted(lambda s: s.ok)
    m = len(ok)
    st = CandidateStats(cand, mix.gather(lambda s: s.t),
                        p_make=float(np.clip(ok.mean(), 0.0, 1.0)),
                        p_make_se=ac_mean_se(ok),
                        # (two-phase terms can average a little below 0 when every deal
                        # takes none or one trick: the clip keeps the mean a trick count)
                        mean_tricks=float(np.clip(mix.terms(lambda s: _TRICKS).mean(), 0.0,
                                                  TRICK_COUNTS - 1)),
                        trick_distribution=_distribution(mix),
                        priced=first.priced, suit_rank=first.suit_rank,
                        controlled=mix.controlled and m >= MIN_DEALS,
                        makes_sampled=any(s.makes_sampled for s, _ in parts))
    if st.priced:
        _price(st, mix, threshold, risk_se)
    return st


def _distribution(mix: _Mix) -> list[float]:
    """The share of each trick count, estimated as every other mean is (the same terms: it
    sums to 1 and its mean is the mean tricks'), a share that comes out below 0 set to 0."""
    if all(s.exact for s, _ in mix.parts):  # every count known: the counts' own shares
        t = mix.gather(lambda s: s.tw)
        return [float(x) for x in np.bincount(t, minlength=TRICK_COUNTS)[:TRICK_COUNTS]
                / len(t)]
    shares = np.clip(mix.terms(lambda s: _EACH_COUNT).mean(axis=0), 0.0, None)
    return [float(x) for x in shares / shares.sum()]


def _price(st: CandidateStats, mix: _Mix, threshold: float, risk_se: bool) -> None:
    """The EV and risk fields of a priced rung's statistics."""
    net_s = mix.terms(lambda s: s.net)
    if np.isnan(net_s).any():
        raise RulesError("the rules give no price for a trick count the solver produced")
    pay_s = mix.adjusted(lambda s: s.pay)
    st.ev_per_adversary = float(pay_s.mean())
    st.ev_per_adversary_se = se(pay_s)
    st.net = mix.adjusted(lambda s: s.net)
    st.ev_net = float(st.net.mean())
    st.ev_net_se = se(st.net)
    loss = mix.terms(lambda s: (s.net < -threshold).astype(float))
    st.p_loss_gt = float(loss.mean())
    st.p_loss_se = ac_mean_se(loss)
    w = mix.gather(lambda s: s.w)
    x = mix.gather(lambda s: s.net[s.tw])
    known = w > 0
    st.net_sample = (x[known], w[known])
    # an uncounted deal weighs 0; were none of its stratum counted, it would lie at the
    # stratum's fallback count
    x = np.where(known, x, mix.gather(lambda s: s.net[np.maximum(s.fallback_t, 0)]))
    if all(s.exact for s, _ in mix.parts):
        k = max(1, math.ceil(CVAR_TAIL * len(net_s)))
        st.cvar5, tail = float(np.sort(net_s)[:k].mean()), k / len(net_s)
        x, w = net_s, np.ones(len(net_s))
    else:
        st.cvar5, tail = weighted_cvar(*st.net_sample, CVAR_TAIL), CVAR_TAIL
    st.risk_inputs = (x, w, tail, mix)
    if risk_se:
        fill_risk_se(st)


def fill_risk_se(st: CandidateStats) -> None:
    """Work out ``st.cvar5_se`` if :func:`parts_stats` left it for later."""
    if st.risk_inputs is not None:
        st.cvar5_se = math.sqrt(cvar_se(*st.risk_inputs) ** 2 + st.choice_var.get("cvar5", 0.0))
        st.risk_inputs = None


def cvar_se(x: np.ndarray, w: np.ndarray, tail: float, mix: _Mix) -> float:
    """The SE of the worst-``tail`` mean of the weighted values ``x`` (one per deal; weight 0:
    an uncounted failure). While the tail holds few deals, the SD of a seeded bootstrap
    (:func:`_boot_cvar`); beyond, the influence function's (:func:`cvar_terms`), which the
    bootstrap approaches but which is far cheaper."""
    n = len(x)
    if n < 2:
        return math.nan
    if tail * n > BOOT_TAIL_DEALS:
        var = weighted_quantile(x[w > 0], w[w > 0], tail)
        return se(mix.terms(lambda s: cvar_terms(s.net, var, tail)))
    vals = _boot_cvar(x, w, tail, mix)
    vals = vals[np.isfinite(vals)]
    return float(vals.std(ddof=1)) if len(vals) > 1 else math.nan


def _boot_cvar(x: np.ndarray, w: np.ndarray, tail: float, mix: _Mix) -> np.ndarray:
    """CVaR on :data:`BOOT_DRAWS` resamples of the deals (with replacement), each with its
    failures' weights worked out again (a two-phase search's counted failures share the
    failures' mass, in proportion to ``1 / q_i``). The deals take few distinct (part, kind,
    value, weight) classes, so their counts are resampled. :data:`PSEUDO_DEALS` of a deal at
    the next worse result the rules can give joins the sample (as Agresti-Coull adds
    pseudo-deals to a proportion): a tail of a few deals must not claim that nothing worse
    than what was seen can happen. The share is the one whose SEs match the spread across
    seeds of exact and two-phase synthetic tails."""
    index = {id(s): i for i, (s, _) in enumerate(mix.parts)}
    # a group per part and stratum: each has its counted deals reweighed on its own
    group = mix.gather(lambda s: index[id(s)] * (MAX_STRATA + 1) + s.stratum_of)
    t = mix.gather(lambda s: s.t)
    sampled = mix.gather(lambda s: s.stratum_of > 0)
    kind = np.where(~sampled | (w > 0) & (t < 0), MADE,
                    np.where(t >= 0, COUNTED, UNCOUNTED))
    inv_q = np.where(kind == COUNTED, 1.0 / mix.gather(lambda s: per_deal(s.q, s.t)), 1.0)
    classes, inverse = np.unique(np.stack([group, kind, x, inv_q], axis=1), axis=0,
                                 return_inverse=True)
    counts = np.bincount(inverse.ravel(), minlength=len(classes)).astype(float)
    possible = np.unique(np.concatenate([s.net[~np.isnan(s.net)] for s, _ in mix.parts]))
    worse = possible[possible < x[w > 0].min()]
    if len(worse):
        classes = np.vstack([classes, [-1, MADE, worse[-1], 1.0]])
        counts = np.append(counts, PSEUDO_DEALS)
    drawn = np.random.default_rng(BOOT_SEED).multinomial(
        len(x), counts / counts.sum(), size=BOOT_DRAWS).astype(float)
    unit = np.where(classes[:, 1] == MADE, 1.0, 0.0) * np.ones((BOOT_DRAWS, 1))
    if len(worse):
        unit[:, -1] = w.max()  # the pseudo-deal weighs as much as the heaviest deal
    for g in np.unique(group[sampled]):
        mine = classes[:, 0] == g
        members = drawn[:, mine & (classes[:, 1] != MADE)].sum(axis=1)
        counted = mine & (classes[:, 1] == COUNTED)
        k = drawn[:, counted].sum(axis=1)
        share = drawn[:, counted] @ classes[counted, 3]
        with np.errstate(invalid="ignore", divide="ignore"):
            unit[:, counted] = (members / share)[:, None] * classes[counted, 3]
        # a resample with none of the stratum counted puts it at the fallback (weight 1)
        unit[:, mine & (classes[:, 1] == UNCOUNTED)] = (k == 0)[:, None]
    order = np.argsort(classes[:, 2], kind="stable")
    with np.errstate(invalid="ignore", divide="ignore"):
        mass = np.nan_to_num((drawn * unit)[:, order], nan=0.0, posinf=0.0)
        need = tail * mass.sum(axis=1, keepdims=True)
        take = np.clip(need - (np.cumsum(mass, axis=1) - mass), 0.0, mass)
        return (take * classes[order, 2]).sum(axis=1) / take.sum(axis=1)


def weighted_quantile(x: np.ndarray, w: np.ndarray, tail: float) -> float:
    """The lower ``tail`` quantile of the weighted empirical distribution of ``x``: the
    value at which the cumulative weight, in increasing order, first reaches ``tail``."""
    order = np.argsort(x, kind="stable")
    cum = np.cumsum(w[order])
    i = int(np.searchsorted(cum, tail * cum[-1] * (1 - CUM_EPS)))
    return float(x[order][min(i, len(x) - 1)])


def cvar_terms(values: np.ndarray, var: float, tail: float) -> np.ndarray:
    """Per-outcome terms whose mean is the worst-``tail`` mean (CVaR) and whose SE is its SE:
    ``var + min(x - var, 0) / tail`` with ``var`` the ``tail`` quantile. This is CVaR's
    influence function plus CVaR (Rockafellar-Uryasev: the quantile's own error does not
    move CVaR to first order, so it may be held fixed)."""
    return var + np.minimum(values - var, 0.0) / tail


def cross_fitted(options: list[Solved], kind: str, threshold: float,
                 full: list[CandidateStats] | None = None,
                 risk_se: bool = True) -> CandidateStats:
    """The statistics of choosing among ``options`` (the trumps and discards of one rung)
    ex ante, without the winner's curse of scoring the best mean on the deals that made it
    best: the choice made on the even deals is scored on the odd ones and vice versa. When
    both halves choose the same candidate that is its own statistics; else the two halves of
    their common deals, labelled with the one that is better on all its deals. ``full``:
    the options' statistics on all their deals, if already known; ``risk_se``: as
    :func:`parts_stats`."""
    def best(fold: int) -> Solved:
        keys = [_half_key(s, fold, kind) for s in options]
        top = 0
        for i in range(1, len(keys)):  # as best_of: the first that no later one beats
            if keys[i] > keys[top]:
                top = i
        return options[top]

    if full is None:
        full = [parts_stats(s.cand, [(s, np.arange(len(s)))], threshold, risk_se)
                for s in options]
    if len(options) == 1 or min(len(s) for s in options) < FOLDS:
        return best_of(full, kind)
    on_even, on_odd = best(0), best(1)
    if on_even is on_odd:
        return _with_choice(replace(full[options.index(on_even)]), full)
    n = min(len(on_even), len(on_odd))
    fa, fb = full[options.index(on_even)], full[options.index(on_odd)]
    label = on_even if better(fa, fb, kind) else on_odd
    st = parts_stats(label.cand, [(on_even, np.arange(1, n, FOLDS)),
                                  (on_odd, np.arange(0, n, FOLDS))], threshold, risk_se)
    st.tricks = label.t
    st.cross_fit = (on_even.cand, on_odd.cand)
    return _with_choice(st, full)


def _with_choice(st: CandidateStats, full: list[CandidateStats]) -> CandidateStats:
    """``st`` (the chosen row, a copy of its own) with the choice's variance added to the SEs
    of its values (:data:`CHOICE_SE`; :mod:`.choice`), the key that chooses being the net EV.
    Its probabilities keep their Agresti-Coull SEs, whose pseudo-deals already cover more
    than what the choice moves them by (docs/PERFORMANCE.md, Bid times)."""
    if not all(f.net is not None for f in full):
        return st
    values = {name: np.array([getattr(f, name) for f in full]) for name in CHOICE_SE}
    st.choice_var = choice_variance([f.net for f in full], values, FOLDS)
    for name, se_name in CHOICE_SE.items():
        setattr(st, se_name, math.sqrt(getattr(st, se_name) ** 2 + st.choice_var[name]))
    return st


def _half_key(s: Solved, fold: int, kind: str) -> tuple:
    """:func:`better`'s key of ``s`` on its deals of fold ``fold``, worked out as
    :func:`parts_stats` would (the same floats) but without the fields that choosing does not
    read; once per candidate (a rung's later scorings reuse unchanged ones)."""
    hit = s.half_keys.get((fold, kind))
    if hit is None:
        hit = s.half_keys[fold, kind] = _half_key_of(s, np.arange(fold, len(s), FOLDS), kind)
    return hit


def _half_key_of(s: Solved, idx: np.ndarray, kind: str) -> tuple:
    mix = _Mix([(s, idx)])
    p_make = float(np.clip(mix.adjusted(lambda s: s.ok).mean(), 0.0, 1.0))
    mean_tricks = float(mix.terms(lambda s: _TRICKS).mean())
    ev_net = float(mix.adjusted(lambda s: s.net).mean()) if s.priced else math.nan
    return _rank(kind, s.priced, p_make, mean_tricks, s.suit_rank, ev_net)


def _rank(kind: str, priced: bool, p_make: float, mean_tricks: float, suit_rank: int,
          ev_net: float) -> tuple:
    """The order of :func:`better`: net EV, then P(make), then suit preference, then tricks
    (more for trick rungs, fewer for misères); unpriced: P(make), tricks, suit preference."""
    tricks = mean_tricks if kind == "at_least" else -mean_tricks
    if not priced:
        return (p_make, tricks, suit_rank)
    return (ev_net, p_make, suit_rank, tricks)


def best_of(stats: list[CandidateStats], kind: str) -> CandidateStats:
    """The first of ``stats`` that no later one is :func:`better` than."""
    top = stats[0]
    for st in stats[1:]:
        if better(st, top, kind):
            top = st
    return top


def se(x: np.ndarray) -> float:
    """The standard error of the mean of ``x`` (NaN for fewer than two values)."""
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan


def ac_mean_se(y: np.ndarray) -> float:
    """The Agresti-Coull standard error of a probability estimated by the mean of the terms
    ``y`` (0/1, or two-phase terms of a 0/1 outcome): the terms' SE with
    :data:`AC_PSEUDO` pseudo-successes and as many pseudo-failures added, which for 0/1
    terms is :func:`ac_se`. Never 0, so that a row every deal agrees on still says how sure
    it is (a plain SE of 0 would claim certainty from a finite sample)."""
    n = len(y)
    if n == 0:
        return math.nan
    k = n + 2 * AC_PSEUDO
    p = (float(y.sum()) + AC_PSEUDO) / k
    var = (float((y * y).sum()) + AC_PSEUDO) / k - p * p
    return math.sqrt(max(var, 0.0) / n)


def diff_se(a: np.ndarray, b: np.ndarray) -> float:
    """The SE of ``mean(a) - mean(b)``, each the mean of its own terms over a prefix of the
    same deals (the shorter one's deals are shared): their covariance enters through the
    common deals only (common random numbers)."""
    na, nb, k = len(a), len(b), min(len(a), len(b))
    if k < 2:
        return math.nan
    cov = float(np.cov(a[:k], b[:k])[0, 1])
    var = a.var(ddof=1) / na + b.var(ddof=1) / nb - 2 * k * cov / (na * nb)
    return math.sqrt(max(float(var), 0.0))


def ac_se(successes: int, n: int) -> float:
    """Agresti-Coull standard error of a proportion: add two successes and two failures.
    Unlike the plain estimate it is not 0 when every sample agrees, so it is the one that
    decides whether a probability is known well enough to stop sampling it."""
    p = (successes + AC_PSEUDO) / (n + 2 * AC_PSEUDO)
    return math.sqrt(p * (1 - p) / n)


def better(a: CandidateStats, b: CandidateStats, kind: str) -> bool:
    """Is candidate ``a`` better than ``b`` ex ante (docs/RULES.md §3.0)? Net EV, then P(make),
    then suit preference, then tricks (more for trick rungs, fewer for misères); an unpriced
    rung: P(make), then tricks, then suit preference."""
    def key(c: CandidateStats) -> tuple:
        return _rank(kind, c.priced, c.p_make, c.mean_tricks, c.suit_rank, c.ev_net)
    return key(a) > key(b)
