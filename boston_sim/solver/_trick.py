"""One trick's cards: who beats whom, who is winning, and whether the winner is already sure.

Shared by the bounds (``_quick_tricks``, ``_later_tricks``), the move ordering (``_moves``)
and the search (``_search``).
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import highbit_index, popcount
from ._jit import njit
from ._layout import F_CARD, F_T, I0, NT, other_side

# added to ``sure_trick``'s card when the counted side wins the trick (cards are below 64)
COUNTED_SIDE = 64

@njit(**JIT_NONRT)
def hand_size(hl, seat):
    """Number of cards ``seat`` holds."""
    return popcount(hl[seat * 4] | (hl[seat * 4 + 1] << 16) | (hl[seat * 4 + 2] << 32)
                    | (hl[seat * 4 + 3] << 48))


@njit(**JIT_NONRT)
def beats(c, b, trump):
    """Does card ``c`` beat card ``b`` (the current winner of a trick)?"""
    cs = c >> 4
    bs = b >> 4
    if cs == bs:
        return c > b
    return cs == trump


@njit(**JIT_NONRT)
def top_run(mine, union):
    """How many of the highest cards of ``union`` (a lane) belong to ``mine``, in a row."""
    k = 0
    u = union
    while u != 0:
        hb = highbit_index(u)
        if (mine >> hb) & 1 == 0:
            break
        k += 1
        u ^= 1 << hb
    return k


@njit(**JIT_NONRT)
def kth_rank(u, k):
    """Rank of the ``k``-th highest card of lane ``u`` (k >= 1), or 16 if k == 0."""
    if k <= 0:
        return 16
    for _ in range(k - 1):
        u ^= 1 << highbit_index(u)
    return highbit_index(u)



@njit(**JIT_NONRT)
def beaten_later(hl, leader, pos, led, trump, card, skip):
    """Can a player after position ``pos`` of the trick (seats in mask ``skip`` aside) beat
    ``card``, following the suit led with a higher card or trumping over it?"""
    cs = card >> 4
    cr = card & 15
    for i in range(pos + 1, 4):
        so = (leader + i) & 3
        if (skip >> so) & 1:
            continue
        lane = hl[so * 4 + led]
        if lane != 0:
            if cs == led and highbit_index(lane) > cr:
                return True
        elif trump != NT and hl[so * 4 + trump] != 0:
            if cs != trump or highbit_index(hl[so * 4 + trump]) > cr:
                return True
    return False


@njit(**JIT_NONRT)
def winning_pos(fr, base, n, trump):
    """Position in the trick (0: the lead) of the card winning the trick's first ``n`` cards,
    played at plies ``base`` .. ``base + n - 1``."""
    bp = I0
    for i in range(1, n):
        if beats(fr[base + i, F_CARD], fr[base + bp, F_CARD], trump):
            bp = i
    return bp


@njit(**JIT_NONRT)
def sure_trick(hl, fr, ply, leader, pos, trump, countmask, both_win, bp):
    """Inside a trick (``pos`` > 0, the seat at ``pos`` to play): is the trick's winning side
    already known? The card that will win it for sure, plus ``COUNTED_SIDE`` if it is the
    counted side's, or -1. Sure when the card winning the trick so far can be beaten by no
    later opponent of its holder, or (``both_win``: both sides want to win tricks, the plain
    max game) when the seat to play holds a card that beats it and that no later opponent can
    beat: his highest of the suit led, or when void in it, his highest trump. The answer
    depends on who holds the cards above the winning one in its suit. (``bp``: the position
    in the trick of the card winning it so far.)"""
    base = ply - pos
    led = fr[base, F_CARD] >> 4
    best = fr[base + bp, F_CARD]
    ws = (leader + bp) & 3
    team = countmask if (countmask >> ws) & 1 else other_side(countmask)
    if not beaten_later(hl, leader, pos - 1, led, trump, best, team):
        return best + (COUNTED_SIDE if (countmask >> ws) & 1 else 0)
    if not both_win:
        return -1
    seat = (leader + pos) & 3
    team = countmask if (countmask >> seat) & 1 else other_side(countmask)
    lane = hl[seat * 4 + led]
    if lane != 0:
        c = led * 16 + highbit_index(lane)
    elif trump != NT and hl[seat * 4 + trump] != 0:
        c = trump * 16 + highbit_index(hl[seat * 4 + trump])
    else:
        return -1
    if beats(c, best, trump) and not beaten_later(hl, leader, pos, led, trump, c, team):
        return c + (COUNTED_SIDE if (countmask >> seat) & 1 else 0)
    return -1



@njit(**JIT_NONRT)
def won_on_rank(wc, tm):
    """The trick's winning card ``wc`` if the trick (its cards: mask ``tm``, bit s * 16 +
    rank) was won on rank, i.e. another card of the winner's suit was played to it (then that
    rank matters), else -1."""
    return wc if popcount((tm >> (16 * (wc >> 4))) & 0xFFFF) >= 2 else -1


@njit(**JIT_NONRT)
def trick_relevance(fr, last, trump, row):
    """If the trick ending at ply ``last`` was won on rank, that rank matters (lower ``t`` of
    its suit to it)."""
    base = last - 3
    bp = winning_pos(fr, base, np.int64(4), trump)
    tm = I0
    for j in range(base, base + 4):
        tm |= 1 << fr[j, F_CARD]
    wc = won_on_rank(fr[base + bp, F_CARD], tm)
    if wc >= 0 and (wc & 15) < fr[row, F_T + (wc >> 4)]:
        fr[row, F_T + (wc >> 4)] = wc & 15

