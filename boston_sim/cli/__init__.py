"""The ``boston-sim`` command line: a thin typer app. Each command lives in its own module
(``rules_cmd``, ``solve_cmd``, ``bid_cmd``, ``batch_cmd``, ``plot_cmd``) with a
``register(app)`` function; commands import the library lazily so that ``--help`` stays
instant (no numpy, numba, pandas or matplotlib until a command runs)."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__
from . import batch_cmd, bid_cmd, plot_cmd, rules_cmd, solve_cmd

app = typer.Typer(
    name="boston-sim",
    help="Double-dummy Monte Carlo analysis for Boston and its relatives: "
    "what should I bid with this hand?",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain click help: flags show as flags (the rich formatter of recent typer prints
    # "<bool>" after every flag, --help included) and help does not need to import rich.
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"boston-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Show the version and exit.",
        ),
    ] = False,
) -> None:
    """Double-dummy Monte Carlo analysis for Boston and its relatives."""


for _mod in (rules_cmd, solve_cmd, bid_cmd, batch_cmd, plot_cmd):
    _mod.register(app)


def main() -> None:
    """Console-script entry point (``boston-sim``).

    Ctrl-C and a closed output pipe (``boston-sim ... | head``) end the program quietly with
    the conventional exit codes instead of a traceback.
    """
    import sys

    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    except BrokenPipeError:
        # the reader went away: silence the final flush of stdout, then exit like SIGPIPE
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(141) from None
