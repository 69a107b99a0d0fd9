"""``boston-sim rules``, ``boston-sim score`` and ``boston-sim partout``: look up rule sets
and score contracts. No logic here beyond formatting; everything is in ``boston_sim.rules``."""

from __future__ import annotations

import math
import sys
from typing import Annotated, Any

import typer

from .common import echo_json, parse_options, user_errors

OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="Rule-set option as key=value (repeatable), e.g. payments=american."
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
_PIPE_WIDTH = 200  # console width when the output is not a terminal


def _console() -> Any:
    from rich.console import Console

    # Payment tables have 14 columns: do not squash them when the output is not a terminal.
    return Console(width=None if sys.stdout.isatty() else _PIPE_WIDTH, highlight=False)


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:g}"


def rules(
    name: Annotated[
        str | None,
        typer.Argument(help="Rule-set id or path of a rule-set file; omit to list them."),
    ] = None,
    option: OptionList = None,
    as_printed: Annotated[
        bool,
        typer.Option(
            "--as-printed",
            help="Show the seed's payment tariff exactly as printed, misprints included "
            "(documentation only; Russian Boston, A-44).",
        ),
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """List the rule sets, or show one rule set's ladder and payment tables."""
    with user_errors():
        from ..errors import RulesError
        from ..rules import list_rules, load_rules

        if name is None:
            if option or as_printed:
                raise RulesError("--option and --as-printed need a rule-set NAME")
            sets = [load_rules(n) for n in list_rules()]
            if json_out:
                echo_json(
                    [{"id": r.id, "name": r.name, "source": r.source, "unit": r.unit} for r in sets]
                )
                return
            from rich.table import Table

            t = Table(title="Rule sets")
            for col in ("id", "name", "source"):
                t.add_column(col)
            for r in sets:
                t.add_row(r.id, r.name, r.source)
            _console().print(t)
            return
        rs = load_rules(name, parse_options(option))
        if as_printed:
            if rs.as_printed is None:
                raise RulesError(f"{rs.id} keeps no as-printed tariff (only corrected ones do)")
            if json_out:
                echo_json(rs.to_dict()["as_printed"])
            else:
                _print_as_printed(rs)
            return
        if json_out:
            d = rs.to_dict()
            d["tables"] = {k: dict(v) for k, v in rs.tables.items()}
            echo_json(d)
            return
        _print_rule_set(rs)


def _print_as_printed(rs: Any) -> None:
    from rich.table import Table

    con = _console()
    ap = rs.as_printed
    con.print(f"[bold]{rs.name}[/bold] ({rs.id}) — the tariff as printed in the seed")
    if ap.get("note"):
        con.print(str(ap["note"]))
    t = Table()
    for col in ("rubric", "seed lines", "header as printed", "printed figures", "misprints"):
        t.add_column(col)
    for key, rub in ap.items():
        if not isinstance(rub, dict):
            continue
        figures = []
        for part, label in (
            ("amounts", "tricks"),
            ("amounts_by_over", "over-tricks"),
            ("lost", None),
            ("slam", "slam"),
        ):
            if isinstance(rub.get(part), dict):
                items = ", ".join(f"{k} = {v}" for k, v in rub[part].items())
                figures.append(f"{label or 'lost'}: {items}")
        if rub.get("rule"):
            figures.append(str(rub["rule"]))
        t.add_row(
            key,
            str(rub.get("lines", "")),
            str(rub.get("header", "")),
            "\n".join(figures),
            "\n".join(str(x) for x in rub.get("sic", [])),
        )
    con.print(t)


def _print_rule_set(rs: Any) -> None:
    con = _console()
    _print_header(con, rs)
    _print_ladder(con, rs)
    _print_payments(con, rs)
    for tname, table in rs.tables.items():
        _print_table(con, tname, table)
    if rs.as_printed is not None:
        con.print(
            "The seed's tariff as printed (misprints included; not used for scoring): "
            f"boston-sim rules {rs.id} --as-printed"
        )


def _print_header(con: Any, rs: Any) -> None:
    """Name, source, unit, interpretations, options and the trump preference."""
    con.print(f"[bold]{rs.name}[/bold] ({rs.id}) — {rs.source}")
    con.print(f"unit: {rs.unit}; interpretations relied on: {', '.join(rs.interpretations)}")
    if rs.option_specs:
        opts = ", ".join(
            f"{k}={v} ({rs.option_specs[k].describe()})" for k, v in rs.options.items()
        )
        con.print(f"options: {opts}")
    order = " > ".join(rs.suit_order if rs.suit_rule == "fixed" else rs.suit_classes)
    con.print(f"trump preference at equal numbers ({rs.suit_rule}): {order}")


_LADDER_COLUMNS = (
    "rank",
    "id",
    "name",
    "kind",
    "target",
    "trump",
    "discard",
    "tricks",
    "exposed",
    "leader",
    "side",
    "payers",
    "payment",
)


def _print_ladder(con: Any, rs: Any) -> None:
    from rich.table import Table

    lad = Table(title="Ladder (lowest first)")
    for col in _LADDER_COLUMNS:
        lad.add_column(col)
    for r in rs.rungs:
        lad.add_row(
            str(r.rank),
            r.id,
            r.name,
            r.kind,
            str(r.target),
            r.trump,
            r.discard or "-",
            str(r.tricks),
            r.exposed or "-",
            r.leader,
            r.side,
            str(r.payers),
            rs.describe_payment(r.id),
        )
    con.print(lad)
    if any(r.discard for r in rs.rungs):
        con.print("discard all_one: every player discards one card face down, 12 tricks (§1.6)")


def _print_payments(con: Any, rs: Any) -> None:
    """The dense per-adversary payments of the priced rungs, then the unpriced ones."""
    from rich.table import Table

    from ..rules import MAX_TRICKS

    pay = Table(title=f"Per-adversary payment ({rs.unit}) by tricks won by the declaring side")
    pay.add_column("rung")
    for t in range(MAX_TRICKS + 1):
        pay.add_column(str(t), justify="right")
    any_priced = False
    # a trump-dependent tariff (Russian independence, A-43) shows both of its rows
    other, senior = rs.payment_table(senior_trump=False), rs.payment_table(senior_trump=True)
    for i, r in enumerate(rs.rungs):
        if not r.priced:
            continue
        any_priced = True
        label = f"{r.id} (junior/plain trump)" if r.trump_dependent else r.id
        pay.add_row(label, *[_fmt(float(x)) for x in other[i]])
        if r.trump_dependent:
            pay.add_row(f"{r.id} (senior trump)", *[_fmt(float(x)) for x in senior[i]])
    if any_priced:
        con.print(pay)
    unpriced = [r.id for r in rs.rungs if not r.priced]
    if unpriced:
        con.print(f"unpriced (no payment in the seed): {', '.join(unpriced)}")


def _print_table(con: Any, tname: str, table: Any) -> None:
    """One named payment table of the file, with how to read it."""
    from rich.table import Table

    rows = list(table.items())
    con.print(f"[bold]table {tname}[/bold]")
    t = Table()
    t.add_column("key")
    width = max((len(v) if isinstance(v, list) else 1) for _, v in rows)
    for j in range(width):
        t.add_column(f"[{j}]", justify="right")
    for k, v in rows:
        vals = v if isinstance(v, list) else [v]
        t.add_row(str(k), *[_fmt(float(x)) for x in vals], *[""] * (width - len(vals)))
    con.print(t)
    if tname.startswith("success"):
        con.print(
            "  (row = tricks bid N; column j = N + j tricks taken; a single value: no over-tricks)"
        )
    elif tname.startswith("failure"):
        con.print("  (row = tricks bid N; column j = j + 1 tricks short)")


def score(
    contract: Annotated[
        str, typer.Argument(help="Rung id or seed name, e.g. eight or 'Little Misère'.")
    ],
    tricks: Annotated[str, typer.Argument(help="Tricks won by the declaring side.")],
    rules_name: Annotated[
        str, typer.Option("--rules", "-r", help="Rule-set id or path of a rule-set file.")
    ] = "boston_foster",
    option: OptionList = None,
    trump: Annotated[
        str | None, typer.Option("--trump", help="Trump suit S/H/D/C/NT (where it matters).")
    ] = None,
    senior: Annotated[
        str | None,
        typer.Option(
            "--senior",
            help="Russian Boston: the senior suit (decides the independence tariff, A-43).",
        ),
    ] = None,
    boston: Annotated[
        bool | None,
        typer.Option(
            "--boston/--no-boston",
            help="Russian Boston: the declarer holds / does not hold the boston card "
            "(bonus, A-50).",
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Score a contract: per-adversary payment and net to the declarer."""
    with user_errors():
        from ..errors import RulesError
        from ..rules import score as score_fn

        try:
            n_tricks = int(tricks)
        except ValueError:
            raise RulesError(f"tricks must be a whole number, not {tricks!r}") from None
        context: dict[str, Any] = {}
        if senior is not None:
            context["senior"] = senior
        if boston is not None:
            context["declarer_holds_boston"] = boston
        s = score_fn(
            rules_name,
            contract,
            n_tricks,
            parse_options(option),
            trump=trump,
            context=context or None,
        )
        if json_out:
            echo_json(s.to_dict())
            return
        outcome = "made" if s.success else "failed"
        typer.echo(f"{s.rules}: {s.name} ({s.contract}), {s.tricks} tricks — {outcome}")
        if s.amount is None:
            typer.echo("no price: these rules give no payment for this contract")
            return
        per = ", ".join(_fmt(x) for x in s.per_adversary)
        typer.echo(f"per adversary: {_fmt(s.amount)} {s.unit}  [{per}]")
        extras = []
        if s.pool:
            extras.append(f"pool {_fmt(s.pool)}")
        if s.bonus:
            extras.append(f"boston bonus {_fmt(s.bonus)}")
        tail = f" (incl. {', '.join(extras)})" if extras else ""
        typer.echo(f"net: {_fmt(s.net)} {s.unit}{tail}")


def partout(
    tricks: Annotated[list[int], typer.Argument(help="Tricks of the four players (sum 13).")],
    rules_name: Annotated[
        str,
        typer.Option(
            "--rules", "-r", help="Rule-set id or file with a misère partout (classic Boston)."
        ),
    ] = "boston_foster",
    option: OptionList = None,
    red_in_white: Annotated[
        str | None,
        typer.Option(
            "--red-in-white",
            help="White counters per red counter: short for -o red_in_white=VALUE; default "
            "the rule set's option (boston_foster: 10, A-02).",
        ),
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Classic Boston's Misère Partout (all pass): what each player pays or receives.

    The seed settles it in red counters; white = red x the rule set's option red_in_white."""
    with user_errors():
        from ..errors import RulesError
        from ..rules import load_rules, misere_partout_red

        opts = parse_options(option)
        if red_in_white is not None:
            if "red_in_white" in opts:
                raise RulesError(
                    "give the red/white ratio once: --red-in-white X is short for -o red_in_white=X"
                )
            opts["red_in_white"] = red_in_white
        rs = load_rules(rules_name, opts)
        white = rs.misere_partout(list(tricks))
        red = misere_partout_red(list(tricks))
        if json_out:
            echo_json(
                {
                    "rules": rs.id,
                    "red_in_white": rs.red_in_white,
                    "tricks": list(tricks),
                    "white": white,
                    "red": red,
                }
            )
            return
        typer.echo(f"{rs.id}: misère partout, 1 red = {rs.red_in_white:g} white")
        for i, (t, w, r) in enumerate(zip(tricks, white, red, strict=True)):
            typer.echo(f"player {i + 1}: {t:2d} tricks  {w:+g} white ({r:+g} red)")


def register(app: typer.Typer) -> None:
    """Add the ``rules``, ``score`` and ``partout`` commands."""
    app.command("rules")(rules)
    app.command("score")(score)
    app.command("partout")(partout)
