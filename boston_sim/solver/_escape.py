"""Misère escapes: sound tests that a lone declarer can lose every trick from a trick boundary
(the defenders cooperate to give him one). A test that holds ends the search of the position:
an escape is otherwise proved only by refuting every defence, which is where misère searches
spend their time.

The tests reason suit by suit, as Preferans misère analysis does (JPref's
``CardList.getUnwantedTricks`` counts, per suit and per side on lead, the tricks the misère
player is forced to take, and calls a misère clean when no suit has such a hole and, if he
leads first, one suit gives him a safe first lead); here each suit's argument is a proof that
holds whatever happens in the other suits, and the proofs combine because the declarer's
discards are chosen to keep every one of them.

* ``ducks_for_rounds``: the declarer plays under every lead of the suit for as many rounds as
  the suit can still be led (a round costs its longest defender a card).
* ``suit_safe`` (``_suit_game``): no defence can catch him in the suit even when it may
  choose the leader of every round and drop its cards of the suit at will (a search of
  that relaxed game on the suit alone, memoised): where the defenders' cards must follow
  to the same rounds, it proves suits that ``ducks_for_rounds`` cannot.
* ``guarded``: one defender holds only cards above all of the declarer's in the suit, and
  cannot be made void in it before him (a count over the other suits' lengths).

The memo of ``suit_safe`` is the tail of the worker's table data (``memo``: ``ttd``).
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import highbit_index, lowbit_index, popcount
from ._jit import njit
from ._layout import F_BP, F_T, F_TM, I0, NT
from ._suit_game import suit_safe

# (numpy scalars, and I0 to start a sum passed on: a Python int given to a kernel compiles a
# copy of it per value)
ALL_ROUNDS = np.int64(16)  # no cap on the rounds of ``ducks_for_rounds``
NO_LEAD = np.int64(-1)  # ``_suits_escape`` with the defenders on lead
MAX_GUARDS = 2  # suits resting on ``guarded`` (a third would need more spare tricks)


@njit(**JIT_NONRT, inline="always")
def _others(hl, s, d):
    """The defenders' cards of suit ``s`` (all seats but ``d``) and their longest holding."""
    e = I0
    longest = I0
    for o in range(4):
        if o != d:
            e |= hl[o * 4 + s]
            k = popcount(hl[o * 4 + s])
            if k > longest:
                longest = k
    return e, longest


@njit(**JIT_NONRT, inline="always")
def defenders_lowest(hl, d, s):
    """The highest of the defenders' lowest cards in suit ``s`` (-1 when none holds it): a
    declarer's card below it loses to whichever defender follows."""
    over = -1
    for o in range(4):
        if o != d and hl[o * 4 + s] != 0:
            lo = lowbit_index(hl[o * 4 + s])
            if lo > over:
                over = lo
    return over


@njit(**JIT_NONRT)
def ducks_for_rounds(x, e, rounds):
    """Is the ``i``-th lowest card of the declarer's holding ``x`` below the ``i``-th lowest of
    the defenders' cards ``e``, for ``i`` up to ``rounds`` (and the shorter holding)?

    Why it suffices while the suit can be led at most ``rounds`` more times (each round costs
    every defender holding it a card, so its longest holding bounds the rounds): whoever
    leads ``e_1``, the declarer's lowest card is below it; he plays his highest card below the
    lead, which loses. Removing that pair, any other card of the defenders (played to the
    round or discarded) and a round keeps the condition (a greedy matching of his cards to
    theirs below them), and so does his discard of the highest card of a suit."""
    i = 0
    while x != 0 and e != 0 and i < rounds:
        if (x & -x) > (e & -e):
            return False
        x &= x - 1
        e &= e - 1
        i += 1
    return True


@njit(**JIT_NONRT, inline="always")
def _pairs_below(x, e):
    """How many of the lowest cards of ``x`` lie each below the card of ``e`` of the same
    order (the ``i``-th lowest of ``x`` below the ``i``-th lowest of ``e``, from ``i`` = 1)."""
    n = 0
    while x != 0 and e != 0 and (x & -x) < (e & -e):
        x &= x - 1
        e &= e - 1
        n += 1
    return n


@njit(**JIT_NONRT)
def suit_ducks(hl, s, d):
    """``ducks_for_rounds`` for seat ``d``'s holding of suit ``s`` against the other hands',
    for as many rounds as the suit can still be led."""
    e, longest = _others(hl, s, d)
    return ducks_for_rounds(hl[d * 4 + s], e, longest)


@njit(**JIT_NONRT)
def guarded(hl, s, d, spare, shed):
    """Suit ``s`` is safe for the declarer ``d`` because of a guard: a defender ``g`` whose
    cards of ``s`` all rank above the declarer's, and whose surplus ``g_s - d_s`` covers
    ``spare`` plus, over the other suits ``u``, ``max(0, min(d_u, L_u) - g_u)`` (``L_u``: the
    defenders' longest holding of ``u``, a bound on the rounds of ``u`` still to come).

    While ``g`` holds the suit, every trick led in it is his or a teammate's (he must follow
    above the declarer). His right-hand opponent may also hold lower cards if they pair off
    above the declarer's (``ducks_for_rounds``): he plays before the declarer to every trick
    the defenders lead, and the declarer plays under his card.
    ``g`` loses the suit faster than the declarer only by discarding it in a round of a suit
    ``u`` that he no longer holds while the declarer must follow (at most
    ``min(d_u, L_u) - g_u`` such rounds, each lowering that term by one), or while the
    declarer, void too, discards elsewhere (``spare`` such tricks, see ``_suits_escape``; one
    more for a seat of ``shed``, still to play to the trick under way).
    A discard of ``g`` in another suit raises its term by at most one; when the declarer
    cannot follow he discards from ``s``. So the surplus never falls below the sum, which is
    never negative: ``g`` holds the suit as long as the declarer does.
    The guard may fall short by as many cards as the declarer's lowest cards pair off below
    the defenders' lowest (``_pairs_below``): he keeps those for last (a guard above all his
    cards: he plays his highest while ``g`` holds the suit; his right-hand opponent: his other
    cards pair off under the opponent's), and they then duck every round left
    (``ducks_for_rounds``)."""
    x = hl[d * 4 + s]
    if x == 0:
        return True
    top = highbit_index(x)
    rho = (d + 3) & 3
    tail = _pairs_below(x, _others(hl, s, d)[0])
    for g in range(4):
        gs = hl[g * 4 + s]
        if g == d or gs == 0 or (lowbit_index(gs) < top and g != rho):
            continue
        # the cards ``g`` may fall short by (one more if he may still discard to this trick)
        short = popcount(x) - popcount(gs) + spare + ((shed >> g) & 1)
        for u in range(4):
            if u != s:
                _, lu = _others(hl, u, d)
                short += max(0, min(popcount(hl[d * 4 + u]), lu) - popcount(hl[g * 4 + u]))
        if short > tail:
            continue
        if lowbit_index(gs) > top:
            return True
        # the right-hand opponent: the declarer's cards above the ``short`` lowest pair off
        # under his, and take his cards while he holds the suit
        upper = x
        for _ in range(max(short, 0)):
            upper &= upper - 1
        if ducks_for_rounds(upper, gs, ALL_ROUNDS):
            return True
    return False


@njit(**JIT_NONRT)
def _suits_escape(hl, d, led, c, shed, tb, row, col, memo):
    """Every suit safe for ``d`` with the defenders on lead (``led`` = -1), or after his lead
    of card ``c`` in suit ``led`` (that suit then holds one round less and counts without
    ``c``; it must pass ``ducks_for_rounds`` or ``suit_safe``).

    The other suits pass ``ducks_for_rounds`` or ``suit_safe`` or, for at most two,
    ``guarded``. Void in the suit led, the declarer discards from a guarded suit whose guard
    is void in it too. With two guards both void there, one of them may discard his guarded
    suit unanswered: that happens only in rounds of the other suits after the declarer's
    cards of them are gone (he keeps them while he holds both guarded suits), at most
    ``max(0, L_u - d_u)`` rounds of suit ``u``: the ``spare`` each guard must also cover."""
    weak = 0  # the suits failing ``ducks_for_rounds`` and ``suit_safe``
    for s in range(4):
        x = hl[d * 4 + s]
        e, longest = _others(hl, s, d)
        if x == 0 or e == 0:
            continue
        if s == led:
            rest = x & ~(1 << c)
            if not ducks_for_rounds(rest, e, longest - 1) and not suit_safe(hl, s, d, rest, memo):
                return False
        elif not ducks_for_rounds(x, e, longest) and not suit_safe(hl, s, d, x, memo):
            weak |= 1 << s
    if popcount(weak) > MAX_GUARDS:
        return False
    spare = I0
    if popcount(weak) > 1:
        for u in range(4):
            if not (weak >> u) & 1:
                _, lu = _others(hl, u, d)
                spare += max(0, lu - popcount(hl[d * 4 + u]))
    for s in range(4):
        if (weak >> s) & 1 and not guarded(hl, s, d, spare, shed):
            return False
    for s in range(4):
        tb[row, col + s] = 16
        x = hl[d * 4 + s]
        e, _ = _others(hl, s, d)
        if x != 0 and e != 0:
            tb[row, col + s] = lowbit_index(x | e)
    return True


@njit(**JIT_NONRT)
def escapes(hl, trump, d, tb, row, col, memo):
    """Misère game, the defenders on lead: can the lone declarer ``d`` (no trump in his hand,
    or no trumps) lose every trick from here? Yes when every suit both sides hold passes
    ``ducks_for_rounds`` or ``suit_safe`` or, for up to two suits, ``guarded``.
    ``tb[row, col + s]``: the lowest rank of each suit both sides hold (the tests read the
    order of all its cards; lengths are in every table key), 16 for the others."""
    if trump != NT and hl[d * 4 + trump] != 0:
        return False
    return _suits_escape(hl, d, NO_LEAD, I0, I0, tb, row, col, memo)


@njit(**JIT_NONRT)
def escapes_on_lead(hl, trump, d, tb, row, col, memo):
    """Misère game, the lone declarer ``d`` on lead: has he a lead that loses, after which
    ``escapes`` holds? A lead of ``c`` loses when a defender holds only higher cards of its
    suit (he must play one; a ruff wins it too). Tries, per suit, the highest such card (the
    others left are then the lowest possible). The tests run on the holdings before the lead
    (the defenders' cards played to it only help him) with the led suit's rounds one fewer."""
    if trump != NT and hl[d * 4 + trump] != 0:
        return False
    for s in range(4):
        x = hl[d * 4 + s]
        if x == 0:
            continue
        over = defenders_lowest(hl, d, s)
        below = x & ((1 << over) - 1) if over > 0 else 0
        if below != 0 and _suits_escape(hl, d, s, highbit_index(below), I0, tb, row, col,
                                            memo):
            return True
    return False


@njit(**JIT_NONRT, inline="always")
def escapes_in_trick(hl, fr, ply, leader, pos, trump, d, memo):
    """Misère game inside a trick (``pos`` cards played, the search's frames ``fr``): has the
    lone declarer ``d`` played a card already beaten (the later cards cannot make it win), and
    does ``escapes`` hold on the hands as they are? Then he loses every trick: the cards
    still to come to this trick only leave the defenders fewer (``ducks_for_rounds``), but a
    guard still to play may discard his guarded suit, or follow in a suit the declarer has
    already played to (his count against the guard then moves by one): one card of margin
    each (``guarded``'s ``shed``). Sets the node's relevant ranks ``fr[ply, F_T..]`` to the lowest
    card of each suit, those of the trick included: the answer needs the whole position."""
    dp = (d - leader) & 3
    if dp >= pos or fr[ply - 1, F_BP] == dp:
        return False
    if trump != NT and hl[d * 4 + trump] != 0:
        return False
    shed = I0  # the seats still to play: each may cost a guard one card (see ``guarded``)
    for i in range(pos, 4):
        shed |= 1 << ((leader + i) & 3)
    if not _suits_escape(hl, d, NO_LEAD, I0, shed, fr, ply, F_T, memo):
        return False
    for s in range(4):
        u = hl[s] | hl[4 + s] | hl[8 + s] | hl[12 + s] | ((fr[ply - 1, F_TM] >> (16 * s)) & 0xFFFF)
        fr[ply, F_T + s] = lowbit_index(u) if u != 0 else 16
    return True
