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


SUIT_LETTERS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C", "\u2212": "-",
                "\u00b1": "+/-", "\u2014": "-", "\u2026": "..."}
_ASCII_FALLBACK = "boston_sim_ascii"


def _ascii_fallback(e: UnicodeError) -> tuple[str, int]:
    """Codec error handler: suit symbols as letters, anything else unencodable as ``?``."""
    if not isinstance(e, UnicodeEncodeError):
        raise e
    bad = e.object[e.start : e.end]
    return "".join(SUIT_LETTERS.get(ch, "?") for ch in bad), e.end


def _prepare_streams() -> None:
    """A terminal or pipe whose encoding has no suit symbols (``PYTHONIOENCODING=ascii``)
    gets letters instead of a UnicodeEncodeError."""
    import codecs
    import sys

    codecs.register_error(_ASCII_FALLBACK, _ascii_fallback)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=_ASCII_FALLBACK)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the final flush at exit cannot fail again."""
    import os
    import sys

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        sys.stdout = None  # type: ignore[assignment]


def _run_app() -> int:
    """Run the app, a usage error that click would print as three lines (usage, hint,
    "Error: ...") printed as one ``error:`` line like every other wrong request; the exit
    code the command set (``typer.Exit``), else 0."""
    import sys

    try:
        rv = app(standalone_mode=False)
    except Exception as e:  # click's usage errors (typer may carry its own copy of click)
        if not (hasattr(e, "format_message") and isinstance(getattr(e, "exit_code", None),
                                                                int)):
            raise
        ctx = getattr(e, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        if type(e).__name__ == "NoArgsIsHelpError":  # no arguments at all: the help
            sys.stderr.write(e.format_message() + "\n")
        else:
            sys.stderr.write(f"error: {' '.join(e.format_message().split())}{hint}\n")
        return int(e.exit_code)
    return rv if isinstance(rv, int) else 0


def main() -> None:
    """Console-script entry point (``boston-sim``).

    Ctrl-C, a closed output pipe (``boston-sim ... | head``), a closed or full standard
    output end the program with a one-line message (none for a closed pipe) and the
    conventional exit codes instead of a traceback.
    """
    import sys

    if sys.stdout is None:  # started with stdout closed (>&-): the results would be lost
        sys.stderr.write("error: standard output is closed\n")
        raise SystemExit(1)
    _prepare_streams()
    code: int | str | None = 0
    try:
        try:
            code = _run_app()
        except SystemExit as e:
            code = e.code
        sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise SystemExit(130) from None
    except BrokenPipeError:
        # the reader went away: silence the final flush of stdout, then exit like SIGPIPE
        _quiet_stdout()
        raise SystemExit(141) from None
    except OSError as e:  # stdout on a full device, a vanished terminal
        _quiet_stdout()
        sys.stderr.write(f"error: cannot write the output: {e.strerror or e}\n")
        raise SystemExit(1) from None
    # the work is done and written: a Ctrl-C during the interpreter's teardown (joining
    # worker processes) would only turn a finished run into a death by signal
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise SystemExit(code)
