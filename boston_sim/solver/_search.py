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

Transposition table (partition search): entries are made at trick boundaries only. A search
also returns, per suit, the lowest rank its answer depended on; the entry then stores the
suit lengths of every hand, the owners of only those top cards that mattered (in relative
terms: 1st, 2nd, ... highest remaining card) and the leader. Any later position with the same
lengths, the same owners of those top cards and the same leader has the same answer, whatever
its smaller cards and whatever was played before. Each entry holds two 15-bit sets over
"tricks still needed" (known reachable / known unreachable), which serves both the monotone
games (bounds) and the exact game. (No best move is kept: an entry that matches a position
settles every question it has an answer for, so a stored move could only be offered for another
number of tricks needed, a different question; such hints cost nodes, see PERFORMANCE.md.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..config import JIT_NONRT
from ._bits import fetch_add, highbit_index, lowbit_index, popcount

P_TRUMP = 0
P_MAXMASK = 1
P_COUNTMASK = 2
P_EXACT = 3
P_GEN = 4
P_TTMASK = 5
P_NODES = 6
P_POOL = 7
P_FREE = 8
P_TRICKS = 9  # statistics: trick-boundary positions entered (below the root)
P_PROBE = 10  # 1 + the ply of the innermost node whose child is being probed (0: none)
P_LIMIT = 11  # the smallest node limit of the running probes (checked when P_NODES passes it)
P_PROBE_NODES = 12  # the first probing pass's node budget per move (PROBE_NODES; tests lower it)
P_ABORT = 13  # set (by another thread, while a batch runs) to make every search give up
P_SIZE = 14
ABORT_EVERY = 4095  # P[P_ABORT] is read when the expanded-node count is a multiple of 4096

NT = 4
# Integer constants passed to another kernel as arguments are numpy int64 scalars, not Python
# ints: numba compiles a separate copy of a kernel (and of every kernel below it) for each
# distinct literal it is called with. Before, a warm-up compiled 86 copies of 42 kernels,
# among them a second _enter (20 s) for the root's ply 0.
I0 = np.int64(0)
ALL_TRICKS = np.int64(13)
MAX_PLY = 64  # 13 tricks x 4 cards, plus slack
MOVE_SLOTS = 16  # at most 14 cards of one lane / 13 cards in hand
PROBE_PLIES = 12  # misère defenders' nodes above this ply try their moves with node budgets
PROBE_NODES = 1024  # the first pass's budget per move (4096 until the eighteenth session: the
# bids' misère questions then cost 14% more positions, docs/PERFORMANCE.md)
# lead ordering: points off a lead per card the opponents hold in its suit (a void opponent
# counts as one more than the tricks left: he may play any card), which keeps their replies,
# and so the proof, small (DDS's weight); bonuses of the two killer leads
LEAD_OPP_CARD = 10
KILL_BONUS_1 = 50
KILL_BONUS_2 = 30
PROBE_PASSES = 5  # budgeted passes, each 4x the last; then the rest without a budget

# transposition-table data word layout
_WIN_SHIFT = 0  # 15 bits: tricks-needed values known reachable
_LOSE_SHIFT = 15  # 15 bits: known unreachable
_LEAD_SHIFT = 30  # 2 bits
_ALL15 = (1 << 15) - 1


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
    opp = 15 ^ team
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
    opp = 15 ^ team
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
    opp = 15 ^ team
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


@njit(**JIT_NONRT)
def sure_trumps(mine, higher_pool):
    """Tricks a hand's trumps ``mine`` win for its team whatever anyone plays: each of them
    wins the trick it is played to unless a higher trump of the other team lands on the same
    trick (a teammate's higher trump still wins for the team), and each card of
    ``higher_pool`` (the other team's trumps) lands on one trick only. So the team wins at
    least ``len(mine)`` minus a largest matching of pool cards to lower cards of ``mine``
    (greedy from the top finds a largest one)."""
    free = 0
    beaten = 0
    u = mine | higher_pool
    while u != 0:
        hb = highbit_index(u)
        u ^= 1 << hb
        if (higher_pool >> hb) & 1:
            free += 1
        elif free > 0:
            free -= 1
            beaten += 1
    return popcount(mine) - beaten


@njit(**JIT_NONRT)
def split_top_trumps(hl, trump, countmask):
    """Do the two highest trumps lie in two different hands of the side not counted, one of
    those hands holding another trump? Then that side, playing to win tricks, takes two trump
    tricks: the top trump always wins, and the second loses only if both fall on the same
    trick, which the side can always avoid (the hand with the spare trump plays it instead).
    This is DDS's "later tricks" test; it depends on the owners of the top two trumps and
    the lengths."""
    ut = hl[trump] | hl[4 + trump] | hl[8 + trump] | hl[12 + trump]
    if popcount(ut) < 2:
        return False
    hb = 1 << highbit_index(ut)
    hb2 = 1 << highbit_index(ut ^ hb)
    h1 = 0
    h2 = 0
    for st in range(4):
        if hl[st * 4 + trump] & hb:
            h1 = st
        if hl[st * 4 + trump] & hb2:
            h2 = st
    return (h1 != h2 and ((countmask >> h1) & 1) == 0 and ((countmask >> h2) & 1) == 0
            and (popcount(hl[h1 * 4 + trump]) > 1 or popcount(hl[h2 * 4 + trump]) > 1))


@njit(**JIT_NONRT)
def trump_behind_rho(hl, trump, countmask):
    """With the other side on lead: does a hand of the counted side hold a trump ``c`` such
    that every higher trump (``h`` of them, at least one) is in the hand of its right-hand
    opponent, who plays just before it on every trick the other side leads, and at least
    ``h`` lower trumps as spares? Then the counted side takes a trick (DDS's "second trump
    over the top one" test, for ``h`` = 1, generalised): whenever that opponent has played
    a higher trump to a trick, the hand plays a spare or, void in the suit led, any other
    card; otherwise ``c`` wins the trick if played to it (nobody after it holds a higher
    trump), so the hand plays it as soon as trumps are led or it can ruff. Each spare is
    spent on a trick that also costs the opponent one of his ``h`` higher trumps, so ``c``
    is never forced under one. The side never leads before it has won a trick.
    Returns ``h + 1``, the number of top trumps whose owners (with the lengths) the answer
    depends on, or 0 when no hand qualifies."""
    ut = hl[trump] | hl[4 + trump] | hl[8 + trump] | hl[12 + trump]
    for st in range(4):
        x = hl[st * 4 + trump]
        rho = (st + 3) & 3
        if x == 0 or ((countmask >> st) & 1) == 0 or ((countmask >> rho) & 1) == 1:
            continue
        c = highbit_index(x)
        above = ut >> (c + 1)
        if above != 0 and (above & ~(hl[rho * 4 + trump] >> (c + 1))) == 0:
            h = popcount(above)
            if popcount(x) > h:
                return h + 1
    return 0


@njit(**JIT_NONRT)
def second_and_third_trumps(hl, trump, countmask):
    """Does the counted side hold the second- and third-highest trumps, the second in a
    hand with another trump, while the other side holds the highest? Then the top trump
    can beat only one of them (DDS's "later tricks" test). Depends on the owners of the top
    three trumps and the lengths."""
    ut = hl[trump] | hl[4 + trump] | hl[8 + trump] | hl[12 + trump]
    if popcount(ut) < 3:
        return False
    hb = 1 << highbit_index(ut)
    hb2 = 1 << highbit_index(ut ^ hb)
    hb3 = 1 << highbit_index(ut ^ hb ^ hb2)
    ok1 = False
    ok2 = False
    ok3 = False
    for st in range(4):
        mine = ((countmask >> st) & 1) == 1
        x = hl[st * 4 + trump]
        if x & hb:
            ok1 = not mine
        if x & hb2:
            ok2 = mine and popcount(x) > 1
        if x & hb3:
            ok3 = mine
    return ok1 and ok2 and ok3


@njit(**JIT_NONRT)
def stoppers(hl, trump, lead_side, r, tb, row, col):
    """Can the side on lead (seats ``lead_side``, ``r`` cards each) be kept from taking every
    remaining trick? Sure when it holds no trump (or at no trump) and, with each hand of the
    other side keeping the top card of one suit it tops (a "stopper"), the side on lead runs
    out of other suits to lead: taking every trick it leads every trick; a lead in a suit
    that the side's longest hand no longer holds is impossible, so it can lead suit ``s`` at
    most ``max_len(s)`` times; a stopper's holder discards it only as his last card (he
    chooses his discards), so a lead in its suit loses to it whenever it comes, and nobody
    ruffs it. Hence a trick for the other side when the side on lead's longest holdings in
    the suits without a stopper add up to less than ``r``.
    Depends on the lengths and the owners of the top card of each stopper's suit
    (``tb[row, col + s]`` receives those ranks)."""
    if trump != NT:
        for st in range(4):
            if (lead_side >> st) & 1 and hl[st * 4 + trump] != 0:
                return False
    total = 0
    packed = 0  # the side on lead's longest holding per suit, 4 bits each
    for s in range(4):
        m = 0
        for st in range(4):
            if (lead_side >> st) & 1:
                k = popcount(hl[st * 4 + s])
                if k > m:
                    m = k
        packed |= m << (4 * s)
        total += m
    stopped = 0
    for h in range(4):
        if (lead_side >> h) & 1:
            continue
        best = 0
        bs = -1
        for s in range(4):
            u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
            if u != 0 and (hl[h * 4 + s] >> highbit_index(u)) & 1:
                m = (packed >> (4 * s)) & 15
                if m > best:
                    best = m
                    bs = s
        if bs >= 0:
            total -= best
            stopped |= 1 << bs
    if total >= r:
        return False
    for s in range(4):
        tb[row, col + s] = 16
        if (stopped >> s) & 1:
            tb[row, col + s] = highbit_index(hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s])
    return True


@njit(**JIT_NONRT)
def split_suit(hl, suit, mask):
    """The cards of ``suit`` held by the seats of ``mask``, and those held by the others."""
    inside = 0
    outside = 0
    for h in range(4):
        if (mask >> h) & 1:
            inside |= hl[h * 4 + suit]
        else:
            outside |= hl[h * 4 + suit]
    return inside, outside


@njit(**JIT_NONRT)
def trump_bounds(hl, trump, countmask):
    """Sure trump tricks of the counted side and of the other side (each the best single hand
    of the side, see ``sure_trumps``): lower and upper bounds on the counted tricks to come."""
    mine_all, opp_all = split_suit(hl, trump, countmask)
    lo = 0
    hi = 0
    for h in range(4):
        x = hl[h * 4 + trump]
        if x == 0:
            continue
        if (countmask >> h) & 1:
            k = sure_trumps(x, opp_all)
            if k > lo:
                lo = k
        else:
            k = sure_trumps(x, mine_all)
            if k > hi:
                hi = k
    return lo, hi


@njit(**JIT_NONRT)
def side_bound(hl, seat, trump, countmask, side_max, need, exact, tb, row, col):
    """Exact answers from two cheap tests at a trick boundary (``seat`` on lead), or -1.

    * The side is on lead and every card of the leader is a sure winner: in each suit it holds,
      its lowest card beats every opponent's card, and no opponent void in the suit holds a
      trump. The side takes at least one more trick.
    * The side cannot take another trick: it holds no trump (or NT) and in every suit its
      highest card is below every opponent's card; when the side is on lead, the leader has a
      suit the opponents hold (every suit it holds, if the side maximises and could choose an
      unopposed one). Whoever leads, an opponent's higher card then wins every trick.

    ``tb[row, col + s]`` receives the lowest rank each test relied on (partition search): the
    owners of the cards down to that rank, with the suit lengths, decide both tests.
    """
    opp = 15 ^ countmask
    # (the first test can settle only a side needing at most one trick; in the exact game one
    # more trick overshoots unless none is needed)
    if (countmask >> seat) & 1 and (need == 0 if exact else need <= 1):
        ok = True
        for s in range(4):
            mine = hl[seat * 4 + s]
            if mine == 0:
                continue
            oc = 0
            for o in range(4):
                if (opp >> o) & 1:
                    oc |= hl[o * 4 + s]
                    if trump != NT and s != trump and hl[o * 4 + s] == 0 and hl[o * 4 + trump] != 0:
                        ok = False
            if oc != 0 and lowbit_index(mine) < highbit_index(oc):
                ok = False
            if not ok:
                break
        if ok:
            for s in range(4):
                tb[row, col + s] = 16
                mine = hl[seat * 4 + s]
                if mine != 0:
                    tb[row, col + s] = lowbit_index(mine)
            return 0 if exact else 1
    if exact and need != 0:
        return -1
    if not exact and need <= 0:
        return -1
    if trump != NT:
        for st in range(4):
            if (countmask >> st) & 1 and hl[st * 4 + trump] != 0:
                return -1
    for s in range(4):
        sc, oc = split_suit(hl, s, countmask)
        if sc != 0 and oc != 0 and highbit_index(sc) > lowbit_index(oc):
            return -1
    if (countmask >> seat) & 1:
        n_opp = 0
        n_held = 0
        for s in range(4):
            if hl[seat * 4 + s] != 0:
                n_held += 1
                oc = 0
                for o in range(4):
                    if (opp >> o) & 1:
                        oc |= hl[o * 4 + s]
                if oc != 0:
                    n_opp += 1
        if n_opp == 0 or (side_max and n_opp < n_held):
            return -1
    for s in range(4):
        tb[row, col + s] = 16
        sc, oc = split_suit(hl, s, countmask)
        if sc != 0 and oc != 0:
            tb[row, col + s] = lowbit_index(oc)
    # the side takes no more tricks: it reaches need only if need is 0 (exact) / never
    return 1 if exact else 0


@njit(**JIT_NONRT)
def forced_win(hl, seat, trump, d, tb, row, col):
    """Misère game, the lone declarer ``d`` not on lead (``seat`` leads, the defenders
    cooperate): can the defenders force ``d`` to win a trick by playing one suit?

    Per suit ``s`` held by ``d`` and the leader, simulate one fixed defence: every round the
    defender who won the last round leads his lowest card of ``s``, the other defenders play
    their lowest card of ``s`` or discard (void, with a card outside ``s`` and trumps, or ``s``
    is trumps, or NT). ``d`` must follow; he survives a round only with a card below the
    round's highest card, and playing his highest such card is his best (the thresholds are
    fixed by the defence, so the largest card that fits is never worse). If he is stuck in
    some round, he wins a trick whatever he does. Inconclusive (False) when the winner of a
    round no longer holds ``s`` or ``d`` runs out of it. ``tb[row, col + s]`` = the suit's
    lowest rank: the answer depends on the order of all its cards (partition search)."""
    for s in range(4):
        if hl[d * 4 + s] == 0 or hl[seat * 4 + s] == 0:
            continue
        x = hl[s] | (hl[4 + s] << 16) | (hl[8 + s] << 32) | (hl[12 + s] << 48)
        dc = 0
        if trump != NT and s != trump:
            for o in range(4):
                n = 0
                for y in range(4):
                    if y != s and y != trump:
                        n += popcount(hl[o * 4 + y])
                dc |= n << (8 * o)
        lead = seat
        for _ in range(13):
            if (x >> (16 * lead)) & 0xFFFF == 0:
                break
            dl = (x >> (16 * d)) & 0xFFFF
            if dl == 0:
                break
            mx = 0
            ms = -1
            ok = True
            for o in range(4):
                if o == d:
                    continue
                ol = (x >> (16 * o)) & 0xFFFF
                if ol != 0:
                    c = ol & -ol
                    x ^= c << (16 * o)
                    if c > mx:
                        mx = c
                        ms = o
                elif dc != 0 or (trump != NT and s != trump):
                    if (dc >> (8 * o)) & 0xFF == 0:
                        ok = False
                        break
                    dc -= 1 << (8 * o)
            if not ok:
                break
            below = dl & (mx - 1)
            if below == 0:
                for y in range(4):
                    tb[row, col + y] = 16
                tb[row, col + s] = lowbit_index(hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s])
                return True
            x ^= (1 << highbit_index(below)) << (16 * d)
            lead = ms
    return False


@njit(**JIT_NONRT)
def ducks_in_suit(hl, s, d):
    """In suit ``s``, is each ``i``-th lowest card of seat ``d`` below the other hands' ``i``-th
    lowest card (``i`` up to the shorter holding)? The one-suit test of ``always_under``."""
    x, e = split_suit(hl, s, 1 << d)
    while x != 0 and e != 0:
        if (x & -x) > (e & -e):
            return False
        x &= x - 1
        e &= e - 1
    return True


@njit(**JIT_NONRT)
def always_under(hl, trump, d, tb, row, col):
    """Misère game, the lone declarer ``d`` not on lead (he has no trump, or no trump
    contract): can he play under every trick from here on? Yes when, in every suit, his
    ``i``-th lowest card is below the other hands' ``i``-th lowest card of the suit, for ``i``
    up to the shorter of the two holdings.

    Why: on lead ``e`` in a suit he holds, that condition gives him a card below ``e`` (his
    lowest is below the lowest outstanding one); he plays the highest such card, which loses
    (the led card is higher, and a ruff wins over both). Taking out ``e`` with that card, any
    other card of the others and any of their discards keeps the condition (each only raises
    the others' ``i``-th lowest card, or removes the pair as in a greedy matching). Void in the
    suit led, he discards the highest card of some suit, which keeps it too. So he never wins
    a trick, and never gets the lead. The answer depends on the order of every card of a suit
    both sides hold: ``tb[row, col + s]`` = that suit's lowest rank (16 for the others)."""
    if trump != NT and hl[d * 4 + trump] != 0:
        return False
    for s in range(4):
        if not ducks_in_suit(hl, s, d):
            return False
    for s in range(4):
        tb[row, col + s] = 16
        u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]
        if hl[d * 4 + s] != 0 and u != hl[d * 4 + s]:
            tb[row, col + s] = lowbit_index(u)
    return True


@njit(**JIT_NONRT)
def position_key(hl):
    """Key of a trick-boundary position for partition search.

    Returns ``(lens, w1, w2)``: ``lens`` packs the 16 suit lengths (4 bits per seat and suit);
    ``w1`` / ``w2`` hold, for suits 0-1 / 2-3 (32 bits each), the owner (2 bits) of the 1st,
    2nd, ... highest remaining card of the suit. A table entry stores how many top cards of
    each suit matter; a position matches it when those owners and all lengths agree.
    """
    lens = 0
    w1 = 0
    w2 = 0
    for s in range(4):
        a0 = hl[s]
        a1 = hl[4 + s]
        a2 = hl[8 + s]
        a3 = hl[12 + s]
        n = popcount(a0) | (popcount(a1) << 4) | (popcount(a2) << 8) | (popcount(a3) << 12)
        lens |= n << (16 * s)
        u = a0 | a1 | a2 | a3
        o0 = a1 | a3
        o1 = a2 | a3
        code = 0
        j = 0
        while u != 0:
            hb = highbit_index(u)
            u ^= 1 << hb
            code |= (((o0 >> hb) & 1) | (((o1 >> hb) & 1) << 1)) << (2 * j)
            j += 1
        if s < 2:
            w1 |= code << (32 * s)
        else:
            w2 |= code << (32 * (s - 2))
    return lens, w1, w2


@njit(**JIT_NONRT)
def _key_after_trick(hl, fr, prev):
    """``position_key`` of the trick boundary after the trick played from ply ``prev`` (a
    trick boundary whose key is in its frame): that key with the trick's four cards taken
    out, each card's 2-bit owner field removed from its suit's code."""
    lens = fr[prev, F_LENS]
    w1 = fr[prev, F_W1]
    w2 = fr[prev, F_W2]
    ld = fr[prev, F_LEADER]
    for i in range(4):
        c = fr[prev + i, F_CARD]
        s = c >> 4
        r = c & 15
        lens -= 1 << (16 * s + 4 * ((ld + i) & 3))
        # the suit's cards before this one is taken out: those still held, and the trick's
        # cards not yet taken out
        later = fr[prev + 3, F_TM] & ~fr[prev + i, F_TM]
        u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s] | ((later >> (16 * s)) & 0xFFFF)
        j = 2 * popcount(u >> (r + 1))
        sh = 32 * (s & 1)
        w = w1 if s < 2 else w2
        code = (w >> sh) & 0xFFFFFFFF
        code = (code & ((1 << j) - 1)) | ((code >> (j + 2)) << j)
        w = (w & ~(0xFFFFFFFF << sh)) | (code << sh)
        if s < 2:
            w1 = w
        else:
            w2 = w
    return lens, w1, w2


@njit(**JIT_NONRT)
def _head(lens, leader, mask):
    h = lens * -7046029254386353131 + leader * 0x27D4EB2F165667C5
    h ^= h >> 31
    return h & mask


# Table layout. Entries live in a ring-buffer pool, chained per hash of (suit lengths, leader,
# the entry's shape, the owners of the cards its shape names). The shape says, per suit, which
# cards the entry depends on: none, the top ones but not all (the chain key names the owner of
# the top card), or every card (the key names every card's owner):
#   ttk[7*i .. 7*i+6] = lens, w1 pattern, w2 pattern, w1 mask, w2 mask, next serial, own serial
#   ttd[i]            = reachable / unreachable sets, leader
#   ttd[pool + h]     = chain head for hash h: (generation << 40) | serial of the newest entry
#   ttd[pool + heads + 4g .. 4g + 3] = for hash g of (lens, leader), 32 bytes: the shapes that
#                       have a chain (bit t for shape t < 63 in the first word, bit t - 63 of
#                       the second, whose bits 32+ hold the generation), then a 128-bit filter
#                       of the chains stored (bit h % 128 for chain hash h): a lookup skips the
#                       chains whose bit is clear without reading their heads
# Positions sharing the lengths are many (every way the small cards can lie), so a chain, not a
# fixed bucket, holds them; splitting the chains by shape and owners leaves a lookup few
# entries to read that cannot match (where every card of a suit matters, as in a lone
# declarer's misère proofs, a chain of top-card owners alone grew to hundreds of entries).
# Entry number ``serial`` lives in slot ``serial % pool``; when the pool is full the oldest
# entries are overwritten, and a chain simply ends where the slot it points to holds a
# different serial. A new game bumps the generation, emptying every chain, and restarts the
# serials at 0 (the driver's ``_setup``): its entries go to memory the last game warmed. An older
# game's entry left in a slot with the same serial is never read, since only chains whose head
# carries the current generation are followed, and they point only to entries written since.
_SERIAL_MASK = (1 << 40) - 1
_SHAPES_LOW = 63  # shapes with their bit in the first word of a (lens, leader) bitmap
_SHAPES_HIGH = (1 << 18) - 1  # the other 18 shapes' bits in the second word
_MRU_SHIFT = 18  # 7 bits of the second word: 1 + the shape of the last entry found, 0: none


@njit(**JIT_NONRT)
def _suit_len(lens, s):
    """Cards left in suit ``s`` (all hands), from the packed lengths."""
    n = (lens >> (16 * s)) & 0xFFFF
    return (n & 15) + ((n >> 4) & 15) + ((n >> 8) & 15) + (n >> 12)


@njit(**JIT_NONRT)
def _shape(lens, m1, m2):
    """The shape of an entry with masks ``m1``, ``m2``: per suit 0 (no card matters), 1 (the
    top cards, not all) or 2 (every card), a base-3 number (suit 0 lowest)."""
    t = 0
    p = 1
    for s in range(4):
        m = ((m1 if s < 2 else m2) >> (32 * (s & 1))) & 0xFFFFFFFF
        k = _suit_len(lens, s)
        if k != 0 and m != 0:
            t += p * (2 if m == (1 << (2 * k)) - 1 else 1)
        p *= 3
    return t


@njit(**JIT_NONRT)
def _chain(lens, leader, t, w1, w2, mask):
    """Chain of the entries of shape ``t`` for (lengths, leader) whose cards named by the
    shape are owned as in the position's patterns ``w1``, ``w2``."""
    k1 = 0
    k2 = 0
    q = t
    for s in range(4):
        st = q % 3
        q //= 3
        if st == 0:
            continue
        km = 3 if st == 1 else (1 << (2 * _suit_len(lens, s))) - 1
        if s < 2:
            k1 |= km << (32 * s)
        else:
            k2 |= km << (32 * (s - 2))
    return _head(lens ^ ((w1 & k1) * 0x2545F4914F6CDD1D) ^ ((w2 & k2) * 0x5851F42D4C957F2D),
                 leader + 4 * t, mask)


@njit(**JIT_NONRT)
def _scan(ttk, ttd, P, h, lens, w1, w2, leader, need):
    """Scan one chain; returns (answer, slot) as ``tt_lookup``."""
    pmask = P[P_POOL] - 1
    hd = ttd[P[P_POOL] + h]
    if (hd >> 40) != P[P_GEN]:
        return -1, -1
    sr = hd & _SERIAL_MASK
    while sr >= 0:
        i = sr & pmask
        j = 7 * i
        if ttk[j + 6] != sr:
            break
        # (the data word, in another array, is read only for an entry whose key matches)
        if (ttk[j] == lens and ((w1 ^ ttk[j + 1]) & ttk[j + 3]) == 0
                and ((w2 ^ ttk[j + 2]) & ttk[j + 4]) == 0):
            d = ttd[i]
            if ((d >> _LEAD_SHIFT) & 3) == leader:
                if (d >> (_WIN_SHIFT + need)) & 1:
                    return 1, i
                if (d >> (_LOSE_SHIFT + need)) & 1:
                    return 0, i
        sr = ttk[j + 5]
    return -1, -1


@njit(**JIT_NONRT, inline="always")
def _scan_shape(ttk, ttd, P, g, t, lens, w1, w2, leader, need):
    """Scan the chain of shape ``t`` for the position (bucket ``g``), unless the bucket's
    filter shows that no entry of it was stored; returns (answer, slot) as ``tt_lookup``."""
    h = _chain(lens, leader, t, w1, w2, P[P_TTMASK])
    if ((ttd[g + 2 + ((h >> 6) & 1)] >> (h & 63)) & 1) == 0:
        return -1, -1
    return _scan(ttk, ttd, P, h, lens, w1, w2, leader, need)


@njit(**JIT_NONRT)
def tt_lookup(ttk, ttd, P, lens, w1, w2, leader, need):
    """Scan the chains that may hold entries matching the position: one per shape that some
    entry of these lengths and leader has. Returns (answer, slot): answer 1 / 0 if an entry
    settles "need", else -1; slot of the settling entry (-1 if none)."""
    m = P[P_TTMASK]
    g = P[P_POOL] + m + 1 + 4 * _head(lens, leader, m)
    hi = ttd[g + 1]
    if (hi >> 32) != P[P_GEN]:
        return -1, -1
    # the shape of the last hit here first
    first = ((hi >> _MRU_SHIFT) & 127) - 1
    if first >= 0:
        a, i = _scan_shape(ttk, ttd, P, g, first, lens, w1, w2, leader, need)
        if a >= 0:
            return a, i
    for part in range(2):
        x = (hi & _SHAPES_HIGH) if part == 0 else ttd[g]
        while x != 0:
            b = highbit_index(x)
            x ^= 1 << b
            t = b + (_SHAPES_LOW if part == 0 else 0)
            if t == first:
                continue
            a, i = _scan_shape(ttk, ttd, P, g, t, lens, w1, w2, leader, need)
            if a >= 0:
                ttd[g + 1] = (hi & ~(127 << _MRU_SHIFT)) | ((t + 1) << _MRU_SHIFT)
                return a, i
    return -1, -1


@njit(**JIT_NONRT)
def _tt_data(win, lose, leader):
    """The data word of a table entry."""
    return (win << _WIN_SHIFT) | (lose << _LOSE_SHIFT) | (leader << _LEAD_SHIFT)


@njit(**JIT_NONRT)
def tt_store(ttk, ttd, P, lens, w1, w2, m1, m2, leader, win, lose):
    """Add (or merge into) the entry for this pattern: the position's lengths, the owners of
    the top cards that matter (masks m1, m2) and the reachable / unreachable sets."""
    pool = P[P_POOL]
    pmask = pool - 1
    gen = P[P_GEN]
    t = _shape(lens, m1, m2)
    hc = _chain(lens, leader, t, w1, w2, P[P_TTMASK])
    h = pool + hc
    g = pool + P[P_TTMASK] + 1 + 4 * _head(lens, leader, P[P_TTMASK])
    if (ttd[g + 1] >> 32) != gen:
        ttd[g] = 0
        ttd[g + 1] = gen << 32
        ttd[g + 2] = 0
        ttd[g + 3] = 0
    ttd[g + 2 + ((hc >> 6) & 1)] |= 1 << (hc & 63)
    if t < _SHAPES_LOW:
        ttd[g] |= 1 << t
    else:
        ttd[g + 1] |= 1 << (t - _SHAPES_LOW)
    p1 = w1 & m1
    p2 = w2 & m2
    hd = ttd[h]
    first = -1
    if (hd >> 40) == gen:
        first = hd & _SERIAL_MASK
        sr = first
        while sr >= 0:
            i = sr & pmask
            j = 7 * i
            if ttk[j + 6] != sr:
                break
            # (the data word, in another array, is read only for an entry whose key matches)
            if (ttk[j] == lens and ttk[j + 1] == p1 and ttk[j + 2] == p2 and ttk[j + 3] == m1
                    and ttk[j + 4] == m2):
                d = ttd[i]
                if ((d >> _LEAD_SHIFT) & 3) == leader:
                    win |= (d >> _WIN_SHIFT) & _ALL15
                    lose |= (d >> _LOSE_SHIFT) & _ALL15
                    ttd[i] = _tt_data(win, lose, leader)
                    return
            sr = ttk[j + 5]
    serial = P[P_FREE]
    P[P_FREE] = serial + 1
    slot = serial & pmask
    j = 7 * slot
    ttk[j] = lens
    ttk[j + 1] = p1
    ttk[j + 2] = p2
    ttk[j + 3] = m1
    ttk[j + 4] = m2
    ttk[j + 5] = first
    ttk[j + 6] = serial
    ttd[slot] = _tt_data(win, lose, leader)
    ttd[h] = (gen << 40) | serial


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
    already known? The card that will win it for sure, plus 64 if it is the counted side's, or
    -1. Sure when the card winning the trick so far can be beaten by no later opponent of
    its holder, or (``both_win``: both sides want to win tricks, the plain max game) when the
    seat to play holds a card that beats it and that no later opponent can beat: his highest
    of the suit led, or when void in it, his highest trump. The answer depends on who holds
    the cards above the winning one in its suit. (``bp``: the position in the trick of the
    card winning it so far.)"""
    base = ply - pos
    led = fr[base, F_CARD] >> 4
    best = fr[base + bp, F_CARD]
    ws = (leader + bp) & 3
    team = countmask if (countmask >> ws) & 1 else 15 ^ countmask
    if not beaten_later(hl, leader, pos - 1, led, trump, best, team):
        return best + (64 if (countmask >> ws) & 1 else 0)
    if not both_win:
        return -1
    seat = (leader + pos) & 3
    team = countmask if (countmask >> seat) & 1 else 15 ^ countmask
    lane = hl[seat * 4 + led]
    if lane != 0:
        c = led * 16 + highbit_index(lane)
    elif trump != NT and hl[seat * 4 + trump] != 0:
        c = trump * 16 + highbit_index(hl[seat * 4 + trump])
    else:
        return -1
    if beats(c, best, trump) and not beaten_later(hl, leader, pos, led, trump, c, team):
        return c + (64 if (countmask >> seat) & 1 else 0)
    return -1


@njit(**JIT_NONRT, inline="always")
def _others_in_suit(hl, fr, ply, pos, s, mine):
    """The cards of suit ``s`` still in play besides ``mine`` (the player's): the other
    hands' and those played to the trick under way. A card of ``mine`` is equivalent to the
    next one up when none of these lies between them."""
    others = (hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s]) & ~mine
    if pos > 0:
        others |= (fr[ply - 1, F_TM] >> (16 * s)) & 0xFFFF
    return others


@njit(**JIT_NONRT, inline="always")  # (its only caller is _enter: one copy)
def _gen_moves(hl, fr, P, seat, pos, leader, mv, ply):
    """Fill ``mv[ply]`` with the legal moves of ``seat`` (one card per group of equivalent
    cards: the highest of the group, with the group's lowest rank in the third block), ordered
    best-first; return their number."""
    if pos > 0:
        # following suit with cards that are all equivalent (no other card lies between
        # them): one move, nothing to order (a third of the nodes)
        led = fr[ply - pos, F_CARD] >> 4
        mine = hl[seat * 4 + led]
        if mine != 0:
            lo = lowbit_index(mine)
            hi = highbit_index(mine)
            others = _others_in_suit(hl, fr, ply, pos, led, mine)
            if (others >> lo) & ((1 << (hi - lo)) - 1) == 0:
                mv[ply, 0] = led * 16 + hi
                mv[ply, MOVE_SLOTS] = 0
                mv[ply, 2 * MOVE_SLOTS] = lo
                return 1
    trump = P[P_TRUMP]
    maxmask = P[P_MAXMASK]
    countmask = P[P_COUNTMASK]
    in_count = (countmask >> seat) & 1
    is_max = (maxmask >> seat) & 1
    # in the max game everyone wants his own team to win the trick; in the misère game the
    # other team (a heuristic only: it orders moves, it never prunes)
    want_own = 1 if is_max == in_count else 0
    lone = -1  # the lone declarer, when a defender plays in the misère game
    if is_max and not in_count and maxmask == 15 ^ countmask and popcount(countmask) == 1:
        lone = lowbit_index(countmask)
    # the lone declarer of the misère game, void in the suit led: which suits threaten him
    mis_decl = (not is_max and in_count and maxmask == 15 ^ countmask
                and popcount(countmask) == 1 and pos > 0
                and hl[seat * 4 + (fr[ply - pos, F_CARD] >> 4)] == 0)
    danger = 0  # bit per suit: he may not be able to duck every round of it
    if mis_decl:
        for s in range(4):
            if not ducks_in_suit(hl, s, seat):
                danger |= 1 << s
    # two against two (a lone player's opponents share out the ruffs less simply)
    pair = popcount(countmask) == 2
    team = countmask if in_count else 15 ^ countmask
    # a lone declarer's trumps (0 for everyone else): short side suits are his to ruff
    lone_trumps = 0
    if popcount(team) == 1 and trump != NT:
        lone_trumps = popcount(hl[seat * 4 + trump])
    # a defender of a lone declarer (seat ``decl``) in the max game
    decl = lowbit_index(countmask) if popcount(team) == 3 and maxmask == countmask else -1
    # ... leading, while the declarer needs over a third of the tricks left (passive leads)
    passive = decl >= 0 and pos == 0 and 3 * fr[ply, F_NEED] > fr[ply, F_R]
    shed = False
    n = 0
    s_lo = 0
    s_hi = 4
    best = 0
    good_now = 0
    settled = False
    duck_first = False
    base = ply - pos
    led = -1
    if pos > 0:
        led = fr[base, F_CARD] >> 4
        if hl[seat * 4 + led] != 0:
            s_lo = led
            s_hi = led + 1
        bp = fr[ply - 1, F_BP]
        best = fr[base + bp, F_CARD]
        wseat = (leader + bp) & 3
        same = 1 if ((countmask >> wseat) & 1) == in_count else 0
        good_now = 1 if same == want_own else 0
        # does the team's card win the trick whatever the opponents after this one do? (a
        # later teammate's card wins for the team too; only asked when the team is winning
        # it: the answer orders its cards)
        if want_own and good_now:
            settled = not beaten_later(hl, leader, pos, led, trump, best, team)
        # defenders of a lone declarer whose card wins a side-suit trick so far: when a later
        # defender can beat it, the cards that do not are tried first (let him win it; keep
        # this one's winner or trump)
        duck_first = (decl >= 0 and not good_now and led != trump
                      and beaten_later(hl, leader, pos, led, trump, best, 1 << decl))
        if lone >= 0:
            if hl[seat * 4 + led] == 0:
                shed = True
            else:
                # has the declarer played to this trick, and is he beaten?
                for i in range(pos):
                    if (leader + i) & 3 == lone and (leader + bp) & 3 != lone:
                        shed = True
    # a lead's penalty for the opponents' replies (LEAD_OPP_CARD): only the max game's
    # leads (``want_own``) are scored with it
    weigh_replies = pos == 0 and want_own
    rl = fr[ply, F_R] if weigh_replies else 0
    for s in range(s_lo, s_hi):
        mine = hl[seat * 4 + s]
        if mine == 0:
            continue
        opp_cards = 0
        opp_longest = 0  # the opponents' longest holding of the suit
        if weigh_replies:
            for o in range(4):
                if ((countmask >> o) & 1) != in_count:
                    ko = popcount(hl[o * 4 + s])
                    if ko > opp_longest:
                        opp_longest = ko
                    opp_cards += LEAD_OPP_CARD * (ko if ko > 0 else rl + 1)
        others = _others_in_suit(hl, fr, ply, pos, s, mine)
        allc = mine | others
        top = highbit_index(allc)
        x = mine
        low = -1  # lowest card of the sequence being walked (cards come low to high)
        while x != 0:
            b = x & -x
            x ^= b
            above = allc & ~((b << 1) - 1)
            if above != 0 and (above & -above) & mine:
                if low < 0:
                    low = lowbit_index(b)
                continue  # the next card up is also mine: equivalent, skip
            rank = lowbit_index(b)
            if low < 0:
                low = rank
            seq_low = low
            low = -1
            card = s * 16 + rank
            # --- ordering score (higher first)
            if pos == 0:
                kb = 0
                if card == fr[ply, F_KILL + 2 * seat]:
                    kb = KILL_BONUS_1
                elif card == fr[ply, F_KILL + 2 * seat + 1]:
                    kb = KILL_BONUS_2
                if want_own:
                    if rank == top:
                        # (a lone declarer cashes his winners before low leads; for everyone
                        # else a winner ranks with the low leads, the opponents' cards decide)
                        sc = (200 if popcount(team) == 1 else 130) + rank + 2 * popcount(mine)
                        if s == trump and popcount(team) == 3:
                            # defenders of a lone declarer: a top trump is theirs anyway
                            sc = 120 + rank
                        # a winner that an opponent can ruff waits
                        if trump != NT and s != trump:
                            for o in range(1, 4):
                                so = (seat + o) & 3
                                if (((countmask >> so) & 1) != in_count and hl[so * 4 + s] == 0
                                        and hl[so * 4 + trump] != 0):
                                    sc = 120 + rank
                    else:
                        sc = 100 - rank + 3 * popcount(mine)
                        # lead low towards a teammate's top card; not into an opponent's
                        # top card that plays after us, nor into an opponent's ruff
                        for o in range(1, 4):
                            so = (seat + o) & 3
                            ho = hl[so * 4 + s]
                            mate = ((countmask >> so) & 1) == in_count
                            if ho != 0 and highbit_index(ho) == top:
                                sc += (30 if pair else 60) if mate else (-10 if o == 3 else 0)
                            if trump != NT and s != trump and ho == 0 and hl[so * 4 + trump] != 0:
                                if not mate:
                                    sc -= 20  # into an opponent's ruff
                                elif pair:
                                    sc += 40  # a partner's ruff
                        if (passive and s != trump and (hl[decl * 4 + s] >> top) & 1
                                and popcount(hl[decl * 4 + s]) <= popcount(mine)):
                            # a side suit the declarer tops and is no longer in than the
                            # leader is a passive lead (it sets up nothing for him), tried
                            # before cashing winners or other low leads
                            sc += 200
                    if pair:
                        # (DDS's weights) not into an opponent's top or second card that
                        # plays last and is not a singleton; a suit whose second and third
                        # cards are the side's makes its next round the side's
                        rho = (seat + 3) & 3
                        pd = (seat + 2) & 3
                        hr = hl[rho * 4 + s]
                        hp = hl[pd * 4 + s]
                        u2 = allc & ~(1 << top)
                        r2 = highbit_index(u2) if u2 != 0 else -1
                        if popcount(hr) > 1 and ((hr >> top) & 1 or (r2 >= 0 and (hr >> r2) & 1)):
                            sc -= 12
                        u3 = u2 & ~(1 << r2) if r2 >= 0 else 0
                        if rank != top and u3 != 0:
                            r3 = highbit_index(u3)
                            if (hp >> r2) & 1 and (hp >> r3) & 1:
                                sc += 20
                            elif popcount(hp) > 1 and (((mine >> r2) & 1 and (hp >> r3) & 1)
                                                       or ((hp >> r2) & 1 and (mine >> r3) & 1)):
                                sc += 13
                    sc -= opp_cards
                    if s == trump and popcount(team) == 1 and others != 0:
                        # a lone declarer longer in trumps than every defender draws their
                        # trumps before cashing winners (shorter, he keeps his trumps to ruff
                        # with: cashing his top trump early leaves a bare "one more trick"
                        # to prove, 20x the positions on one bid's deal)
                        if popcount(mine) > opp_longest:
                            sc += 100
                    short = popcount(mine)
                    if s != trump and short <= 2 and others != 0 and lone_trumps > short:
                        # a lone declarer's singleton or doubleton side suit, with trumps to
                        # ruff its later rounds: about level with his trump leads, ahead of his
                        # other low leads (whose suits the defenders are short in: the replies'
                        # weight alone would put them first)
                        sc += 150 - 40 * short
                elif lone >= 0:
                    # misère, a defender leads: a suit where the declarer's lowest card is
                    # high and the lead ducks under it, so he cannot duck in turn
                    dl = hl[lone * 4 + s]
                    if dl == 0:
                        sc = 100 - rank
                    else:
                        nl = lowbit_index(dl)
                        if rank < nl:
                            sc = 300 + nl - rank
                        else:
                            sc = 150 - rank
                else:
                    sc = 100 - rank
                sc += kb
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
                        # ... first the cheapest that no later opponent can beat
                        if want_own and pos < 3:
                            if not beaten_later(hl, leader, pos, led, trump, card, team):
                                sc += 200
                            elif pair and pos == 1:
                                # two against two, second hand: the third hand can beat this
                                # card, but the partner (last to play) holds a higher card of
                                # the suit than the third hand: low cards first ("second hand
                                # low"; -2.3% positions over 15 sets of 20 deals, -0.9% over
                                # 15 others, docs/PERFORMANCE.md)
                                l3 = hl[((leader + 2) & 3) * 4 + led]
                                l4 = hl[((leader + 3) & 3) * 4 + led]
                                if l3 != 0 and l4 != 0 and highbit_index(l4) > highbit_index(l3):
                                    sc = 16 - rank
                    else:
                        sc += 32 - rank
                else:
                    if good and not want_own:
                        sc += rank  # duck with the highest card that ducks
                    else:
                        sc += 32 - rank - (16 if s == trump else 0)
                if not bt and s_hi - s_lo > 1 and not (good and not want_own):
                    # a discard that does not help the trick: from a long suit, keep short
                    # suits' guards; a lone declarer with trumps from a short side suit (a
                    # void to ruff in)
                    if lone_trumps > 0 and s != trump:
                        sc += 2 * (14 - popcount(mine))
                    else:
                        sc += 2 * popcount(mine)
                if duck_first and not bt:
                    sc += 1000
                if (danger >> s) & 1:
                    # the misère declarer discarding (his highest card first, as any discard
                    # that loses the trick): first from a suit where a defence of low leads
                    # could force him (his i-th lowest card not below the others' i-th lowest)
                    sc += 64
                if shed and not bt:
                    # misère defender whose card cannot matter to this trick (a discard, or
                    # the declarer already beaten): shed high cards, keep low ones to lead
                    sc = 200 + rank
                elif settled:
                    if bt:
                        # overtaking a teammate's card that wins the trick anyway: last
                        sc = 32 - rank
                    else:
                        # the team's card wins the trick already: play the cheapest card
                        sc = 600 + 32 - rank - (16 if s == trump else 0)
                        if s_hi - s_lo > 1:
                            sc += 2 * popcount(mine)
            # insertion sort, descending
            j = n
            while j > 0 and mv[ply, MOVE_SLOTS + j - 1] < sc:
                mv[ply, j] = mv[ply, j - 1]
                mv[ply, MOVE_SLOTS + j] = mv[ply, MOVE_SLOTS + j - 1]
                mv[ply, 2 * MOVE_SLOTS + j] = mv[ply, 2 * MOVE_SLOTS + j - 1]
                j -= 1
            mv[ply, j] = card
            mv[ply, MOVE_SLOTS + j] = sc
            mv[ply, 2 * MOVE_SLOTS + j] = seq_low
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
F_LENS = 7
F_W1 = 8
F_W2 = 9
F_CARD = 10  # the card played at this ply (the trick's cards are plies ply-pos .. ply)
F_T = np.int64(11)  # 4 fields: per suit, the lowest rank the node's answer depends on (16: none)
F_Q = np.int64(15)  # 4 fields: scratch for the quick-trick bound's ranks
F_Q2 = np.int64(19)  # 4 more
F_LW = 23  # 4 fields: per suit, the lowest rank still worth trying (0: every card)
F_WIN = 27  # at a trick's fourth card: the winning card if it won on rank (else -1)
F_PASS = 28  # probing node: 0 not probing, k >= 1 the pass (node budget PROBE_NODES * 4^(k-1))
F_UNK = 29  # probing node: the moves whose probe ran out of budget (bit per move index)
F_LIM = 30  # probing node with a probe running: its node limit
F_OUTER = 31  # ... P_PROBE before it started (the running probe above it, a chain)
F_MINLIM = 32  # ... the smallest limit of it and the probes above it
F_BP = 33  # the position in the trick (0: the lead) of the card winning it so far (this ply's too)
F_R = 34  # at a trick boundary: the cards each hand holds
F_TM = 35  # the cards played to the trick so far, this ply's included (bit s * 16 + rank)
F_KILL = 36  # KILL_FIELDS fields: per seat, the last two cards with which that seat's lead at
# this ply cut off (a bonus for its next lead there; a card is only offered to its holder)
KILL_FIELDS = 8
F_SIZE = F_KILL + KILL_FIELDS


@njit(**JIT_NONRT)
def _won_on_rank(wc, tm):
    """The trick's winning card ``wc`` if the trick (its cards: mask ``tm``, bit s * 16 +
    rank) was won on rank, i.e. another card of the winner's suit was played to it (then that
    rank matters), else -1."""
    return wc if popcount((tm >> (16 * (wc >> 4))) & 0xFFFF) >= 2 else -1


@njit(**JIT_NONRT)
def _trick_relevance(fr, last, trump, row):
    """If the trick ending at ply ``last`` was won on rank, that rank matters (lower ``t`` of
    its suit to it)."""
    base = last - 3
    bp = winning_pos(fr, base, np.int64(4), trump)
    tm = I0
    for j in range(base, base + 4):
        tm |= 1 << fr[j, F_CARD]
    wc = _won_on_rank(fr[base + bp, F_CARD], tm)
    if wc >= 0 and (wc & 15) < fr[row, F_T + (wc >> 4)]:
        fr[row, F_T + (wc >> 4)] = wc & 15


@njit(**JIT_NONRT, inline="always")  # (its only caller is search: one copy)
def _enter(hl, ttk, ttd, mv, P, fr, ply, target):
    """Open the node at ``ply`` (its frame holds leader, pos, won): 1 / 0 if its answer is
    known at once (terminal, bounds, table), else -1 after generating its moves. Sets the
    node's relevant ranks ``fr[ply, F_T..]`` for answers known at once."""
    trump = P[P_TRUMP]
    countmask = P[P_COUNTMASK]
    exact = P[P_EXACT]
    leader = fr[ply, F_LEADER]
    pos = fr[ply, F_POS]
    won = fr[ply, F_WON]
    seat = (leader + pos) & 3
    fr[ply, F_ISMAX] = (P[P_MAXMASK] >> seat) & 1
    # fr[ply, F_T + s]: the node's relevant ranks (indexed directly: no array views here,
    # a view costs a reference count per node)
    for s in range(4):
        fr[ply, F_T + s] = 16
    if pos == 0:
        P[P_TRICKS] += 1
        r = hand_size(hl, seat)
        fr[ply, F_R] = r
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
            # last trick: no choices left; play it into the frames to find the winner
            for i in range(4):
                st = (leader + i) & 3
                for s in range(4):
                    if hl[st * 4 + s] != 0:
                        fr[ply + i, F_CARD] = s * 16 + lowbit_index(hl[st * 4 + s])
            bp = winning_pos(fr, ply, np.int64(4), trump)
            _trick_relevance(fr, ply + 3, trump, ply)
            add = (countmask >> ((leader + bp) & 3)) & 1
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
                        cut = -1
                        if (countmask >> st) & 1:
                            if exact:
                                if k > need:
                                    cut = 0
                            elif k >= need:
                                cut = 1
                        elif r - k < need:
                            cut = 0
                        if cut >= 0:
                            fr[ply, F_T + trump] = kth_rank(ut, k)
                            return cut
                        break
                # the other side takes two trump tricks: decisive when the counted side needs
                # all tricks but one (it plays to win them)
                if (not exact and need >= r - 1 and P[P_MAXMASK] == countmask
                        and split_top_trumps(hl, trump, countmask)):
                    fr[ply, F_T + trump] = kth_rank(ut, np.int64(2))
                    return 0
                # a trick with a trump sitting just after every higher one (or with the second
                # and third trumps): for the counted side when it needs one, for the other side
                # when the counted side needs them all
                # (r > 1 here, so at most one of the two cases applies)
                if not exact and P[P_MAXMASK] == countmask:
                    scorer = -1  # the side not on lead that a trick would settle it for
                    if need == 1 and ((countmask >> seat) & 1) == 0:
                        scorer = countmask
                    elif need == r and ((countmask >> seat) & 1) == 1:
                        scorer = 15 ^ countmask
                    if scorer >= 0:
                        depth = trump_behind_rho(hl, trump, scorer)
                        if depth == 0 and second_and_third_trumps(hl, trump, scorer):
                            depth = 3
                        if depth > 0:
                            fr[ply, F_T + trump] = kth_rank(ut, depth)
                            return 1 if scorer == countmask else 0
                # every hand's trumps, each winning unless a higher trump of the other side
                # falls on the same trick (depends on who holds every trump)
                # (each bound is at most the longest trump holding of its side: skip the
                # count when even that could not decide)
                mc = 0
                mo = 0
                for h in range(4):
                    k = popcount(hl[h * 4 + trump])
                    if (countmask >> h) & 1:
                        if k > mc:
                            mc = k
                    elif k > mo:
                        mo = k
                lo = 0
                hi = 0
                if r - mo < need or mc >= need + exact:
                    lo, hi = trump_bounds(hl, trump, countmask)
                cut = -1
                if r - hi < need:
                    cut = 0
                elif exact:
                    if lo > need:
                        cut = 0
                elif lo >= need:
                    cut = 1
                if cut >= 0:
                    fr[ply, F_T + trump] = lowbit_index(ut)
                    return cut
        # (not in the plain max game: there the quick tricks and the table settle the same
        # positions, on fewer ranks; its cuts cost 0.3-6% more nodes, docs/PERFORMANCE.md)
        if exact or P[P_MAXMASK] != countmask:
            c = side_bound(hl, seat, trump, countmask, P[P_MAXMASK] == countmask, need, exact, fr,
                           ply, F_T)
            if c >= 0:
                return c
        # the side on lead cannot take every trick past the other side's stoppers: decisive
        # when the counted side is on lead and needs them all, or needs one against the lead
        if not exact and P[P_MAXMASK] == countmask:
            if (countmask >> seat) & 1:
                if need == r and stoppers(hl, trump, countmask, r, fr, ply, F_T):
                    return 0
            elif need == 1 and stoppers(hl, trump, 15 ^ countmask, r, fr, ply, F_T):
                return 1
        # misère-like game against a lone declarer, the defenders on lead: he can play under
        # every trick (then he takes no more), or they force one on him in one suit
        if (not exact and P[P_MAXMASK] == 15 ^ countmask and popcount(countmask) == 1
                and ((countmask >> seat) & 1) == 0):
            if always_under(hl, trump, lowbit_index(countmask), fr, ply, F_T):
                return 0
            if need == 1 and forced_win(hl, seat, trump, lowbit_index(countmask), fr, ply, F_T):
                return 1
        if ply >= 4:
            lens, w1, w2 = _key_after_trick(hl, fr, ply - 4)
        else:
            lens, w1, w2 = position_key(hl)
        fr[ply, F_LENS] = lens
        fr[ply, F_W1] = w1
        fr[ply, F_W2] = w2
        ans, slot = tt_lookup(ttk, ttd, P, lens, w1, w2, seat, need)
        if ans >= 0:
            for s in range(4):
                m = ttk[7 * slot + 3 + (s >> 1)] >> (32 * (s & 1))
                d = popcount(m & 0x0FFFFFFF) >> 1
                fr[ply, F_T + s] = kth_rank(hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s], d)
            return ans
        # quick tricks of the side on lead (only meaningful in the plain max game)
        if not exact and P[P_MAXMASK] == countmask:
            cut = -1
            if (countmask >> seat) & 1:
                if team_quick_tricks(hl, seat, trump, countmask, r, need, fr, ply, F_Q,
                                     F_Q2) >= need:
                    cut = 1
            elif r - team_quick_tricks(hl, seat, trump, 15 ^ countmask, r, r - need + 1, fr, ply,
                                       F_Q, F_Q2) < need:
                cut = 0
            if cut >= 0:
                for s in range(4):
                    fr[ply, F_T + s] = fr[ply, F_Q + s]
                return cut
    elif not exact:
        # inside a trick: decided when the trick's winner is known and this trick settles the
        # question (the counted side needs just one more, or can lose none)
        need = target - won
        r = fr[ply - pos, F_R]  # (this hand has not played to the trick yet)
        if need == 1 or need == r:
            c = sure_trick(hl, fr, ply, leader, pos, trump, countmask, P[P_MAXMASK] == countmask,
                           fr[ply - 1, F_BP])
            if c >= 0 and (need == 1 if c >= 64 else need == r):
                fr[ply, F_T + ((c >> 4) & 3)] = c & 15
                return 1 if c >= 64 else 0
    P[P_NODES] += 1
    fr[ply, F_NM] = _gen_moves(hl, fr, P, seat, pos, leader, mv, ply)
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
        lose = _ALL15 & ~((1 << need) - 1)
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
            and P[P_EXACT] == 0 and P[P_MAXMASK] == 15 ^ countmask
            and popcount(countmask) == 1):
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


@njit(**JIT_NONRT)
def search(hl, ttk, ttd, mv, fr, P, leader, target):
    """Can the maximising seats make the counted tricks reach ``target``? 1 / 0, or -1 if
    ``P[P_ABORT]`` was set while it ran (it gives up: a batch's time limit). (``leader`` on
    lead at a trick boundary; ``hl`` is restored on return.) The body of every solver entry
    point.

    Depth-first AND/OR search with an explicit stack (``fr``, one frame per card played):
    numba caches non-recursive code reliably, and there is no call overhead per node. Leads
    are ordered by heuristics (``_gen_moves``), with a bonus for the last two cards that cut
    off a lead at the same ply (killer moves). Each
    node also returns the ranks its answer depended on (``fr[ply, F_T..]``): a trick won on
    rank makes the winning rank matter; a node that tried all its moves also keeps the ranks
    of any group of equivalent cards straddling what matters (only the top one was tried).
    """
    trump = P[P_TRUMP]
    countmask = P[P_COUNTMASK]
    ply = I0
    fr[0, F_LEADER] = leader
    fr[0, F_POS] = 0
    fr[0, F_WON] = 0
    P[P_PROBE] = 0
    # only a misère defence probes (see _probe_setup): in other games no node ever does
    probing = (P[P_EXACT] == 0 and P[P_MAXMASK] == 15 ^ countmask
               and popcount(countmask) == 1)
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
            val = _enter(hl, ttk, ttd, mv, P, fr, ply, target)
            if val < 0:
                if (P[P_NODES] & ABORT_EVERY) == 0 and fetch_add(P, P_ABORT, I0) != 0:
                    # asked to give up (an atomic read: another thread sets it)
                    _take_back(hl, fr, ply, I0)
                    return -1
                if P[P_PROBE] > 0 and P[P_NODES] > P[P_LIMIT]:
                    # a probe ran out of budget (the outermost such): undo its cards,
                    # note its move as unknown, go on with its node's next move
                    pp = -1
                    q = P[P_PROBE] - 1
                    while q >= 0:
                        if P[P_NODES] > fr[q, F_LIM]:
                            pp = q
                        q = fr[q, F_OUTER] - 1
                    _take_back(hl, fr, ply, pp)
                    ply = pp
                    fr[ply, F_UNK] |= 1 << fr[ply, F_IDX]
                    fr[ply, F_IDX] += 1
                    _end_probe(P, fr, ply)
                elif probing:
                    _probe_setup(P, fr, ply, countmask)
                continue
        if val < 0:
            # expand: play the next move of the node at ply, passing over small cards of a
            # suit whose first small card was tried in vain (see the cut-off test below)
            # (a probing node's later passes take only the moves whose probes ran out)
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
            if i >= nm:
                # every move tried without a cut-off
                val = 1 - fr[ply, F_ISMAX]
                for k in range(fr[ply, F_NM]):
                    c = mv[ply, k]
                    s = c >> 4
                    lo = mv[ply, 2 * MOVE_SLOTS + k]
                    th = fr[ply, F_T + s]
                    if (c & 15) >= th > lo:
                        fr[ply, F_T + s] = lo
                if fr[ply, F_POS] == 0:
                    _close(hl, ttk, ttd, P, fr, ply, val)
            else:
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
                    fr[ply, F_WIN] = _won_on_rank(fr[base + bp, F_CARD], fr[ply, F_TM])
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
                ply += 1
                entering = True
                continue
        # val is the answer of the node at ply: hand it to the parent
        if ply == 0:
            return 1 if val == 1 else 0
        ply -= 1
        if P[P_PROBE] == ply + 1:
            _end_probe(P, fr, ply)  # the probe finished within its budget
        i = fr[ply, F_IDX]
        card = mv[ply, i]
        seat = (fr[ply, F_LEADER] + fr[ply, F_POS]) & 3
        hl[seat * 4 + (card >> 4)] ^= 1 << (card & 15)
        if fr[ply, F_POS] == 3:
            # the trick was won on rank: that rank matters (see _trick_relevance)
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
        else:
            for s in range(4):
                if fr[ply + 1, F_T + s] < fr[ply, F_T + s]:
                    fr[ply, F_T + s] = fr[ply + 1, F_T + s]
            # the card failed, and so far nothing below its rank mattered in its suit: any
            # other card of the suit below the lowest rank that matters leads to a position
            # that agrees with this one on every card that matters, so fails too. Try one
            # small card per suit only (DDS's "lowest win"; sound by the same argument as the
            # table's generalisation)
            s = card >> 4
            th = fr[ply, F_T + s]
            if fr[ply, F_LW + s] == 0 and (card & 15) < th:
                fr[ply, F_LW + s] = th
            fr[ply, F_IDX] = i + 1
            val = -1
