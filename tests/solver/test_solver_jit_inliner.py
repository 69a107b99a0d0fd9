"""The solver's fix to numba's IR inliner (``_jit._BlockCopier``): the blocks of one IR are
copied with one memo (one scope copy, not one per block), two copies share nothing, and
functions inlined with ``inline="always"`` still compute the same."""

from __future__ import annotations

import copy

import numba
from numba.core import inline_closurecall, ir
from numba.core.compiler import run_frontend

from boston_sim.solver import _jit


def _branchy(x):
    y = 0
    for i in range(x):
        if i % 3 == 0:
            y += i
        else:
            y -= 1
    return y


def test_inliner_uses_the_block_copier() -> None:
    assert isinstance(inline_closurecall.copy, _jit._BlockCopier)


def test_blocks_of_one_ir_share_one_scope_copy() -> None:
    func_ir = run_frontend(_branchy)
    assert len(func_ir.blocks) > 2
    copier = _jit._BlockCopier()
    first = {k: copier.deepcopy(b) for k, b in func_ir.blocks.items()}
    scopes = {id(b.scope) for b in first.values()}
    assert len(scopes) == 1  # numba's own copy makes one scope per block
    assert next(iter(first.values())).scope is not next(iter(func_ir.blocks.values())).scope
    # the same IR copied again: a fresh copy, nothing shared with the first
    second = {k: copier.deepcopy(b) for k, b in func_ir.blocks.items()}
    assert {id(b.scope) for b in second.values()}.isdisjoint(scopes)
    for k, b in first.items():
        assert b is not second[k]
        assert [str(s) for s in b.body] == [str(s) for s in func_ir.blocks[k].body]
        assert [str(s) for s in second[k].body] == [str(s) for s in func_ir.blocks[k].body]


def test_other_copies_pass_through() -> None:
    copier = _jit._BlockCopier()
    data = {"a": [1, 2]}
    out = copier.deepcopy(data)
    assert out == data and out["a"] is not data["a"]
    block = next(iter(run_frontend(_branchy).blocks.values()))
    memo: dict = {}
    assert isinstance(copier.deepcopy(block, memo), ir.Block) and memo  # the caller's memo
    assert copier.copy is copy.copy  # the rest of the copy module is the module's


@_jit.njit(inline="always")
def _twice(x):
    return 2 * x


@_jit.njit()
def _uses_inlined(n):
    s = 0
    for i in range(n):
        s += _twice(i) if i % 2 else -_twice(i)
    return s


def test_inlined_functions_compute_the_same() -> None:
    assert _uses_inlined(10) == sum(2 * i if i % 2 else -2 * i for i in range(10))
    assert numba.njit(_uses_inlined.py_func)(7) == _uses_inlined(7)
