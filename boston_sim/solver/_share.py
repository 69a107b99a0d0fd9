"""One search on two workers (lazy SMP): a worker with no job left to start joins a long
job another worker is running, searching the same question with its own table while each
search also reads the other's table. The first to answer gives the answer; the other gives
up. An answer is exact either way, so a number never depends on who helped.

Each worker writes only its own table; the other reads it entry by entry, checking the
entry's serial (which carries its game's generation) before and after (``_ttable``), so a
torn or rewritten entry is never taken. The words the two workers exchange live in their
parameter rows and are only read and written atomically:

* the owner's ``P_SIG``: 0; its *open word* once the job has run ``P_HELP_AFTER`` nodes (the
  batch's tag, the job, the generation of the owner's entries); a helper's *mark* swapped in
  for it (the helper's worker and the generation of its entries); the mark with the helper's
  answer added.
* the helper's ``P_STOP``: the owner writes the helper's mark there when its job ends.

A table's generation changes with every game, and a shared job is one game, so neither
worker ever reads entries of the other's next job.
"""

from __future__ import annotations

from ..config import JIT_NONRT
from ._bits import atomic_load, atomic_store
from ._jit import njit
from ._layout import (
    P_ABORT,
    P_FGEN,
    P_FROW,
    P_NODES,
    P_OPEN,
    P_ROLE,
    P_SIG,
    P_STOP,
    P_TAG,
)

SHARED = 1  # P_ROLE: the owner of a job another worker may join
HELPER = 2  # P_ROLE: a worker searching another's job
HELP_AFTER = 200_000
"""Nodes a job runs before an idle worker may join it: a helper starts on an empty table,
which pays only on a search long enough to fill it again (a few tens of milliseconds)."""
TURN_PLIES = 4
"""A helper tries the moves of the first trick's four plies in another order (the first
last): two workers searching one tree in the same order would prove the same lines twice."""

GEN_BITS = 22  # a table's generation (``_ttable._GEN_LIMIT``)
_GEN_MASK = (1 << GEN_BITS) - 1
JOB_BITS = 20  # the job's index in its batch (jobs past it are never shared)
TAG_BITS = 16  # the batch's tag
_JOB_SHIFT = GEN_BITS
_TAG_SHIFT = GEN_BITS + JOB_BITS
_MARK = 1 << 62  # a helper's mark (an open word never has it)
_ROW_SHIFT = GEN_BITS  # ... the helper's worker (8 bits)
_ANSWERED = 1 << 61  # ... with its answer
_ANSWER_SHIFT = 32  # ... (tricks, or 1 / 0: 4 bits)


@njit(**JIT_NONRT)
def open_word(tag, i, gen):
    """The word an owner publishes for job ``i`` of the batch tagged ``tag`` (0: the job is
    not shared)."""
    if i >= (1 << JOB_BITS) or gen > _GEN_MASK:
        return 0
    return ((tag & ((1 << TAG_BITS) - 1)) << _TAG_SHIFT) | (i << _JOB_SHIFT) | gen


@njit(**JIT_NONRT)
def open_job(word, tag):
    """The job an open word offers, if it is one of the batch tagged ``tag`` (else -1)."""
    if word <= 0 or (word & _MARK) or (word >> _TAG_SHIFT) != (tag & ((1 << TAG_BITS) - 1)):
        return -1
    return (word >> _JOB_SHIFT) & ((1 << JOB_BITS) - 1)


@njit(**JIT_NONRT)
def word_gen(word):
    """The generation of the table entries an open word or a mark names."""
    return word & _GEN_MASK


@njit(**JIT_NONRT)
def mark(row, gen):
    """A helper's mark: worker ``row``, its entries of generation ``gen``."""
    return _MARK | (row << _ROW_SHIFT) | gen


@njit(**JIT_NONRT)
def mark_row(word):
    """The helper's worker in a mark (-1: the word is no mark)."""
    if not (word & _MARK):
        return -1
    return (word >> _ROW_SHIFT) & 255


@njit(**JIT_NONRT)
def with_answer(word, ans):
    """A mark with the helper's answer (0 .. 13)."""
    return word | _ANSWERED | (ans << _ANSWER_SHIFT)


@njit(**JIT_NONRT)
def answer_in(word):
    """The helper's answer in a word (-1: none)."""
    if not (word & _ANSWERED):
        return -1
    return (word >> _ANSWER_SHIFT) & 15


@njit(**JIT_NONRT)
def bare_mark(word):
    """A mark without its answer."""
    return word & ~(_ANSWERED | (15 << _ANSWER_SHIFT))


@njit(**JIT_NONRT)
def stop_asked(P):
    """Whether the running search must give up: the batch was told to (``P_ABORT``), a
    helper answered its shared job, or the owner of the job it helps has moved on. Read every
    few thousand nodes; an owner also publishes its job here once it has run long enough,
    and starts reading its helper's table once one has joined."""
    if atomic_load(P, P_ABORT) != 0:
        return True
    role = P[P_ROLE]
    if role == SHARED:
        w = atomic_load(P, P_SIG)
        if w == 0:
            if P[P_NODES] >= P[P_OPEN]:
                atomic_store(P, P_SIG, P[P_TAG])
            return False
        if answer_in(w) >= 0:
            return True
        if P[P_FROW] == 0 and mark_row(w) >= 0:
            P[P_FGEN] = word_gen(w)
            P[P_FROW] = mark_row(w) + 1
        return False
    if role == HELPER:
        return atomic_load(P, P_STOP) == P[P_TAG]
    return False


def is_open(word: int) -> bool:
    """Whether a worker's shared word offers its job (read from Python: a hint, which the
    kernel checks again as it joins)."""
    return word > 0 and not word & _MARK
