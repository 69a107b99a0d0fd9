"""Samples x solver x rules -> per-rung statistics: "what should I bid?" (docs/RULES.md §3).

For one declarer hand, :func:`analyze` deals seeded completions of the unseen hands
(:mod:`boston_sim.sampler`), solves every sample double-dummy for every rung of the ladder
and every trump the rung allows (:mod:`boston_sim.solver`), scores the tricks with the rule
set's dense tables and recommends the rung with the best expected net result, or "pass".

The package, in the order an analysis runs:

* ``inputs``: a hand and an :class:`AnalysisSettings` checked and resolved (:class:`Problem`);
* ``plan``: the ways of playing each rung (:class:`Candidate`) and the searches they share
  (:class:`SolveKey`);
* ``solving``: :class:`Solver` runs the searches over a growing pool of samples, batched;
* ``statistics``: the numbers of one candidate (:class:`CandidateStats`), Agresti-Coull SEs;
* ``evaluate``: every candidate scored, trumps chosen ex ante, the bid recommended
  (:class:`Evaluation`);
* ``rounds``: how many deals each search gets (adaptive rounds, precision, time limit);
* ``result``: the typed :class:`Analysis` and its JSON form; ``api``: :func:`analyze`;
* ``dd_table``: the double-dummy table of one deal (:func:`dd_table`), for ``boston-sim solve``.

Design points (docs/RULES.md §3.0):

* **Seats.** The dealer sits at compass W, so eldest = N, second = E, third = S, dealer = W.
  The first leader comes from the rung's ``leader``: eldest -> N, declarer -> the declarer,
  declarer_left -> the next seat in playing order (A-33).
* **Common random numbers.** Every rung and every trump is scored on the same samples, so
  differences between rungs are paired.
* **Misères** (rung kind ``zero``) are settled by the yes/no search "can he take no trick?",
  after an exact shortcut for hands whose cards are all below the others'
  (``solver.sure_misere``). A failure is recorded as 1 trick and the output says so: the
  real fewest-tricks count (``misere_tricks="min"``) costs far more (docs/PERFORMANCE.md).
* **Piccolissimo** ("exactly 1"): a yes/no "exactly 1" search; recorded as 1 trick when made
  and 0 when not.
* **12-trick rungs** (every player discards one card, A-12): each defender (and a partner)
  discards a uniformly random card drawn with the deal; the declarer's discard is chosen ex
  ante among the highest card of each suit he holds, by the same criterion as the trump.
* **Russian Boston**: trump contracts move the boston card into the trump suit
  (``cards.boston_card_transform``, A-40) when ``boston_card_mode`` is ``trump``; misères are
  played without it (L85). The boston bonus (A-50) is added through the rules' context.
"""

from __future__ import annotations

from ..config import DEFAULT_SAMPLES, MAX_SAMPLES, ROUND, SE_TARGET, TIME_STEP
from ..settings import AnalysisSettings
from .api import analyze
from .dd_table import DDTable, dd_table
from .evaluate import Evaluation, Recommendation, evaluate
from .inputs import Problem, resolve
from .plan import Candidate, SolveKey, plan_candidates
from .result import TABLE_COLUMNS, Analysis, is_missing, json_value
from .rounds import LAST_STEP, PRECISION_START, Z_OUT, deals_for_se, settle, solve_before
from .solving import PILOT, Solver
from .statistics import CandidateStats, ac_se

__all__ = [
    "DEFAULT_SAMPLES", "LAST_STEP", "MAX_SAMPLES", "PILOT", "PRECISION_START", "ROUND",
    "SE_TARGET", "TABLE_COLUMNS", "TIME_STEP", "Z_OUT", "Analysis", "AnalysisSettings",
    "Candidate", "CandidateStats", "DDTable", "Evaluation", "Problem", "Recommendation",
    "SolveKey", "Solver", "ac_se", "analyze", "dd_table", "deals_for_se", "evaluate",
    "is_missing", "json_value", "plan_candidates", "resolve", "settle", "solve_before",
]
