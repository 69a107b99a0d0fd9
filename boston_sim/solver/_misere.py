"""An exact shortcut for misère deals the search would prove slowly (numpy, not a kernel)."""

from __future__ import annotations

import numpy as np


def sure_misere(deals: np.ndarray, side_mask: int, leader: int) -> np.ndarray:
    """Deals where a lone declarer at no trump certainly takes no trick (an exact shortcut).

    If in every suit that both he and another seat hold, each of his cards ranks below every
    card of the others, then any card led by another seat is higher than all his cards of
    that suit (he plays under it or discards), so he never wins a trick and never leads again;
    if he leads to the first trick he needs one such suit to lead. The solver settles them at
    its root too (``_escape``, which proves many more escapes); here they cost no job at all.
    """
    m = len(deals)
    if side_mask.bit_count() != 1:
        return np.zeros(m, dtype=bool)
    decl = side_mask.bit_length() - 1
    others = [i for i in range(4) if i != decl]
    opp = deals[:, others[0]] | deals[:, others[1]] | deals[:, others[2]]
    ok = np.ones(m, dtype=bool)
    can_lead = np.zeros(m, dtype=bool)
    for suit in range(4):
        sh = np.uint64(16 * suit)
        d = ((deals[:, decl] >> sh) & np.uint64(0xFFFF)).astype(np.int64)
        o = ((opp >> sh) & np.uint64(0xFFFF)).astype(np.int64)
        both = (d != 0) & (o != 0)
        d_hi = np.floor(np.log2(np.maximum(d, 1))).astype(np.int64)
        o_lo = np.floor(np.log2(np.maximum(o & -o, 1))).astype(np.int64)
        ok &= ~both | (d_hi < o_lo)
        can_lead |= both
    if leader == decl:
        ok &= can_lead
    return ok
