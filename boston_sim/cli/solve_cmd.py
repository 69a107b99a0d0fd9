"""``boston-sim solve``: double-dummy results of one deal, a full table, or a file of deals.

No logic here beyond argument checking and formatting; the solving is ``boston_sim.solver``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import echo_json, fail, user_errors

KINDS = ("at_least", "at_most", "exactly")
PROGRESS_MIN_DEALS = 20  # below this a file is solved too fast for a bar to help
FILE_BATCH = 64  # deals of a --file solved in one parallel call (results print batch by batch)


@dataclass(frozen=True)
class _Query:
    """What to ask of every deal (already parsed: strain 0..4, seats 0..3)."""

    trump: int | None  # None with --table
    leader: int | None  # None: the declarer's left-hand opponent
    declarer: int
    partner: int | None
    table: bool
    pairs: bool  # --table --partner opposite: add the partnership rows
    kind: str | None
    target: int | None
    boston: bool


def solve(
    deal: Annotated[str | None, typer.Argument(
        help='PBN deal "N:hand hand hand hand" (hands clockwise from the first seat; '
             "endings with fewer cards allowed).", show_default=False)] = None,
    trump: Annotated[str | None, typer.Option(
        "--trump", "-t", help="Trump suit: S, H, D, C or NT (not with --table).",
        show_default=False)] = None,
    leader: Annotated[str | None, typer.Option(
        "--leader", "-l", help="Seat on lead to the first trick (default: the declarer's "
        "left-hand opponent, the next seat clockwise).", show_default=False)] = None,
    declarer: Annotated[str | None, typer.Option(
        "--declarer", "-d", help="Declarer's seat N, E, S or W (default N).",
        show_default=False)] = None,
    partner: Annotated[str | None, typer.Option(
        "--partner", "-p", help="Declarer's partner: a seat, or 'opposite'. Default: the "
        "declarer alone against three. With --table only 'opposite' (adds the pair rows).",
        show_default=False)] = None,
    table: Annotated[bool, typer.Option(
        "--table", help="Every trump x every declarer (alone; with --partner opposite also "
        "in pairs).")] = False,
    kind: Annotated[str | None, typer.Option(
        "--kind", "-k", help="Yes/no question instead of a trick count: at_least, at_most or "
        "exactly (with --target).", show_default=False)] = None,
    target: Annotated[int | None, typer.Option(
        "--target", help="Tricks for --kind.", show_default=False)] = None,
    misere: Annotated[bool, typer.Option(
        "--misere", help="Can the declaring side take no trick? (--kind at_most --target 0, "
        "no trump).")] = False,
    boston: Annotated[bool, typer.Option(
        "--boston", help="Russian Boston: J♦ (J♥ when diamonds are trumps) is the top trump "
        "(RULES.md §1.2, A-40).")] = False,
    file: Annotated[Path | None, typer.Option(
        "--file", "-f", help="Solve every deal in FILE: one PBN deal per line; blank lines and "
        "# comments are skipped.", show_default=False)] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Progress bar on stderr, counting a --file's deals or "
        "a --table's searches (default: on a terminal, for a --table and for a file of at "
        f"least {PROGRESS_MIN_DEALS} deals).", show_default=False)] = None,
) -> None:
    """Double-dummy tricks of the declaring side (everyone plays best, the defenders together).

    Examples: boston-sim solve "N:AKQ2.JT9.876.543 ..." --trump S --declarer N --partner S;
    --table for every trump and declarer; --kind at_least --target 9 for a yes/no answer;
    --misere; --file deals.txt --json.
    """
    with user_errors():
        if (deal is None) == (file is None):
            fail("give either a DEAL or --file FILE")
        query = _parse_query(trump, leader, declarer, partner, table, kind, target, misere, boston)
        if file is None:
            result = _solve_deal(deal, query, progress)  # type: ignore[arg-type]
            if json_out:
                echo_json(result)
            else:
                typer.echo(_render(result))
            return
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            fail(f"cannot read {file}: not UTF-8 text")
    # outside user_errors: the bad lines are reported one by one, and the exit code set at the end
    _solve_file(text, query, json_out, progress)


def _parse_query(trump, leader, declarer, partner, table, kind, target, misere, boston) -> _Query:
    from ..cards import NT, parse_compass, parse_strain

    if misere:
        if kind is not None or target is not None:
            fail("--misere is --kind at_most --target 0: do not give --kind or --target too")
        if trump is not None and parse_strain(trump) != NT:
            fail("--misere is played in no trump")
        kind, target, trump = "at_most", 0, "NT"
    if (kind is None) != (target is None):
        fail("--kind and --target go together")
    if kind is not None and kind not in KINDS:
        fail(f"unknown --kind {kind!r} (use at_least, at_most or exactly)")
    if table:
        if kind is not None:
            fail("--table gives trick counts; it cannot answer --kind/--misere questions")
        if trump is not None:
            fail("--table covers every trump; leave out --trump")
        if declarer is not None:
            fail("--table covers every declarer; leave out --declarer")
        if partner is not None and partner.strip().lower() != "opposite":
            fail("with --table, --partner can only be 'opposite'")
        lead = None if leader is None else parse_compass(leader)
        return _Query(None, lead, 0, None, True, partner is not None, None, None, boston)
    if trump is None:
        fail("--trump is required (S, H, D, C or NT), or use --table")
    t = parse_strain(trump)
    d = parse_compass(declarer if declarer is not None else "N")
    p = None
    if partner is not None:
        p = (d + 2) % 4 if partner.strip().lower() == "opposite" else parse_compass(partner)
        if p == d:
            fail(f"the partner cannot be the declarer ({'NESW'[d]})")
    lead = (d + 1) % 4 if leader is None else parse_compass(leader)
    return _Query(t, lead, d, p, False, False, kind, target, boston)


def _deal_text(line: str) -> str:
    """Accept a bare PBN deal or a PBN tag line ``[Deal "N:..."]``."""
    s = line.strip()
    if s.startswith("[") and s.endswith("]"):
        inner = s[1:-1].strip()
        if inner.split(None, 1)[0].lower() == "deal" and '"' in inner:
            return inner.split('"')[1]
    return s


def _solve_deal(text: str, q: _Query, progress: bool | None = None) -> dict[str, Any]:
    """Solve one deal as asked; returns the JSON-ready result (user errors propagate). The
    searches always run watched (``solve_jobs(progress=...)``), so Ctrl-C stops them at once;
    a --table's 20 or 40 searches show a bar on a terminal."""
    out, jobs = _plan(text, q)
    show = progress if progress is not None else q.table and sys.stderr.isatty()
    bar = _bar(len(jobs), "searches") if show else None

    def tick(n: int) -> None:
        if bar is not None:
            bar[0].advance(bar[1], n)

    try:
        _run(jobs, tick)
    finally:
        if bar is not None:
            bar[0].stop()
    return out


def _plan(text: str, q: _Query) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """The result of one deal with its answers still to fill, and the searches that fill them:
    ``(hands, job row, result dict, key)`` each (user errors in the deal propagate)."""
    from ..cards import COMPASS, STRAINS, boston_card_transform, format_deal, parse_deal
    from ..solver import declaring_side, question_job, value_job

    hands = parse_deal(_deal_text(text))

    def position(strain: int):
        return boston_card_transform(hands, strain) if q.boston else hands

    out: dict[str, Any] = {"deal": format_deal(hands), "boston": q.boston}
    jobs: list[tuple[Any, ...]] = []
    if q.table:
        rows = []
        sides = [(d, None) for d in range(4)]
        if q.pairs:
            sides += [(d, (d + 2) % 4) for d in range(4)]
        for d, p in sides:
            lead = (d + 1) % 4 if q.leader is None else q.leader
            tricks: dict[str, int | None] = {}
            mask = declaring_side(d, p)
            for s in range(5):
                tricks[STRAINS[s]] = None
                jobs.append((position(s), value_job(s, lead, mask), tricks, STRAINS[s]))
            rows.append({"declarer": COMPASS[d], "partner": None if p is None else COMPASS[p],
                         "leader": COMPASS[lead], "tricks": tricks})
        out["table"] = rows
        return out, jobs
    assert q.trump is not None and q.leader is not None
    out.update({"trump": STRAINS[q.trump], "leader": COMPASS[q.leader],
                "declarer": COMPASS[q.declarer],
                "partner": None if q.partner is None else COMPASS[q.partner]})
    mask = declaring_side(q.declarer, q.partner)
    if q.kind is None:
        out["tricks"] = None
        jobs.append((position(q.trump), value_job(q.trump, q.leader, mask), out, "tricks"))
    else:
        out["kind"], out["target"], out["answer"] = q.kind, q.target, None
        jobs.append((position(q.trump), question_job(q.trump, q.leader, mask, q.kind, q.target),
                     out, "answer"))
    return out, jobs


def _run(jobs: list[tuple[Any, ...]], progress=None) -> None:
    """Solve planned searches (of any number of deals) in one parallel batch, each answer
    put where its plan says; ``progress(n)``: searches finished (see ``solve_jobs``)."""
    import numpy as np

    from ..solver import solve_jobs

    if not jobs:
        return
    hands = np.stack([np.asarray(j[0], dtype=np.uint64) for j in jobs])
    rows = np.array([j[1] for j in jobs], dtype=np.int64)
    answers = solve_jobs(hands, rows, progress=progress)
    for (_, _, where, key), a in zip(jobs, answers):
        where[key] = bool(a) if key == "answer" else int(a)


def _side_name(declarer: str, partner: str | None) -> str:
    return declarer if partner is None else f"{declarer}+{partner}"


def _render(r: dict[str, Any]) -> str:
    """Plain-text view of one result."""
    if "table" in r:
        strains = list(r["table"][0]["tricks"])
        lines = [f"{r['deal']}" + ("  (boston card)" if r["boston"] else "")]
        lines.append(f"{'side':<8}{'lead':<6}" + "".join(f"{s:>4}" for s in strains))
        for row in r["table"]:
            side = _side_name(row["declarer"], row["partner"])
            side += "" if row["partner"] else " alone"
            nums = "".join(f"{row['tricks'][s]:>4}" for s in strains)
            lines.append(f"{side:<8}{row['leader']:<6}{nums}")
        return "\n".join(lines)
    side = _side_name(r["declarer"], r["partner"])
    where = f"trump {r['trump']}, {r['leader']} leads" + (", boston card" if r["boston"] else "")
    if "answer" in r:
        return f"{side} {r['kind']} {r['target']}: {'yes' if r['answer'] else 'no'} ({where})"
    return f"{side}: {r['tricks']} tricks ({where})"


def _solve_file(text: str, q: _Query, json_out: bool, progress: bool | None) -> None:
    from ..errors import USER_ERRORS

    todo = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            todo.append((no, line))
    show = progress if progress is not None else (
        sys.stderr.isatty() and len(todo) >= PROGRESS_MIN_DEALS)
    bar = _bar(len(todo)) if show else None
    results: list[dict[str, Any]] = []
    failed = 0
    try:
        for lo in range(0, len(todo), FILE_BATCH):
            # a batch of deals in one parallel call; the bar moves as each search ends
            planned: list[tuple[int, dict[str, Any]]] = []
            jobs: list[tuple[Any, ...]] = []
            for no, line in todo[lo : lo + FILE_BATCH]:
                try:
                    out, deal_jobs = _plan(line, q)
                    jobs += deal_jobs
                except USER_ERRORS as e:
                    failed += 1
                    msg = " ".join(str(e).split())
                    typer.echo(f"error: line {no}: {msg}", err=True)
                    out = {"deal": line, "error": msg}
                    if bar is not None:
                        bar[0].advance(bar[1])
                planned.append((no, out))
            if jobs:
                per_deal = len(jobs) / sum("error" not in out for _, out in planned)
                _run(jobs, None if bar is None else
                     lambda n: bar[0].advance(bar[1], n / per_deal))
            batch = [{"line": no} | out for no, out in planned]
            results += batch
            if bar is None and not json_out:
                for r in batch:
                    if "error" not in r:
                        typer.echo(f"line {r['line']}: {_render(r)}")
    finally:
        if bar is not None:
            bar[0].stop()
    if json_out:
        echo_json(results)
    elif bar is not None:
        # with a bar on the terminal the results wait until it is gone, so the two do not mix
        for r in results:
            if "error" not in r:
                typer.echo(f"line {r['line']}: {_render(r)}")
    if not todo:
        fail("no deals in the file")
    if failed:
        typer.echo(f"error: {failed} of {len(todo)} deals could not be solved", err=True)
        raise typer.Exit(code=2)


def _bar(total: int, what: str = "deals"):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    p = Progress(TextColumn(f"solving ({what})"), BarColumn(), MofNCompleteColumn(),
                 TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                 redirect_stdout=False, redirect_stderr=False)
    p.start()
    return p, p.add_task("solve", total=total)


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the app."""
    app.command("solve")(solve)
