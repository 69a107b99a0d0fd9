"""Helpers shared by the command modules: turning user errors into one-line messages."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import typer


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Print a user error as ``error: message`` on stderr and exit with code 2 (no traceback)."""
    from ..errors import USER_ERRORS

    try:
        yield
    except USER_ERRORS as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(code=2) from None
    except FileNotFoundError as e:
        typer.echo(f"error: file not found: {e.filename}", err=True)
        raise typer.Exit(code=2) from None


def parse_options(items: list[str] | None) -> dict[str, str]:
    """``["key=value", ...]`` -> dict; a malformed item is a user error."""
    from ..errors import RulesError

    out: dict[str, str] = {}
    for item in items or []:
        if "=" not in item:
            raise RulesError(f"option {item!r} must be key=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def echo_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False, allow_nan=False)
    sys.stdout.write("\n")
