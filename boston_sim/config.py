"""Numba compilation flags, in one place.

Every ``@njit`` in the package takes its options from here so that caching, fast-math and
threading can be changed (or switched off for debugging) without touching the kernels.
"""

from __future__ import annotations

import os

# cache=True: compiled machine code is written next to the sources (or to NUMBA_CACHE_DIR), so
# only the first run after an install or a change pays the compile time.
# fastmath stays off: the solver is integer-only and must be exact; nothing to gain.
# nogil=True: serial kernels release the GIL, so Python threads (or Dask) can run them side by side.
JIT: dict = {"cache": True, "fastmath": False, "nogil": True}

# The search kernels (solver/_search.py and those it calls) only index arrays, never allocate, so
# they are compiled without numba's reference-counting runtime: with it, every call between
# them that passes arrays updated reference counts atomically, ~18% of the search time in a
# profile. (``_nrt`` is numba's own switch for this; a function that allocated would fail to
# compile, not misbehave.)
JIT_NONRT: dict = {**JIT, "_nrt": False}

# Batch entry points parallelise over deals with prange.
JIT_PARALLEL: dict = {"cache": True, "fastmath": False, "nogil": True, "parallel": True}

# Transposition-table pool size (2**bits entries, 74 bytes each with the chain heads and maps) per
# worker; when a search fills it the oldest entries are overwritten (re-searched later), so
# keep it large. The table is allocated as zero pages, so only the part a search touches
# costs memory: 2**22 (~310 MB per worker at most) halves the slowest 1 v 3 searches seen
# against 2**20 (docs/PERFORMANCE.md). BOSTON_SIM_TT_BITS overrides.
SOLVER_TT_BITS: int = int(os.environ.get("BOSTON_SIM_TT_BITS", "22"))
