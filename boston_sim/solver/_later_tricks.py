"""The other sound bounds at a trick boundary (DDS's ``LaterTricks`` and kin): sure trump
tricks, stoppers, and the exact shortcuts of the misère defence against a lone declarer
(his escapes: ``_escape``).
Each test also reports the ranks its answer relies on, for partition search.
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import highbit_index, lowbit_index, popcount
from ._escape import escapes, escapes_on_lead
from ._jit import njit
from ._layout import F_T, NT, is_lone_misere, is_max_game, other_side
from ._trick import kth_rank, top_run


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
    opp = other_side(countmask)
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


@njit(**JIT_NONRT, inline="always")
def trump_cut(hl, fr, ply, seat, trump, countmask, max_game, exact, need, r):
    """At a trick boundary of a trump game (``need`` of the ``r`` tricks left still needed):
    1 / 0 if the trumps alone settle the question, else -1. Sets the trump rank the answer
    relies on (``fr[ply, F_T + trump]``)."""
    ut = hl[trump] | hl[4 + trump] | hl[8 + trump] | hl[12 + trump]
    if ut == 0:
        return -1
    # the top trumps of one hand win tricks whatever anyone does
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
    # the other side takes two trump tricks: decisive when the counted side needs all tricks
    # but one (it plays to win them)
    if not exact and need >= r - 1 and max_game and split_top_trumps(hl, trump, countmask):
        fr[ply, F_T + trump] = kth_rank(ut, np.int64(2))
        return 0
    # a trick with a trump sitting just after every higher one (or with the second and third
    # trumps): for the counted side when it needs one, for the other side when the counted
    # side needs them all (r > 1 here, so at most one of the two cases applies)
    if not exact and max_game:
        scorer = -1  # the side not on lead that a trick would settle it for
        if need == 1 and ((countmask >> seat) & 1) == 0:
            scorer = countmask
        elif need == r and ((countmask >> seat) & 1) == 1:
            scorer = other_side(countmask)
        if scorer >= 0:
            depth = trump_behind_rho(hl, trump, scorer)
            if depth == 0 and second_and_third_trumps(hl, trump, scorer):
                depth = 3
            if depth > 0:
                fr[ply, F_T + trump] = kth_rank(ut, depth)
                return 1 if scorer == countmask else 0
    # every hand's trumps, each winning unless a higher trump of the other side falls on the
    # same trick (depends on who holds every trump); each bound is at most the longest trump
    # holding of its side: skip the count when even that could not decide
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


@njit(**JIT_NONRT, inline="always")
def later_tricks_cut(hl, fr, ply, seat, trump, countmask, maxmask, exact, need, r, memo):
    """At a trick boundary: 1 / 0 if a sure-trick test settles the question, else -1. Sets
    the ranks the answer relies on (``fr[ply, F_T..]``). ``memo``: the escape tests' memo
    (the worker's table data, ``_suit_game``)."""
    max_game = is_max_game(maxmask, countmask)
    # (not in the plain max game: there the quick tricks and the table settle the same
    # positions, on fewer ranks)
    if exact or not max_game:
        c = side_bound(hl, seat, trump, countmask, max_game, need, exact, fr, ply, F_T)
        if c >= 0:
            return c
    # the side on lead cannot take every trick past the other side's stoppers: decisive when
    # the counted side is on lead and needs them all, or needs one against the lead
    if not exact and max_game:
        if (countmask >> seat) & 1:
            if need == r and stoppers(hl, trump, countmask, r, fr, ply, F_T):
                return 0
        elif need == 1 and stoppers(hl, trump, other_side(countmask), r, fr, ply, F_T):
            return 1
    # misère-like game against a lone declarer: he can lose every trick from here (then he
    # takes no more), or, the defenders on lead, they force one on him in one suit
    if not exact and is_lone_misere(maxmask, countmask):
        d = lowbit_index(countmask)
        if seat != d:
            if escapes(hl, trump, d, fr, ply, F_T, memo):
                return 0
            if need == 1 and forced_win(hl, seat, trump, d, fr, ply, F_T):
                return 1
        elif escapes_on_lead(hl, trump, d, fr, ply, F_T, memo):
            return 0
    return -1
