"""The ``boston-sim`` command line: a thin typer app. Each command lives in its own module
(``rules_cmd``, ``solve_cmd``, ``bid_cmd``, ``batch_cmd``) with a ``register(app)`` function;
commands import the library lazily so that ``--help`` stays instant."""

from __future__ import annotations

import typer

from .. import __version__
from . import batch_cmd, bid_cmd, rules_cmd, solve_cmd

app = typer.Typer(
    name="boston-sim",
    help="Double-dummy Monte Carlo analysis for Boston and its relatives: "
    "what should I bid with this hand?",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"boston-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Double-dummy Monte Carlo analysis for Boston and its relatives."""


for _mod in (rules_cmd, solve_cmd, bid_cmd, batch_cmd):
    _mod.register(app)


def main() -> None:
    app()
