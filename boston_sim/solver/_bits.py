"""Bit helpers for the solver kernels: LLVM's popcount / count-trailing-zeros as numba intrinsics.

Everything in the search works on small non-negative ``int64`` lanes (16 bits per suit, bit =
rank), so these helpers take and return ``int64``.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 (``llvm.ctpop``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        val = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.ctpop(val)

    return types.int64(x), codegen


@intrinsic
def lowbit_index(typingctx, x):
    """Index of the lowest set bit of a non-zero int64 (``llvm.cttz``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        val = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.cttz(val, ir.Constant(ir.IntType(1), 1))

    return types.int64(x), codegen


@intrinsic
def highbit_index(typingctx, x):
    """Index of the highest set bit of a non-zero int64 (63 - ``llvm.ctlz``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        val = context.cast(builder, args[0], signature.args[0], types.int64)
        lz = builder.ctlz(val, ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return types.int64(x), codegen


@intrinsic
def fetch_add(typingctx, arr, idx, val):
    """Atomically add ``val`` to ``arr[idx]`` (an int64 array) and return the old value: the
    parallel batch kernels hand out deals with it, so a slow deal never leaves a thread idle."""
    if not _is_words(arr):
        return None

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[2], signature.args[2], types.int64)
        return builder.atomic_rmw("add", _word_ptr(context, builder, signature, args), v,
                                  "monotonic")

    return types.int64(arr, idx, val), codegen


def _word_ptr(context, builder, signature, args):
    ary = context.make_array(signature.args[0])(context, builder, args[0])
    i = context.cast(builder, args[1], signature.args[1], types.intp)
    return builder.gep(ary.data, [i])


def _is_words(arr):
    return isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.ndim == 1


@intrinsic
def atomic_load(typingctx, arr, idx):
    """``arr[idx]`` read atomically (an int64 array another thread writes): never torn, and
    never hoisted out of a loop or merged with an earlier read."""
    if not _is_words(arr):
        return None

    def codegen(context, builder, signature, args):
        return builder.load_atomic(_word_ptr(context, builder, signature, args), "acquire", 8)

    return types.int64(arr, idx), codegen


@intrinsic
def atomic_store(typingctx, arr, idx, val):
    """``arr[idx] = val`` as one atomic write that the stores before it precede."""
    if not _is_words(arr):
        return None

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[2], signature.args[2], types.int64)
        builder.store_atomic(v, _word_ptr(context, builder, signature, args), "release", 8)
        return context.get_dummy_value()

    return types.none(arr, idx, val), codegen


@intrinsic
def atomic_swap(typingctx, arr, idx, val):
    """Atomically set ``arr[idx]`` to ``val``; returns the value it replaced."""
    if not _is_words(arr):
        return None

    def codegen(context, builder, signature, args):
        v = context.cast(builder, args[2], signature.args[2], types.int64)
        return builder.atomic_rmw("xchg", _word_ptr(context, builder, signature, args), v,
                                  "acq_rel")

    return types.int64(arr, idx, val), codegen


@intrinsic
def compare_swap(typingctx, arr, idx, expected, val):
    """Atomically set ``arr[idx]`` to ``val`` if it holds ``expected``; returns the value it
    held (``expected``: the swap was made)."""
    if not _is_words(arr):
        return None

    def codegen(context, builder, signature, args):
        e = context.cast(builder, args[2], signature.args[2], types.int64)
        v = context.cast(builder, args[3], signature.args[3], types.int64)
        pair = builder.cmpxchg(_word_ptr(context, builder, signature, args), e, v, "acq_rel",
                               "acquire")
        return builder.extract_value(pair, 0)

    return types.int64(arr, idx, expected, val), codegen


@intrinsic
def compiler_fence(typingctx):
    """No memory read or write moves across this point (an acquire-release fence: free on
    x86, where it only binds the compiler). A table entry written between fences is read
    back whole by a reader that checks its serial before and after (``_ttable``)."""

    def codegen(context, builder, signature, args):
        builder.fence("acq_rel")
        return context.get_dummy_value()

    return types.none(), codegen
