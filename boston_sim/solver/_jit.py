"""The solver's ``njit``: numba's, with an on-disk cache keyed by every solver kernel source.

numba's cache of a kernel notices changes to the file that defines it only, not to the
kernels of other files compiled into it; so every solver kernel's cache key also holds
``KERNEL_SOURCES_SHA256``, the digest of all the solver's kernel sources and numba flags,
computed at import: any edit there compiles every solver kernel afresh.
"""

from __future__ import annotations

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


def njit(**options):
    """``numba.njit(**options)``; with ``cache=True`` the cache is a ``SolverCache``."""

    def wrap(func):
        dispatcher = numba.njit(**options)(func)
        if options.get("cache"):
            dispatcher._cache = SolverCache(func)
        return dispatcher

    return wrap
