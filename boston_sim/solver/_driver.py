"""Solver drivers (numba): value by a moving zero-window target, yes/no questions, batches.

Kernels take arrays and ints only. ``lanes`` is ``int64[M, 16]`` with ``lanes[i, seat*4+suit]``
the 16-bit holding of ``seat`` in ``suit`` (the wrappers in ``__init__`` build it).
"""

from __future__ import annotations

import mmap

import numpy as np

from ..cards import lane_hcp
from ..config import JIT
from . import (
    BUDGET_FIELD,
    COUNT_OP,
    OP_FIELD,
    OVER_BUDGET,
    PAST_BUDGET,
    QUESTION_OP,
    TIER_FACTOR,
    TIERS_FIELD,
)
from ._bits import atomic_load, atomic_store, atomic_swap, compare_swap, fetch_add, popcount
from ._jit import njit
from ._layout import (
    F_KILL,
    F_SIZE,
    I0,
    K_SIZE,
    KILL_FIELDS,
    MAX_PLY,
    MOVE_SLOTS,
    NT,
    P_ABORT,
    P_BUDGET,
    P_COUNTMASK,
    P_EXACT,
    P_FGEN,
    P_FIRST,
    P_FROW,
    P_GEN,
    P_HELP_AFTER,
    P_JOINS,
    P_MAXMASK,
    P_NODES,
    P_OPEN,
    P_POOL,
    P_PROBE_NODES,
    P_ROLE,
    P_SIG,
    P_SIZE,
    P_STOP,
    P_TAG,
    P_TRUMP,
    P_TTMASK,
    other_side,
)
from ._quick_tricks import quick_tricks
from ._search import PROBE_NODES, search
from ._share import (
    HELPER,
    SHARED,
    answer_in,
    bare_mark,
    mark,
    mark_row,
    open_job,
    open_word,
    with_answer,
    word_gen,
)
from ._suit_game import SUIT_MEMO
from ._trick import hand_size
from ._ttable import tt_new_game

MODE_MAX = 0
MODE_MIN = 1
KIND_AT_LEAST = 0
KIND_AT_MOST = 1
KIND_EXACTLY = 2

# columns of a job row (``solve_range_jobs``): the game, then what is asked
J_TRUMP = 0
J_LEADER = 1
J_SIDE = 2
J_OP = OP_FIELD  # OP_VALUE: tricks (J_ARG = mode, J_TARGET = first guess); OP_QUESTION: yes/no
J_ARG = 4  # (J_ARG = kind, J_TARGET = target)
J_TARGET = 5
J_BUDGET = BUDGET_FIELD  # a question's node budget (0: none), see ``solve_range_jobs``
J_TIERS = TIERS_FIELD  # the tiers past the budget it may pass (-1: all) before it gives up
J_FLOOR = BUDGET_FIELD  # a value job's tricks known to be made (0: nothing known)
J_CEILING = TIERS_FIELD  # ... and one more than it is known not to exceed (0: nothing)
OP_VALUE = COUNT_OP
OP_QUESTION = QUESTION_OP

def new_workspace(tt_bits):
    """Per-worker scratch: transposition table, move buffer, parameter block.

    Plain Python (not a kernel) on purpose: the table is fresh anonymous memory
    (``_zeros_paged``), zero pages that are only paid for when a search first touches them, so
    a big table costs nothing at start-up. Zero is a valid empty table: every slot is read
    only through a chain whose head carries the current generation (which starts at 1), and
    a slot is written before any chain points to it."""
    ttk, ttd, mv, fr, P = new_workspaces(1, tt_bits)
    return ttk[0], ttd[0], mv[0], fr[0], P[0], ttk, ttd


CACHE_LINE_WORDS = 8  # int64 words in a 64-byte cache line
# a worker's parameter row, padded to whole cache lines: workers write theirs at every node,
# and rows sharing a line would make the two cores fight over it (false sharing)
P_ROW = -(-P_SIZE // CACHE_LINE_WORDS) * CACHE_LINE_WORDS
# one chain head per 16 table entries: as fast as one per 4 on full tables, and a new process
# faults in (the kernel zeroes) a quarter of the randomly read head region
HEAD_SHIFT = 4


def _zeros_paged(shape, huge=False):
    """A zeroed int64 array in fresh anonymous memory: page-aligned, so that stacked rows
    whose size is a whole number of cache lines never share one. ``huge``: the kernel is
    asked to back it with huge pages (``MADV_HUGEPAGE``, where Linux offers it): the table is
    read at random, and with 4 KiB pages most of those reads would also miss the
    address-translation cache. Like ``np.zeros``, the pages cost nothing until first touched."""
    nbytes = 8 * int(np.prod(shape))
    try:
        buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (AttributeError, OSError, ValueError):
        return np.zeros(shape, dtype=np.int64)
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if huge and advice is not None:
        try:
            buf.madvise(advice)
        except OSError:
            pass
    return np.frombuffer(buf, dtype=np.int64).reshape(shape)


def new_workspaces(n, tt_bits):
    """``n`` workspaces stacked (row ``w`` is worker ``w``'s), for the worker pool and the
    mid-trick positions' kernel. The wrappers keep them between calls: a new game only bumps
    the table generation, so nothing is re-allocated or re-zeroed per batch."""
    size = 1 << tt_bits
    heads = max(1, size >> HEAD_SHIFT)
    ttk = _zeros_paged((n, K_SIZE * size), huge=True)
    # (the table's data, then the memo of the misère escape tests: ``_suit_game``)
    ttd = _zeros_paged((n, size + 5 * heads + SUIT_MEMO), huge=True)
    mv = _zeros_paged((n, MAX_PLY, 3 * MOVE_SLOTS))
    P = _zeros_paged((n, P_ROW))
    fr = _zeros_paged((n, MAX_PLY, F_SIZE))
    P[:, P_TTMASK] = heads - 1
    P[:, P_POOL] = size
    P[:, P_PROBE_NODES] = PROBE_NODES
    return ttk, ttd, mv, fr, P


@njit(**JIT)
def _setup(P, ttd, trump, maxmask, countmask, exact):
    """Start a new game in the workspace: its parameters, and an empty table."""
    P[P_TRUMP] = trump
    P[P_MAXMASK] = maxmask
    P[P_COUNTMASK] = countmask
    P[P_EXACT] = exact
    tt_new_game(P, ttd)


@njit(**JIT)
def _forget_killers(fr):
    """A new deal starts without the killer moves of the last one."""
    for i in range(fr.shape[0]):
        for k in range(KILL_FIELDS):
            fr[i, F_KILL + k] = 0


ESTIMATE_MARGIN = 1.0
"""The first target of a value search, relative to the high-card estimate
(``high_card_estimate``): a refutation above the value is cheap and fills the table for the
searches below it, a proof below it is not. With the other side on lead the search starts
no higher than this far above the estimate (instead of at all tricks but the other side's
quick tricks); a pair on lead starts no lower (instead of at its own quick tricks). A lone
declarer on lead keeps his quick tricks (the estimate cost him nodes at no trump).

The estimate's weights (``HCP_WEIGHT``, ``HCP_WEIGHT_NT``, ``TRUMP_WEIGHT``) come from a
least-squares fit of the values of 2 v 2 deals, rounded (docs/PERFORMANCE.md)."""
HCP_WEIGHT = 1.25
HCP_WEIGHT_NT = 1.5
TRUMP_WEIGHT = 1.0

_lane_hcp = njit(**JIT)(lane_hcp)


@njit(**JIT)
def high_card_estimate(hl, trump, side, n):
    """Tricks the seats ``side`` might take of the ``n`` left: their even share (a quarter
    per seat), moved by ``HCP_WEIGHT`` (``HCP_WEIGHT_NT`` at no trump) times the difference
    between the tricks in proportion to their high-card points (A 4, K 3, Q 2, J 1) and that
    even share, and by ``TRUMP_WEIGHT`` a trick per trump they hold beyond their even share
    of the trumps. A first guess only (it orders the value search, it never decides it)."""
    side_points = 0
    points = 0
    side_trumps = 0
    trumps = 0
    for st in range(4):
        mine = (side >> st) & 1
        for su in range(4):
            x = hl[st * 4 + su]
            p = _lane_hcp(x)
            points += p
            side_points += mine * p
            if su == trump:
                k = popcount(x)
                trumps += k
                side_trumps += mine * k
    share = popcount(side) / 4
    even = n * share
    est = even
    if points > 0:
        est += (HCP_WEIGHT_NT if trump == NT else HCP_WEIGHT) * (n * side_points / points - even)
    if trump != NT:
        est += TRUMP_WEIGHT * (side_trumps - trumps * share)
    return est


@njit(**JIT)
def solve_value(hl, trump, leader, side, mode, guess, ttk, ttd, mv, fr, P, tk, td):
    """Tricks of ``side`` under best play: mode 0 = side maximises, 1 = side minimises
    (``solve_value_within`` with nothing known)."""
    return solve_value_within(hl, trump, leader, side, mode, guess, I0, I0 + 13, ttk, ttd, mv,
                              fr, P, tk, td)


@njit(**JIT, inline="always")
def solve_value_within(hl, trump, leader, side, mode, guess, floor, ceiling, ttk, ttd, mv,
                       fr, P, tk, td):
    """Tricks of ``side`` under best play: mode 0 = side maximises, 1 = side minimises,
    known to lie in ``floor .. ceiling`` (a question already answered: its target is not
    searched again).

    Zero-window searches with a moving target (MTD(f)-like); all probes share the
    transposition table, whose entries are bounds valid for any target. ``guess`` is the
    first target to try (a caller that has solved similar deals knows a good one); -1: the
    side's quick tricks when it is on lead, else all tricks but the other side's quick tricks,
    moved towards the high-card estimate (see ``ESTIMATE_MARGIN``). The answer does not
    depend on it, only the work.
    -1 if ``P[P_ABORT]`` was set while it ran (see ``solve_range_jobs``).
    """
    countmask = side
    maxmask = side if mode == MODE_MAX else other_side(side)
    _setup(P, ttd, trump, maxmask, countmask, I0)
    _forget_killers(fr)
    n = hand_size(hl, leader)
    lo = max(floor, I0)
    hi = min(ceiling, n)
    # first guess: the quick tricks of whoever is on lead
    if guess >= 0:
        g = guess
    elif mode == MODE_MAX:
        # (the bound's relevant ranks go to frame row 0, which the search overwrites)
        e = int(high_card_estimate(hl, trump, side, n) + ESTIMATE_MARGIN)
        if (side >> leader) & 1:
            g = quick_tricks(hl, leader, trump, other_side(side), n, n, fr, I0, I0)
            if popcount(side) == 2 and e > g:
                g = e
        else:
            g = n - quick_tricks(hl, leader, trump, side, n, n, fr, I0, I0)
            if e < g:
                g = e
    else:
        g = 0
    while lo < hi:
        t = g
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        r = search(hl, ttk, ttd, mv, fr, P, tk, td, leader, t)
        if r < 0:
            return -1
        if r:
            lo = t
            g = t + 1
        else:
            hi = t - 1
            g = t - 1
    return lo


@njit(**JIT, inline="always")
def solve_question(hl, trump, leader, side, kind, target, ttk, ttd, mv, fr, P, tk, td):
    """Yes/no: can ``side`` make sure of at least / at most / exactly ``target`` tricks?
    1 / 0, or -1 if ``P[P_ABORT]`` was set while it ran (see ``solve_range_jobs``)."""
    _forget_killers(fr)
    n = hand_size(hl, leader)
    if kind == KIND_AT_LEAST:
        if target <= 0:
            return 1
        if target > n:
            return 0
        _setup(P, ttd, trump, side, side, I0)
        return search(hl, ttk, ttd, mv, fr, P, tk, td, leader, target)
    if kind == KIND_AT_MOST:
        if target >= n:
            return 1
        if target < 0:
            return 0
        # the opponents try to push the side's tricks up to target + 1
        _setup(P, ttd, trump, other_side(side), side, I0)
        r = search(hl, ttk, ttd, mv, fr, P, tk, td, leader, target + 1)
        return r if r < 0 else 1 - r
    # exactly: both one-sided questions are necessary, and cheap; then the exact game
    if target < 0 or target > n:
        return 0
    if target < n:
        _setup(P, ttd, trump, other_side(side), side, I0)
        r = search(hl, ttk, ttd, mv, fr, P, tk, td, leader, target + 1)
        if r != 0:
            return -1 if r < 0 else 0
    if target > 0:
        _setup(P, ttd, trump, side, side, I0)
        r = search(hl, ttk, ttd, mv, fr, P, tk, td, leader, target)
        if r != 1:
            return r  # 0, or -1
    _setup(P, ttd, trump, side, side, np.int64(1))
    return search(hl, ttk, ttd, mv, fr, P, tk, td, leader, target)


@njit(**JIT, inline="always")
def _run_job(hl, lanes, jobs, i, ttk, ttd, mv, fr, P, tk, td):
    """The answer of job ``i`` (see ``solve_range_jobs``)."""
    start = P[P_NODES]
    for j in range(16):
        hl[j] = lanes[i, j]
    tr = jobs[i, J_TRUMP]
    ld = jobs[i, J_LEADER]
    sd = jobs[i, J_SIDE]
    if jobs[i, J_OP] == OP_VALUE:
        ceiling = jobs[i, J_CEILING] - 1 if jobs[i, J_CEILING] > 0 else I0 + 13
        return solve_value_within(hl, tr, ld, sd, jobs[i, J_ARG], jobs[i, J_TARGET],
                                  jobs[i, J_FLOOR], ceiling, ttk, ttd, mv, fr, P, tk, td)
    budget = jobs[i, J_BUDGET]
    cap = budget if jobs[i, J_TIERS] >= 0 else I0
    for _ in range(jobs[i, J_TIERS]):
        cap *= TIER_FACTOR
    P[P_BUDGET] = start + cap if cap > 0 else I0
    ans = solve_question(hl, tr, ld, sd, jobs[i, J_ARG], jobs[i, J_TARGET], ttk, ttd, mv, fr,
                         P, tk, td)
    used = P[P_NODES] - start
    if ans < 0 and cap > 0 and used > cap:
        ans = OVER_BUDGET
    elif ans >= 0 and budget > 0:
        tier = budget
        while used > tier:  # one mark per tier passed
            ans += PAST_BUDGET
            tier *= TIER_FACTOR
    P[P_BUDGET] = 0
    return ans


@njit(**JIT)
def _open_word(jobs, i, P, tag):
    """The word that offers job ``i`` to another worker (``_share``), 0 if it may not be
    shared: a question with a node budget (its answer reads its own nodes) or one of
    several games ("exactly"; a shared job is one game, one generation of the table)."""
    if jobs[i, J_OP] != OP_VALUE and (jobs[i, J_BUDGET] != 0 or jobs[i, J_ARG] == KIND_EXACTLY):
        return I0
    return open_word(tag, i, P[P_GEN] + 1)  # (the generation its game will have)


@njit(**JIT)
def _end_shared(ans, P, ttd, Pall):
    """The job this worker offered has ended with ``ans``: withdraw it, take the helper's
    answer if the search gave up because it had one, and tell the helper to give up."""
    P[P_ROLE] = 0
    P[P_FROW] = 0
    x = atomic_swap(P, P_SIG, I0)
    r = mark_row(x)
    if r >= 0:
        if ans < 0 and answer_in(x) >= 0:
            ans = answer_in(x)
        atomic_store(Pall[r], P_STOP, bare_mark(x))
        tt_new_game(P, ttd)  # (this game's generation is never read again)
    return ans


@njit(**JIT)
def _join(lanes, P, Pall, w, tag, v):
    """Join the job worker ``v`` offers, if it is still open: returns its index (-1: not
    joined). This worker then searches it too, reading ``v``'s table (``_share``)."""
    x = atomic_load(Pall[v], P_SIG)
    i = open_job(x, tag)
    if i < 0 or i >= lanes.shape[0] or atomic_load(P, P_ABORT) != 0:
        return I0 - 1
    mk = mark(w, P[P_GEN] + 1)
    if word_gen(mk) != P[P_GEN] + 1 or compare_swap(Pall[v], P_SIG, x, mk) != x:
        return I0 - 1
    P[P_JOINS] += 1
    P[P_TAG] = mk
    P[P_FGEN] = word_gen(x)
    P[P_FROW] = v + 1
    P[P_ROLE] = HELPER
    return i


@njit(**JIT)
def _end_help(ans, P, ttd, Pall, v):
    """The search of the job joined has ended with ``ans``: hand it to worker ``v`` if the
    job is still its (and this search found the answer first)."""
    P[P_ROLE] = 0
    P[P_FROW] = 0
    mk = P[P_TAG]
    if ans >= 0 and compare_swap(Pall[v], P_SIG, mk, with_answer(mk, ans)) == mk:
        P[P_FIRST] += 1
    tt_new_game(P, ttd)  # (this game's generation is never read again)


@njit(**JIT)
def solve_range_jobs(lanes, jobs, counter, out, nodes, ttk, ttd, mv, fr, P, tk, td, Pall, w,
                     tag, helped):
    """A worker's loop (``_pool``): takes the next unsolved job (``counter[0]``) until none
    is left or the batch's stop flag (``counter[2]``) is up (-1 for a job taken once
    ``P[P_ABORT]`` is set); ``counter[1]`` counts the jobs done, ``nodes[i]`` the nodes job
    ``i`` expanded (what the callers order later jobs by). The job is ``out[i]`` =
    the answer of job ``i`` (row ``jobs[i]``: game and question, see ``J_*``) on deal
    ``lanes[i]``: tricks for a value job, 1 / 0 for a yes/no job, ``OVER_BUDGET`` for a yes/no
    job that gave up past its node budget (its nodes alone decide that), else its answer plus
    ``PAST_BUDGET`` per tier of the budget passed (``question_job``); -1 for a job that gave
    up because ``P[P_ABORT]`` was set while it ran. Every answer is exact and each search
    starts from an empty table, so no answer depends on which worker ran it.

    ``w``: this worker's row of the stacked tables ``tk``, ``td`` and parameters ``Pall``
    (-1: a lone workspace, nothing shared); a long job is offered to the other workers
    under the batch's ``tag``. ``helped`` >= 0: instead of the loop, join the job worker
    ``helped`` offers (``_share``); its answer is that worker's to give."""
    hl = np.empty(16, dtype=np.int64)
    m = lanes.shape[0]
    joined = I0 - 1
    if helped >= 0:
        joined = _join(lanes, P, Pall, w, tag, helped)
        if joined < 0:
            return
    # (one call of ``_run_job`` for both: the search is compiled into this kernel once)
    while True:
        if joined >= 0:
            i = joined
        else:
            if fetch_add(counter, 2, I0) != 0:
                break
            i = fetch_add(counter, 0, 1)
            if i >= m:
                break
        start = P[P_NODES]
        ans = I0 - 1  # the batch was asked to give up
        if fetch_add(P, P_ABORT, I0) == 0:
            word = _open_word(jobs, i, P, tag) if w >= 0 and joined < 0 else I0
            if word != 0:
                P[P_TAG] = word
                P[P_OPEN] = start + P[P_HELP_AFTER]
                P[P_ROLE] = SHARED
            ans = _run_job(hl, lanes, jobs, i, ttk, ttd, mv, fr, P, tk, td)
            if word != 0:
                ans = _end_shared(ans, P, ttd, Pall)
        if joined >= 0:
            _end_help(ans, P, ttd, Pall, helped)
            return
        # the answer last, whole: a caller polling ``out`` (``_pool.Pending``) reads it then
        nodes[i] = P[P_NODES] - start
        out[i] = ans
        fetch_add(counter, 1, 1)


@njit(**JIT)
def claim_rest(counter):
    """Take every job of a batch that no worker has taken yet (``_pool.Pool.cancel``):
    returns how many were taken before."""
    return fetch_add(counter, 0, I0 + (1 << 40))
