"""Small helpers several test files share (importable as ``helpers``: conftest puts tests/ on
sys.path): the child processes of a process, whether one is alive, and a one-command CLI app
that raises a given exception inside the CLI's error handling, a built-in rule file with
one text replaced, every pattern of a subsample's coins, and the solver's searches kept to
one worker each."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import product
from pathlib import Path

import numpy as np


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid`` (read from /proc)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def app_raising(exc: BaseException):
    """A typer app whose one command raises ``exc`` inside ``cli.common.user_errors``."""
    import typer

    from boston_sim.cli.common import user_errors

    demo = typer.Typer()

    @demo.command()
    def go() -> None:
        with user_errors():
            raise exc

    return demo


def rule_variant(tmp_path: Path, base: str, old: str, new: str) -> str:
    """The path of a copy of built-in rule set ``base`` with ``old`` replaced by ``new``."""
    from boston_sim.rules import DATA_DIR

    text = (DATA_DIR / f"{base}.toml").read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "variant.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(p)


def coin_patterns(full: np.ndarray, q: np.ndarray, drawn: list[int],
                  uncounted: Callable[[int], int]) -> Iterator[tuple[np.ndarray, float]]:
    """Every pattern of coins on the deals ``drawn`` (deal ``i`` counted with probability
    ``q[i]``): the records, a deal not counted recorded as ``uncounted(its count)``, and the
    pattern's probability."""
    for coins in product((0, 1), repeat=len(drawn)):
        t = full.copy()
        p = 1.0
        for i, c in zip(drawn, coins, strict=True):
            p *= q[i] if c else 1 - q[i]
            if not c:
                t[i] = uncounted(int(full[i]))
        yield t, p


@contextmanager
def searches_unshared() -> Iterator[None]:
    """No worker joins another's search inside (``solver.share_searches(False)``): each job's
    nodes are its own, which a measurement of node counts needs; sharing is on again after."""
    from boston_sim import solver

    solver.share_searches(False)
    try:
        yield
    finally:
        solver.share_searches(True)
