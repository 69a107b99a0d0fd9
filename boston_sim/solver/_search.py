"""The double-dummy search (numba): one yes/no question per call, DDS's ``ABsearch``.

``search`` answers "do the maximising seats make the counted tricks reach the target from
here?" (the game: ``_layout``); the driver in ``_driver.py`` moves the target (MTD(f)-style)
to find a value. Each node opens with a chain of cheap settlements (the count of tricks, the
last trick, trumps, later tricks, the table, quick tricks), then generates its moves.
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import lowbit_index, popcount
from ._escape import escapes_in_trick
from ._jit import njit
from ._later_tricks import later_tricks_cut, trump_cut
from ._layout import (
    F_BP,
    F_CARD,
    F_IDX,
    F_ISMAX,
    F_KILL,
    F_LEADER,
    F_LENS,
    F_LIM,
    F_LW,
    F_MINLIM,
    F_NEED,
    F_NM,
    F_OUTER,
    F_PASS,
    F_POS,
    F_R,
    F_T,
    F_TM,
    F_UNK,
    F_W1,
    F_W2,
    F_WIN,
    F_WON,
    I0,
    MAX_PLY,
    MOVE_SLOTS,
    NT,
    P_BUDGET,
    P_COUNTMASK,
    P_EXACT,
    P_FGEN,
    P_FROW,
    P_LIMIT,
    P_MAXMASK,
    P_NODES,
    P_PROBE,
    P_PROBE_NODES,
    P_ROLE,
    P_TRICKS,
    P_TRUMP,
    is_lone_misere,
    is_max_game,
)
from ._moves import gen_moves
from ._quick_tricks import quick_tricks_cut
from ._share import HELPER, TURN_PLIES, stop_asked
from ._trick import (
    COUNTED_SIDE,
    beats,
    hand_size,
    kth_rank,
    sure_trick,
    trick_relevance,
    winning_pos,
    won_on_rank,
)
from ._ttable import (
    ALL15,
    key_after_trick,
    position_key,
    tt_depth,
    tt_lookup,
    tt_lookup_other,
    tt_store,
)

ABORT_EVERY = 4095  # stop_asked(P) is read when the expanded-node count is a multiple of 4096
PROBE_PLIES = 12  # misère defenders' nodes above this ply try their moves with node budgets
PROBE_NODES = 1024  # the first pass's budget per move
PROBE_PASSES = 5  # budgeted passes, each 4x the last; then the rest without a budget


@njit(**JIT_NONRT, inline="always")
def _count_settles(exact, need, r):
    """1 / 0 if the tricks still needed settle the question with ``r`` tricks left, else -1."""
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
    return -1


@njit(**JIT_NONRT, inline="always")
def _last_trick(hl, fr, ply, leader, trump, countmask, exact, need):
    """The last trick: no choices left; play it into the frames to find the winner."""
    for i in range(4):
        st = (leader + i) & 3
        for s in range(4):
            if hl[st * 4 + s] != 0:
                fr[ply + i, F_CARD] = s * 16 + lowbit_index(hl[st * 4 + s])
    bp = winning_pos(fr, ply, np.int64(4), trump)
    trick_relevance(fr, ply + 3, trump, ply)
    add = (countmask >> ((leader + bp) & 3)) & 1
    if exact:
        return 1 if add == need else 0
    return 1 if add >= need else 0


@njit(**JIT_NONRT, inline="always")
def _table_cut(hl, ttk, ttd, P, tk, td, fr, ply, seat, need):
    """Key the trick-boundary position (kept in its frame for the store) and look it up, in
    its own table, then in that of the worker sharing its search if any: 1 / 0 if an entry
    settles it (with the ranks the entry relies on), else -1."""
    if ply >= 4:
        lens, w1, w2 = key_after_trick(hl, fr, ply - 4)
    else:
        lens, w1, w2 = position_key(hl)
    fr[ply, F_LENS] = lens
    fr[ply, F_W1] = w1
    fr[ply, F_W2] = w2
    ans, m1, m2 = tt_lookup(ttk, ttd, P, lens, w1, w2, seat, need)
    if ans < 0 and P[P_FROW] != 0:
        ans, m1, m2 = tt_lookup_other(tk, td, P[P_FROW] - 1, P[P_FGEN], P, lens, w1, w2, seat,
                                      need)
    if ans >= 0:
        for s in range(4):
            u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
            fr[ply, F_T + s] = kth_rank(u, tt_depth(m1, m2, s))
    return ans


@njit(**JIT_NONRT, inline="always")
def _sure_trick_cut(hl, fr, ply, leader, pos, trump, countmask, max_game, need):
    """Inside a trick: 1 / 0 when the trick's winner is known and this trick settles the
    question (the counted side needs just one more, or can lose none), else -1."""
    r = fr[ply - pos, F_R]  # (this hand has not played to the trick yet)
    if need == 1 or need == r:
        c = sure_trick(hl, fr, ply, leader, pos, trump, countmask, max_game, fr[ply - 1, F_BP])
        if c >= 0 and (need == 1 if c >= COUNTED_SIDE else need == r):
            fr[ply, F_T + ((c >> 4) & 3)] = c & 15
            return 1 if c >= COUNTED_SIDE else 0
    return -1


@njit(**JIT_NONRT, inline="always")
def _boundary_cut(hl, ttk, ttd, P, tk, td, fr, ply, seat, leader, target):
    """A trick boundary: 1 / 0 if settled at once, else -1."""
    trump = P[P_TRUMP]
    countmask = P[P_COUNTMASK]
    maxmask = P[P_MAXMASK]
    exact = P[P_EXACT]
    P[P_TRICKS] += 1
    r = hand_size(hl, seat)
    fr[ply, F_R] = r
    need = target - fr[ply, F_WON]
    fr[ply, F_NEED] = need
    c = _count_settles(exact, need, r)
    if c >= 0:
        return c
    if r == 1:
        return _last_trick(hl, fr, ply, leader, trump, countmask, exact, need)
    if trump != NT:
        c = trump_cut(hl, fr, ply, seat, trump, countmask, is_max_game(maxmask, countmask),
                      exact, need, r)
        if c >= 0:
            return c
    c = later_tricks_cut(hl, fr, ply, seat, trump, countmask, maxmask, exact, need, r, ttd)
    if c >= 0:
        return c
    c = _table_cut(hl, ttk, ttd, P, tk, td, fr, ply, seat, need)
    if c >= 0:
        return c
    if not exact and is_max_game(maxmask, countmask):
        return quick_tricks_cut(hl, fr, ply, seat, trump, countmask, need, r)
    return -1


@njit(**JIT_NONRT)
def _turn(mv, ply, nm):
    """A helper's order at the first trick: the first move last (``_share.TURN_PLIES``)."""
    if nm > 1:
        for part in range(3):
            b = part * MOVE_SLOTS
            first = mv[ply, b]
            for k in range(nm - 1):
                mv[ply, b + k] = mv[ply, b + k + 1]
            mv[ply, b + nm - 1] = first


@njit(**JIT_NONRT, inline="always")  # (its only caller is search: one copy)
def _enter(hl, ttk, ttd, mv, P, tk, td, fr, ply, target):
    """Open the node at ``ply`` (its frame holds leader, pos, won): 1 / 0 if its answer is
    known at once (terminal, bounds, table), else -1 after generating its moves. Sets the
    node's relevant ranks ``fr[ply, F_T..]`` for answers known at once."""
    leader = fr[ply, F_LEADER]
    pos = fr[ply, F_POS]
    seat = (leader + pos) & 3
    fr[ply, F_ISMAX] = (P[P_MAXMASK] >> seat) & 1
    # fr[ply, F_T + s]: the node's relevant ranks (indexed directly: no array views here,
    # a view costs a reference count per node)
    for s in range(4):
        fr[ply, F_T + s] = 16
    if pos == 0:
        c = _boundary_cut(hl, ttk, ttd, P, tk, td, fr, ply, seat, leader, target)
        if c >= 0:
            return c
    elif not P[P_EXACT]:
        countmask = P[P_COUNTMASK]
        c = _sure_trick_cut(hl, fr, ply, leader, pos, P[P_TRUMP], countmask,
                            is_max_game(P[P_MAXMASK], countmask), target - fr[ply, F_WON])
        if c >= 0:
            return c
        if is_lone_misere(P[P_MAXMASK], countmask) and escapes_in_trick(
                hl, fr, ply, leader, pos, P[P_TRUMP], lowbit_index(countmask), ttd):
            return 0  # the misère declarer is beaten in this trick and loses every other
    P[P_NODES] += 1
    fr[ply, F_NM] = gen_moves(hl, fr, P, seat, pos, leader, mv, ply)
    if ply < TURN_PLIES and P[P_ROLE] == HELPER:
        _turn(mv, ply, fr[ply, F_NM])
    fr[ply, F_IDX] = 0
    for s in range(4):
        fr[ply, F_LW + s] = 0
    return -1


@njit(**JIT_NONRT)
def _close(hl, ttk, ttd, P, fr, ply, result):
    """Record the answer of a trick-boundary node in the table, generalised to every position
    with the same lengths and the same owners of the cards that mattered (partition search).
    (Only called for trick boundaries.)"""
    leader = fr[ply, F_LEADER]
    need = fr[ply, F_NEED]
    if P[P_EXACT]:
        win = (1 << need) if result else 0
        lose = 0 if result else (1 << need)
    elif result:
        win = (1 << (need + 1)) - 1
        lose = 0
    else:
        win = 0
        lose = ALL15 & ~((1 << need) - 1)
    m1 = I0
    m2 = I0
    for s in range(4):
        th = fr[ply, F_T + s]
        d = 0
        if th < 16:
            u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
            d = popcount(u >> th)
        mm = (1 << (2 * d)) - 1
        if s < 2:
            m1 |= mm << (32 * s)
        else:
            m2 |= mm << (32 * (s - 2))
    tt_store(ttk, ttd, P, fr[ply, F_LENS], fr[ply, F_W1], fr[ply, F_W2], m1, m2, leader, win, lose)


@njit(**JIT_NONRT)
def _probe_setup(P, fr, ply, countmask):
    """Make the node just expanded at ``ply`` a probing node if it is a misère defender's
    (the lone declarer's opponents maximise his tricks) near the root with a choice: its moves
    are first tried with small node budgets, so that a move that forces a trick cheaply is
    found before an earlier one whose failure costs millions of nodes; the moves whose probes
    ran out are tried again with 4x the budget, then without. Probes nest (``F_OUTER`` chains
    a running probe to the one above it). Answers never depend on it (a probe that runs out
    is undone and its move tried again later; what it stored in the table is proven)."""
    fr[ply, F_PASS] = 0
    fr[ply, F_UNK] = 0
    if (ply < PROBE_PLIES and fr[ply, F_ISMAX] == 1 and fr[ply, F_NM] > 1
            and P[P_EXACT] == 0 and is_lone_misere(P[P_MAXMASK], countmask)):
        fr[ply, F_PASS] = 1


@njit(**JIT_NONRT)
def _end_probe(P, fr, ply):
    """The probe of the node at ``ply`` (the innermost running) is over: the one above it, if
    any, is the innermost again."""
    P[P_PROBE] = fr[ply, F_OUTER]
    if P[P_PROBE] > 0:
        P[P_LIMIT] = fr[P[P_PROBE] - 1, F_MINLIM]


@njit(**JIT_NONRT)
def _take_back(hl, fr, ply, stop):
    """Return to the hands the cards played at plies ``ply - 1`` down to ``stop`` (a probe
    or a whole search given up)."""
    for q in range(ply - 1, stop - 1, -1):
        c = fr[q, F_CARD]
        st = (fr[q, F_LEADER] + fr[q, F_POS]) & 3
        hl[st * 4 + (c >> 4)] ^= 1 << (c & 15)


@njit(**JIT_NONRT, inline="always")
def _probe_ran_out(hl, fr, ply, P):
    """A probe ran out of budget: undo the cards of the outermost such probe, note its move
    as unknown, go on with its node's next move. Returns that node's ply."""
    pp = -1
    q = P[P_PROBE] - 1
    while q >= 0:
        if P[P_NODES] > fr[q, F_LIM]:
            pp = q
        q = fr[q, F_OUTER] - 1
    _take_back(hl, fr, ply, pp)
    fr[pp, F_UNK] |= 1 << fr[pp, F_IDX]
    fr[pp, F_IDX] += 1
    _end_probe(P, fr, pp)
    return pp


@njit(**JIT_NONRT, inline="always")
def _next_move(fr, mv, ply):
    """The index of the next move to play at ``ply`` (the number of moves: none left),
    passing over small cards of a suit whose first small card was tried in vain (see
    ``_child_answered``); a probing node's later passes take only the moves whose probes ran
    out."""
    i = fr[ply, F_IDX]
    nm = fr[ply, F_NM]
    while True:
        while i < nm:
            c = mv[ply, i]
            if (c & 15) < fr[ply, F_LW + (c >> 4)]:
                fr[ply, F_UNK] &= ~(1 << i)  # not worth trying at all
            elif fr[ply, F_PASS] <= 1 or ((fr[ply, F_UNK] >> i) & 1) == 1:
                break
            i += 1
        if i < nm or fr[ply, F_UNK] == 0:
            break
        # the next pass, over the moves whose probes ran out, with 4x the budget
        fr[ply, F_PASS] += 1
        i = 0
    fr[ply, F_UNK] &= ~(1 << i)  # set again if its probe runs out
    fr[ply, F_IDX] = i
    return i


@njit(**JIT_NONRT, inline="always")
def _keep_group_ranks(fr, mv, ply):
    """Every move tried without a cut-off: keep the ranks of any group of equivalent cards
    straddling what matters (only its top card was tried)."""
    for k in range(fr[ply, F_NM]):
        c = mv[ply, k]
        s = c >> 4
        lo = mv[ply, 2 * MOVE_SLOTS + k]
        th = fr[ply, F_T + s]
        if (c & 15) >= th > lo:
            fr[ply, F_T + s] = lo


@njit(**JIT_NONRT, inline="always")
def _play(hl, fr, P, mv, ply, i, trump, countmask):
    """Play move ``i`` of the node at ``ply`` and set up the child's frame (leader, position
    in the trick, tricks won); start a probe if the node probes."""
    card = mv[ply, i]
    ld = fr[ply, F_LEADER]
    pos = fr[ply, F_POS]
    seat = (ld + pos) & 3
    hl[seat * 4 + (card >> 4)] ^= 1 << (card & 15)
    fr[ply, F_CARD] = card
    # the trick's winning card so far
    bp = I0
    if pos > 0:
        bp = fr[ply - 1, F_BP]
        if beats(card, fr[ply - pos + bp, F_CARD], trump):
            bp = pos
    fr[ply, F_BP] = bp
    fr[ply, F_TM] = (fr[ply - 1, F_TM] if pos > 0 else 0) | (1 << card)
    if pos == 3:
        base = ply - 3
        w = (ld + bp) & 3
        fr[ply, F_WIN] = won_on_rank(fr[base + bp, F_CARD], fr[ply, F_TM])
        fr[ply + 1, F_LEADER] = w
        fr[ply + 1, F_POS] = 0
        fr[ply + 1, F_WON] = fr[ply, F_WON] + ((countmask >> w) & 1)
    else:
        fr[ply + 1, F_LEADER] = ld
        fr[ply + 1, F_POS] = pos + 1
        fr[ply + 1, F_WON] = fr[ply, F_WON]
    if 0 < fr[ply, F_PASS] <= PROBE_PASSES:
        # start a probe (inside any running above it)
        lim = P[P_NODES] + (P[P_PROBE_NODES] << (2 * (fr[ply, F_PASS] - 1)))
        fr[ply, F_LIM] = lim
        fr[ply, F_OUTER] = P[P_PROBE]
        if P[P_PROBE] > 0 and P[P_LIMIT] < lim:
            lim = P[P_LIMIT]
        fr[ply, F_MINLIM] = lim
        P[P_PROBE] = ply + 1
        P[P_LIMIT] = lim


@njit(**JIT_NONRT, inline="always")
def _child_answered(hl, ttk, ttd, P, fr, mv, ply, val):
    """The child of the node at ``ply`` answered ``val``: take its card back and merge the
    ranks its answer relied on. ``val`` if that decides the node (a cut-off), else -1 (the
    next move)."""
    i = fr[ply, F_IDX]
    card = mv[ply, i]
    seat = (fr[ply, F_LEADER] + fr[ply, F_POS]) & 3
    hl[seat * 4 + (card >> 4)] ^= 1 << (card & 15)
    if fr[ply, F_POS] == 3:
        # the trick was won on rank: that rank matters (see trick_relevance)
        wc = fr[ply, F_WIN]
        if wc >= 0 and (wc & 15) < fr[ply + 1, F_T + (wc >> 4)]:
            fr[ply + 1, F_T + (wc >> 4)] = wc & 15
    if val == fr[ply, F_ISMAX]:
        # cut-off: this child alone decides the node
        for s in range(4):
            fr[ply, F_T + s] = fr[ply + 1, F_T + s]
        if fr[ply, F_POS] == 0:
            # (killer moves are leads: only the move generator's leads read them)
            k = F_KILL + 2 * seat
            if fr[ply, k] != card:
                fr[ply, k + 1] = fr[ply, k]
                fr[ply, k] = card
            _close(hl, ttk, ttd, P, fr, ply, val)
        return val
    for s in range(4):
        if fr[ply + 1, F_T + s] < fr[ply, F_T + s]:
            fr[ply, F_T + s] = fr[ply + 1, F_T + s]
    # the card failed, and so far nothing below its rank mattered in its suit: any other card
    # of the suit below the lowest rank that matters leads to a position that agrees with
    # this one on every card that matters, so fails too. Try one small card per suit only
    # (DDS's "lowest win"; sound by the same argument as the table's generalisation)
    s = card >> 4
    th = fr[ply, F_T + s]
    if fr[ply, F_LW + s] == 0 and (card & 15) < th:
        fr[ply, F_LW + s] = th
    fr[ply, F_IDX] = i + 1
    return -1


@njit(**JIT_NONRT)
def search(hl, ttk, ttd, mv, fr, P, tk, td, leader, target):
    """Can the maximising seats make the counted tricks reach ``target``? 1 / 0, or -1 if
    ``P[P_ABORT]`` was set while it ran (it gives up: a batch's time limit), its search was
    settled by the worker sharing it (``_share.stop_asked``) or its expanded
    nodes passed ``P[P_BUDGET]`` (when not 0: a job's node budget). ``tk``, ``td``: every
    worker's table stacked (read only where ``P[P_FROW]`` says). (``leader`` on
    lead at a trick boundary; ``hl`` is restored on return.) The body of every solver entry
    point.

    Depth-first AND/OR search with an explicit stack (``fr``, one frame per card played):
    numba caches non-recursive code reliably, and there is no call overhead per node. Leads
    are ordered by heuristics (``gen_moves``), with a bonus for the last two cards that cut
    off a lead at the same ply (killer moves). Each node also returns the ranks its answer
    depended on (``fr[ply, F_T..]``): a trick won on rank makes the winning rank matter; a
    node that tried all its moves also keeps the ranks of any group of equivalent cards
    straddling what matters (only the top one was tried).
    """
    trump = P[P_TRUMP]
    countmask = P[P_COUNTMASK]
    ply = I0
    fr[0, F_LEADER] = leader
    fr[0, F_POS] = 0
    fr[0, F_WON] = 0
    P[P_PROBE] = 0
    # only a misère defence probes (see _probe_setup): in other games no node ever does
    probing = P[P_EXACT] == 0 and is_lone_misere(P[P_MAXMASK], countmask)
    if not probing:
        for q in range(MAX_PLY):
            fr[q, F_PASS] = 0
            fr[q, F_UNK] = 0
    # one place opens nodes (the root, then each child): ``_enter`` is compiled into the
    # loop once (inlined: no call per node, whose arrays numba passes as dozens of words)
    entering = True
    val = I0
    while True:
        if entering:
            entering = False
            val = _enter(hl, ttk, ttd, mv, P, tk, td, fr, ply, target)
            if val < 0:
                if (P[P_NODES] & ABORT_EVERY) == 0 and stop_asked(P):
                    # asked to give up (atomic reads: another thread sets it)
                    _take_back(hl, fr, ply, I0)
                    return -1
                if P[P_BUDGET] != 0 and P[P_NODES] > P[P_BUDGET]:
                    # over its node budget: checked at every node, so that where a search
                    # stops depends on its own nodes only, not on the worker's earlier ones
                    _take_back(hl, fr, ply, I0)
                    return -1
                if P[P_PROBE] > 0 and P[P_NODES] > P[P_LIMIT]:
                    ply = _probe_ran_out(hl, fr, ply, P)
                elif probing:
                    _probe_setup(P, fr, ply, countmask)
                continue
        if val < 0:
            i = _next_move(fr, mv, ply)
            if i >= fr[ply, F_NM]:
                val = 1 - fr[ply, F_ISMAX]
                _keep_group_ranks(fr, mv, ply)
                if fr[ply, F_POS] == 0:
                    _close(hl, ttk, ttd, P, fr, ply, val)
            else:
                _play(hl, fr, P, mv, ply, i, trump, countmask)
                ply += 1
                entering = True
                continue
        # val is the answer of the node at ply: hand it to the parent
        if ply == 0:
            return 1 if val == 1 else 0
        ply -= 1
        if P[P_PROBE] == ply + 1:
            _end_probe(P, fr, ply)  # the probe finished within its budget
        val = _child_answered(hl, ttk, ttd, P, fr, mv, ply, val)
