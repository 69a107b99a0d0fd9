"""The transposition table (partition search, DDS's ``TransTable``).

Entries are made at trick boundaries only. A search also returns, per suit, the lowest rank
its answer depended on; the entry then stores the suit lengths of every hand, the owners of
only those top cards that mattered (in relative terms: 1st, 2nd, ... highest remaining card)
and the leader. Any later position with the same lengths, the same owners of those top cards
and the same leader has the same answer, whatever its smaller cards and whatever was played
before. Each entry holds two 15-bit sets over "tricks still needed" (known reachable / known
unreachable), which serves both the monotone games (bounds) and the exact game. No best move
is kept: an entry that matches a position settles every question it has an answer for, so a
stored move could only be offered for another number of tricks needed, a different question.
"""

from __future__ import annotations

from ..config import JIT, JIT_NONRT
from ._bits import compiler_fence, highbit_index, popcount
from ._jit import njit
from ._layout import (
    F_CARD,
    F_LEADER,
    F_LENS,
    F_TM,
    F_W1,
    F_W2,
    I0,
    K_LENS,
    K_M1,
    K_M2,
    K_NEXT,
    K_SERIAL,
    K_SIZE,
    K_W1,
    K_W2,
    P_FREE,
    P_GEN,
    P_POOL,
    P_TTMASK,
)

# the data word of an entry: ``ttd[slot]``
_WIN_SHIFT = 0  # 15 bits: tricks-needed values known reachable
_LOSE_SHIFT = 15  # 15 bits: known unreachable
_LEAD_SHIFT = 30  # 2 bits
ALL15 = (1 << 15) - 1
# past this generation the table is cleared (chain heads keep it above a 40-bit serial)
_GEN_LIMIT = (1 << 22) - 1


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
def key_after_trick(hl, fr, prev):
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
#   ttk[K_SIZE*i + K_*] = lens, w1 pattern, w2 pattern, w1 mask, w2 mask, next serial, own serial
#                       (a serial is (generation << 40) | the entry's number in its game)
#   ttd[i]            = reachable / unreachable sets, leader
#   ttd[pool + h]     = chain head for hash h: the serial of the newest entry
#   ttd[pool + heads + 4g .. 4g + 3] = for hash g of (lens, leader), 32 bytes: the shapes that
#                       have a chain (bit t for shape t < 63 in the first word, bit t - 63 of
#                       the second, whose bits 32+ hold the generation), then a 128-bit filter
#                       of the chains stored (bit h % 128 for chain hash h): a lookup skips the
#                       chains whose bit is clear without reading their heads
#   ttd[-SUIT_MEMO:]  = not the table's: the memo of the misère escape tests (``_suit_game``),
#                       kept from game to game (zeroed only with the whole table)
# Positions sharing the lengths are many (every way the small cards can lie), so a chain, not a
# fixed bucket, holds them; splitting the chains by shape and owners leaves a lookup few
# entries to read that cannot match (where every card of a suit matters, as in a lone
# declarer's misère proofs, a chain of top-card owners alone grew to hundreds of entries).
# Entry number ``n`` lives in slot ``n % pool``; when the pool is full the oldest
# entries are overwritten, and a chain simply ends where the slot it points to holds a
# different serial. A new game bumps the generation, emptying every chain, and restarts the
# serials at 0 (``tt_new_game``): its entries go to memory the last game warmed. An older
# game's entry left in a slot with the same serial is never read, since only chains whose head
# carries the current generation are followed, and they point only to entries written since.
# Another worker may read the table while its owner writes it (``_share``): an entry is
# written between its serial set to -1 and set again, and a reader takes it only if the
# serial it followed is there before and after it reads the entry (``tt_lookup_other``).
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


@njit(**JIT_NONRT, inline="always")
def _settles(d, need):
    """1 / 0 if the data word ``d`` settles "need", else -1."""
    if (d >> (_WIN_SHIFT + need)) & 1:
        return 1
    if (d >> (_LOSE_SHIFT + need)) & 1:
        return 0
    return -1


@njit(**JIT_NONRT)
def _scan(ttk, ttd, P, h, lens, w1, w2, leader, need):
    """Scan one chain; returns (answer, slot) as ``tt_lookup``."""
    pmask = P[P_POOL] - 1
    hd = ttd[P[P_POOL] + h]
    if (hd >> 40) != P[P_GEN]:
        return -1, -1
    sr = hd
    while sr >= 0:
        i = sr & pmask
        j = K_SIZE * i
        if ttk[j + K_SERIAL] != sr:
            break
        # (the data word, in another array, is read only for an entry whose key matches)
        if (ttk[j + K_LENS] == lens and ((w1 ^ ttk[j + K_W1]) & ttk[j + K_M1]) == 0
                and ((w2 ^ ttk[j + K_W2]) & ttk[j + K_M2]) == 0):
            d = ttd[i]
            if ((d >> _LEAD_SHIFT) & 3) == leader:
                a = _settles(d, need)
                if a >= 0:
                    return a, i
        sr = ttk[j + K_NEXT]
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
def _lookup(ttk, ttd, P, lens, w1, w2, leader, need):
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
        first = hd
        sr = first
        while sr >= 0:
            i = sr & pmask
            j = K_SIZE * i
            if ttk[j + K_SERIAL] != sr:
                break
            # (the data word, in another array, is read only for an entry whose key matches)
            if (ttk[j + K_LENS] == lens and ttk[j + K_W1] == p1 and ttk[j + K_W2] == p2
                    and ttk[j + K_M1] == m1 and ttk[j + K_M2] == m2):
                d = ttd[i]
                if ((d >> _LEAD_SHIFT) & 3) == leader:
                    win |= (d >> _WIN_SHIFT) & ALL15
                    lose |= (d >> _LOSE_SHIFT) & ALL15
                    ttd[i] = _tt_data(win, lose, leader)
                    return
            sr = ttk[j + K_NEXT]
    n = P[P_FREE]
    P[P_FREE] = n + 1
    slot = n & pmask
    j = K_SIZE * slot
    # (a reader in another thread takes the entry only with this serial before and after)
    ttk[j + K_SERIAL] = -1
    compiler_fence()
    ttk[j + K_LENS] = lens
    ttk[j + K_W1] = p1
    ttk[j + K_W2] = p2
    ttk[j + K_M1] = m1
    ttk[j + K_M2] = m2
    ttk[j + K_NEXT] = first
    ttd[slot] = _tt_data(win, lose, leader)
    compiler_fence()
    serial = (gen << 40) | (n & _SERIAL_MASK)
    ttk[j + K_SERIAL] = serial
    compiler_fence()
    ttd[h] = serial



@njit(**JIT_NONRT, inline="always")
def tt_depth(m1, m2, s):
    """How many top cards of suit ``s`` an entry with masks ``m1``, ``m2`` relies on."""
    m = (m1 if s < 2 else m2) >> (32 * (s & 1))
    return popcount(m & 0x0FFFFFFF) >> 1


@njit(**JIT)
def tt_new_game(P, ttd):
    """Empty the table for a new game: bump the generation (clearing on wrap)."""
    g = P[P_GEN] + 1
    if g > _GEN_LIMIT:
        ttd[:] = 0
        g = 1
    P[P_GEN] = g
    # the new game's entries fill the pool from its start: memory recently used, and so still
    # mapped and cached, instead of the next part of the ring
    P[P_FREE] = 0


@njit(**JIT_NONRT, inline="always")
def tt_lookup(ttk, ttd, P, lens, w1, w2, leader, need):
    """``_lookup``: (answer, m1, m2), the masks of the settling entry (0, 0: none)."""
    a, i = _lookup(ttk, ttd, P, lens, w1, w2, leader, need)
    if a < 0:
        return a, I0, I0
    return a, ttk[K_SIZE * i + K_M1], ttk[K_SIZE * i + K_M2]


@njit(**JIT_NONRT)
def _scan_other(tk, td, r, pool, gen, h, lens, w1, w2, leader, need):
    """``_scan`` of the chain ``h`` of worker ``r``'s table, which its owner may be writing:
    each entry is read between two reads of its serial, and taken only if both are the
    serial followed (generation ``gen``). Returns (answer, m1, m2)."""
    hd = td[r, pool + h]
    if (hd >> 40) != gen:
        return -1, I0, I0
    compiler_fence()
    pmask = pool - 1
    sr = hd
    while sr >= 0:
        i = sr & pmask
        j = K_SIZE * i
        s1 = tk[r, j + K_SERIAL]
        compiler_fence()
        k_lens = tk[r, j + K_LENS]
        k_w1 = tk[r, j + K_W1]
        k_w2 = tk[r, j + K_W2]
        k_m1 = tk[r, j + K_M1]
        k_m2 = tk[r, j + K_M2]
        nxt = tk[r, j + K_NEXT]
        d = td[r, i]
        compiler_fence()
        if s1 != sr or tk[r, j + K_SERIAL] != sr:
            break
        if (k_lens == lens and ((w1 ^ k_w1) & k_m1) == 0 and ((w2 ^ k_w2) & k_m2) == 0
                and ((d >> _LEAD_SHIFT) & 3) == leader):
            a = _settles(d, need)
            if a >= 0:
                return a, k_m1, k_m2
        # (a serial's next is an older entry of its game: the walk ends)
        sr = nxt
    return -1, I0, I0


@njit(**JIT_NONRT)
def tt_lookup_other(tk, td, r, gen, P, lens, w1, w2, leader, need):
    """``tt_lookup`` in worker ``r``'s table (the stacked tables ``tk``, ``td``), reading
    only its entries of generation ``gen`` and writing nothing there (``_share``)."""
    pool = P[P_POOL]
    m = P[P_TTMASK]
    g = pool + m + 1 + 4 * _head(lens, leader, m)
    hi = td[r, g + 1]
    if (hi >> 32) != gen:
        return -1, I0, I0
    for part in range(2):
        x = (hi & _SHAPES_HIGH) if part == 0 else td[r, g]
        while x != 0:
            b = highbit_index(x)
            x ^= 1 << b
            t = b + (_SHAPES_LOW if part == 0 else 0)
            h = _chain(lens, leader, t, w1, w2, m)
            if ((td[r, g + 2 + ((h >> 6) & 1)] >> (h & 63)) & 1) == 0:
                continue
            a, m1, m2 = _scan_other(tk, td, r, pool, gen, h, lens, w1, w2, leader, need)
            if a >= 0:
                return a, m1, m2
    return -1, I0, I0
