"""Control variates: features of a sampled deal whose expectation is known exactly, used to
take out of each row's per-deal terms the part of their spread the deal's layout explains.

A row's terms ``y`` (:mod:`.statistics`) are regressed on the deal's features ``x`` (least
squares with an intercept, on the same deals) and replaced by ``y - b (x - mu)``, ``mu`` the
features' exact mean. Their mean is the regression estimator, unbiased up to an O(1/n) term
from estimating ``b``; their spread about it is the regression's residuals, so the usual SEs
and paired differences of the terms stay valid and shrink by the share of variance
explained (the spread is scaled by ``sqrt((n - 1) / (n - 1 - p))`` for the ``p`` slopes).

The features of a candidate are those of its trump suit (its strain's, or for a no-trump
candidate the declarer's longest suit): how the unseen cards of that suit split among the
three other hands (:func:`split_features`), and likewise for a long side suit. Their exact
means come from the multivariate hypergeometric law of the free cards over the free places
of each hand (the declarer's hand and every pinned card known). Constraints on the other
hands make that law hard to write, so an analysis with constraints gets no adjustment
(:func:`controls_for`).
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..cards import SUITS
from ..sampler import Sampler, suit_lengths

OTHER_SEATS = 3  # the declarer's left-hand opponent, the seat opposite, the right-hand one
SUIT_CARDS = 13
MIN_DEALS = 40
"""Fewer deals than this leave the terms as they are: the slopes' estimation error (an
O(p / n) bias and a looser SE) is then no longer small beside the gain."""

SIDE_SUIT_LENGTH = 5
"""A side suit this long gets features of its own: on a two-suiter its split explained as
much again of the variance as the trump's (on other hands, next to nothing)."""
TAIL_SHARE = 0.05
"""A longest holding rarer than this (either end) joins its nearest more common value."""


def split_features(lengths: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """A suit's features from its lengths in the other hands (``[n, 3]``): one indicator per
    value ``lo + 1 .. hi`` of the longest unseen holding (clipped into ``lo .. hi``; ``lo`` is
    the base), and the sum of the squared lengths (how uneven the split is). They explained
    17-77% of a close trump contract's variance on the slow hands, more than the seats'
    lengths, their high-card points or linear terms in the longest holding."""
    lengths = np.asarray(lengths, float)
    longest = np.clip(lengths.max(axis=1), lo, hi)
    dummies = [longest == v for v in range(lo + 1, hi + 1)]
    return np.stack([*dummies, (lengths * lengths).sum(axis=1)], axis=1).astype(float)


def common_range(rows: np.ndarray, probs: np.ndarray) -> tuple[int, int]:
    """The values of the longest holding kept apart: from the least whose lower tail holds
    :data:`TAIL_SHARE` to the greatest whose upper tail does."""
    longest = rows.max(axis=1)
    values = np.unique(longest)
    lower = [probs[longest <= v].sum() for v in values]
    upper = [probs[longest >= v].sum() for v in values]
    lo = next(v for v, c in zip(values, lower, strict=True) if c >= TAIL_SHARE)
    hi = max(v for v, c in zip(values, upper, strict=True) if c >= TAIL_SHARE)
    return int(lo), int(max(lo, hi))


def other_seats(declarer: int) -> list[int]:
    """The compass seats of the other hands, in :func:`split_features`' order."""
    return [(declarer + k) % 4 for k in range(1, OTHER_SEATS + 1)]


def deal_lengths(deals: np.ndarray, declarer: int, suit: int) -> np.ndarray:
    """``[n, 3]``: the suit's length in each other hand of every deal."""
    return np.stack([suit_lengths(deals[:, s], suit) for s in other_seats(declarer)], axis=1)


def split_law(pinned: list[int], slots: list[int], free: int) -> tuple[np.ndarray, np.ndarray]:
    """Every split of a suit among the other hands and its exact probability: ``free`` unseen
    cards of it dealt at random over hands with ``slots`` free places each, on top of the
    ``pinned`` cards of it they hold (multivariate hypergeometric)."""
    total = comb(sum(slots), free)
    rows, probs = [], []
    for a in range(min(free, slots[0]) + 1):
        for b in range(min(free - a, slots[1]) + 1):
            c = free - a - b
            if c > slots[2]:
                continue
            rows.append([pinned[0] + a, pinned[1] + b, pinned[2] + c])
            probs.append(comb(slots[0], a) * comb(slots[1], b) * comb(slots[2], c) / total)
    return np.array(rows, float), np.array(probs)


def side_features(lengths: np.ndarray) -> np.ndarray:
    """A long side suit's features from its lengths in the other hands: the longest unseen
    holding and the sum of the squared lengths (a two-suiter's second suit must be set up)."""
    lengths = np.asarray(lengths, float)
    return np.stack([lengths.max(axis=1), (lengths * lengths).sum(axis=1)], axis=1)


class Controls:
    """The features of an analysis' deals and their exact means, per strain: the trump
    suit's (:func:`split_features`) and, if the declarer holds :data:`SIDE_SUIT_LENGTH` or
    more of another suit, that side suit's (:func:`side_features`)."""

    def __init__(self, sampler: Sampler) -> None:
        self.declarer = sampler.declarer
        seats = other_seats(self.declarer)
        own = suit_lengths(np.full(len(SUITS), sampler.hand, np.uint64), np.arange(len(SUITS)))
        # the declarer's suits, longest first (the higher-ranking of equals first)
        self.by_length = sorted(range(len(SUITS)), key=lambda s: -int(own[s]))
        self.own = own
        self._law = {}
        self._range: dict[int, tuple[int, int]] = {}
        for suit in range(len(SUITS)):
            pinned = [int(suit_lengths(sampler.pinned[s : s + 1], suit)[0]) for s in seats]
            free = SUIT_CARDS - int(suit_lengths(sampler.pinned, suit).sum())
            self._law[suit] = split_law(pinned, [sampler.slots[s] for s in seats], free)
            self._range[suit] = common_range(*self._law[suit])

    def suits_of(self, strain: int) -> tuple[int, int | None]:
        """The suit whose split stands for a strain (the trump, or at no trump the
        declarer's longest suit) and his longest other suit if it is long, else None."""
        trump = strain if strain < len(SUITS) else self.by_length[0]
        side = next(s for s in self.by_length if s != trump)
        return trump, side if self.own[side] >= SIDE_SUIT_LENGTH else None

    def _features(self, strain: int, lengths_of) -> np.ndarray:
        trump, side = self.suits_of(strain)
        x = [split_features(lengths_of(trump), *self._range[trump])]
        if side is not None:
            x.append(side_features(lengths_of(side)))
        return np.concatenate(x, axis=1)

    def mean(self, strain: int) -> np.ndarray:
        """The features' exact mean for a strain (each feature is of one suit's split)."""
        trump, side = self.suits_of(strain)
        rows, p = self._law[trump]
        mu = [p @ split_features(rows, *self._range[trump])]
        if side is not None:
            rows, p = self._law[side]
            mu.append(p @ side_features(rows))
        return np.concatenate(mu)

    def centred(self, deals: np.ndarray, strain: int, n: int) -> np.ndarray:
        """``[n, p]``: the features of the first ``n`` deals for a strain, less their exact
        mean."""
        x = self._features(strain, lambda s: deal_lengths(deals[:n], self.declarer, s))
        return x - self.mean(strain)


def controls_for(sampler: Sampler, enabled: bool) -> Controls | None:
    """The analysis' controls, or None: switched off, or constraints on the other hands
    (their features' means are then not known exactly)."""
    if not enabled or sampler.active_constraints:
        return None
    return Controls(sampler)


def adjust(y: np.ndarray, xc: np.ndarray) -> np.ndarray:
    """The terms ``y`` less the part their least-squares fit on the centred features ``xc``
    (``x - mu``) explains: ``y - b xc``, their spread about the mean scaled for the ``p``
    slopes estimated. Features constant on these deals are left out."""
    n = len(y)
    keep = xc.std(axis=0) > 0
    xc = xc[:, keep]
    p = xc.shape[1]
    if n < max(MIN_DEALS, p + 2) or p == 0:
        return y
    design = np.column_stack([np.ones(n), xc - xc.mean(axis=0)])
    coef = np.linalg.lstsq(design, y, rcond=None)[0]
    out = y - xc @ coef[1:]
    m = out.mean()
    return m + (out - m) * np.sqrt((n - 1) / (n - 1 - p))
