"""Layouts of the unseen cards as one player sees them in the middle of the play.

A single-dummy player (docs/RULES.md §3, the double-dummy bracket) chooses his card on K
layouts of the cards he cannot see, drawn uniformly among those consistent with what he has
seen: his own hand, every card played and by whom, the suits a seat has shown out of, an
exposed hand, the known cards and the analysis's constraints on the original hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..sampler import Constraint, accept_mask

SUIT_BITS = 16
SUIT_LANE = np.uint64(0xFFFF)
TRIES_PER_LAYOUT = 8  # random splits drawn per layout wanted, per round
MAX_ROUNDS = 16  # then the rest is dealt seat by seat, honouring the shown voids


@dataclass
class Knowledge:
    """What every player knows besides his own hand: ``known`` (card bit, compass seat)
    pinned cards and ``constraints`` on the original hands (both from the analysis)."""

    known: list[tuple[int, int]] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)


def _bits(mask: int) -> np.ndarray:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return np.asarray(out, dtype=np.uint64)


def _void_lanes(voids: int, seat: int) -> np.uint64:
    """The card mask of the suits ``seat`` has shown out of (``voids``: bit seat*4 + suit)."""
    m = 0
    for s in range(4):
        if voids >> (seat * 4 + s) & 1:
            m |= 0xFFFF << (SUIT_BITS * s)
    return np.uint64(m)


def draw_layouts(hands: np.ndarray, played_by: np.ndarray, viewer: int, exposed: int,
                 voids: int, k: int, rng: np.random.Generator,
                 knowledge: Knowledge) -> np.ndarray:
    """``k`` layouts (``uint64[k, 4]`` remaining hands by compass seat) as ``viewer`` may
    imagine the true remaining ``hands``: his own hand and the ``exposed`` seats' (bit mask)
    as they are, the other seats' cards redealt among them, each keeping its number of cards.

    ``played_by``: the cards each seat has played so far (the original hands, for the
    constraints, are remaining + played); ``voids``: bit ``seat*4 + suit`` when the seat has
    shown out of the suit. Uniform by rejection; when a long history makes rejection slow the
    rest are dealt seat by seat (a close approximation, honouring voids and counts)."""
    hidden = [s for s in range(4) if s != viewer and not exposed >> s & 1]
    out = np.tile(np.asarray(hands, np.uint64), (k, 1))
    if len(hidden) < 2:
        return out
    pool = 0
    for s in hidden:
        pool |= int(hands[s])
    pinned = np.zeros(4, np.uint64)
    for card, seat in knowledge.known:
        if seat in hidden and pool >> card & 1:
            pinned[seat] |= np.uint64(1 << card)
    free = _bits(pool & ~int(np.bitwise_or.reduce(pinned)))
    caps = [int(np.bitwise_count(hands[s])) - int(np.bitwise_count(pinned[s])) for s in hidden]
    bans = [_void_lanes(voids, s) for s in hidden]
    got: list[np.ndarray] = []
    need = k
    for _ in range(MAX_ROUNDS):
        cand = _split(free, caps, hidden, pinned, need * TRIES_PER_LAYOUT, rng, out[:1])
        ok = np.ones(len(cand), bool)
        for s, ban in zip(hidden, bans, strict=True):
            ok &= (cand[:, s] & ban) == 0
        if knowledge.constraints:
            ok &= accept_mask(cand | played_by[None, :], knowledge.constraints)
        got.append(cand[ok][:need])
        need -= len(got[-1])
        if need == 0:
            break
    if need:
        got.append(_deal_by_seat(free, caps, hidden, pinned, bans, need, rng, out[:1]))
    return np.concatenate(got)[:k]


def _split(free: np.ndarray, caps: list[int], hidden: list[int], pinned: np.ndarray, n: int,
           rng: np.random.Generator, base: np.ndarray) -> np.ndarray:
    """``n`` uniform redeals of the ``free`` cards into the hidden seats' capacities."""
    out = np.tile(base, (n, 1))
    perm = np.argsort(rng.random((n, len(free))), axis=1)
    cards = np.uint64(1) << free[perm]
    lo = 0
    for s, c in zip(hidden, caps, strict=True):
        out[:, s] = np.bitwise_or.reduce(cards[:, lo:lo + c], axis=1) if c else np.uint64(0)
        out[:, s] |= pinned[s]
        lo += c
    return out


def _deal_by_seat(free: np.ndarray, caps: list[int], hidden: list[int], pinned: np.ndarray,
                  bans: list[np.uint64], n: int, rng: np.random.Generator,
                  base: np.ndarray) -> np.ndarray:
    """Redeals that honour the voids by construction: the cards few seats may hold go first,
    each to an allowed seat drawn in proportion to the room it has left."""
    out = np.tile(base, (n, 1))
    allowed = np.array([[not (int(b) >> int(c) & 1) for b in bans] for c in free], bool)
    order_key = allowed.sum(axis=1)
    for i in range(n):
        room = np.array(caps, float)
        hand = [int(pinned[s]) for s in hidden]
        jitter = rng.random(len(free))
        for j in np.lexsort((jitter, order_key)):
            w = room * allowed[j]
            if w.sum() <= 0:
                w = room.copy()  # no allowed seat has room: the history is inconsistent
            h = int(rng.choice(len(hidden), p=w / w.sum()))
            hand[h] |= 1 << int(free[j])
            room[h] -= 1
        for h, s in enumerate(hidden):
            out[i, s] = np.uint64(hand[h])
    return out
