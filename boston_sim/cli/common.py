"""Helpers shared by the command modules: one-line user errors, ``key=value`` options, JSON.

Every command body runs inside ``with user_errors():`` so that a bad hand, rule set or option
prints ``error: <one line>`` on stderr and exits with code 2, never a traceback. Only the
error types of :mod:`boston_sim.errors` and unreadable files are treated as the user's
fault; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import typer

USER_ERROR_EXIT = 2  # same code click uses for a bad command line


def _one_line(text: object) -> str:
    """Collapse a message onto one line (a message must never spill over several)."""
    return " ".join(str(text).split())


def fail(message: str) -> None:
    """Print ``error: message`` on stderr and exit with code 2."""
    typer.echo(f"error: {_one_line(message)}", err=True)
    raise typer.Exit(code=USER_ERROR_EXIT)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a user error into ``error: message`` on stderr and exit code 2 (no traceback)."""
    from ..errors import USER_ERRORS

    try:
        yield
    except USER_ERRORS as e:
        fail(str(e))
    except FileNotFoundError as e:
        fail(f"file not found: {e.filename}")
    except (IsADirectoryError, NotADirectoryError, PermissionError) as e:
        fail(f"cannot open {e.filename}: {e.strerror}")


def parse_options(items: list[str] | None) -> dict[str, str]:
    """``["key=value", ...]`` -> dict; a malformed item is a user error (``RulesError``)."""
    from ..errors import RulesError

    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise RulesError(f"option {item!r} must be key=value")
        k, v = item.split("=", 1)
        if not k.strip():
            raise RulesError(f"option {item!r} has no key (expected key=value)")
        out[k.strip()] = v.strip()
    return out


def echo_json(obj: Any) -> None:
    """Print ``obj`` as JSON on stdout (UTF-8 kept readable; NaN refused: use null)."""
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write("\n")
