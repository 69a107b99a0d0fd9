"""The misère declarer's game in one suit: a sound test that no defence can make him win a
trick of that suit, by a search of a relaxed game on the suit alone (memoised).

The relaxed game (suit ``s``, the lone declarer ``D`` and the defenders in play order after
him, left, across and right, each with his cards of ``s``): rounds of ``s`` are played until
the defenders hold none; the defenders choose who leads each round, and before any round any
of them may give up all his cards of ``s`` for good; in a round every defender still holding
``s`` follows, and so does ``D`` while he holds it. The defence wins if ``D``'s card wins a
round. It is stronger than the real defence of ``s``, so if it cannot catch ``D`` neither can
the real one (``_escape`` then counts the suit as safe):

* in the real game the winner of the last trick leads; here the defenders choose;
* a real defender's cards of ``s`` leave his hand by following to ``s`` or by discards on
  other suits. Here he may only drop all of them at once; but holding a card he would have
  discarded costs him nothing: he must follow to every round either way, may play that card
  to one of them, and may still drop the rest later;
* ``D``'s own discards (void in the suit led) and any card the defenders lose only help him:
  the game never turns safe when he keeps his highest card of ``s`` or a defender gains a
  card (both checked against this search in the tests).

In a round ``D`` plays the highest card that is sure to lose: one below a card played before
him, or below every card of a defender still to play (who must follow above it). Keeping his
lower cards is never worse for him, and if no card is sure to lose, the defenders after him
play under his card and he wins the round.

Only how each defender's cards lie between ``D``'s matters (every comparison that decides a
round is with a card of ``D``). The memo's key is the suit in that form (``canonical``): the
cards ranked afresh from 0, each run of defenders' cards between two of ``D``'s ordered
left, across, right. The answers depend on the suit alone, so the memo is never cleared.
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import highbit_index
from ._jit import njit

SUIT_MEMO_BITS = 18
SUIT_MEMO = 1 << SUIT_MEMO_BITS
"""Memo entries, kept at the end of a worker's table data (``ttd``): answers of suits seen."""
_KEY_BITS = 14  # per seat in a memo key: a lane holds at most 14 cards (the boston card)
_CAUGHT = 1  # a memo entry's answer (its low two bits; 0: an empty slot)
_SAFE = 2
_HASH = np.int64(0x5851F42D4C957F2D)  # multiplier of the memo's hash
NO_CARD = np.int64(1) << 62  # a seat that plays no card to the round (void, or not in it)


@njit(**JIT_NONRT)
def canonical(d, left, across, right):
    """The suit as positions ``0..n-1`` (bit ``i`` = the ``i``-th lowest card), each run of
    defenders' cards between two of ``D``'s ordered left, across, right: the same form for
    every suit whose cards lie the same way around ``D``'s."""
    u = d | left | across | right
    out_d = 0
    out_l = 0
    out_p = 0
    out_r = 0
    pos = 0
    nl = 0
    np_ = 0
    nr = 0
    while True:
        b = u & -u
        if b == 0 or (d & b) != 0:
            # the run below this card of D's (or the top run): left's, across's, right's
            out_l |= ((1 << nl) - 1) << pos
            pos += nl
            out_p |= ((1 << np_) - 1) << pos
            pos += np_
            out_r |= ((1 << nr) - 1) << pos
            pos += nr
            nl = 0
            np_ = 0
            nr = 0
            if b == 0:
                break
            out_d |= 1 << pos
            pos += 1
        elif left & b:
            nl += 1
        elif across & b:
            np_ += 1
        else:
            nr += 1
        u ^= b
    return out_d, out_l, out_p, out_r


@njit(**JIT_NONRT)
def _choices(g):
    """A seat's distinct cards for a round, in canonical form: the lowest of each run (the
    cards of one run are equivalent), or ``NO_CARD`` when it holds none."""
    return g & ~(g << 1) if g != 0 else NO_CARD


@njit(**JIT_NONRT)
def _card(c):
    """A choice as a card (``NO_CARD``: none, 0)."""
    return 0 if c == NO_CARD else c


@njit(**JIT_NONRT)
def caught(d, left, across, right, memo, base):
    """Can the relaxed game's defence make ``D`` win a round? (Holdings in canonical form;
    ``memo[base:base + SUIT_MEMO]`` the memo.) Seats 1, 2, 3 (left, across, right) from
    the leader ``ld`` up play before ``D`` (seat 0), those below it after him."""
    if d == 0 or (left | across | right) == 0:
        return False
    key = d | (left << _KEY_BITS) | (across << (2 * _KEY_BITS)) | (right << (3 * _KEY_BITS))
    h = (key ^ (key >> 19) ^ (key >> 37)) * _HASH
    slot = base + ((h >> 20) & (SUIT_MEMO - 1))
    if memo[slot] != 0 and (memo[slot] >> 2) == key:
        return (memo[slot] & 3) == _CAUGHT
    held = (2 if left != 0 else 0) | (4 if across != 0 else 0) | (8 if right != 0 else 0)
    found = False
    # the defenders staying in the suit (a subset of those holding it), then the leader
    for stay in range(2, 16, 2):
        if found:
            break
        if stay & ~held:
            continue
        g1 = left if stay & 2 else 0
        g2 = across if stay & 4 else 0
        g3 = right if stay & 8 else 0
        for ld in range(1, 4):
            if found or not (stay >> ld) & 1:
                continue
            # a defender after D whose every card is above D's card beats it
            floor = 0
            if ld > 1 and g1 != 0:
                floor = g1 & -g1
            if ld > 2 and g2 != 0:
                floor = max(floor, g2 & -g2)
            x1 = _choices(g1)
            while x1 != 0 and not found:
                c1 = x1 & -x1
                x1 ^= c1
                x2 = _choices(g2)
                while x2 != 0 and not found:
                    c2 = x2 & -x2
                    x2 ^= c2
                    x3 = _choices(g3)
                    while x3 != 0 and not found:
                        c3 = x3 & -x3
                        x3 ^= c3
                        k1 = _card(c1)
                        k2 = _card(c2)
                        k3 = _card(c3)
                        top = max(k1 if ld == 1 else 0, k2 if ld <= 2 else 0, k3)
                        lose = d & (max(top, floor) - 1)
                        if lose == 0:
                            found = True  # every card of his wins the round
                        else:
                            nd = d ^ (1 << highbit_index(lose))  # he plays his highest
                            q0, q1, q2, q3 = canonical(nd, g1 ^ k1, g2 ^ k2, g3 ^ k3)
                            found = caught(q0, q1, q2, q3, memo, base)
    memo[slot] = (key << 2) | (_CAUGHT if found else _SAFE)
    return found


@njit(**JIT_NONRT)
def suit_safe(hl, s, d, x, memo):
    """Can no defence make the lone declarer ``d``, holding ``x`` in suit ``s``, win a trick
    of ``s`` (the relaxed game on the defenders' cards of ``s`` in ``hl``)? ``memo``: an
    array whose last :data:`SUIT_MEMO` entries are the memo."""
    q0, q1, q2, q3 = canonical(x, hl[((d + 1) & 3) * 4 + s], hl[((d + 2) & 3) * 4 + s],
                               hl[((d + 3) & 3) * 4 + s])
    return not caught(q0, q1, q2, q3, memo, memo.shape[0] - SUIT_MEMO)
