"""The value of passing when the rules play a game after an all-pass: classic Boston's Misère
Partout (docs/RULES.md §2.1.5) or Solo Whist's Grand (§2.3.3, A-29), both no trump, each
player for himself, eldest leading (A-17).

Four players each for himself is not the two-sided game the double-dummy solver plays, so
every seat plays the same simple card policy, all trying to take few tricks:

* **lead**: the lowest card of the shortest suit held (ties: the lower suit index);
* **follow**: the highest card of the suit led that still loses to the trick's best card;
  with none, the highest card when last to play (the trick is his anyway), else the lowest;
* **void**: discard the highest card held (ties: the suit with the fewest cards below it).

The same policy serves the Grand, whose loser is the last trick's winner: shedding high
cards early is also how a player avoids holding the top card at the end. Every seat plays
alike, so the game stays zero-sum and an average hand's value is 0; the policy is a
heuristic, so the value is an estimate of play at that level, not of expert play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from ..config import JIT
from ..rules import ALL_PASS_LABELS, MAX_TRICKS, RuleSet
from ..sampler import Sampler

N_SEATS = 4
LANE_BITS = 16  # each suit owns a 16-bit lane of a hand mask (cards.py)
LANE_MASK = (1 << LANE_BITS) - 1
LOW_RANK, HIGH_RANK = 2, 14
NO_CARD = -1
ELDEST = 0  # the analysis puts the dealer at W, so the eldest hand is N (compass 0)


@nb.njit(**JIT)
def _lane(hand: np.uint64, suit: int) -> int:
    return int((hand >> np.uint64(LANE_BITS * suit)) & np.uint64(LANE_MASK))


@nb.njit(**JIT)
def _lowest(lane: int) -> int:
    for r in range(LOW_RANK, HIGH_RANK + 1):
        if lane >> r & 1:
            return r
    return NO_CARD


@nb.njit(**JIT)
def _highest_below(lane: int, limit: int) -> int:
    """The highest rank of ``lane`` below ``limit`` (``HIGH_RANK + 1``: any), or NO_CARD."""
    for r in range(limit - 1, LOW_RANK - 1, -1):
        if lane >> r & 1:
            return r
    return NO_CARD


@nb.njit(**JIT)
def _count(lane: int) -> int:
    n = 0
    for r in range(LOW_RANK, HIGH_RANK + 1):
        n += lane >> r & 1
    return n


@nb.njit(**JIT)
def _lead(hand: np.uint64) -> tuple[int, int]:
    best_s, best_n = -1, MAX_TRICKS + 1
    for s in range(4):
        n = _count(_lane(hand, s))
        if 0 < n < best_n:
            best_s, best_n = s, n
    return best_s, _lowest(_lane(hand, best_s))


@nb.njit(**JIT)
def _discard(hand: np.uint64) -> tuple[int, int]:
    best_s, best_r, best_below = -1, NO_CARD, MAX_TRICKS + 1
    for s in range(4):
        lane = _lane(hand, s)
        r = _highest_below(lane, HIGH_RANK + 1)
        if r == NO_CARD:
            continue
        below = _count(lane) - 1
        if r > best_r or (r == best_r and below < best_below):
            best_s, best_r, best_below = s, r, below
    return best_s, best_r


@nb.njit(**JIT)
def _follow(lane: int, winning: int, last: bool) -> int:
    r = _highest_below(lane, winning)
    if r != NO_CARD:
        return r
    return _highest_below(lane, HIGH_RANK + 1) if last else _lowest(lane)


@nb.njit(**JIT)
def _play_kernel(deals: np.ndarray, tricks: np.ndarray, last_winner: np.ndarray,
                 plays: np.ndarray, record: bool) -> None:
    """Play every deal out; with ``record``, ``plays[m, trick, i]`` = the card (suit * 16 +
    rank) the i-th player to the trick played, ``plays[m, trick, 4]`` = the trick's leader
    (else row 0 is scratch)."""
    hands = np.empty(N_SEATS, dtype=np.uint64)
    for m in range(deals.shape[0]):
        row = m if record else 0
        for p in range(N_SEATS):
            hands[p] = deals[m, p]
        leader = ELDEST
        for t in range(MAX_TRICKS):
            plays[row, t, N_SEATS] = leader
            suit, rank = _lead(hands[leader])
            winner, winning = leader, rank
            hands[leader] ^= np.uint64(1) << np.uint64(LANE_BITS * suit + rank)
            plays[row, t, 0] = LANE_BITS * suit + rank
            for i in range(1, N_SEATS):
                p = (leader + i) % N_SEATS
                lane = _lane(hands[p], suit)
                if lane:
                    s, r = suit, _follow(lane, winning, i == N_SEATS - 1)
                    if r > winning:
                        winner, winning = p, r
                else:
                    s, r = _discard(hands[p])
                hands[p] ^= np.uint64(1) << np.uint64(LANE_BITS * s + r)
                plays[row, t, i] = LANE_BITS * s + r
            tricks[m, winner] += 1
            leader = winner
        last_winner[m] = leader


def play_all_pass(deals: np.ndarray, record: bool = False
                  ) -> tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play the all-pass game on ``deals`` (``uint64[M, 4]`` by compass seat, eldest N) with
    the module's heuristic policy: each seat's tricks (``int64[M, 4]``) and the winner of the
    last trick (``int64[M]``); with ``record``, also every card played
    (``int64[M, 13, 5]``: the four cards in playing order, then the trick's leader)."""
    d = np.ascontiguousarray(deals, dtype=np.uint64).reshape(-1, N_SEATS)
    m = d.shape[0]
    tricks = np.zeros((m, N_SEATS), dtype=np.int64)
    last = np.zeros(m, dtype=np.int64)
    plays = np.zeros((m if record else 1, MAX_TRICKS, N_SEATS + 1), dtype=np.int64)
    if m:
        _play_kernel(d, tricks, last, plays, record)
    return (tricks, last, plays) if record else (tricks, last)


@dataclass(frozen=True)
class PassValue:
    """The value of passing: ``value`` (the declarer's mean net, the rule set's unit) and
    ``se`` (its SE; 0 for a fixed value), ``model`` (``"none"``, ``"misere_partout"``,
    ``"grand"``), ``label`` (the game's name) and ``terms`` (the per-deal results, empty for
    a fixed value: paired with a bid's per-deal terms for the SE of their difference)."""

    value: float
    se: float
    model: str
    label: str
    terms: np.ndarray

    @property
    def simulated(self) -> bool:
        return self.model != "none"


def fixed_pass(rs: RuleSet) -> PassValue:
    """The pass value the rule file states (:attr:`RuleSet.pass_value`), no simulation."""
    return PassValue(rs.pass_value, 0.0, "none", "", np.zeros(0))


def settle_all_pass(rs: RuleSet, tricks: np.ndarray, last: np.ndarray, seat: int
                    ) -> np.ndarray:
    """The result of the player at compass ``seat`` on each played deal (``tricks``:
    ``int[M, 4]``, ``last``: the last trick's winner), in the rule set's unit (positive =
    receives), paid by the rules layer under the rule set's :attr:`all_pass_model`."""
    model = rs.all_pass_model
    out = np.zeros(len(tricks))
    if model == "misere_partout" and len(tricks):
        # at most a few hundred distinct trick splits: settle each once
        splits, inverse = np.unique(tricks, axis=0, return_inverse=True)
        paid = np.array([rs.misere_partout([int(x) for x in row])[seat] for row in splits])
        out = paid[np.ravel(inverse)]
    elif model == "grand":
        paid = np.array([rs.grand_all_pass(w)[seat] for w in range(N_SEATS)])
        out = paid[np.asarray(last, dtype=np.int64)]
    return out * rs.multiplier


def deal_results(rs: RuleSet, deals: np.ndarray, seat: int) -> np.ndarray:
    """The all-pass game played on each deal (:func:`play_all_pass`) and settled
    (:func:`settle_all_pass`) for the player at compass ``seat``."""
    tricks, last = play_all_pass(deals)
    return settle_all_pass(rs, tricks, last, seat)


PASS_DEALS_PER_DEAL = 16
"""With a ``stream`` (:class:`PassEstimator`), the all-pass game is played on this many deals
for each deal the searches solved. Its heuristic play costs microseconds a deal, and its
spread was most of the SE of a bid's difference from passing (``KT975.95.AKT.K82``: 5.3 of
6.1 counters on 225 deals); on 16 times the deals that part falls to a quarter."""
PASS_DEALS_MAX = 200_000
"""... but on no more deals than this (``--samples``' own cap), unless the searches' are more:
a bid of many deals keeps its memory and its pass game's time bounded."""


class PassEstimator:
    """The pass value of one analysis, kept up to date as the pool of deals grows: each deal
    is played once (:func:`deal_results`); :meth:`value` uses the first ``n`` deals of the
    pool, or with ``stream`` the first :data:`PASS_DEALS_PER_DEAL` times ``n`` of it: a twin
    of the analysis' sampler (:meth:`Sampler.twin`), whose first deals are the pool's own,
    so that a bid's difference from passing stays paired on the deals both have."""

    def __init__(self, rs: RuleSet, seat: int, stream: Sampler | None = None) -> None:
        self.rs = rs
        self.seat = seat
        self.stream = stream
        self.results = np.zeros(0)
        self.drawn = np.empty((0, N_SEATS), np.uint64)

    def value(self, deals: np.ndarray, n: int | None = None) -> PassValue:
        """The pass value on the first ``n`` of ``deals`` (all by default), and with a
        stream on the first ``PASS_DEALS_PER_DEAL * n`` of the stream (capped as
        :data:`PASS_DEALS_MAX` says)."""
        rs = self.rs
        if rs.all_pass_model == "none":
            return fixed_pass(rs)
        n = len(deals) if n is None else n
        m = max(n, min(n * PASS_DEALS_PER_DEAL, PASS_DEALS_MAX)) if self.stream is not None else n
        if m > len(self.results):
            source = self._deals(deals, n, m)
            more = deal_results(rs, source[len(self.results):m], self.seat)
            self.results = np.concatenate([self.results, more])
        terms = self.results[:m]
        se = float(terms.std(ddof=1) / math.sqrt(m)) if m > 1 else math.nan
        mean = float(terms.mean()) if m else math.nan
        return PassValue(mean, se, rs.all_pass_model, ALL_PASS_LABELS[rs.all_pass_model],
                         terms)

    def _deals(self, deals: np.ndarray, n: int, m: int) -> np.ndarray:
        """The first ``m`` deals to play: the pool's, or the stream's, whose first ``n``
        must be the pool's (the pairing rests on it)."""
        if self.stream is None:
            return deals
        if len(self.drawn) < m:
            self.drawn = np.concatenate([self.drawn, self.stream.draw(m - len(self.drawn)).deals])
        if not np.array_equal(self.drawn[:n], deals[:n]):
            raise AssertionError("the pass value's stream left the analysis' deals")
        return self.drawn
