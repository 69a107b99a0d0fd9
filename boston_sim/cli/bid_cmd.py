"""``boston-sim bid HAND``: what should I bid? Parses the options into one
:class:`~boston_sim.settings.AnalysisSettings`, calls :func:`boston_sim.analysis.analyze`
and shows the result through :mod:`boston_sim.views`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..config import DEFAULT_PARTNER, DEFAULT_RULES
from ..outputs import atomic_output, check_output
from .analysis_options import (
    Bracket,
    BracketDeals,
    BracketLayouts,
    Constraints,
    Known,
    MaxTime,
    MisereTricks,
    Options,
    Partner,
    PlotFile,
    Precision,
    Preference,
    Quiet,
    Risk,
    Rules,
    Samples,
    Seat,
    Seed,
    Senior,
    Threads,
    Turnup,
    build_settings,
)
from .common import echo_json, notice_at_compile, user_errors
from .paths import check_outputs, check_request
from .pbn_input import check_pbn_args, pbn_hand

Hand = Annotated[str | None, typer.Argument(
    help="Your 13 cards, e.g. AKQ2.JT9.876.543, -.KQ2.K763.K97542 (void in spades) or "
         "'S:AKQ2 H:JT9 D:876 C:543'; or --pbn FILE instead.", show_default=False)]
PbnFile = Annotated[Path | None, typer.Option(
    "--pbn", help="Take the hand from this PBN file (- reads standard input): the hand of "
                  "--seat (N, E, S, W, or eldest .. dealer from the board's [Dealer]).")]
Board = Annotated[str | None, typer.Option(
    "--board", help="With --pbn: the board to take (needed when the file has several).")]
JsonOut = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]
CsvFile = Annotated[Path | None, typer.Option(
    "--csv", help="Also write the table (every trump candidate) to this CSV file.")]
DealsOut = Annotated[Path | None, typer.Option(
    "--deals-out", help="Also write the sampled deals to this PBN file, one board each, "
                        "tagged with your seat, the rule set and the double-dummy result of "
                        "the contending rungs.")]
ShowFailures = Annotated[int, typer.Option(
    "--show-failures", help="Also print this many deals on which the recommended bid "
                            "fails, as four hands.", min=0)]


def bid(
    hand: Hand = None,
    seat: Seat = None,
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
    bracket: Bracket = False,
    bracket_deals: BracketDeals = None,
    bracket_layouts: BracketLayouts = None,
    risk: Risk = 0.0,
    threads: Threads = None,
    json_out: JsonOut = False,
    csv_file: CsvFile = None,
    plot: PlotFile = None,
    deals_out: DealsOut = None,
    show_failures: ShowFailures = 0,
    quiet: Quiet = False,
    pbn: PbnFile = None,
    board: Board = None,
) -> None:
    """Analyse a hand over the whole ladder: P(make), tricks, expected counters, and the bid
    to make (double-dummy Monte Carlo, docs/RULES.md §3)."""
    with user_errors():
        from ..analysis import analyze
        from ..views.manifest import now_utc

        started = now_utc()
        check_pbn_args(hand, pbn, board)
        settings = build_settings(
            rules=rules, seat=None if pbn is not None else seat, option=option,
            samples=samples, precision=precision,
            max_time=max_time, seed=seed, known=known, constraint=constraint, turnup=turnup,
            preference=preference, senior=senior, partner=partner, risk=risk, threads=threads,
            misere_tricks=misere_tricks, bracket=bracket, bracket_deals=bracket_deals,
            bracket_layouts=bracket_layouts)
        check_request(settings, hand=hand)
        csv_file, plot = check_outputs(csv=csv_file, plot=plot, inputs=[rules, pbn])
        if deals_out is not None:
            deals_out = check_output(deals_out, "--deals-out", suffixes=(".pbn",),
                                     inputs=[p for p in (pbn,) if p is not None])
        if pbn is not None:
            hand, play_seat = pbn_hand(pbn, board, seat, settings)
            settings = settings.replace(seat=play_seat)
        assert hand is not None  # check_pbn_args
        with notice_at_compile(not quiet):
            a = analyze(hand, settings, progress=not quiet and sys.stderr.isatty())
        if csv_file is not None:
            from ..views import write_csv

            with atomic_output(csv_file) as tmp:
                write_csv(a, tmp)
        if plot is not None:
            from ..views.manifest import hand_manifest
            from ..views.plots import plot_hand

            with atomic_output(plot) as tmp:
                plot_hand(a, tmp, made_by=hand_manifest(a, "bid", started))
        if deals_out is not None:
            from ..views.deals import write_pbn

            with atomic_output(deals_out) as tmp:
                write_pbn(a, tmp)
        if json_out:
            from ..views import analysis_json

            echo_json(analysis_json(a, started))
        else:
            from ..views import print_report

            print_report(a)
        if show_failures:
            from ..views.deals import failure_lines

            for line in failure_lines(a, show_failures):
                typer.echo(line, err=json_out)


def register(app: typer.Typer) -> None:
    """Add the ``bid`` command to the app."""
    from .command import hand_command

    hand_command(app, "bid")(bid)
