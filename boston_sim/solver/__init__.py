"""Double-dummy solver for Boston and its relatives (public wrappers).

The wrappers validate and convert; the numba kernels below them only compute (``_driver``
runs ``_search``; ``kernels`` calls them directly, for tests and tools). A game is described
by the four hands, the trump (0..3 = S H D C, 4 = NT), the seat on lead, and ``side_mask``,
the compass seats of the declaring side (N alone = 0b0001, N+S = 0b0101). The defenders
cooperate perfectly.

* ``solve`` / ``solve_batch(mode="max")``: tricks of the side when it maximises them.
* ``solve_batch(mode="min")``: tricks the side can hold itself to when it tries to lose
  tricks and the others try to give it tricks (the misère game).
* ``solve_target`` / ``solve_batch_target``: yes/no questions "at least k", "at most k"
  (misère = at most 0) and "exactly k" (Piccolissimo = exactly 1); each stops as soon as the
  answer is known.
* ``solve_positions_value`` / ``solve_positions_target``: the same from positions in the
  middle of a trick (some cards of the current trick already played), counted from now.

Hands may be endings (equal sizes 1..13) and may hold the Russian boston card as rank 15 of
the trump lane (``cards.boston_card_transform``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import numpy as np

from ..cards import COMPASS, parse_compass, parse_deal, parse_strain
from ..config import SOLVER_TT_BITS
from ..errors import SolverInputError
from ..limits import NODE_BUDGET_MAX, clip
from ..settings import check_environment
from ._counters import (
    WorkCounters,
    count_answers,
    register_counters,
    reset_work_counters,
    work_counters,
)
from ._misere import sure_misere
from ._pool import Pending

__all__ = ["solve", "solve_target", "solve_batch", "solve_batch_target", "solve_jobs",
           "start_jobs", "Pending", "OP_FIELD", "COUNT_OP", "QUESTION_OP",
           "solve_positions_target", "solve_positions_value",
           "value_job", "question_job", "declaring_side", "sure_misere", "SolverInputError",
           "WorkCounters", "work_counters", "reset_work_counters", "kernels_cached",
           "on_first_compile", "BUDGET_FIELD", "TIERS_FIELD", "JOB_WIDTH", "OVER_BUDGET",
           "PAST_BUDGET", "TIER_FACTOR", "FINISH", "MAX_TIERS", "FLOOR_FIELD", "CEILING_FIELD",
           "tiers_allowed", "workers", "TARGET_FIELD", "share_searches"]

JOB_WIDTH = 8  # fields of a job row (value_job, question_job; the kernels' ``J_*`` columns)
OP_FIELD = 3  # a job's kind: COUNT_OP (value_job) or QUESTION_OP (question_job)
COUNT_OP, QUESTION_OP = 0, 1
TARGET_FIELD = 5  # a value job's first guess, a question's target
BUDGET_FIELD = 6  # a question's node budget (0: none) in its job row
TIERS_FIELD = 7  # ... and the tiers past the budget it may go before it gives up
FLOOR_FIELD = BUDGET_FIELD  # a value job's tricks known to be made (0: nothing known)
CEILING_FIELD = TIERS_FIELD  # ... and one more than it is known not to exceed (0: nothing)
OVER_BUDGET = -2  # a yes/no job's answer when it gave up past its budget
PAST_BUDGET = 2  # added to a budgeted job's answer for each tier of nodes it passed
TIER_FACTOR = 4  # tier i of a budget b ends at b * TIER_FACTOR**i nodes
FINISH = -1  # tiers: the search never gives up
MAX_TIERS = 16  # more tiers than this would take a budget past any search's nodes

_KINDS = {"at_least": 0, "at_most": 1, "exactly": 2}
MAX_TRICKS = 13  # a question about more tricks than a hand holds has no answer
_MODES = {"max": 0, "min": 1}
# every card bit a lane may hold: ranks 2..14 in every suit, plus rank 15 (boston card)
_VALID_BITS = np.uint64(sum(0xFFFC << (16 * s) for s in range(4)))
_SHIFTS = np.array([0, 16, 32, 48], dtype=np.uint64)
_local = threading.local()


def _table_bits() -> int:
    """The table size of a new workspace, once every ``BOSTON_SIM_*`` override is known good
    (a malformed one is reported here, not at import)."""
    check_environment()
    return SOLVER_TT_BITS


def _batch_workspaces():
    """Stacked workspaces for the mid-trick positions' parallel kernel (``prange``; every
    other batch runs in the pool, ``_pool``), one per numba thread, kept per Python
    thread (so concurrent callers never share a table) and re-made if the thread count
    changes."""
    n = workers()
    ws = getattr(_local, "batch_ws", None)
    if ws is None or ws[0] != n:
        from ._driver import new_workspaces

        fresh = (n, new_workspaces(n, _table_bits()))
        register_counters(fresh[1][4], None if ws is None else ws[1][4])
        ws = fresh
        _local.batch_ws = ws
    return ws[1]


def _workspace():
    """A per-thread solver workspace, so repeated single solves do not re-zero a table."""
    ws = getattr(_local, "ws", None)
    if ws is None:
        from .kernels import new_workspace

        ws = new_workspace(_table_bits())
        _local.ws = ws
    return ws


# --------------------------------------------------------------------------- validation


def _popcount64(a: np.ndarray) -> np.ndarray:
    """Vectorised popcount of a uint64 array."""
    a = a.astype(np.uint64, copy=True)
    a = a - ((a >> np.uint64(1)) & np.uint64(0x5555555555555555))
    a = (a & np.uint64(0x3333333333333333)) + ((a >> np.uint64(2)) & np.uint64(0x3333333333333333))
    a = (a + (a >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((a * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def _check_hands(hands: np.ndarray, trump: int, rows: np.ndarray | None = None) -> None:
    """Vectorised legality check of a batch uint64[M, 4]; raises SolverInputError.

    ``rows``: the caller's index of each deal (when ``hands`` is a selection of its batch),
    so that an error names the deal the caller passed."""

    def at(i) -> int:
        return int(i) if rows is None else int(rows[int(i)])

    if hands.ndim != 2 or hands.shape[1] != 4:
        raise SolverInputError(f"hands must have shape (M, 4), got {hands.shape}")
    if hands.shape[0] == 0:
        return
    _check_card_bits(hands, trump, at)
    counts = _popcount64(hands)
    uneq = (counts != counts[:, :1]).any(axis=1)
    if uneq.any():
        i = int(np.argmax(uneq))
        detail = ", ".join(f"{COMPASS[s]} {int(c)}" for s, c in enumerate(counts[i]))
        raise SolverInputError(f"deal {at(i)}: hands have unequal numbers of cards ({detail})")
    sizes = counts[:, 0]
    badsize = (sizes < 1) | (sizes > 13)
    if badsize.any():
        i = int(np.argmax(badsize))
        raise SolverInputError(
            f"deal {at(i)}: each hand must hold 1 to 13 cards, found {int(sizes[i])}")
    union = hands[:, 0] | hands[:, 1] | hands[:, 2] | hands[:, 3]
    overlap = _popcount64(union) != counts.sum(axis=1)
    if overlap.any():
        i = int(np.argmax(overlap))
        raise SolverInputError(f"deal {at(i)}: a card is in two hands")


def _check_card_bits(hands: np.ndarray, trump: int, at: Callable[[int], int]) -> None:
    """Every bit of ``hands`` (uint64[M, 4]) is a card, and rank 15 (the boston card) only
    in the trump suit; ``at(i)`` names row ``i`` for the error."""
    bad_bits = (hands & ~_VALID_BITS) != 0
    if bad_bits.any():
        i, s = np.argwhere(bad_bits)[0]
        raise SolverInputError(f"deal {at(i)}: {COMPASS[s]} hand holds a bit that is not a card")
    rank15 = np.uint64(sum(1 << (16 * s + 15) for s in range(4)))
    allowed15 = np.uint64(0) if trump == 4 else np.uint64(1 << (16 * trump + 15))
    wrong15 = (hands & (rank15 & ~allowed15)) != 0
    if wrong15.any():
        i, s = np.argwhere(wrong15)[0]
        raise SolverInputError(
            f"deal {at(i)}: {COMPASS[s]} holds a boston card (rank 15) outside the trump suit"
        )


def _check_scalar(trump: int, leader: int, side_mask: int) -> None:
    if not isinstance(trump, (int, np.integer)) or not 0 <= int(trump) <= 4:
        raise SolverInputError(f"trump must be 0..4 (S H D C NT), got {trump!r}")
    if not isinstance(leader, (int, np.integer)) or not 0 <= int(leader) <= 3:
        raise SolverInputError(f"leader must be a seat 0..3 (N E S W), got {leader!r}")
    if not isinstance(side_mask, (int, np.integer)) or not 1 <= int(side_mask) <= 14:
        raise SolverInputError(
            f"side_mask must name 1 to 3 seats (a 4-bit mask 1..14), got {side_mask!r}"
        )


def to_lanes(hands: np.ndarray) -> np.ndarray:
    """uint64[M, 4] -> int64[M, 16] with [i, seat*4 + suit] = 16-bit lane."""
    lanes = (hands[:, :, None] >> _SHIFTS[None, None, :]) & np.uint64(0xFFFF)
    return np.ascontiguousarray(lanes.reshape(hands.shape[0], 16).astype(np.int64))


def _as_batch(hands) -> np.ndarray:
    try:
        arr = np.asarray(hands)
    except Exception as e:  # noqa: BLE001 - any conversion failure is a user input error
        raise SolverInputError(f"hands must be a uint64 array of shape (M, 4): {e}") from None
    if arr.dtype != np.uint64:
        if arr.dtype.kind not in "iu" or (arr.size and arr.min() < 0):
            raise SolverInputError(f"hands must be a uint64 array of shape (M, 4), got {arr.dtype}")
        arr = arr.astype(np.uint64)
    return arr


def _deal_array(deal) -> np.ndarray:
    """PBN string or 4 masks -> validated uint64[1, 4]."""
    if isinstance(deal, str):
        arr = parse_deal(deal)
    else:
        try:
            arr = np.asarray([int(h) for h in deal], dtype=np.uint64)
        except (TypeError, ValueError, OverflowError) as e:
            raise SolverInputError(f"a deal is a PBN string or four uint64 hands: {e}") from None
        if arr.shape != (4,):
            raise SolverInputError(f"a deal needs 4 hands, got {arr.shape[0]}")
    return arr.reshape(1, 4)


def declaring_side(declarer, partner=None) -> int:
    """The ``side_mask`` of a job (:func:`value_job`, :func:`question_job`): bit ``s`` for each
    seat of the declaring side (``"N" "E" "S" "W"`` or 0..3; ``partner=None``: alone)."""
    d = parse_compass(declarer)
    mask = 1 << d
    if partner is not None:
        p = parse_compass(partner)
        if p == d:
            raise SolverInputError(f"partner {COMPASS[p]} is the declarer")
        mask |= 1 << p
    return mask


def _parse_common(deal, trump, leader, declarer, partner):
    t = parse_strain(trump)
    lead = parse_compass(leader)
    side = declaring_side(declarer, partner)
    arr = _deal_array(deal)
    _check_hands(arr, t)
    return arr, t, lead, side


# --------------------------------------------------------------------------- public API


def solve(deal, trump, leader, declarer, partner=None) -> int:
    """Tricks won by the declaring side under best play by all (the side maximises).

    ``deal``: PBN string (``"N:AKQ2.JT9.876.543 ..."``) or four uint64 hand masks (N, E, S, W);
    ``trump``: ``"S" "H" "D" "C" "NT"`` or 0..4; ``leader``, ``declarer``, ``partner``:
    ``"N" "E" "S" "W"`` or 0..3. ``partner=None`` is one declarer against three.
    """
    arr, t, lead, side = _parse_common(deal, trump, leader, declarer, partner)
    from ._driver import solve_value

    return int(solve_value(to_lanes(arr)[0], t, lead, side, 0, -1, *_workspace()))


def solve_target(deal, trump, leader, declarer, partner=None, *, kind: str, target: int) -> bool:
    """Yes/no: can the declaring side make sure of ``kind`` ``target`` tricks?

    ``kind``: ``"at_least"`` (side maximises), ``"at_most"`` (side tries to lose tricks, the
    others to give it tricks; misère is ``at_most 0``) or ``"exactly"`` (Piccolissimo is
    ``exactly 1``). Other arguments as for :func:`solve`.
    """
    k = _kind(kind)
    tgt = _target(target)
    arr, t, lead, side = _parse_common(deal, trump, leader, declarer, partner)
    from ._driver import solve_question

    return bool(solve_question(to_lanes(arr)[0], t, lead, side, k, tgt, *_workspace()))


def _kind(kind: str) -> int:
    if not isinstance(kind, str) or kind not in _KINDS:
        raise SolverInputError(f"unknown question kind {kind!r} (use at_least, at_most or exactly)")
    return _KINDS[kind]


def _target(target) -> int:
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
        raise SolverInputError(f"target must be a whole number of tricks, got {target!r}")
    if not 0 <= target <= MAX_TRICKS:
        raise SolverInputError(f"target must be 0 to {MAX_TRICKS} tricks, got {target}")
    return int(target)


def solve_batch(
    hands: np.ndarray,
    trump: int,
    leader: int,
    side_mask: int,
    out: np.ndarray | None = None,
    mode: str = "max",
    guess: int = -1,
) -> np.ndarray:
    """Tricks of the declaring side for every deal of ``hands`` (uint64[M, 4]), in parallel.

    ``mode="max"``: the side maximises its tricks; ``mode="min"``: the side minimises them
    (misère play) while the others try to give it tricks. ``out`` (int8[M]) is filled and
    returned if given. ``guess``: the count to try first (e.g. the typical result of similar
    deals; -1 = the solver's own guess); it changes the work, never the answer. Results do
    not depend on the number of numba threads.
    """
    row = value_job(trump, leader, side_mask, mode, guess)
    arr = _as_batch(hands)
    _check_hands(arr, int(trump))
    out = _out(out, arr.shape[0], np.int8)
    out[:] = _run_jobs(arr, row)
    return out


def solve_batch_target(
    hands: np.ndarray,
    trump: int,
    leader: int,
    side_mask: int,
    kind: str,
    target: int,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Yes/no answers (bool[M]) to "can the side make sure of ``kind`` ``target`` tricks?"

    ``kind`` is ``"at_least"``, ``"at_most"`` or ``"exactly"`` (see :func:`solve_target`).
    """
    row = question_job(trump, leader, side_mask, kind, target)
    arr = _as_batch(hands)
    _check_hands(arr, int(trump))
    out = _out(out, arr.shape[0], np.bool_)
    out[:] = _run_jobs(arr, row) == 1
    return out


def value_job(trump: int, leader: int, side_mask: int, mode: str = "max",
              guess: int = -1, floor: int = 0, ceiling: int = MAX_TRICKS) -> tuple[int, ...]:
    """A row for :func:`solve_jobs`: the tricks of the side (as :func:`solve_batch`), known
    to lie in ``floor .. ceiling`` (from a question already answered on the same game, such
    as "at least T?": its target is not searched again; a wrong bound gives a wrong answer)."""
    if not isinstance(mode, str) or mode not in _MODES:
        raise SolverInputError(f"unknown mode {clip(repr(mode))} (use max or min)")
    if isinstance(guess, bool) or not isinstance(guess, (int, np.integer)) or guess < -1:
        raise SolverInputError(f"guess must be a number of tricks (-1: none), got "
                               f"{clip(repr(guess))}")
    if not all(isinstance(b, (int, np.integer)) and not isinstance(b, bool)
               for b in (floor, ceiling)) or not 0 <= floor <= ceiling <= MAX_TRICKS:
        raise SolverInputError(f"floor and ceiling must be tricks with 0 <= floor <= ceiling "
                               f"<= {MAX_TRICKS}, got {clip(repr((floor, ceiling)))}")
    _check_scalar(trump, leader, side_mask)
    return (int(trump), int(leader), int(side_mask), COUNT_OP, _MODES[mode], min(int(guess), 13),
            int(floor), 0 if ceiling == MAX_TRICKS else int(ceiling) + 1)


def question_job(trump: int, leader: int, side_mask: int, kind: str,
                 target: int, budget: int = 0, tiers: int = 0) -> tuple[int, ...]:
    """A row for :func:`solve_jobs`: a yes/no question (as :func:`solve_batch_target`).
    ``budget`` > 0: the search gives up once it has expanded more nodes than
    ``budget * TIER_FACTOR**tiers`` (never with ``tiers`` = :data:`FINISH`), and the job
    answers :data:`OVER_BUDGET`; one that ends answers 1 / 0 plus :data:`PAST_BUDGET` for each
    tier ``budget * TIER_FACTOR**i`` (``i`` = 0, 1, ...) its nodes passed. Counts of its own
    nodes: the same whatever the worker or the thread count, so with ``tiers`` = 0 the
    searches that give up are exactly those that another ``tiers`` marks."""
    k = _kind(kind)
    tgt = _target(target)
    _check_scalar(trump, leader, side_mask)
    if (isinstance(budget, bool) or not isinstance(budget, (int, np.integer))
            or not 0 <= budget <= NODE_BUDGET_MAX):
        raise SolverInputError(f"budget must be a number of nodes up to {NODE_BUDGET_MAX:,} "
                               f"(0: none), got {clip(repr(budget))}")
    if (isinstance(tiers, bool) or not isinstance(tiers, (int, np.integer))
            or not FINISH <= tiers <= MAX_TIERS):
        raise SolverInputError(f"tiers must be a count of tiers up to {MAX_TIERS} (or FINISH), "
                               f"got {clip(repr(tiers))}")
    return (int(trump), int(leader), int(side_mask), QUESTION_OP, k, tgt, int(budget),
            int(tiers))


def tiers_allowed(jobs: np.ndarray) -> np.ndarray:
    """Per job row, the tiers past its node budget it may pass before it gives up: 0 for a
    count or a question without tiers, ``MAX_TIERS + 1`` for one that never gives up (the
    column holds a count's ceiling too: read it through here)."""
    tiers = np.where(jobs[:, TIERS_FIELD] == FINISH, MAX_TIERS + 1, jobs[:, TIERS_FIELD])
    return np.where(jobs[:, OP_FIELD] == QUESTION_OP, tiers, 0)


def solve_jobs(hands: np.ndarray, jobs: np.ndarray, deadline: float | None = None,
               progress: Callable[[int], None] | None = None,
               started: Callable[[], None] | None = None,
               nodes: np.ndarray | None = None,
               waiting: Callable[[], None] | None = None) -> np.ndarray:
    """Different games in one parallel batch: ``out[i]`` (int8) answers job ``jobs[i]`` (a row
    made by :func:`value_job` or :func:`question_job`) on deal ``hands[i]``: the tricks, or
    1 / 0 for a question (:data:`OVER_BUDGET` for one that gave up past its node budget, the
    answer plus :data:`PAST_BUDGET` per tier passed for one that did not). One call
    balances the workers over all the games (a slow deal of one game no longer leaves a worker
    idle while it waits for the next call).

    ``deadline`` (a ``time.perf_counter()`` value): the searches still running then give up,
    and the jobs not yet started are skipped; their ``out`` is -1 (every other answer is
    exact). The searches look at the time limit every 4096 nodes (a few milliseconds).

    ``progress(n)``: called in the calling thread, about every 0.1 s, with the number of jobs
    finished since the last call (they add up to ``len(jobs)``). The workers run in threads
    of their own, so an exception raised meanwhile in the calling thread (Ctrl-C, or one
    raised by ``progress``) makes them give up at once and is raised from here.

    ``started()``: called in this thread once the jobs are with the workers, before this
    waits for them (the moment to queue work behind them, :func:`start_jobs`).

    ``nodes`` (int64, one per job): filled with the nodes each job's search expanded (0 for
    one that did not run): what a caller may order its later jobs by.

    ``waiting()``: called in this thread every few milliseconds while it waits (the moment
    to start jobs that answers run ahead make possible, :func:`start_jobs`)."""
    arr, jb = _checked_jobs(hands, jobs)
    return _run_jobs(arr, jb, deadline, progress, started, nodes, waiting)


def start_jobs(hands: np.ndarray, jobs: np.ndarray, first: bool = False) -> Pending:
    """Jobs run ahead of need: the workers take them only when no :func:`solve_jobs`
    batch has jobs left to start, and the caller goes on meanwhile (``first``: before the
    other jobs run ahead). The answers are those :func:`solve_jobs` gives; :class:`Pending`
    takes those ready, keeps the rest from starting, or stops them all."""
    arr, jb = _checked_jobs(hands, jobs)
    return _start(arr, jb, False, first)


def _start(arr: np.ndarray, jb: np.ndarray, now: bool, first: bool = False) -> Pending:
    from ._pool import AHEAD, NOW

    _before_batch()
    pool = _the_pool()
    return Pending(pool, pool.submit(to_lanes(arr), jb, NOW if now else AHEAD, first),
                   count_answers)


def _checked_jobs(hands: np.ndarray, jobs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``hands`` and ``jobs`` as the kernel takes them, each job row checked (a clear error
    for one that :func:`value_job` / :func:`question_job` would not make)."""
    arr = _as_batch(hands)
    jb = np.ascontiguousarray(np.asarray(jobs, dtype=np.int64))
    if jb.ndim != 2 or jb.shape != (arr.shape[0], JOB_WIDTH):
        raise SolverInputError(f"jobs must have shape ({arr.shape[0]}, {JOB_WIDTH}), "
                               f"got {jb.shape}")
    if jb.size:
        ok = ((jb[:, 0] >= 0) & (jb[:, 0] <= 4) & (jb[:, 1] >= 0) & (jb[:, 1] <= 3)
              & (jb[:, 2] >= 1) & (jb[:, 2] <= 14)
              & np.isin(jb[:, OP_FIELD], (COUNT_OP, QUESTION_OP))
              & (jb[:, 4] >= 0) & (jb[:, 4] <= np.where(jb[:, OP_FIELD] == COUNT_OP, 1, 2))
              & (jb[:, 5] >= -1) & (jb[:, 5] <= 14) & (jb[:, 6] >= 0)
              & np.where(jb[:, OP_FIELD] == QUESTION_OP,  # a question's budget and tiers
                         (jb[:, 6] <= NODE_BUDGET_MAX) & (jb[:, 7] >= FINISH)
                         & (jb[:, 7] <= MAX_TIERS),
                         # a value's floor and ceiling + 1 (0: none)
                         (jb[:, 6] <= MAX_TRICKS) & (jb[:, 7] >= 0) & (jb[:, 7] <= MAX_TRICKS)
                         & ((jb[:, 7] == 0) | (jb[:, 6] < jb[:, 7]))))
        if not ok.all():
            i = int(np.argmin(ok))
            raise SolverInputError(f"job {i} is not a row made by value_job / question_job: "
                                   f"{jb[i].tolist()}")
    for t in np.unique(jb[:, 0]):
        sel = np.flatnonzero(jb[:, 0] == t)
        _check_hands(arr[sel], int(t), sel)
    return arr, jb


# --------------------------------------------------------------------------- mid-trick positions

TRICK = 4  # cards in a trick
_MID_KINDS = ("at_least", "at_most")
_MID_FLAGS = 4  # ``_midtrick.SEARCH_ORDER``: the search's own move generator


def solve_positions_target(hands, trick, trick_leader, trump: int, side_mask: int, kind: str,
                           need) -> np.ndarray:
    """Yes/no (bool[M]): can the side make sure of ``kind`` ``need[i]`` tricks from position
    ``i``, counted from now, the current trick included?

    ``hands`` (uint64[M, 4]): the cards each seat still holds, the current trick's cards not
    among them; ``trick`` (int64[M, 4]): the cards played to the current trick, in play
    order, as bit numbers ``suit * 16 + rank``, padded with -1 (4 cards: the trick is
    complete and its winner leads next); ``trick_leader`` (int64[M]): the seat that led it;
    ``trump`` (0..4) and ``side_mask`` (1..14) as :func:`solve_batch`, one for all; ``kind``:
    ``"at_least"`` (the side maximises) or ``"at_most"`` (the side tries to take few tricks,
    the others to give it tricks), one for all; ``need`` (int64[M]): any whole numbers
    (at least 0 or fewer is true without search). One parallel batch; exact answers that do
    not depend on the number of threads."""
    if not isinstance(kind, str) or kind not in _MID_KINDS:
        raise SolverInputError(f"unknown question kind {clip(repr(kind))} "
                               "(use at_least or at_most)")
    arr, tr, tl = _check_positions(hands, trick, trick_leader, trump, side_mask)
    nd = _int_column(need, "need", arr.shape[0])
    return _run_positions(arr, tr, tl, trump, side_mask, QUESTION_OP, _KINDS[kind], nd) == 1


def solve_positions_value(hands, trick, trick_leader, trump: int, side_mask: int,
                          mode: str = "max") -> np.ndarray:
    """The side's tricks (int8[M]) from each position (arguments as
    :func:`solve_positions_target`), counted from now, the current trick included, under best
    play: ``mode="max"`` the side maximises them, ``"min"`` it minimises them (misère)."""
    if not isinstance(mode, str) or mode not in _MODES:
        raise SolverInputError(f"unknown mode {clip(repr(mode))} (use max or min)")
    arr, tr, tl = _check_positions(hands, trick, trick_leader, trump, side_mask)
    nd = np.zeros(arr.shape[0], dtype=np.int64)
    return _run_positions(arr, tr, tl, trump, side_mask, COUNT_OP, _MODES[mode], nd)


def _run_positions(arr, tr, tl, trump, side_mask, op: int, arg: int, need: np.ndarray,
                   flags: int = _MID_FLAGS) -> np.ndarray:
    """The parallel mid-trick kernel on validated positions (``flags``: ``_midtrick``'s
    search options; a measurement may choose others, the answers stay the same)."""
    m = arr.shape[0]
    out = np.empty(m, dtype=np.int8)
    if not m:
        return out
    from ._midtrick import batch_positions

    _before_batch(batch_positions)
    ws = _batch_workspaces()
    batch_positions(to_lanes(arr), tr, tl, int(trump), int(side_mask), int(op), int(arg), need,
                    int(flags), np.zeros(2, dtype=np.int64), out, *ws)
    count_answers(out)
    return out


def _int_column(x, name: str, m: int, ncols: int = 0) -> np.ndarray:
    """``x`` as a contiguous int64 array of shape (m,) (or (m, ncols)), else a clear error."""
    shape = (m, ncols) if ncols else (m,)
    try:
        a = np.asarray(x)
    except Exception as e:  # noqa: BLE001 - any conversion failure is a user input error
        raise SolverInputError(f"{name} must be an integer array of shape {shape}: "
                               f"{clip(str(e))}") from None
    if a.dtype.kind not in "iu" or a.shape != shape:
        raise SolverInputError(
            f"{name} must be an integer array of shape {shape}, got {a.dtype} {a.shape}")
    if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
        raise SolverInputError(f"{name} holds a number too large")
    return np.ascontiguousarray(a.astype(np.int64))


def _check_positions(hands, trick, trick_leader, trump, side_mask):
    """Validated (hands uint64[M, 4], trick int64[M, 4], trick_leader int64[M]) of mid-trick
    positions, or SolverInputError naming the first bad position."""
    _check_scalar(trump, 0, side_mask)
    arr = _as_batch(hands)
    if arr.ndim != 2 or arr.shape[1] != 4:
        raise SolverInputError(f"hands must have shape (M, 4), got {arr.shape}")
    m = arr.shape[0]
    tr = _int_column(trick, "trick", m, TRICK)
    tl = _int_column(trick_leader, "trick_leader", m)
    if not m:
        return arr, tr, tl
    _check_card_bits(arr, int(trump), int)
    bad = (tl < 0) | (tl > 3)
    if bad.any():
        i = int(np.argmax(bad))
        raise SolverInputError(f"position {i}: trick_leader must be a seat 0..3, got {tl[i]}")
    tmask, k = _trick_masks(tr, int(trump))
    counts = _popcount64(arr)
    union = arr[:, 0] | arr[:, 1] | arr[:, 2] | arr[:, 3]
    overlap = _popcount64(union) != counts.sum(axis=1)
    if overlap.any():
        raise SolverInputError(f"position {int(np.argmax(overlap))}: a card is in two hands")
    both = (tmask & union) != 0
    if both.any():
        i = int(np.argmax(both))
        from ..cards import format_card

        card = int(tr[i][(np.uint64(1) << tr[i].clip(0).astype(np.uint64) & union[i]) != 0][0])
        raise SolverInputError(f"position {i}: {format_card(card)} is both in the trick and in "
                               "a hand")
    place = (np.arange(4)[None, :] - tl[:, None]) % 4  # each seat's place in the trick
    played = (place < k[:, None]).astype(np.int64)
    full = counts + played
    bad = (full != full[:, :1]).any(axis=1) | (full[:, 0] < 1) | (full[:, 0] > MAX_TRICKS)
    if bad.any():
        i = int(np.argmax(bad))
        detail = ", ".join(f"{COMPASS[s]} {int(c)}" for s, c in enumerate(counts[i]))
        raise SolverInputError(
            f"position {i}: hand sizes ({detail}) do not fit a trick of {int(k[i])} card(s) led "
            f"by {COMPASS[int(tl[i])]} (the seats that played hold one card fewer, 1 to "
            f"{MAX_TRICKS} cards before the trick)")
    return arr, tr, tl


def _trick_masks(tr: np.ndarray, trump: int) -> tuple[np.ndarray, np.ndarray]:
    """The cards of each trick as a uint64 mask, and their number ``k``; checks each is a
    card (rank 15 only in the trump suit), played before the -1 padding, and no repeat."""
    bad = (tr < -1) | (tr > 63)
    if not bad.any():
        bits = np.where(tr >= 0, np.uint64(1) << tr.clip(0).astype(np.uint64), np.uint64(0))
        allowed = _VALID_BITS
        if trump != 4:
            allowed = allowed & ~np.uint64(sum(1 << (16 * s + 15) for s in range(4) if s != trump))
        else:
            allowed = allowed & ~np.uint64(sum(1 << (16 * s + 15) for s in range(4)))
        bad = (tr >= 0) & ((bits & allowed) == 0)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise SolverInputError(f"position {i}: trick place {j} holds {tr[i, j]}, which is not a "
                               "card this game has (bit suit*16+rank) nor -1")
    k = (tr >= 0).sum(axis=1)
    gaps = ((tr >= 0) != (np.arange(TRICK)[None, :] < k[:, None])).any(axis=1)
    if gaps.any():
        i = int(np.argmax(gaps))
        raise SolverInputError(f"position {i}: the trick's cards must come first, then -1s: "
                               f"{tr[i].tolist()}")
    tmask = np.bitwise_or.reduce(bits, axis=1)
    repeat = _popcount64(tmask) != k
    if repeat.any():
        raise SolverInputError(f"position {int(np.argmax(repeat))}: a card is twice in the trick")
    return tmask, k


def _run_jobs(arr: np.ndarray, jobs, deadline: float | None = None,
              progress: Callable[[int], None] | None = None,
              started: Callable[[], None] | None = None,
              nodes: np.ndarray | None = None,
              waiting: Callable[[], None] | None = None) -> np.ndarray:
    """The pool's answers on validated deals (``jobs``: one row per deal, or one row for
    all), waited for in this thread; see :func:`solve_jobs`."""
    m = arr.shape[0]
    jb = np.asarray(jobs, dtype=np.int64)
    if jb.ndim == 1:
        jb = np.tile(jb, (m, 1))
    if not m or (deadline is not None and deadline <= time.perf_counter()):
        if started is not None:
            started()
        return np.full(m, -1, dtype=np.int8)
    pending = _start(arr, np.ascontiguousarray(jb), True)
    if started is not None:
        started()
    out = pending.wait(deadline, progress, waiting)
    if nodes is not None:
        nodes[:] = pending.nodes(np.arange(m))
    return out


_pools: list = []  # the live pool (one at a time)
_pool_lock = threading.Lock()


def _the_pool():
    """The worker pool for numba's current thread count (one worker and table per thread),
    made on first use and again when the count changes or in a new process."""
    from . import _driver
    from ._pool import Pool

    n = workers()
    with _pool_lock:
        old = _pools[0] if _pools else None
        if old is not None and old.n == n and old.pid == os.getpid() and not old.closed:
            return old
        ws = _driver.new_workspaces(n, _table_bits())
        _set_sharing(ws[4])
        pool = Pool(n, ws, _driver.solve_range_jobs, _driver.claim_rest)
        if old is not None:
            old.close()
        register_counters(ws[4], None, pool)
        _pools[:] = [pool]
        return pool


_sharing = [True]
_NEVER = 1 << 62  # a node count no search reaches


def share_searches(on: bool) -> None:
    """Whether a worker with no job to start may join another worker's long search (on
    unless turned off). The answers are the same either way; off, each job's nodes (and
    :func:`work_counters`) depend only on its deal and row, not on the thread count or the
    timing, which is what a measurement of node counts needs."""
    with _pool_lock:
        _sharing[0] = bool(on)
        for pool in _pools:
            _set_sharing(pool.ws[4])


def _set_sharing(P: np.ndarray) -> None:
    """Write :func:`share_searches`'s choice into the workers' parameter rows ``P``."""
    from ._layout import P_HELP_AFTER
    from ._share import HELP_AFTER

    P[:, P_HELP_AFTER] = HELP_AFTER if _sharing[0] else _NEVER


def kernels_cached() -> bool:
    """Whether the batch kernel (every batch wrapper runs it) is ready without compiling:
    compiled in this process, or in numba's on-disk cache for these kernel sources (the
    cache key holds their digest, see ``_jit``). False means the first batch compiles the
    solver first (half a minute or more). Reads the cache's index only; loads nothing.

    It asks numba's per-function cache (its index and key, private API) the question the
    first call will ask; if that API cannot answer, it says True (nothing to announce)."""
    from ._driver import solve_range_jobs

    return _kernel_cached(solve_range_jobs)


def _kernel_cached(kernel) -> bool:
    """:func:`kernels_cached` for one batch kernel (the mid-trick positions have their
    own)."""
    if getattr(kernel, "overloads", True):  # compiled here, or no jit at all
        return True
    try:
        cache = kernel._cache
        index = cache._cache_file._load_index()
        want = cache._index_key(None, kernel.targetctx.codegen())[1:]
    except Exception:  # noqa: BLE001 - a numba without this API: no notice, not an error
        return True
    return any(tuple(key[1:]) == tuple(want) for key in index)


_compile_hook: list[Callable[[], None]] = []


def on_first_compile(callback: Callable[[], None] | None) -> None:
    """``callback()`` runs once, in the calling thread, just before the next batch if that
    batch has to compile the kernel first (:func:`kernels_cached` is false): the moment to
    say why the first answer takes half a minute. ``None`` removes a callback not yet run."""
    _compile_hook[:] = [] if callback is None else [callback]


def _before_batch(kernel=None) -> None:
    """Run (and forget) the :func:`on_first_compile` callback if this batch compiles
    (``kernel``: the batch's kernel when it is not the pool's, ``solve_range_jobs``)."""
    if _compile_hook:
        callback = _compile_hook.pop()
        if not (kernels_cached() if kernel is None else _kernel_cached(kernel)):
            callback()


def workers() -> int:
    """Workers for the next batch: numba's current thread count (each gets its own table)."""
    import numba

    return int(numba.get_num_threads())


def _out(out: np.ndarray | None, m: int, dtype) -> np.ndarray:
    if out is None:
        return np.empty(m, dtype=dtype)
    if not isinstance(out, np.ndarray) or out.shape != (m,) or out.dtype != dtype:
        raise SolverInputError(f"out must be a {np.dtype(dtype).name} array of shape ({m},)")
    return out
