"""Quick tricks: a lower bound on the tricks the side on lead cashes at once (DDS's
``QuickTricks``), with the ranks each bound relies on, for partition search.
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import highbit_index, lowbit_index, popcount
from ._jit import njit
from ._layout import ALL_TRICKS, F_Q, F_Q2, F_T, I0, NT, other_side


@njit(**JIT_NONRT)
def cash_rounds(hl, L, s, oppmask, ruffers, limit):
    """Rounds of suit ``s`` that ``L`` can lead from the top and win for his team, whatever
    the others do. Returns ``(k, rank, handover)``: ``k`` rounds, ``rank`` the lowest card of
    ``L`` they use (16 if none), ``handover`` when a teammate may be forced to win round ``k``
    instead (the trick is still the team's, but the lead passes).

    In round ``j`` ``L`` leads his ``j``-th highest card (once nobody else holds the suit, its
    rank no longer matters). An opponent who still holds the suit can keep his highest card
    for it, so the round is lost if any opponent with at least ``j`` cards holds a higher one,
    or if an opponent of ``ruffers`` (still holding trumps) is void by then. A teammate plays
    his lowest card each round (void: he discards his highest card of some suit, which never
    changes these tests); if that card is higher, he wins the round.
    Every test compares cards at or above ``rank`` and the suit lengths, so the answer holds
    for any position with the same lengths and the same owners of those cards. At most
    ``limit`` rounds are counted (the rest, not needed, would only add to what it relies on).
    """
    mine = hl[L * 4 + s]
    tm = 0  # teammates' remaining cards of the suit, 16 bits per seat
    for o in range(4):
        if o != L and ((oppmask >> o) & 1) == 0:
            tm |= hl[o * 4 + s] << (16 * o)
    k = 0
    rank = 16
    x = mine
    while x != 0 and k < limit:
        c = highbit_index(x)
        x ^= 1 << c
        j = k + 1
        met = False  # did the round compare this card with anyone's?
        for o in range(4):
            if (oppmask >> o) & 1:
                lane = hl[o * 4 + s]
                if popcount(lane) >= j:
                    met = True
                    if highbit_index(lane) > c:
                        return k, rank, False
                elif (ruffers >> o) & 1:
                    return k, rank, False
        k = j
        for o in range(4):
            t = (tm >> (16 * o)) & 0xFFFF
            if t != 0:
                met = True
                lo = lowbit_index(t)
                tm ^= 1 << (16 * o + lo)
                if lo > c:
                    return k, c, True
        if met:
            rank = c
    return k, rank, False


@njit(**JIT_NONRT)
def _cash_side_suits(hl, L, trump, oppmask, ruffers, base, goal, tb, row, col, skip):
    """Tricks from the suits other than trumps (and those in mask ``skip``), cashed one after
    the other (a suit whose lead may pass to a teammate last; only the best such suit
    counts), until ``base`` plus them reach ``goal``."""
    qt = 0
    hand_k = 0
    hand_s = -1
    hand_rank = 16
    for s in range(4):
        if base + qt >= goal:
            return qt
        if s == trump or hl[L * 4 + s] == 0 or (skip >> s) & 1:
            continue
        k, rank, handover = cash_rounds(hl, L, s, oppmask, ruffers, goal - base - qt)
        if k == 0:
            continue
        if handover:
            if k > hand_k:
                hand_k = k
                hand_s = s
                hand_rank = rank
        else:
            qt += k
            tb[row, col + s] = rank
    if hand_s >= 0 and base + qt < goal:
        qt += hand_k
        tb[row, col + hand_s] = hand_rank
    return qt


@njit(**JIT_NONRT)
def quick_tricks(hl, L, trump, oppmask, r, goal, tb, row, col):
    """A lower bound on the tricks the team of ``L`` (on lead) can cash at once.

    ``L`` first draws trumps from the top (``cash_rounds``): an opponent with no more trumps
    than the rounds won can no longer ruff. Then the other suits, each from the top, cut
    where an opponent with trumps left could ruff. If a teammate may be forced to win a trump
    round, only the trump rounds count (or the other suits without drawing trumps, if more).
    Suits stop being counted once ``goal`` tricks are reached (what the caller needs), so the
    answer relies on as few cards as possible: ``tb[row, col + s]`` receives the lowest rank
    it relies on in each suit (16: none), for partition search.
    """
    for s in range(4):
        tb[row, col + s] = 16
    if trump == NT:
        qt = _cash_side_suits(hl, L, trump, oppmask, I0, I0, goal, tb, row, col, I0)
        return qt if qt < r else r
    ruffers = I0
    for o in range(4):
        if (oppmask >> o) & 1 and hl[o * 4 + trump] != 0:
            ruffers |= 1 << o
    m = 0
    trank = 16
    handover = False
    if hl[L * 4 + trump] != 0:
        # (once the trump rounds alone reach the goal, the side suits are not counted)
        m, trank, handover = cash_rounds(hl, L, trump, oppmask, I0, goal)
    if handover:
        # the lead may pass during the trump rounds: those, or the other suits without
        # drawing trumps first, whichever is more
        qt = _cash_side_suits(hl, L, trump, oppmask, ruffers, I0, goal, tb, row, col, I0)
        if m >= qt:
            for s in range(4):
                tb[row, col + s] = 16
            qt = m
            tb[row, col + trump] = trank
        return qt if qt < r else r
    left = I0
    for o in range(4):
        if (ruffers >> o) & 1 and popcount(hl[o * 4 + trump]) > m:
            left |= 1 << o
    qt = m + _cash_side_suits(hl, L, trump, oppmask, left, m, goal, tb, row, col, I0)
    if m > 0:
        tb[row, col + trump] = trank
    return qt if qt < r else r


@njit(**JIT_NONRT)
def cross_quick_tricks(hl, L, trump, team, tb, row, col):
    """Two against two: tricks ``L`` cashes in his own side suits, then the partner's, reached
    by a suit in which the partner holds the top card (DDS sums both hands' winners this way).

    ``L`` counts only side suits (no trump rounds) that he cashes from the top without the
    lead passing and in which the partner follows every round, so the partner keeps all his
    other cards. The opponents who hold trumps follow every counted round (``cash_rounds``),
    so none of them becomes void; the others can only discard, which never spoils a later
    count. ``L`` then leads his lowest card of the entry suit (not one he cashed, and none of
    the opponents void in it can ruff), and the partner cashes his side suits other than
    ``L``'s, the entry suit first round included. ``tb[row, col + s]``: the ranks relied
    on (16: none)."""
    for s in range(4):
        tb[row, col + s] = 16
    if popcount(team) != 2:
        return 0
    p = np.int64(-1)
    for st in range(4):
        if st != L and (team >> st) & 1:
            p = st
    opp = other_side(team)
    ruffers = I0
    if trump != NT:
        for o in range(4):
            if (opp >> o) & 1 and hl[o * 4 + trump] != 0:
                ruffers |= 1 << o
    # the entry: a suit L holds and the partner tops, safe from ruffs
    entry = -1
    for s in range(4):
        if s == trump or hl[L * 4 + s] == 0 or hl[p * 4 + s] == 0:
            continue
        u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
        if (hl[p * 4 + s] >> highbit_index(u)) & 1 == 0:
            continue
        ok = True
        for o in range(4):
            if (ruffers >> o) & 1 and hl[o * 4 + s] == 0:
                ok = False
        if ok:
            entry = s
            break
    if entry < 0:
        return 0
    ql = 0
    used = 1 << entry
    for s in range(4):
        if s == trump or s == entry or hl[L * 4 + s] == 0:
            continue
        k, rank, handover = cash_rounds(hl, L, s, opp, ruffers, ALL_TRICKS)
        if k == 0 or handover or popcount(hl[p * 4 + s]) < k:
            continue
        ql += k
        used |= 1 << s
        tb[row, col + s] = rank
    if ql == 0:
        return 0
    qp = _cash_side_suits(hl, p, trump, opp, ruffers, I0, ALL_TRICKS, tb, row, col,
                          used ^ (1 << entry))
    if qp == 0:
        return 0
    top = highbit_index(hl[entry] | hl[4 + entry] | hl[8 + entry] | hl[12 + entry])
    if top < tb[row, col + entry]:
        tb[row, col + entry] = top
    return ql + qp


@njit(**JIT_NONRT)
def ruff_trick(hl, L, trump, team, tb, row, col):
    """1 if ``L``'s team surely wins the trick ``L`` leads now: ``L`` leads a side suit in which
    a teammate is void and ruffs with his top trump, which no opponent void in the suit can
    beat (DDS's "lowest" quick trick); else 0. ``tb[row, col + s]``: the ranks relied on."""
    for s in range(4):
        tb[row, col + s] = 16
    if trump == NT:
        return 0
    opp = other_side(team)
    for s in range(4):
        if s == trump or hl[L * 4 + s] == 0:
            continue
        for m in range(4):
            if m == L or ((team >> m) & 1) == 0 or hl[m * 4 + s] != 0 or hl[m * 4 + trump] == 0:
                continue
            top = highbit_index(hl[m * 4 + trump])
            ok = True
            ranked = False
            for o in range(4):
                if (opp >> o) & 1 and hl[o * 4 + s] == 0 and hl[o * 4 + trump] != 0:
                    if highbit_index(hl[o * 4 + trump]) > top:
                        ok = False
                    ranked = True
            if ok:
                if ranked:
                    tb[row, col + trump] = top
                return 1
    return 0


@njit(**JIT_NONRT)
def team_quick_tricks(hl, L, trump, team, r, goal, tb, row, col, col2):
    """Quick tricks of ``L``'s team with ``L`` on lead: ``L``'s own (``quick_tricks``), or a
    teammate's, reached by leading a suit in which the teammate holds the top card and no
    opponent can ruff (that first trick is one of the teammate's own top cards).
    Counting stops at ``goal``. ``tb[row, col + s]`` receives the ranks the better bound
    relies on (``col2``: scratch)."""
    opp = other_side(team)
    q = quick_tricks(hl, L, trump, opp, r, goal, tb, row, col)
    if q >= goal:
        return q
    for m in range(4):
        if m == L or ((team >> m) & 1) == 0:
            continue
        entry = -1
        for s in range(4):
            if hl[L * 4 + s] == 0 or hl[m * 4 + s] == 0:
                continue
            u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
            if (hl[m * 4 + s] >> highbit_index(u)) & 1 == 0:
                continue
            ok = True
            if trump != NT and s != trump:
                for o in range(4):
                    if (opp >> o) & 1 and hl[o * 4 + s] == 0 and hl[o * 4 + trump] != 0:
                        ok = False
            if ok:
                entry = s
                break
        if entry < 0:
            continue
        qm = quick_tricks(hl, m, trump, opp, r, goal, tb, row, col2)
        # the entry relies on the teammate's top card of its suit (its count may have stopped
        # short of that suit)
        u = hl[entry] | hl[4 + entry] | hl[8 + entry] | hl[12 + entry]
        if highbit_index(u) < tb[row, col2 + entry]:
            tb[row, col2 + entry] = highbit_index(u)
        if qm > q:
            q = qm
            for s in range(4):
                tb[row, col + s] = tb[row, col2 + s]
    if q < goal:
        qc = cross_quick_tricks(hl, L, trump, team, tb, row, col2)
        if qc > q:
            q = qc if qc < r else r
            for s in range(4):
                tb[row, col + s] = tb[row, col2 + s]
    if q == 0 and goal == 1 and ruff_trick(hl, L, trump, team, tb, row, col2):
        q = 1
        for s in range(4):
            tb[row, col + s] = tb[row, col2 + s]
    return q


@njit(**JIT_NONRT, inline="always")
def quick_tricks_cut(hl, fr, ply, seat, trump, countmask, need, r):
    """Plain max game at a trick boundary: 1 / 0 if the quick tricks of the side on lead
    settle the question, else -1. Sets the ranks the answer relies on (``fr[ply, F_T..]``)."""
    cut = -1
    if (countmask >> seat) & 1:
        if team_quick_tricks(hl, seat, trump, countmask, r, need, fr, ply, F_Q, F_Q2) >= need:
            cut = 1
    elif r - team_quick_tricks(hl, seat, trump, other_side(countmask), r, r - need + 1, fr, ply,
                               F_Q, F_Q2) < need:
        cut = 0
    if cut >= 0:
        for s in range(4):
            fr[ply, F_T + s] = fr[ply, F_Q + s]
    return cut
