"""The click command class of the commands that take a hand or analysis options.

* Hands written as typed: a hand whose first suit (spades) is void starts with ``-``
  (``-.KQ2.K763.K97542``), which click would read as an option; such arguments are moved
  behind ``--`` before parsing.
* Old option names kept as hidden aliases (:data:`ALIASES`), so that scripts written for an
  earlier naming still run while ``--help`` shows one name per option."""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperCommand

END_OF_OPTIONS = "--"
ALIASES: dict[str, str | None] = {
    "--risk-threshold": "--risk",
    "--workers": "--threads",
    "-w": "--threads",
    "--no-progress": "--quiet",
    "--progress": None,  # the default: the token is dropped
}
"""Old option name -> today's (None: the flag is the default and is dropped)."""
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


def rename_aliases(args: list[str], known: set[str]) -> list[str]:
    """``args`` with old option names (:data:`ALIASES`) replaced by today's, where today's
    is an option of the command (``known``); nothing after ``--`` is touched."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == END_OF_OPTIONS:
            return out + args[i:]
        name, eq, value = arg.partition("=")
        if name in ALIASES and name not in known:
            new = ALIASES[name]
            if new is None:
                continue
            if new in known:
                arg = f"{new}{eq}{value}"
        out.append(arg)
    return out


class HandCommand(TyperCommand):
    """A typer command whose hand or deal argument may start with ``-`` and whose options
    answer to their old names too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # duck-typed: typer carries its own copy of click's classes
        options = [p for p in self.get_params(ctx)
                   if getattr(p, "param_type_name", "") == "option"]
        known = {n for p in options for n in (*p.opts, *p.secondary_opts)}
        value_options = {n for p in options if not p.is_flag
                         for n in (*p.opts, *p.secondary_opts)}
        args = rename_aliases(list(args), known)
        return super().parse_args(ctx, protect_hands(args, value_options))


def hand_command(app: Any, name: str) -> Any:
    """``app.command(name)`` with :class:`HandCommand`: use as ``hand_command(app, "bid")(f)``."""
    return app.command(name, cls=HandCommand)
