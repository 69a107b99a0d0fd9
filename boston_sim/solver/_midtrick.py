"""Double-dummy answers from the middle of a trick (numba).

A position is the hands left, the cards already played to the current trick (``tc``, in play
order, ``k`` of them) and the seat that led it. The rest of the current trick is a small
AND/OR search of its own (at most three cards to choose); at the trick's end the ordinary
``search`` runs from the winner's lead on the hands left. One game set-up (``_setup``) per
position, so the searches under all the trick's endings share one transposition table.
With ``k == 0`` (a trick boundary) or ``k == 4`` (the trick's winner known) the position is
the existing question from a lead, asked through the existing drivers.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..config import JIT, JIT_PARALLEL
from ._bits import fetch_add, highbit_index
from ._driver import (
    ESTIMATE_MARGIN,
    KIND_AT_LEAST,
    MODE_MAX,
    OP_VALUE,
    _forget_killers,
    _setup,
    high_card_estimate,
    solve_question,
    solve_value,
)
from ._jit import njit
from ._layout import (
    F_BP,
    F_CARD,
    F_IDX,
    F_NM,
    F_SIZE,
    F_TM,
    I0,
    MOVE_SLOTS,
    P_ABORT,
    P_COUNTMASK,
    P_MAXMASK,
    P_NODES,
    P_TRUMP,
    other_side,
)
from ._moves import gen_moves
from ._search import search
from ._trick import beats, hand_size

TRICK = 4  # cards in a trick
NO_CARD = -1  # the padding of a trick's unplayed places
# ``flags`` of the mid-trick search: the public wrappers use SEARCH_ORDER; the others are
# there to measure what grouping and ordering save (they never change an answer)
GROUP_EQUIVALENT = 1  # try one card of each run of cards equivalent in the current trick
ORDER_MOVES = 2  # try the cheapest card that takes the lead of the trick first, then low cards
SEARCH_ORDER = 4  # the search's own move generator (groups and orders; overrides both above)


@njit(**JIT)
def _winner_pos(tc, trump):
    """Position in the trick (0: the lead) of the card winning the complete trick ``tc``."""
    bp = 0
    for i in range(1, TRICK):
        if beats(tc[i], tc[bp], trump):
            bp = i
    return bp


@njit(**JIT)
def _live_lane(hl, tc, d, suit):
    """The cards of ``suit`` still in play at place ``d`` of the trick: in some hand, or
    already played to this trick (they still decide who wins it)."""
    u = hl[suit] | hl[4 + suit] | hl[8 + suit] | hl[12 + suit]
    for i in range(d):
        if tc[i] >> 4 == suit:
            u |= 1 << (tc[i] & 15)
    return u


@njit(**JIT)
def _gen(hl, tc, d, seat, trump, flags, moves, mfr, P):
    """The cards ``seat`` may play at place ``d`` (>= 1) of the trick into ``moves[d]``
    (follow suit if able); returns their number. With ``GROUP_EQUIVALENT`` one card stands
    for each run of its holder's cards with no live card of another hand between them; with
    ``ORDER_MOVES`` the cheapest card that beats the trick's best so far comes first, then
    the others from low to high (else high to low)."""
    if flags & SEARCH_ORDER:
        return _gen_search(hl, tc, d, seat, moves, mfr, P)
    led = tc[0] >> 4
    n = 0
    for s in range(4):
        mine = hl[seat * 4 + s]
        if mine == 0 or (s != led and hl[seat * 4 + led] != 0):
            continue
        others = _live_lane(hl, tc, d, s) & ~mine
        prev = -1
        x = mine
        while x != 0:
            r = highbit_index(x)
            x ^= 1 << r
            if (flags & GROUP_EQUIVALENT) and prev >= 0:
                gap = others & ((1 << prev) - 1) & ~((1 << (r + 1)) - 1)
                if gap == 0:
                    prev = r  # same run as the card above it: already stands for it
                    continue
            moves[d, n] = s * 16 + r
            n += 1
            prev = r
    if flags & ORDER_MOVES:
        _order(tc, d, trump, moves, n)
    return n


@njit(**JIT)
def _gen_search(hl, tc, d, seat, moves, mfr, P):
    """``_gen`` by the search's ``gen_moves``, on frames and moves of its own (``mfr``,
    ``moves``: the leaf searches overwrite the search's) holding the trick so far."""
    trump = P[P_TRUMP]
    bp = 0
    tm = 0
    for i in range(d):
        if i > 0 and beats(tc[i], tc[bp], trump):
            bp = i
        tm |= 1 << tc[i]
        mfr[i, F_CARD] = tc[i]
        mfr[i, F_BP] = bp
        mfr[i, F_TM] = tm
    return gen_moves(hl, mfr, P, seat, d, (seat - d) & 3, moves, d)


@njit(**JIT)
def _order(tc, d, trump, moves, n):
    """Reverse ``moves[d, :n]`` (high to low) to low to high, then move the lowest card that
    beats the trick's best card so far to the front."""
    for i in range(n // 2):
        t = moves[d, i]
        moves[d, i] = moves[d, n - 1 - i]
        moves[d, n - 1 - i] = t
    best = tc[0]
    for i in range(1, d):
        if beats(tc[i], best, trump):
            best = tc[i]
    pick = -1
    for i in range(n):
        c = moves[d, i]
        if beats(c, best, trump) and (pick < 0 or _cheaper(c, moves[d, pick], trump)):
            pick = i
    if pick > 0:
        c = moves[d, pick]
        for i in range(pick, 0, -1):
            moves[d, i] = moves[d, i - 1]
        moves[d, 0] = c


@njit(**JIT)
def _cheaper(c, b, trump):
    """Of two cards that both take the lead of a trick, is ``c`` the cheaper (a card of the
    suit led before a trump, then the lower)?"""
    ct = (c >> 4) == trump
    bt = (b >> 4) == trump
    if ct != bt:
        return bt
    return (c & 15) < (b & 15)


@njit(**JIT)
def _leaf(hl, tc, tleader, target, ttk, ttd, mv, fr, P, tk, td):
    """The trick ``tc`` (led by ``tleader``) is complete: can the maximising seats still make
    ``target`` counted tricks, this one included? 1 / 0 / -1 (given up)."""
    w = (tleader + _winner_pos(tc, P[P_TRUMP])) & 3
    need = target - ((P[P_COUNTMASK] >> w) & 1)
    if need <= 0:
        return 1
    if need > hand_size(hl, w):
        return 0
    return search(hl, ttk, ttd, mv, fr, P, tk, td, w, need)


@njit(**JIT)
def mid_reach(hl, tc, k, tleader, target, flags, moves, mfr, ttk, ttd, mv, fr, P, tk, td):
    """Can the maximising seats make the counted tricks from now (the current trick
    included) reach ``target``, with ``k`` (1..3) cards of the trick played (``tc``)? 1 / 0,
    or -1 if the search gave up (``P[P_ABORT]``). The game is the one ``_setup`` set in
    ``P``. An AND/OR search over the trick's remaining places (``moves[d]``: the cards of
    place ``d``; ``mfr[d]``: its frame, as the search's: their number, the next to try),
    each complete trick answered by ``_leaf``; a maximising seat stops at its first card
    that reaches the target, a minimising one at its first refutation. ``hl`` and ``tc``
    are restored on return."""
    trump = P[P_TRUMP]
    maxmask = P[P_MAXMASK]
    d = k
    mfr[d, F_NM] = _gen(hl, tc, d, (tleader + d) & 3, trump, flags, moves, mfr, P)
    mfr[d, F_IDX] = 0
    P[P_NODES] += 1
    while True:
        seat = (tleader + d) & 3
        if mfr[d, F_IDX] < mfr[d, F_NM]:
            c = moves[d, mfr[d, F_IDX]]
            mfr[d, F_IDX] += 1
            hl[seat * 4 + (c >> 4)] ^= 1 << (c & 15)
            tc[d] = c
            if d < TRICK - 1:
                d += 1
                mfr[d, F_NM] = _gen(hl, tc, d, (tleader + d) & 3, trump, flags, moves, mfr, P)
                mfr[d, F_IDX] = 0
                P[P_NODES] += 1
                continue
            val = _leaf(hl, tc, tleader, target, ttk, ttd, mv, fr, P, tk, td)
            hl[seat * 4 + (c >> 4)] ^= 1 << (c & 15)
            tc[d] = NO_CARD
            if val < 0:
                _undo(hl, tc, k, d, tleader)
                return -1
        else:
            # every card tried in vain: the node goes to the other side
            val = 1 - ((maxmask >> seat) & 1)
            if d == k:
                return val
            d -= 1
            _unplay(hl, tc, d, tleader)
        # ``val`` answers the child of the node at ``d``: a cut-off decides the node too
        while val == ((maxmask >> ((tleader + d) & 3)) & 1):
            if d == k:
                return val
            d -= 1
            _unplay(hl, tc, d, tleader)


@njit(**JIT)
def _unplay(hl, tc, d, tleader):
    """Give the card played at place ``d`` of the trick back to its seat."""
    c = tc[d]
    seat = (tleader + d) & 3
    hl[seat * 4 + (c >> 4)] ^= 1 << (c & 15)
    tc[d] = NO_CARD


@njit(**JIT)
def _undo(hl, tc, k, d, tleader):
    """Give back the cards played at places ``k`` .. ``d - 1`` (a search given up)."""
    for i in range(d - 1, k - 1, -1):
        _unplay(hl, tc, i, tleader)


@njit(**JIT)
def tricks_left(hl, k, tleader):
    """Tricks still to be decided from now, the current trick included (the hand of the
    seat to play, or after a complete trick any hand plus the trick itself)."""
    if k == TRICK:
        return hand_size(hl, tleader) + 1
    return hand_size(hl, (tleader + k) & 3)


@njit(**JIT)
def position_question(hl, tc, k, tleader, trump, side, kind, need, flags, moves, mfr,
                      ttk, ttd, mv, fr, P, tk, td):
    """Yes/no: can ``side`` make sure of at least / at most (``kind``) ``need`` tricks from
    now, the current trick included? 1 / 0 / -1 (given up)."""
    if k == 0:
        return solve_question(hl, trump, tleader, side, kind, need, ttk, ttd, mv, fr, P, tk,
                              td)
    if k == TRICK:
        w = (tleader + _winner_pos(tc, trump)) & 3
        return solve_question(hl, trump, w, side, kind, need - ((side >> w) & 1), ttk, ttd,
                              mv, fr, P, tk, td)
    n = tricks_left(hl, k, tleader)
    _forget_killers(fr)
    if kind == KIND_AT_LEAST:
        if need <= 0:
            return 1
        if need > n:
            return 0
        _setup(P, ttd, trump, side, side, I0)
        return mid_reach(hl, tc, k, tleader, need, flags, moves, mfr, ttk, ttd, mv, fr, P, tk,
                         td)
    if need >= n:
        return 1
    if need < 0:
        return 0
    # at most: the others try to push the side's tricks up to need + 1
    _setup(P, ttd, trump, other_side(side), side, I0)
    r = mid_reach(hl, tc, k, tleader, need + 1, flags, moves, mfr, ttk, ttd, mv, fr, P, tk,
                  td)
    return r if r < 0 else 1 - r


@njit(**JIT)
def position_value(hl, tc, k, tleader, trump, side, mode, flags, moves, mfr, ttk, ttd,
                   mv, fr, P, tk, td):
    """Tricks of ``side`` from now, the current trick included, under best play (``mode``
    as ``solve_value``), or -1 (given up). Zero-window questions with a moving target, as
    ``solve_value``, all sharing one table."""
    if k == 0:
        return solve_value(hl, trump, tleader, side, mode, -1, ttk, ttd, mv, fr, P, tk, td)
    if k == TRICK:
        w = (tleader + _winner_pos(tc, trump)) & 3
        won = (side >> w) & 1
        if hand_size(hl, w) == 0:
            return won
        r = solve_value(hl, trump, w, side, mode, -1, ttk, ttd, mv, fr, P, tk, td)
        return r if r < 0 else r + won
    n = tricks_left(hl, k, tleader)
    maxmask = side if mode == MODE_MAX else other_side(side)
    _setup(P, ttd, trump, maxmask, side, I0)
    _forget_killers(fr)
    g = 0  # the first target: as ``solve_value``'s, from the high-card estimate
    if mode == MODE_MAX:
        g = int(high_card_estimate(hl, trump, side, n) + ESTIMATE_MARGIN)
    lo = 0
    hi = n
    while lo < hi:
        t = min(max(g, lo + 1), hi)
        r = mid_reach(hl, tc, k, tleader, t, flags, moves, mfr, ttk, ttd, mv, fr, P, tk, td)
        if r < 0:
            return -1
        if r:
            lo = t
            g = t + 1
        else:
            hi = t - 1
            g = t - 1
    return lo


@njit(**JIT)
def solve_range_positions(lanes, trick, tleaders, trump, side, op, arg, need, flags, counter,
                          out, ttk, ttd, mv, fr, P, tk, td):
    """Serial body of ``batch_positions``: takes the next unsolved position
    (``counter[0]``) until none is left; -1 for one taken once ``P[P_ABORT]`` is set."""
    hl = np.empty(16, dtype=np.int64)
    tc = np.empty(TRICK, dtype=np.int64)
    moves = np.zeros((TRICK, 3 * MOVE_SLOTS), dtype=np.int64)
    mfr = np.zeros((TRICK, F_SIZE), dtype=np.int64)
    m = lanes.shape[0]
    while True:
        i = fetch_add(counter, 0, 1)
        if i >= m:
            break
        if fetch_add(P, P_ABORT, I0) != 0:
            out[i] = -1
            continue
        for j in range(16):
            hl[j] = lanes[i, j]
        k = 0
        for j in range(TRICK):
            tc[j] = trick[i, j]
            if tc[j] >= 0:
                k += 1
        if op == OP_VALUE:
            out[i] = position_value(hl, tc, k, tleaders[i], trump, side, arg, flags, moves,
                                    mfr, ttk, ttd, mv, fr, P, tk, td)
        else:
            out[i] = position_question(hl, tc, k, tleaders[i], trump, side, arg, need[i],
                                       flags, moves, mfr, ttk, ttd, mv, fr, P, tk, td)


@njit(**JIT_PARALLEL)
def batch_positions(lanes, trick, tleaders, trump, side, op, arg, need, flags, counter, out,
                    ttk, ttd, mv, fr, P):
    """``out[i]``: the answer for position ``i`` (hands ``lanes[i]``, the current trick's
    cards ``trick[i]`` padded with -1, led by ``tleaders[i]``): with ``op == OP_VALUE`` the
    side's tricks from now (``arg`` = mode), else 1 / 0 for "``arg`` (kind) ``need[i]``
    tricks from now". One workspace per worker, the next position taken from an atomic
    counter (``counter[0]``, zero on entry), as ``batch_jobs``; answers are exact, so they
    do not depend on the number of threads."""
    m = lanes.shape[0]
    nw = P.shape[0]
    if nw > m:
        nw = m
    for w in prange(nw):
        solve_range_positions(lanes, trick, tleaders, trump, side, op, arg, need, flags,
                              counter, out, ttk[w], ttd[w], mv[w], fr[w], P[w], ttk, ttd)
