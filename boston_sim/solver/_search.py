"""The double-dummy search kernel (numba): one yes/no question per call.

Position representation (all plain ``int64``):

* ``hl[seat * 4 + suit]`` is the 16-bit lane of ``seat``'s cards in ``suit`` (bit = rank 2..15;
  rank 15 is the Russian boston card in the trump lane, so no suit is special-cased).
* ``fr[ply, F_CARD]`` is the card played at each ply, as ``suit * 16 + rank``; the current trick
  from the trick's leader.
* ``P`` holds the game's parameters: ``P[P_TRUMP]`` (0..3, 4 = NT), ``P[P_MAXMASK]`` (seats
  that maximise), ``P[P_COUNTMASK]`` (seats whose tricks are counted), ``P[P_EXACT]`` (1 when
  the maximiser wants exactly ``target`` tricks), ``P[P_GEN]`` (transposition-table generation).

The game: the maximising seats try to make the number of counted tricks reach ``target``
(``>= target``, or ``== target`` in exact mode), the other seats try to stop them.

* "max" (declaring side maximises its tricks):      maxmask = countmask = side
* "min" (misère; side minimises its own tricks):   maxmask = ~side, countmask = side
* "exactly k":                                       maxmask = countmask = side, exact = 1

``search`` answers "does the maximiser reach the target from here?"; the driver in
``_driver.py`` moves the target (MTD(f)-style) to find a value.

Transposition table: entries are made at trick boundaries only and are keyed on the relative
ranks of the remaining cards (for each suit: how many cards remain and who holds the 1st,
2nd, ... highest of them) plus the leader. Two positions with the same key have the same value,
whatever cards were played before. Each entry holds two 15-bit sets over "tricks still needed"
(known reachable / known unreachable), which serves both the monotone games (bounds) and the
exact game; plus the best lead found, stored as (suit, index from the top).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..config import JIT
from ._bits import highbit_index, lowbit_index, popcount

P_TRUMP = 0
P_MAXMASK = 1
P_COUNTMASK = 2
P_EXACT = 3
P_GEN = 4
P_TTMASK = 5
P_NODES = 6
P_SIZE = 8

NT = 4
MAX_PLY = 64  # 13 tricks x 4 cards, plus slack
MOVE_SLOTS = 16  # at most 14 cards of one lane / 13 cards in hand

# transposition-table data word layout
_WIN_SHIFT = 0  # 15 bits: tricks-needed values known reachable
_LOSE_SHIFT = 15  # 15 bits: known unreachable
_MOVE_SHIFT = 30  # 8 bits: best lead, suit*16 + index from top; 0xFF = none
_LEAD_SHIFT = 38  # 2 bits
_GEN_SHIFT = 40  # 23 bits
_ALL15 = (1 << 15) - 1
_NO_MOVE = 0xFF


@njit(**JIT)
def beats(c, b, trump):
    """Does card ``c`` beat card ``b`` (the current winner of a trick)?"""
    cs = c >> 4
    bs = b >> 4
    if cs == bs:
        return c > b
    return cs == trump


@njit(**JIT)
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


@njit(**JIT)
def quick_tricks(hl, L, trump, oppmask, r):
    """A lower bound on the tricks the team of ``L`` (on lead) can cash at once.

    ``L`` cashes its own top trumps, then in every other suit its run of top cards, cut to the
    length of any opponent that still holds trumps (it could ruff). Opponents only lose trumps
    as ``L`` cashes, so using their present holdings keeps the bound safe.
    """
    qt = 0
    if trump != NT:
        ut = hl[trump] | hl[4 + trump] | hl[8 + trump] | hl[12 + trump]
        qt = top_run(hl[L * 4 + trump], ut)
    for s in range(4):
        if s == trump:
            continue
        mine = hl[L * 4 + s]
        if mine == 0:
            continue
        u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
        k = top_run(mine, u)
        if k == 0:
            continue
        if trump != NT:
            for o in range(4):
                if (oppmask >> o) & 1 and hl[o * 4 + trump] != 0:
                    lo = popcount(hl[o * 4 + s])
                    if lo < k:
                        k = lo
        qt += k
    if qt > r:
        qt = r
    return qt


@njit(**JIT)
def position_key(hl):
    """Relative-rank key of a trick-boundary position: two int64 words (suits 0-1, 2-3).

    Per suit 32 bits: count of remaining cards (4 bits) and two 14-bit planes giving the owner
    (2 bits) of the 1st, 2nd, ... lowest remaining card.
    """
    k1 = 0
    k2 = 0
    for s in range(4):
        a1 = hl[4 + s]
        a2 = hl[8 + s]
        a3 = hl[12 + s]
        u = hl[s] | a1 | a2 | a3
        o0 = a1 | a3
        o1 = a2 | a3
        p0 = 0
        p1 = 0
        j = 0
        x = u
        while x != 0:
            b = x & -x
            x ^= b
            if o0 & b:
                p0 |= 1 << j
            if o1 & b:
                p1 |= 1 << j
            j += 1
        v = (j << 28) | (p1 << 14) | p0
        if s < 2:
            k1 |= v << (32 * s)
        else:
            k2 |= v << (32 * (s - 2))
    return k1, k2


@njit(**JIT)
def _hash(k1, k2, leader, mask):
    h = k1 * -7046029254386353131 + k2 * -4658895280553007687 + leader * 0x27D4EB2F165667C5
    h ^= h >> 29
    return h & mask


@njit(**JIT)
def tt_probe(ttk, ttd, P, k1, k2, leader):
    """Slot of the entry for this key, or -1."""
    mask = P[P_TTMASK]
    gen = P[P_GEN]
    i = _hash(k1, k2, leader, mask)
    for _ in range(4):
        d = ttd[i]
        if (d >> _GEN_SHIFT) != gen:
            return -1
        if ttk[2 * i] == k1 and ttk[2 * i + 1] == k2 and ((d >> _LEAD_SHIFT) & 3) == leader:
            return i
        i = (i + 1) & mask
    return -1


@njit(**JIT)
def tt_store(ttk, ttd, P, k1, k2, leader, win, lose, move):
    """Merge reachable / unreachable sets and the best lead into the entry for this key."""
    mask = P[P_TTMASK]
    gen = P[P_GEN]
    i = _hash(k1, k2, leader, mask)
    slot = i
    for _ in range(4):
        d = ttd[i]
        if (d >> _GEN_SHIFT) != gen:
            slot = i
            break
        if ttk[2 * i] == k1 and ttk[2 * i + 1] == k2 and ((d >> _LEAD_SHIFT) & 3) == leader:
            win |= (d >> _WIN_SHIFT) & _ALL15
            lose |= (d >> _LOSE_SHIFT) & _ALL15
            if move == _NO_MOVE:
                move = (d >> _MOVE_SHIFT) & 0xFF
            slot = i
            break
        i = (i + 1) & mask
    ttk[2 * slot] = k1
    ttk[2 * slot + 1] = k2
    ttd[slot] = (
        (win << _WIN_SHIFT)
        | (lose << _LOSE_SHIFT)
        | (move << _MOVE_SHIFT)
        | (leader << _LEAD_SHIFT)
        | (gen << _GEN_SHIFT)
    )


@njit(**JIT)
def _gen_moves(hl, fr, P, seat, pos, leader, mv, ply, ttmove):
    """Fill ``mv[ply]`` with the legal moves of ``seat`` (one card per group of equivalent
    cards), ordered best-first; return their number."""
    trump = P[P_TRUMP]
    maxmask = P[P_MAXMASK]
    countmask = P[P_COUNTMASK]
    in_count = (countmask >> seat) & 1
    is_max = (maxmask >> seat) & 1
    # in the max game everyone wants his own team to win the trick; in the misère game the
    # other team (a heuristic only: it orders moves, it never prunes)
    want_own = 1 if is_max == in_count else 0
    n = 0
    s_lo = 0
    s_hi = 4
    best = 0
    good_now = 0
    base = ply - pos
    if pos > 0:
        led = fr[base, F_CARD] >> 4
        if hl[seat * 4 + led] != 0:
            s_lo = led
            s_hi = led + 1
        bp = 0
        for i in range(1, pos):
            if beats(fr[base + i, F_CARD], fr[base + bp, F_CARD], trump):
                bp = i
        best = fr[base + bp, F_CARD]
        wseat = (leader + bp) & 3
        same = 1 if ((countmask >> wseat) & 1) == in_count else 0
        good_now = 1 if same == want_own else 0
    for s in range(s_lo, s_hi):
        mine = hl[seat * 4 + s]
        if mine == 0:
            continue
        others = 0
        for o in range(4):
            if o != seat:
                others |= hl[o * 4 + s]
        for i in range(base, ply):
            if (fr[i, F_CARD] >> 4) == s:
                others |= 1 << (fr[i, F_CARD] & 15)
        allc = mine | others
        top = highbit_index(allc)
        x = mine
        while x != 0:
            b = x & -x
            x ^= b
            above = allc & ~((b << 1) - 1)
            if above != 0 and (above & -above) & mine:
                continue  # the next card up is also mine: equivalent, skip
            rank = lowbit_index(b)
            card = s * 16 + rank
            # --- ordering score (higher first)
            if pos == 0:
                if card == ttmove:
                    sc = 1000
                elif want_own:
                    if rank == top:
                        sc = 200 + (40 if s == trump else 0) + rank
                    else:
                        sc = 100 - rank + popcount(mine)
                else:
                    sc = 100 - rank
            else:
                bt = beats(card, best, trump)
                if bt:
                    good = want_own
                else:
                    good = good_now
                sc = 0
                if good:
                    sc = 500
                if bt:
                    if good:
                        sc += 64 - rank  # cheapest winner
                    else:
                        sc += 32 - rank
                else:
                    if good and not want_own:
                        sc += rank  # duck with the highest card that ducks
                    else:
                        sc += 32 - rank - (16 if s == trump else 0)
            # insertion sort, descending
            j = n
            while j > 0 and mv[ply, MOVE_SLOTS + j - 1] < sc:
                mv[ply, j] = mv[ply, j - 1]
                mv[ply, MOVE_SLOTS + j] = mv[ply, MOVE_SLOTS + j - 1]
                j -= 1
            mv[ply, j] = card
            mv[ply, MOVE_SLOTS + j] = sc
            n += 1
    return n


# per-ply frame fields of the explicit search stack
F_LEADER = 0
F_POS = 1
F_WON = 2
F_ISMAX = 3
F_NM = 4
F_IDX = 5
F_NEED = 6
F_K1 = 7
F_K2 = 8
F_CARD = 9  # the card played at this ply (the trick's cards are plies ply-pos .. ply)
F_SIZE = 10


@njit(**JIT)
def _enter(hl, ttk, ttd, mv, P, fr, ply, target):
    """Open the node at ``ply`` (its frame holds leader, pos, won): 1 / 0 if its answer is
    known at once (terminal, bounds, table), else -1 after generating its moves."""
    trump = P[P_TRUMP]
    countmask = P[P_COUNTMASK]
    exact = P[P_EXACT]
    leader = fr[ply, F_LEADER]
    pos = fr[ply, F_POS]
    won = fr[ply, F_WON]
    seat = (leader + pos) & 3
    fr[ply, F_ISMAX] = (P[P_MAXMASK] >> seat) & 1
    ttmove = -1
    if pos == 0:
        r = popcount(hl[seat * 4] | (hl[seat * 4 + 1] << 16) | (hl[seat * 4 + 2] << 32) | (hl[seat * 4 + 3] << 48))
        need = target - won
        fr[ply, F_NEED] = need
        if exact:
            if need < 0 or need > r:
                return 0
            if r == 0:
                return 1
        else:
            if need <= 0:
                return 1
            if need > r:
                return 0
        if r == 1:
            # last trick: no choices left
            b = -1
            bs = leader
            for i in range(4):
                st = (leader + i) & 3
                c = -1
                for s in range(4):
                    if hl[st * 4 + s] != 0:
                        c = s * 16 + lowbit_index(hl[st * 4 + s])
                if b < 0 or beats(c, b, trump):
                    b = c
                    bs = st
            add = (countmask >> bs) & 1
            if exact:
                return 1 if add == need else 0
            return 1 if add >= need else 0
        # the top trumps of one hand win tricks whatever anyone does
        if trump != NT:
            ut = hl[trump] | hl[4 + trump] | hl[8 + trump] | hl[12 + trump]
            if ut != 0:
                hb = 1 << highbit_index(ut)
                for st in range(4):
                    if hl[st * 4 + trump] & hb:
                        k = top_run(hl[st * 4 + trump], ut)
                        if (countmask >> st) & 1:
                            if exact:
                                if k > need:
                                    return 0
                            elif k >= need:
                                return 1
                        elif r - k < need:
                            return 0
                        break
        # quick tricks of the side on lead (only meaningful in the plain max game)
        if not exact and P[P_MAXMASK] == countmask:
            if (countmask >> seat) & 1:
                qt = quick_tricks(hl, seat, trump, 15 ^ countmask, r)
                if qt >= need:
                    return 1
            else:
                qt = quick_tricks(hl, seat, trump, countmask, r)
                if r - qt < need:
                    return 0
        k1, k2 = position_key(hl)
        fr[ply, F_K1] = k1
        fr[ply, F_K2] = k2
        slot = tt_probe(ttk, ttd, P, k1, k2, seat)
        if slot >= 0:
            d = ttd[slot]
            if (d >> (_WIN_SHIFT + need)) & 1:
                return 1
            if (d >> (_LOSE_SHIFT + need)) & 1:
                return 0
            m = (d >> _MOVE_SHIFT) & 0xFF
            if m != _NO_MOVE:
                s = m >> 4
                idx = m & 15
                u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
                for _ in range(idx):
                    if u != 0:
                        u ^= 1 << highbit_index(u)
                if u != 0:
                    ttmove = s * 16 + highbit_index(u)
    P[P_NODES] += 1
    fr[ply, F_NM] = _gen_moves(hl, fr, P, seat, pos, leader, mv, ply, ttmove)
    fr[ply, F_IDX] = 0
    return -1


@njit(**JIT)
def _close(hl, ttk, ttd, P, fr, ply, result, best):
    """Record the answer of a trick-boundary node (and its best lead) in the table."""
    if fr[ply, F_POS] != 0:
        return
    leader = fr[ply, F_LEADER]
    need = fr[ply, F_NEED]
    move = _NO_MOVE
    if best >= 0:
        s = best >> 4
        u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
        move = s * 16 + popcount(u >> ((best & 15) + 1))
    if P[P_EXACT]:
        win = (1 << need) if result else 0
        lose = 0 if result else (1 << need)
    elif result:
        win = (1 << (need + 1)) - 1
        lose = 0
    else:
        win = 0
        lose = _ALL15 & ~((1 << need) - 1)
    tt_store(ttk, ttd, P, fr[ply, F_K1], fr[ply, F_K2], leader, win, lose, move)


@njit(**JIT)
def search(hl, ttk, ttd, mv, fr, P, leader, target):
    """Can the maximising seats make the counted tricks reach ``target``? (``leader`` on lead
    at a trick boundary; ``hl`` is restored on return.) The body of every solver entry point.

    Depth-first AND/OR search with an explicit stack (``fr``, one frame per card played):
    numba caches non-recursive code reliably, and there is no call overhead per node.
    """
    trump = P[P_TRUMP]
    countmask = P[P_COUNTMASK]
    ply = 0
    fr[0, F_LEADER] = leader
    fr[0, F_POS] = 0
    fr[0, F_WON] = 0
    val = _enter(hl, ttk, ttd, mv, P, fr, 0, target)
    while True:
        if val < 0:
            # expand: play the next move of the node at ply
            i = fr[ply, F_IDX]
            if i >= fr[ply, F_NM]:
                # every move tried without a cut-off
                val = 1 - fr[ply, F_ISMAX]
                _close(hl, ttk, ttd, P, fr, ply, val, -1)
            else:
                card = mv[ply, i]
                ld = fr[ply, F_LEADER]
                pos = fr[ply, F_POS]
                seat = (ld + pos) & 3
                hl[seat * 4 + (card >> 4)] ^= 1 << (card & 15)
                fr[ply, F_CARD] = card
                if pos == 3:
                    base = ply - 3
                    bp = 0
                    for j in range(1, 4):
                        if beats(fr[base + j, F_CARD], fr[base + bp, F_CARD], trump):
                            bp = j
                    w = (ld + bp) & 3
                    fr[ply + 1, F_LEADER] = w
                    fr[ply + 1, F_POS] = 0
                    fr[ply + 1, F_WON] = fr[ply, F_WON] + ((countmask >> w) & 1)
                else:
                    fr[ply + 1, F_LEADER] = ld
                    fr[ply + 1, F_POS] = pos + 1
                    fr[ply + 1, F_WON] = fr[ply, F_WON]
                ply += 1
                val = _enter(hl, ttk, ttd, mv, P, fr, ply, target)
                continue
        # val is the answer of the node at ply: hand it to the parent
        if ply == 0:
            return val == 1
        ply -= 1
        i = fr[ply, F_IDX]
        card = mv[ply, i]
        seat = (fr[ply, F_LEADER] + fr[ply, F_POS]) & 3
        hl[seat * 4 + (card >> 4)] ^= 1 << (card & 15)
        if val == fr[ply, F_ISMAX]:
            _close(hl, ttk, ttd, P, fr, ply, val, card)
            # cut-off: the answer of this node is val; keep returning
        else:
            fr[ply, F_IDX] = i + 1
            val = -1
