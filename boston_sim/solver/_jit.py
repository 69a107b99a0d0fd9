"""The solver's ``njit``: numba's, with an on-disk cache keyed by every solver kernel source.

numba's cache of a kernel notices changes to the file that defines it only, not to the
kernels of other files compiled into it; so every solver kernel's cache key also holds
``KERNEL_SOURCES_SHA256``, the digest of all the solver's kernel sources and numba flags,
computed at import: any edit there compiles every solver kernel afresh.

Importing it also makes numba's IR inliner (``inline="always"``, used throughout the search)
copy each inlined function's blocks with one shared memo (``_BlockCopier``): the same copy,
two fifths less compile time on a first run.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
from pathlib import Path

import numba
from numba.core.caching import FunctionCache

from .. import config
from ..cards import lane_hcp

_SOLVER = Path(__file__).parent


def kernel_sources() -> list[Path]:
    """The files whose text the solver kernels are compiled from: the solver's private
    modules (the public wrappers hold no kernel)."""
    return sorted(p for p in _SOLVER.glob("_*.py") if p.name != "__init__.py")


def kernel_sources_digest() -> str:
    """sha256 of the kernel sources (line endings normalised), of ``cards.lane_hcp`` (compiled
    into the driver) and of the numba flags in ``config``."""
    h = hashlib.sha256()
    for path in kernel_sources():
        h.update(path.name.encode())
        h.update(path.read_text(encoding="utf-8").replace("\r\n", "\n").encode())
    h.update(inspect.getsource(lane_hcp).encode())
    h.update(repr((config.JIT, config.JIT_NONRT, config.JIT_PARALLEL)).encode())
    return h.hexdigest()


KERNEL_SOURCES_SHA256 = kernel_sources_digest()


class SolverCache(FunctionCache):
    """numba's per-function cache, its index key extended by ``KERNEL_SOURCES_SHA256``."""

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), KERNEL_SOURCES_SHA256)


class _BlockCopier:
    """Stands in for the ``copy`` module in ``numba.core.inline_closurecall``.

    numba's inliner deep-copies a callee's IR block by block, each with a fresh memo, so
    every block copies the whole variable scope again (and the copies of one scope are then
    told apart by deep comparison): most of the solver's first compile. Here the blocks of
    one IR (one scope object) share one memo, as they share one scope in the IR copied. A
    block met again (the same IR copied a second time) starts a fresh memo, so two copies
    never share an object. The IR, and so the machine code, is the same."""

    def __init__(self) -> None:
        from numba.core import ir

        self._block = ir.Block  # looked up once: deepcopy runs for every inlined block
        self._scope: object = None
        self._memo: dict = {}

    def deepcopy(self, x, memo=None):
        if memo is not None or not isinstance(x, self._block):
            return copy.deepcopy(x, memo)
        if x.scope is not self._scope or id(x) in self._memo:
            self._scope, self._memo = x.scope, {}
        return copy.deepcopy(x, self._memo)

    def __getattr__(self, name: str):
        return getattr(copy, name)


def _share_inliner_memo() -> None:
    """Install ``_BlockCopier`` where numba's inliner looks up ``copy``; a numba whose
    inliner is built otherwise is left alone (it only compiles slower)."""
    try:
        from numba.core import inline_closurecall, ir
    except ImportError:
        return
    if getattr(inline_closurecall, "copy", None) is copy and hasattr(ir, "Block"):
        inline_closurecall.copy = _BlockCopier()


_share_inliner_memo()


def njit(**options):
    """``numba.njit(**options)``; with ``cache=True`` the cache is a ``SolverCache``."""

    def wrap(func):
        dispatcher = numba.njit(**options)(func)
        if options.get("cache"):
            dispatcher._cache = SolverCache(func)
        return dispatcher

    return wrap
