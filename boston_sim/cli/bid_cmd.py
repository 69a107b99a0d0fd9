"""``boston-sim bid HAND``: what should I bid? Parses the options into one
:class:`~boston_sim.settings.AnalysisSettings`, calls :func:`boston_sim.analysis.analyze`
and shows the result through :mod:`boston_sim.views`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..config import (
    DEFAULT_PARTNER,
    DEFAULT_RULES,
    DEFAULT_SAMPLES,
    DEFAULT_SEAT,
    MAX_SAMPLES,
    ROUND,
    SE_TARGET,
    TIME_STEP,
)
from .common import echo_json, notice_at_compile, parse_options, user_errors

Hand = Annotated[str, typer.Argument(help="Your 13 cards, e.g. AKQ2.JT9.876.543 or "
                                          "'S:AKQ2 H:JT9 D:876 C:543'.")]
Seat = Annotated[str, typer.Option("--seat", help="Your seat in playing order: eldest, "
                                                  "second, third or dealer.")]
Rules = Annotated[str, typer.Option("--rules", "-r", help="Rule-set id (see `boston-sim "
                                                          "rules`) or a .toml path.")]
Options = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="Rule option key=value (repeatable), e.g. payments=american; "
                           "also preference=H (classic Boston) or senior=S (Russian).")]
Seed = Annotated[int, typer.Option("--seed", help="Random seed; same seed, same answer "
                                                  "(without --max-time).")]
Samples = Annotated[int | None, typer.Option(
    "--samples", "-n", help=f"Solve every rung on this many random deals. Default: rounds "
                            f"of {ROUND} up to {DEFAULT_SAMPLES}, where a trump or misère whose "
                            f"rows are settled (SE of P(make) below {SE_TARGET}, EV clearly "
                            "below the best bid) stops early; so does the best bid's, once "
                            "every other has and it is clearly above pass.")]
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
    "--constraint", "-c", help="Condition on another seat (repeatable): second:S>=5, "
                               "dealer:H<=1, third:hcp>=12, eldest:has=SK, eldest:lacks=SK.")]
Turnup = Annotated[str | None, typer.Option(
    "--turnup", help="The turned-up trump card (Solo Whist, Russian Boston); it lies in the "
                     "dealer's hand.")]
Preference = Annotated[str | None, typer.Option(
    "--preference", help="Classic Boston: the First Preference suit turned from the still "
                         "pack (shows the suit class).")]
Senior = Annotated[str | None, typer.Option(
    "--senior", help="Russian Boston: the senior suit (the first deal's turn-up).")]
Partner = Annotated[str, typer.Option(
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
    "--threads", help="Solver threads (default: all cores); results do not depend on it.")]
JsonOut = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]
CsvFile = Annotated[Path | None, typer.Option(
    "--csv", help="Also write the table (every trump candidate) to this CSV file.")]
PlotFile = Annotated[Path | None, typer.Option(
    "--plot", help="Also draw the payoffs to this image file (.png, .svg, .pdf).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar, and no notice "
                                                       "that a first run compiles the solver.")]


def analysis_options(options: dict[str, str],
                     misere_tricks: str | None) -> tuple[dict[str, str], str | None]:
    """The rule options without ``misere_tricks``, an analysis setting (no rule set has such
    an option) that ``--option`` may give too; and its value, from the flag or the option
    (both, if they disagree, are an error)."""
    from ..errors import SamplingError

    given = options.pop("misere_tricks", None)
    if given is not None and misere_tricks is not None and given != misere_tricks:
        raise SamplingError(f"--misere-tricks {misere_tricks} and --option "
                            f"misere_tricks={given} disagree")
    return options, misere_tricks if misere_tricks is not None else given


def bid(
    hand: Hand,
    seat: Seat = DEFAULT_SEAT,
    rules: Rules = DEFAULT_RULES,
    option: Options = None,
    samples: Samples = None,
    precision: Precision = None,
    max_time: MaxTime = None,
    seed: Seed = 0,
    known: Known = None,
    constraint: Constraints = None,
    turnup: Turnup = None,
    preference: Preference = None,
    senior: Senior = None,
    partner: Partner = DEFAULT_PARTNER,
    misere_tricks: MisereTricks = None,
    risk: Risk = 0.0,
    threads: Threads = None,
    json_out: JsonOut = False,
    csv_file: CsvFile = None,
    plot: PlotFile = None,
    quiet: Quiet = False,
) -> None:
    """Analyse a hand over the whole ladder: P(make), tricks, expected counters, and the bid
    to make (double-dummy Monte Carlo, docs/RULES.md §3)."""
    with user_errors():
        from ..analysis import analyze
        from ..errors import SamplingError
        from ..settings import AnalysisSettings

        if samples is not None and precision is not None:
            raise SamplingError("give either --samples or --precision, not both")
        context = {k: v for k, v in (("preference", preference), ("senior", senior))
                   if v is not None}
        options, misere = analysis_options(parse_options(option), misere_tricks)
        settings = AnalysisSettings.build(
            rules=rules, seat=seat, options=options, samples=samples,
            precision=precision, seed=seed, known=known, constraints=constraint,
            turnup=turnup, partner=partner, context=context, risk_threshold=risk,
            threads=threads, max_time=max_time, misere_tricks=misere)
        with notice_at_compile(not quiet):
            a = analyze(hand, settings, progress=not quiet and sys.stderr.isatty())
        if csv_file is not None:
            from ..views import write_csv

            write_csv(a, csv_file)
        if plot is not None:
            from ..views.plots import plot_hand

            plot_hand(a, plot)
        if json_out:
            echo_json(a.to_dict())
        else:
            from ..views import print_report

            print_report(a)


def register(app: typer.Typer) -> None:
    """Add the ``bid`` command to the app."""
    app.command("bid")(bid)
