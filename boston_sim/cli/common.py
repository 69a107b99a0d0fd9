"""Helpers shared by the command modules: one-line user errors, ``key=value`` options, JSON,
and the notice that a first run compiles the solver.

Every command body runs inside ``with user_errors():`` so that a bad hand, rule set or option
prints ``error: <one line>`` on stderr and exits with code 2, never a traceback; a request the
machine could not carry out (a full disk, a read-only file system) exits with code 1. The
error types of :mod:`boston_sim.errors`, operating-system errors, undecodable or too deeply
nested input and exhausted memory are reported this way; anything else is a bug and keeps
its traceback.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import typer

USER_ERROR_EXIT = 2  # same code click uses for a bad command line
FAILURE_EXIT = 1
MESSAGE_MAX = 400  # characters of one error line: a message never floods the terminal
COMPILE_NOTICE = "compiling the solver (first run only, about 30 s)..."


def _one_line(text: object) -> str:
    """Collapse a message onto one line (a message must never spill over several)."""
    return " ".join(str(text).split())


def fail(message: str, code: int = USER_ERROR_EXIT) -> None:
    """Print ``error: message`` on stderr (words of user input cut to 80 characters) and exit
    with ``code`` (2: usage error)."""
    from ..limits import clip, clip_words

    typer.echo(f"error: {clip(clip_words(_one_line(message)), MESSAGE_MAX)}", err=True)
    raise typer.Exit(code=code)


def _os_error(e: OSError) -> None:
    from ..outputs import USAGE_ERRNOS

    name = e.filename if e.filename is not None else ""
    if isinstance(e, FileNotFoundError):
        fail(f"file not found: {name}")
    reason = e.strerror or type(e).__name__
    if e.errno in USAGE_ERRNOS:
        fail(f"cannot open {name}: {reason}" if name != "" else reason)
    fail(f"input/output error on {name}: {reason}" if name != "" else reason, FAILURE_EXIT)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn a user error into ``error: message`` on stderr and its exit code (no traceback)."""
    from ..errors import USER_ERRORS

    try:
        yield
    except USER_ERRORS as e:
        fail(str(e), getattr(e, "exit_code", USER_ERROR_EXIT))
    except OSError as e:
        _os_error(e)
    except UnicodeDecodeError:
        fail("the input is not UTF-8 text; save it as UTF-8")
    except RecursionError:
        fail("the input is nested too deeply")
    except OverflowError:
        fail("a number is out of range (see the limits in the README)")
    except MemoryError:
        fail("out of memory; ask for fewer samples or a smaller input", FAILURE_EXIT)


def tricks_text(n: int) -> str:
    """``n`` tricks, in the singular for one."""
    return f"{n} trick" if n == 1 else f"{n} tricks"


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


def compile_notice(enabled: bool = True) -> None:
    """Print :data:`COMPILE_NOTICE` on stderr now if the solver's kernels are in no cache (a
    fresh install, or new solver sources), so that the wait is not a silent 0% bar; nothing
    when they are cached or ``enabled`` is false. For a command whose searches run in other
    processes (``batch``); in-process commands use :func:`notice_at_compile`."""
    if not enabled:
        return
    from ..solver import kernels_cached

    if not kernels_cached():
        typer.echo(COMPILE_NOTICE, err=True)


@contextlib.contextmanager
def notice_at_compile(enabled: bool = True) -> Iterator[None]:
    """Within the block, the first search that has to compile the solver first prints
    :data:`COMPILE_NOTICE` on stderr (above a progress bar, if one is drawn). A command that
    fails before it searches (a bad hand, an impossible constraint) prints nothing."""
    if not enabled:
        yield
        return
    from ..progress import say
    from ..solver import on_first_compile

    on_first_compile(lambda: say(COMPILE_NOTICE))
    try:
        yield
    finally:
        on_first_compile(None)
