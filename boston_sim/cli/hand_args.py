"""Hands written as typed: a hand whose first suit (spades) is void starts with ``-``
(``-.KQ2.K763.K97542``), which click would read as an option. Commands that take a hand or
a deal use :class:`HandCommand`, which moves such arguments behind ``--`` before parsing."""

from __future__ import annotations

import re
from typing import Any

import click
from typer.core import TyperCommand

END_OF_OPTIONS = "--"
VOID_FIRST = re.compile(r"^-[.\s]")
"""A hand or deal whose first suit is void: a dash then a suit separator (dot or space)."""


def protect_hands(args: list[str], value_options: set[str]) -> list[str]:
    """``args`` with every hand-like argument that starts with ``-`` moved behind ``--``
    (keeping their order, ahead of anything already there); values of options are left."""
    if END_OF_OPTIONS in args:
        cut = args.index(END_OF_OPTIONS)
        head, tail = args[:cut], args[cut + 1:]
    else:
        head, tail = args, []
    kept: list[str] = []
    hands: list[str] = []
    takes_value = False
    for arg in head:
        if not takes_value and VOID_FIRST.match(arg):
            hands.append(arg)
        else:
            kept.append(arg)
        takes_value = arg in value_options
    if not hands:
        return args
    return [*kept, END_OF_OPTIONS, *hands, *tail]


class HandCommand(TyperCommand):
    """A typer command whose hand or deal argument may start with ``-``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        value_options = {name for p in self.get_params(ctx)
                         if isinstance(p, click.Option) and not p.is_flag
                         for name in (*p.opts, *p.secondary_opts)}
        return super().parse_args(ctx, protect_hands(list(args), value_options))


def hand_command(app: Any, name: str) -> Any:
    """``app.command(name)`` with :class:`HandCommand`: use as ``hand_command(app, "bid")(f)``."""
    return app.command(name, cls=HandCommand)
