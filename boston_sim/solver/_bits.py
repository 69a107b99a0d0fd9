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
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.ndim == 1):
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        v = context.cast(builder, args[2], signature.args[2], types.int64)
        ptr = builder.gep(ary.data, [i])
        return builder.atomic_rmw("add", ptr, v, "monotonic")

    return types.int64(arr, idx, val), codegen
