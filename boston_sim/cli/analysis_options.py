"""The analysis options shared by ``bid``, ``plot`` and ``batch``: one definition each, one
name each (old names live on as hidden aliases, :data:`.command.ALIASES`), and the one
function that turns them into :class:`~boston_sim.settings.AnalysisSettings`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..config import (
    BRACKET_DEALS,
    BRACKET_LAYOUTS,
    DEFAULT_SAMPLES,
    MAX_SAMPLES,
    ROUND,
    SE_TARGET,
    TIME_STEP,
)
from .common import parse_options

if TYPE_CHECKING:
    from ..settings import AnalysisSettings

Seat = Annotated[str | None, typer.Option("--seat", "-s", help="Your seat in playing order: "
                                          "eldest (unless said), second, third or dealer.")]
Rules = Annotated[str | None, typer.Option("--rules", "-r", help="Rule-set id (see "
                                           "`boston-sim rules`) or a .toml path.")]
Options = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="Rule option key=value (repeatable), e.g. payments=american; "
                           "also preference=H (classic Boston) or senior=S (Russian).")]
Seed = Annotated[int, typer.Option("--seed", help="Random seed; same seed, same answer "
                                                  "(without --max-time).")]
Samples = Annotated[int | None, typer.Option(
    "--samples", "-n", help=f"Solve every rung on this many random deals. Default: rounds "
                            f"of {ROUND} up to {DEFAULT_SAMPLES}, where a trump or misère whose "
                            "rows are settled (EV clearly below the best bid, pass or "
                            "another trump or discard of its rung) stops "
                            "early; so does the best bid's, once every other has, it is "
                            f"clearly above pass and its P(make) has an SE below {SE_TARGET}.")]
Precision = Annotated[float | None, typer.Option(
    "--precision", help="Instead of --samples: sample until the SE of the recommended "
                        "bid's expected net value is below this many counters "
                        f"(cap {MAX_SAMPLES}).")]
MaxTime = Annotated[float | None, typer.Option(
    "--max-time", help="Seconds: stop sampling then; the searches under way stop where "
                       f"they are (the first {TIME_STEP} deals are always solved, so a very "
                       "slow one can overrun it). Bounds the wait on slow hands; wider SEs, "
                       "and the numbers then depend on the machine's speed.")]
Known = Annotated[list[str] | None, typer.Option(
    "--known", help="A card known to lie with a seat, CARD@SEAT, e.g. SA@dealer or SA@W "
                    "(repeatable).")]
Constraints = Annotated[list[str] | None, typer.Option(
    "--constraint", "-c", help="Condition on another seat (repeatable, all must hold): "
                               "second:H5+ (5 or more hearts), dealer:H0-1, third:hcp12+, "
                               "third:hcp12-15, eldest:has=SK, eldest:lacks=SK, "
                               "second:shape=5xxx+4xxx (S H D C lengths, + or), "
                               "second:H5+/S5+ (/ or), third:hcp12+,H4+ (, and).")]
Turnup = Annotated[str | None, typer.Option(
    "--turnup", help="The turned-up trump card (Solo Whist, Russian Boston); it lies in the "
                     "dealer's hand.")]
Preference = Annotated[str | None, typer.Option(
    "--preference", help="Classic Boston: the First Preference suit turned from the still "
                         "pack (shows the suit class).")]
Senior = Annotated[str | None, typer.Option(
    "--senior", help="Russian Boston: the senior suit (the first deal's turn-up).")]
Partner = Annotated[str | None, typer.Option(
    "--partner", help="Partner's seat in pair contracts: opposite, left, right, or average "
                      "(each deal one of the three at random); a random partner hand is "
                      "pessimistic.")]
MisereTricks = Annotated[str | None, typer.Option(
    "--misere-tricks", help="bool (default): a misère is the yes/no search 'no trick?'; "
                            "min: count the declarer's fewest tricks (slower). Also "
                            "--option misere_tricks=min.")]
Risk = Annotated[float, typer.Option(
    "--risk", help="P(loss) column: probability of losing more than this many counters.")]
Threads = Annotated[int | None, typer.Option(
    "--threads", help="Cores to use (default: all); results do not depend on it.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar, and no notice "
                                                       "that a first run compiles the solver.")]
Bracket = Annotated[bool, typer.Option(
    "--bracket", help="Also replay the contending bids with a blind opening lead and "
                      "single-dummy play (each player sees only his own cards): how much "
                      "double-dummy flatters them. Slower: about a minute on 2 cores.")]
BracketDeals = Annotated[int | None, typer.Option(
    "--bracket-deals", help=f"Deals replayed per contending bid by --bracket "
                            f"(default {BRACKET_DEALS}).")]
BracketLayouts = Annotated[int | None, typer.Option(
    "--bracket-layouts", help=f"Layouts a single-dummy player imagines per decision "
                              f"(default {BRACKET_LAYOUTS}).")]
PlotFile = Annotated[Path | None, typer.Option(
    "--plot", help="Also draw the payoffs to this image file (.png, .svg, .pdf).")]


def build_settings(*, rules: str | None, seat: str | None, option: list[str] | None,
                   samples: int | None, precision: float | None, max_time: float | None,
                   seed: int, known: list[str] | None, constraint: list[str] | None,
                   turnup: str | None, preference: str | None, senior: str | None,
                   partner: str | None, risk: float, threads: int | None,
                   misere_tricks: str | None = None, bracket: bool = False,
                   bracket_deals: int | None = None,
                   bracket_layouts: int | None = None) -> AnalysisSettings:
    """The settings the shared options ask for (None: the analysis default).
    ``misere_tricks`` is an analysis setting that ``--option`` may give too (no rule set has
    such an option); the flag and the option must agree."""
    from ..errors import SamplingError
    from ..settings import AnalysisSettings

    if samples is not None and precision is not None:
        raise SamplingError("give either --samples or --precision, not both")
    context = {k: v for k, v in (("preference", preference), ("senior", senior))
               if v is not None}
    options = parse_options(option)
    given = options.pop("misere_tricks", None)
    if given is not None and misere_tricks is not None and given != misere_tricks:
        raise SamplingError(f"--misere-tricks {misere_tricks} and --option "
                            f"misere_tricks={given} disagree")
    misere = misere_tricks if misere_tricks is not None else given
    return AnalysisSettings.build(
        rules=rules, seat=seat, options=options, samples=samples,
        precision=precision, seed=seed, known=known, constraints=constraint, turnup=turnup,
        partner=partner, context=context or None, risk_threshold=risk, threads=threads,
        max_time=max_time, bracket=bracket, bracket_deals=bracket_deals,
        bracket_layouts=bracket_layouts,
        **({} if misere is None else {"misere_tricks": misere}))
