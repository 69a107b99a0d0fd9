"""The solver's data layout: what every kernel array holds, as named fields.

Position representation (all plain ``int64``):

* ``hl[seat * 4 + suit]`` is the 16-bit lane of ``seat``'s cards in ``suit`` (bit = rank 2..15;
  rank 15 is the Russian boston card in the trump lane, so no suit is special-cased).
* ``fr[ply, F_*]`` is the frame of the search stack at ``ply`` (one per card played);
  ``fr[ply, F_CARD]`` is the card played there, as ``suit * 16 + rank``.
* ``P[P_*]`` holds the game's parameters and the search's counters.
* ``mv[ply]`` holds the ordered moves of the node at ``ply``: cards in ``MOVE_SLOTS`` slots,
  then their scores, then the lowest rank of each card's group of equivalent cards.

The game: the maximising seats try to make the number of counted tricks reach ``target``
(``>= target``, or ``== target`` in exact mode), the other seats try to stop them.

* "max" (declaring side maximises its tricks):      maxmask = countmask = side
* "min" (misère; side minimises its own tricks):   maxmask = ~side, countmask = side
* "exactly k":                                       maxmask = countmask = side, exact = 1

Numba reads module-level integers as compile-time constants, so importing these costs nothing.
"""

from __future__ import annotations

import numpy as np

from ..config import JIT_NONRT
from ._bits import popcount
from ._jit import njit

# the parameter block ``P``
P_TRUMP = 0  # 0..3, NT = 4
P_MAXMASK = 1  # seats that maximise
P_COUNTMASK = 2  # seats whose tricks are counted
P_EXACT = 3  # 1 when the maximiser wants exactly ``target`` tricks
P_GEN = 4  # transposition-table generation
P_TTMASK = 5  # the table's number of chain heads, minus one
P_NODES = 6  # statistics: expanded nodes
P_POOL = 7  # the table's number of entries
P_FREE = 8  # the serial of the next table entry
P_TRICKS = 9  # statistics: trick-boundary positions entered (below the root)
P_PROBE = 10  # 1 + the ply of the innermost node whose child is being probed (0: none)
P_LIMIT = 11  # the smallest node limit of the running probes (checked when P_NODES passes it)
P_PROBE_NODES = 12  # the first probing pass's node budget per move (PROBE_NODES; tests lower it)
P_ABORT = 13  # set (by another thread, while a batch runs) to make every search give up
P_BUDGET = 14  # the node count (P_NODES) past which the running search gives up; 0: none
# a search shared by two workers (``_share``)
P_ROLE = 15  # 0: a job no other worker joins; SHARED: one it may join; HELPER: a joined one
P_SIG = 16  # the worker's shared word: 0, an open job, a helper's mark, an answer (_share)
P_TAG = 17  # an owner's open word (published once P_NODES passes P_OPEN); a helper's mark
P_OPEN = 18  # the node count past which the running job is offered to an idle worker
P_HELP_AFTER = 19  # nodes a job runs before it is offered (HELP_AFTER; tests lower it)
P_STOP = 20  # set by the job's owner to the helper's mark: that helper gives up
P_FROW = 21  # 1 + the worker whose table the search also reads (0: none)
P_FGEN = 22  # ... the generation of that table's entries it may read
P_JOINS = 23  # statistics: the jobs of other workers this one joined
P_FIRST = 24  # statistics: ... of which it answered first
P_SIZE = 25

# per-ply frame fields of the explicit search stack ``fr``
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

# a transposition-table entry's key words: ``ttk[K_SIZE * slot + K_*]``
K_LENS = 0  # the packed suit lengths
K_W1 = 1  # the owners of the cards that matter, suits 0-1 (``w1 & m1``)
K_W2 = 2  # ... suits 2-3
K_M1 = 3  # which owner fields matter, suits 0-1
K_M2 = 4  # ... suits 2-3
K_NEXT = 5  # the serial of the next entry of its chain (-1: the end)
K_SERIAL = 6  # its own serial (an overwritten slot holds another one)
K_SIZE = 7

NT = 4
# Integer constants passed to another kernel as arguments are numpy int64 scalars, not Python
# ints: numba compiles a separate copy of a kernel (and of every kernel below it) for each
# distinct literal it is called with.
I0 = np.int64(0)
ALL_TRICKS = np.int64(13)
MAX_PLY = 64  # 13 tricks x 4 cards, plus slack
MOVE_SLOTS = 16  # at most 14 cards of one lane / 13 cards in hand
SEATS = 15  # the mask of all four seats


@njit(**JIT_NONRT, inline="always")
def other_side(mask):
    """The seats not in ``mask``."""
    return SEATS ^ mask


@njit(**JIT_NONRT, inline="always")
def is_max_game(maxmask, countmask):
    """The plain game: the counted side maximises its own tricks (the cheap trick bounds
    that assume both sides play to win tricks hold only here)."""
    return maxmask == countmask


@njit(**JIT_NONRT, inline="always")
def is_lone_misere(maxmask, countmask):
    """The misère game of a lone declarer: three defenders push his tricks up."""
    return maxmask == SEATS ^ countmask and popcount(countmask) == 1
