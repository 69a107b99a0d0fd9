"""``boston-sim solve``: double-dummy results of one deal, a full table, or a file of deals.

No logic here beyond argument checking and formatting; the searches are planned and solved
by :mod:`boston_sim.analysis.dd_table` (the table: :func:`~boston_sim.analysis.dd_table`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..limits import TRICKS_MAX, bounded_lines, check_int, check_text
from ..manifest import now_utc, with_manifest
from .common import echo_json, fail, notice_at_compile, tricks_text, user_errors

KINDS = ("at_least", "at_most", "exactly")
PROGRESS_MIN_DEALS = 20  # below this a file is solved too fast for a bar to help
FILE_BATCH = 64  # deals of a --file solved in one parallel call (results print batch by batch)


@dataclass(frozen=True)
class _Query:
    """What to ask of every deal (already parsed: strain 0..4, seats 0..3)."""

    trump: int | None  # None with --table
    leader: int | None  # None: the declarer's left-hand opponent (not his partner)
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
        "left-hand opponent, the first seat clockwise not his partner's).",
        show_default=False)] = None,
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
        "(docs/RULES.md §1.2, A-40).")] = False,
    file: Annotated[Path | None, typer.Option(
        "--file", "-f", help="Solve every deal in FILE: one PBN deal per line; blank lines and "
        "# comments are skipped.", show_default=False)] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON with a manifest (what "
        "made it); with --file an object {results: [one per line], manifest}.")] = False,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Progress bar on stderr, counting a --file's deals or "
        "a --table's searches (default: on a terminal, for a --table and for a file of at "
        f"least {PROGRESS_MIN_DEALS} deals).", show_default=False)] = None,
) -> None:
    """Double-dummy tricks of the declaring side (everyone plays best, the defenders together).

    Examples: boston-sim solve "N:AKQ2.JT9.876.543 ..." --trump S --declarer N --partner S;
    --table for every trump and declarer; --kind at_least --target 9 for a yes/no answer;
    --misere; --file deals.txt --trump S --json.
    """
    with user_errors():
        if (deal is None) == (file is None):
            fail("give either a DEAL or --file FILE")
        check_text("the deal", deal)
        query = _parse_query(trump, leader, declarer, partner, table, kind, target, misere, boston)
        if file is None:
            started = now_utc()
            result = _solve_deal(deal, query, progress)  # type: ignore[arg-type]
            if json_out:
                echo_json(_with_manifest(result, query, started))
            else:
                typer.echo(_render(result))
            return
        text = read_deal_file(file)
    # outside user_errors: the bad lines are reported one by one, and the exit code set at the end
    _solve_file(text, query, json_out, progress)


def read_deal_file(file: Path) -> str:
    """The text of a ``--file``, read line by line within the input limits (a file with no
    line end, such as /dev/zero, stops at the line limit instead of filling memory)."""
    with open(file, encoding="utf-8-sig", newline="") as f:
        return "".join(bounded_lines(f, str(file)))


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
    if target is not None:
        check_int("--target", target, 0, TRICKS_MAX)
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
    lead = parse_compass(leader) if leader is not None else (
        (d + 2) % 4 if p == (d + 1) % 4 else (d + 1) % 4)  # the first opponent clockwise
    return _Query(t, lead, d, p, False, False, kind, target, boston)


def _plan(text: str, q: _Query) -> tuple[Any, list[Any]]:
    """One deal's result still to fill (a DDTable, or a contract's dict) and the searches
    that fill it (user errors in the deal propagate)."""
    from ..analysis.dd_table import contract_searches, table_searches

    deal = text.strip()  # parse_deal also reads a [Deal "..."] tag line
    if q.table:
        return table_searches(deal, leader=q.leader, pairs=q.pairs, boston=q.boston)
    assert q.trump is not None and q.leader is not None
    return contract_searches(deal, q.trump, q.leader, q.declarer, q.partner, q.kind, q.target,
                             q.boston)


def _with_manifest(obj: dict[str, Any], q: _Query, started: str) -> dict[str, Any]:
    """``obj`` with the manifest of this solve (the question asked is its options)."""
    from ..cards import format_compass, format_strain

    def seat(x: int | None) -> str | None:
        return None if x is None else format_compass(x)

    options = {"trump": None if q.trump is None else format_strain(q.trump),
               "leader": seat(q.leader), "declarer": None if q.table else seat(q.declarer),
               "partner": seat(q.partner), "table": q.table, "pairs": q.pairs,
               "kind": q.kind, "target": q.target, "boston": q.boston}
    return with_manifest(obj, "solve", options=options, started=started)


def _as_dict(result: Any) -> dict[str, Any]:
    return result if isinstance(result, dict) else result.to_dict()


def _solve_deal(text: str, q: _Query, progress: bool | None = None) -> dict[str, Any]:
    """Solve one deal as asked; returns the JSON-ready result (user errors propagate). The
    searches always run watched (``solve_jobs(progress=...)``), so Ctrl-C stops them at once;
    a --table's 20 or 40 searches show a bar on a terminal."""
    from ..analysis.dd_table import run_searches
    from ..progress import ProgressBar

    result, searches = _plan(text, q)
    show = progress if progress is not None else q.table and sys.stderr.isatty()
    with (ProgressBar("solving (searches)", len(searches), count=True, enabled=show) as bar,
          notice_at_compile(progress is not False)):
        run_searches(searches, bar.advance)
    return _as_dict(result)


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
    return f"{side}: {tricks_text(r['tricks'])} ({where})"


def _read_deals(text: str) -> list[tuple[int, str]]:
    """(line number, deal) of every line that is not blank or a # comment."""
    todo = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            todo.append((no, line))
    return todo


def _solve_chunk(chunk: list[tuple[int, str]], q: _Query,
                 bar: Any) -> tuple[list[dict[str, Any]], int]:
    """A chunk of a file's deals solved in one parallel call (a shown bar moves as each
    search ends); bad deals are reported on stderr and kept as ``error`` results."""
    from ..analysis.dd_table import run_searches
    from ..errors import USER_ERRORS

    planned: list[tuple[int, Any]] = []
    searches: list[Any] = []
    failed = 0
    for no, line in chunk:
        try:
            result, deal_searches = _plan(line, q)
            searches += deal_searches
        except USER_ERRORS as e:
            failed += 1
            msg = " ".join(str(e).split())
            typer.echo(f"error: line {no}: {msg}", err=True)
            result = {"deal": line, "error": msg}
            bar.advance()
        planned.append((no, result))
    if searches:
        per_deal = len(searches) / sum(not isinstance(r, dict) or "error" not in r
                                       for _, r in planned)
        run_searches(searches, (lambda n: bar.advance(n / per_deal)) if bar.enabled else None)
    return [{"line": no} | _as_dict(r) for no, r in planned], failed


def _print_results(results: list[dict[str, Any]]) -> None:
    for r in results:
        if "error" not in r:
            typer.echo(f"line {r['line']}: {_render(r)}")


def _solve_file(text: str, q: _Query, json_out: bool, progress: bool | None) -> None:
    from ..progress import ProgressBar

    started = now_utc()
    todo = _read_deals(text)
    show = progress if progress is not None else (
        sys.stderr.isatty() and len(todo) >= PROGRESS_MIN_DEALS)
    results: list[dict[str, Any]] = []
    failed = 0
    with (ProgressBar("solving (deals)", len(todo), count=True, enabled=show) as bar,
          notice_at_compile(progress is not False)):
        for lo in range(0, len(todo), FILE_BATCH):
            batch, bad = _solve_chunk(todo[lo : lo + FILE_BATCH], q, bar)
            results += batch
            failed += bad
            if not show and not json_out:
                _print_results(batch)
    if json_out:
        echo_json(_with_manifest({"results": results}, q, started))
    elif show:
        # with a bar on the terminal the results wait until it is gone, so the two do not mix
        _print_results(results)
    if not todo:
        fail("no deals in the file")
    if failed:
        typer.echo(f"error: {failed} of {len(todo)} deals could not be solved", err=True)
        raise typer.Exit(code=2)


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the app."""
    from .command import hand_command

    hand_command(app, "solve")(solve)
