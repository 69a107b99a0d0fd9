"""The entry point of the analysis: :func:`analyze`, one hand under one
:class:`~boston_sim.settings.AnalysisSettings`."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..cards import PLAY_SEATS, format_card, format_hand
from ..config import DEFAULT_SAMPLES, SE_TARGET
from ..limits import check_flag
from ..progress import ProgressBar
from ..sampler import Sampler
from ..settings import AnalysisSettings, SettingsError
from .all_pass import PassEstimator
from .bracket import bracket_analysis
from .control import controls_for
from .evaluate import Evaluation, RungMemo, evaluate
from .inputs import Problem, check_solving, resolve
from .plan import plan_candidates, trick_floors
from .result import Analysis
from .rounds import WorkCount, run_rounds
from .solving import Solver

Progress = bool | Callable[[int, int], None]

# the order of analyze's positional parameters before the settings object
_POSITIONAL = ("seat", "rules", "options")


@contextlib.contextmanager
def _numba_threads(threads: int | None) -> Iterator[None]:
    """Run with ``threads`` numba threads (None: as they are), restored afterwards."""
    if threads is None:
        yield
        return
    import numba

    prev = numba.get_num_threads()
    numba.set_num_threads(min(int(threads), numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(prev)


@contextlib.contextmanager
def _work_count(progress: Progress) -> Iterator[WorkCount]:
    """The deal-solves counter, reporting to ``progress``: True draws the progress bar on
    stderr, a callable gets ``(done, total)``."""
    if progress is None or callable(progress):
        yield WorkCount(progress)
    elif check_flag("progress", progress, "true, false or a function (done, total)"):
        with ProgressBar("solving") as bar:
            yield WorkCount(bar.update)
    else:
        yield WorkCount(None)


def _settings_of(settings: Any, args: tuple[Any, ...], overrides: dict[str, Any]
                 ) -> AnalysisSettings:
    """The settings object from the forms analyze accepts: an AnalysisSettings, or the
    positional ``seat, rules, options`` of the keyword form, plus keyword overrides."""
    if settings is not None and not isinstance(settings, AnalysisSettings):
        args = (settings, *args)
        settings = None
    if len(args) > len(_POSITIONAL):
        raise SettingsError(f"analyze takes at most {len(_POSITIONAL)} settings positionally")
    for name, value in zip(_POSITIONAL, args, strict=False):
        if name in overrides:
            raise SettingsError(f"analyze got {name!r} twice")
        overrides[name] = value
    return AnalysisSettings.build(settings, **overrides)


def _notes(p: Problem, ev: Evaluation, samples_drawn: int, two_phase: bool,
           misere_skipped: int = 0, makes_sampled: bool = False) -> list[str]:
    """The footnotes of a result: how the misères were searched, what the model leaves out,
    whether the sampling stopped early, was cut by the time limit or missed its precision."""
    s, rs, ctx = p.settings, p.rules, p.context
    notes = list(ev.notes)
    if s.misere_tricks == "bool" and any(r.kind != "at_least" for r in rs.rungs):
        notes.append("misère and Piccolissimo rungs are yes/no searches: their trick "
                     "distribution shows 0 (made) or 1 (failed, at least one trick); "
                     "Piccolissimo: 1 made, 0 failed")
    if two_phase:
        notes.append("in trick searches whose first deals mostly failed the lowest target, "
                     "only the makes, the first failures and a random "
                     f"{s.fail_count_rate:.0%} of the later ones had their tricks counted; "
                     "the estimates stay unbiased and their SEs include it "
                     "(BOSTON_SIM_FAIL_COUNT_RATE=1 counts every deal)")
    if makes_sampled:
        notes.append("once only the best bid's P(make) was still loose, its search asked "
                     "each later deal whether the bid makes and counted the tricks of a "
                     f"random {s.make_count_rate:.0%} of the makes and "
                     f"{s.fail_count_rate:.0%} of the failures; the estimates stay unbiased "
                     "and their SEs include it (BOSTON_SIM_MAKE_COUNT_RATE=1 counts every "
                     "make)")
    if misere_skipped:
        notes.append(f"misère searches that ran past {s.misere_node_budget:,} nodes (escape "
                     f"proofs, nearly always) went on on a random {s.misere_count_rate:.0%} of "
                     "their deals, and past each further tier of nodes on that share again "
                     f"({misere_skipped} not searched to the end), the others entering at the "
                     "counted deals' mean; the estimates stay unbiased and their SEs include "
                     "it (BOSTON_SIM_MISERE_COUNT_RATE=1 ends every one)")
    if ctx.get("junior") is not None and ctx.get("junior") == ctx.get("senior"):
        notes.append("the turn-up is the senior suit: no junior rungs this deal, only senior "
                     "purchases (A-43)")
    notes.extend(_model_notes(p, ev))
    early = s.samples is None and (ev.stopped_early
                                   or (s.precision is None and samples_drawn < DEFAULT_SAMPLES))
    if early and not ev.time_limited:
        notes.append("searches whose rungs were settled early stopped sooner: the rung's EV "
                     "clearly below the best bid's or passing's, or another trump's or "
                     "discard's of its rung (paired per deal), or for the "
                     "best bid, clearly above pass once every other had stopped and its "
                     f"P(make) known within {SE_TARGET}; the samples column gives each row's "
                     "count (--samples N solves everything on N deals)")
    if ev.foregone and not ev.time_limited:
        notes.append(f"the sampling ended at {samples_drawn} deals, before "
                     f"{DEFAULT_SAMPLES}: every rung still open had its P(make) known within "
                     f"{SE_TARGET}, and {DEFAULT_SAMPLES} deals would all but surely not "
                     "change the answer: each contest left was a lead they would not reverse "
                     "or a tie they would not tell apart")
    if ev.time_limited:
        notes.append(f"stopped by the time limit ({s.max_time:g} s) after {samples_drawn} "
                     "samples (the searches under way stopped where they were, so some rows "
                     "have fewer: the samples column); rows may "
                     f"not have reached their targets (P(make) SE below {SE_TARGET}"
                     + ("" if s.precision is None else f", EV SE below {s.precision:g}")
                     + "); with a time limit the numbers depend on the machine's speed")
    rec_se = ev.recommendation.rec_se
    if s.precision is not None and rec_se is not None and rec_se > s.precision:
        notes.append(f"precision {s.precision:g} not reached within {s.max_samples} samples "
                     f"(SE {rec_se:.2f})")
    return notes


def _count(terms: np.ndarray | None) -> int:
    return 0 if terms is None else len(terms)


def _model_notes(p: Problem, ev: Evaluation) -> list[str]:
    """What passing is worth, and how bids that need a partner were valued."""
    rs, r = p.rules, ev.recommendation
    if r.pass_game:
        notes = [f"pass = {r.pass_game}, simulated with heuristic play: {r.pass_value:+.1f} "
                 f"± {r.pass_value_se:.1f} {rs.unit} (the rules' all-pass game, each for "
                 f"himself, on {_count(r.pass_terms):,} deals: the searches' own and, "
                 "unless constraints bind the other hands, more drawn alike; one heuristic "
                 "card play for every seat; option all_pass)"]
    else:
        notes = [f"pass = {r.pass_value:+g} {rs.unit}: {rs.pass_model}"]
    if ev.outcomes:
        notes.append(f"a purchase is one bid: valued as supported with probability "
                     f"{rs.support_share:g}, else played alone for 5 (its unsupported row; "
                     "option purchase_support, docs/RULES.md §3.5)")
    return notes


def _result(p: Problem, ev: Evaluation, sampler: Sampler, solver: Solver,
            elapsed: float) -> Analysis:
    s, r = p.settings, ev.recommendation
    m = len(solver.deals)
    return Analysis(
        rules=p.rules, hand=format_hand(p.mask), seat=PLAY_SEATS[p.play_seat], samples=m,
        seed=int(s.seed), rejected=sampler.rejected, recommended=r.recommended,
        runner_up=r.runner_up, diff=r.diff, diff_se=r.diff_se,
        indistinguishable=r.indistinguishable, reason=r.reason, rows=ev.rows,
        tricks=ev.tricks, payoffs=ev.payoffs, payoff_samples=ev.payoff_samples,
        options=dict(p.rules.options),
        context=p.context, partner=s.partner, turnup=p.turnup_text,
        known=[f"{format_card(c)}@{'NESW'[seat]}" for c, seat in p.known],
        constraints=[c.describe() for c in p.constraints],
        risk_threshold=float(s.risk_threshold), precision=s.precision, elapsed=elapsed,
        solves=solver.solves, value_searches=solver.value_searches,
        notes=_notes(p, ev, m, any(v for k, v in solver.two_phase.items()
                                   if k not in solver.switched),
                     solver.misere_skipped, bool(solver.makes_sampled)),
        max_time=s.max_time,
        pass_value=r.pass_value, pass_model=p.rules.pass_model, outcomes=ev.outcomes,
        pass_value_se=r.pass_value_se, all_pass_model=p.rules.all_pass_model,
        pass_samples=_count(r.pass_terms),
        time_limited=bool(ev.time_limited), settings=s, deals=solver.deals,
    )


def analyze(hand: str | int, settings: AnalysisSettings | None = None, *args: Any,
            progress: Progress = False, **overrides: Any) -> Analysis:
    """Analyse one hand over the whole ladder of a rule set (docs/RULES.md §3).

    ``hand``: 13 cards in any notation of :func:`cards.parse_hand` (or a mask).
    ``settings``: an :class:`~boston_sim.settings.AnalysisSettings` (every field is
    documented there); keyword ``overrides`` with the same names change some of its fields
    or, without it, of the defaults: ``analyze(hand, seat="second", samples=40)``. The
    older positional form ``analyze(hand, seat, rules, options)`` still works.
    ``progress``: True for a progress bar on stderr, or a callback ``(done, total)`` counting
    deal-solves.

    Default mode draws rounds of deals up to :data:`DEFAULT_SAMPLES` and stops the searches
    whose rows are settled early; ``samples`` solves everything on that many deals;
    ``precision`` samples until the SE of the recommended bid's net EV is below it.
    ``max_time`` starts no batch of deals after that many seconds (the first
    :data:`TIME_STEP` deals are always solved whole): an answer in bounded time, with wider
    SEs and numbers that depend on the machine's speed (the note and ``time_limited`` say so).
    """
    t0 = time.perf_counter()
    s = _settings_of(settings, args, dict(overrides))
    p = resolve(hand, s)
    cands = plan_candidates(p.rules, p.mask, p.declarer, p.partner_seat, p.context,
                            p.turnup_suit)
    sampler = Sampler(p.mask, p.declarer, known=p.known, constraints=p.constraints, seed=s.seed)
    check_solving(s)
    with _numba_threads(s.threads), _work_count(progress) as count:
        solver = Solver([c.key for c in cands], p.declarer, tick=count.advance,
                        misere_tricks=s.misere_tricks, floors=trick_floors(p.rules, cands),
                        fail_rate=s.fail_count_rate, seed=s.seed,
                        misere_budget=s.misere_node_budget, misere_rate=s.misere_count_rate,
                        make_rate=s.make_count_rate)

        # more deals for the cheap all-pass game, unless constraints make deals dear
        passing = PassEstimator(p.rules, p.declarer,
                                None if sampler.active_constraints else sampler.twin())
        controls = controls_for(sampler, s.control_variates)
        memo = RungMemo()

        def score(risk_se: bool = True) -> Evaluation:
            # the deals the searches reached (a time limit may cut the pool to them)
            n = max((len(v) for v in solver.results.values()), default=len(solver.deals))
            return evaluate(p.rules, cands, solver.results, p.context, p.mask,
                            s.risk_threshold, s.partner, solver.rates,
                            passing.value(solver.deals, n), controls, solver.deals,
                            solver.strata, memo, risk_se)

        if s.samples is not None:
            # a fixed number of samples: every search on every sample
            count.set_total(len(solver.keys) * s.samples)
            solver.extend(sampler.draw(s.samples))
            ev = score()
        else:
            deadline = None if s.max_time is None else t0 + s.max_time
            ev = run_rounds(score, solver, sampler, count, s.precision, s.max_samples, deadline)
    result = _result(p, ev, sampler, solver, time.perf_counter() - t0)
    if s.bracket:
        with _numba_threads(s.threads):
            result.bracket = bracket_analysis(p, cands, ev, solver.deals, solver.discards)
    return result
