"""Numba compilation flags, in one place.

Every ``@njit`` in the package takes its options from here so that caching, fast-math and
threading can be changed (or switched off for debugging) without touching the kernels.
"""

from __future__ import annotations

import math
import os

ENV_PROBLEMS: list[str] = []
"""Malformed ``BOSTON_SIM_*`` overrides, reported by ``settings.check_environment`` when an
analysis or a solve starts: the package still imports (``--help`` works) and nothing runs on
a value the user did not ask for."""


def _env_number(name: str, default, kind: type, lo: float, hi: float, *, above: bool = False):
    """The override ``name`` as ``kind`` within ``lo``..``hi`` (strictly above ``lo`` with
    ``above``), or ``default`` when unset; a malformed value is noted in
    :data:`ENV_PROBLEMS` (and the default stands in until it is reported)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = kind(raw.strip())
    except ValueError:
        value = None
    if (value is None or not math.isfinite(value) or value > hi
            or (value <= lo if above else value < lo)):
        if kind is int and hi - lo == 1:
            what = f"{lo} or {hi}"
        elif above:
            what = f"a number above {lo} and at most {hi}"
        else:
            what = f"{'a whole number' if kind is int else 'a number'} from {lo} to {hi}"
        ENV_PROBLEMS.append(f"{name} must be {what}, got {raw[:40]!r}")
        return default
    return value


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

# The mid-trick positions' batch parallelises over positions with prange (every other batch
# runs in the solver's worker pool, solver/_pool.py).
JIT_PARALLEL: dict = {"cache": True, "fastmath": False, "nogil": True, "parallel": True}

# Transposition-table pool size (2**bits entries, 74 bytes each with the chain heads and maps) per
# worker; when a search fills it the oldest entries are overwritten (re-searched later), so
# keep it large. The table is allocated as zero pages, so only the part a search touches
# costs memory: 2**22 (~310 MB per worker at most) halves the slowest 1 v 3 searches seen
# against 2**20 (docs/PERFORMANCE.md). BOSTON_SIM_TT_BITS overrides (within these bounds: a
# table too small for one search thrashes, 2**26 entries would take ~5 GB per worker).
TT_BITS_MIN = 12
TT_BITS_MAX = 26
SOLVER_TT_BITS: int = _env_number("BOSTON_SIM_TT_BITS", 22, int, TT_BITS_MIN, TT_BITS_MAX)

# ---- analysis defaults: the CLI, the Python API and the batch reader all read them from here.
DEFAULT_RULES: str = "boston_foster"
DEFAULT_SEAT: str = "eldest"
DEFAULT_PARTNER: str = "opposite"  # partner's seat in pair contracts: opposite, left or right
PARTNER_OFFSETS: dict[str, int] = {"opposite": 2, "left": 1, "right": 3}
PARTNER_AVERAGE: str = "average"  # pair contracts averaged over the three partner seats
MISERE_TRICKS_MODES: tuple[str, ...] = ("bool", "min")  # yes/no "no trick", or the min count

# The SE of any P(make) is at most 0.5/sqrt(300) = 0.029, below SE_TARGET; searches whose rows
# are settled sooner stop sooner.
DEFAULT_SAMPLES: int = 300
SE_TARGET: float = 0.03  # the SE of P(make) every row reaches before its search may stop early
MAX_SAMPLES: int = 20_000  # cap on the samples drawn by precision mode

# Samples per round of the default mode. A rung whose EV is clearly out of reach of the best
# settles after one round whatever its P(make)'s SE; 25 deals keep its SE's estimate sound
# (a Z test on fewer is anti-conservative) and halve the first round's work against 50.
ROUND: int = 25
# With a time limit, the least batch of deals solved at once; the first is always solved whole.
TIME_STEP: int = 2
# Two-phase trick searches: where a search's first deals mostly fail its lowest target T,
# every deal answers "at least T tricks?" and only the makes, the first few failures and this
# share of the later ones are counted exactly (the estimates stay unbiased, see statistics).
# A weak hand's exact counts of 1-3 tricks cost ~1000x the question; 0.1 cut a pass hand's
# work about 5x (docs/PERFORMANCE.md). 1 counts every deal. BOSTON_SIM_FAIL_COUNT_RATE overrides.
FAIL_COUNT_RATE: float = _env_number("BOSTON_SIM_FAIL_COUNT_RATE", 0.1, float, 0, 1, above=True)
# Once a trick search's only open row is its lowest rung's, as the best bid whose P(make) is
# still loose, its later makes are counted on this share only (their yes/no answers settle
# that P(make); the counted ones the over-tricks). 1 counts every make.
# BOSTON_SIM_MAKE_COUNT_RATE overrides.
MAKE_COUNT_RATE: float = _env_number("BOSTON_SIM_MAKE_COUNT_RATE", 0.25, float, 0, 1, above=True)

# Misère searches past this many expanded nodes (an escape proof, nearly always: a catch is
# found sooner) go on only on a random share of their deals, and past each further tier of
# nodes on that share again (analysis/solving.py); the others enter at the counted deals'
# mean (unbiased, see analysis/statistics). 1 searches every one to the end.
# BOSTON_SIM_MISERE_COUNT_RATE overrides the share.
MISERE_NODE_BUDGET: int = 500_000
MISERE_COUNT_RATE: float = _env_number("BOSTON_SIM_MISERE_COUNT_RATE", 0.25, float, 0, 1,
                                        above=True)

# Control variates (analysis/control.py): each row's estimates are adjusted by the regression
# on how the trump suit splits among the unseen hands, whose exact law is known, so the same
# SE needs fewer deals. BOSTON_SIM_CONTROL_VARIATES=0 switches it off (for comparisons).
CONTROL_VARIATES: bool = _env_number("BOSTON_SIM_CONTROL_VARIATES", 1, int, 0, 1) == 1

# The double-dummy bracket (analysis/bracket.py): deals replayed per contending rung and the
# layouts a single-dummy seat draws per decision; docs/PERFORMANCE.md has what they cost.
BRACKET_DEALS: int = 12
BRACKET_LAYOUTS: int = 8
# A trick search goes two-phase only if at least this share of its pilot's deals failed the
# lowest target: a failure's count (the knife-edge a trick below) is what it skips, and it is
# dearest; only where nearly every deal makes does the question cost as much as the count.
# BOSTON_SIM_TWO_PHASE_MIN_FAIL_SHARE overrides (for comparisons).
TWO_PHASE_MIN_FAIL_SHARE: float = _env_number("BOSTON_SIM_TWO_PHASE_MIN_FAIL_SHARE", 0.25, float,
                                              0, 1)
# Suits that ``analyze`` takes as context rather than rule options (unless the rule set has an
# option of that name): the CLI's --option preference=H, a batch row's options.
CONTEXT_KEYS: tuple[str, ...] = ("preference", "senior", "junior")
