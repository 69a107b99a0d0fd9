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


def _console() -> Any:
    from rich.console import Console

    # Payment tables have 14 columns: do not squash them when the output is not a terminal.
    return Console(width=None if sys.stdout.isatty() else 200, highlight=False)


def _fmt(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{x:g}"


def rules(
    name: Annotated[
        str | None, typer.Argument(help="Rule-set id or path to a .toml file; omit to list them.")
    ] = None,
    option: OptionList = None,
    json_out: JsonFlag = False,
) -> None:
    """List the rule sets, or show one rule set's ladder and payment tables."""
    with user_errors():
        from ..errors import RulesError
        from ..rules import list_rules, load_rules

        if name is None:
            if option:
                raise RulesError("--option needs a rule-set NAME")
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
        if json_out:
            d = rs.to_dict()
            d["tables"] = {k: dict(v) for k, v in rs.tables.items()}
            echo_json(d)
            return
        _print_rule_set(rs)


def _print_rule_set(rs: Any) -> None:
    from rich.table import Table

    con = _console()
    con.print(f"[bold]{rs.name}[/bold] ({rs.id}) — {rs.source}")
    con.print(f"unit: {rs.unit}; interpretations relied on: {', '.join(rs.interpretations)}")
    if rs.option_specs:
        opts = ", ".join(
            f"{k}={v} ({rs.option_specs[k].describe()})" for k, v in rs.options.items()
        )
        con.print(f"options: {opts}")
    order = " > ".join(rs.suit_order if rs.suit_rule == "fixed" else rs.suit_classes)
    con.print(f"trump preference at equal numbers ({rs.suit_rule}): {order}")

    lad = Table(title="Ladder (lowest first)")
    for col in (
        "rank",
        "id",
        "name",
        "kind",
        "target",
        "trump",
        "tricks",
        "exposed",
        "leader",
        "side",
        "payers",
        "payment",
    ):
        lad.add_column(col)
    for r in rs.rungs:
        lad.add_row(
            str(r.rank),
            r.id,
            r.name,
            r.kind,
            str(r.target),
            r.trump,
            str(r.tricks),
            r.exposed or "-",
            r.leader,
            r.side,
            str(r.payers),
            rs.describe_payment(r.id),
        )
    con.print(lad)

    pay = Table(title=f"Per-adversary payment ({rs.unit}) by tricks won by the declaring side")
    pay.add_column("rung")
    for t in range(14):
        pay.add_column(str(t), justify="right")
    any_priced = False
    for r in rs.rungs:
        if not r.priced:
            continue
        any_priced = True
        vec = rs.payment_vector(r.id)
        pay.add_row(r.id, *[_fmt(float(x)) for x in vec])
        if "senior" in r.payment:
            # the tariff when the declarer's chosen trump is the senior suit
            vec = rs.payment_vector(r.id, "S", {"senior": "S"})
            pay.add_row(f"{r.id} (senior trump)", *[_fmt(float(x)) for x in vec])
    if any_priced:
        con.print(pay)
    unpriced = [r.id for r in rs.rungs if not r.priced]
    if unpriced:
        con.print(f"unpriced (no payment in the seed): {', '.join(unpriced)}")

    for tname, table in rs.tables.items():
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
                "  (row = tricks bid N; column j = N + j tricks taken; "
                "a single value: no over-tricks)"
            )
        elif tname.startswith("failure"):
            con.print("  (row = tricks bid N; column j = j + 1 tricks short)")


def score(
    contract: Annotated[
        str, typer.Argument(help="Rung id or seed name, e.g. eight or 'Little Misère'.")
    ],
    tricks: Annotated[str, typer.Argument(help="Tricks won by the declaring side.")],
    rules_name: Annotated[
        str, typer.Option("--rules", "-r", help="Rule-set id or .toml path.")
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
    red_in_white: Annotated[
        float, typer.Option("--red-in-white", help="White counters per red (A-02).")
    ] = 10,
    json_out: JsonFlag = False,
) -> None:
    """Classic Boston's Misère Partout (all pass): what each player pays or receives."""
    with user_errors():
        from ..rules import misere_partout

        res = misere_partout(list(tricks), red_in_white=red_in_white)
        if json_out:
            echo_json(
                {"tricks": list(tricks), "white": res, "red": [x / red_in_white for x in res]}
            )
            return
        for i, (t, w) in enumerate(zip(tricks, res)):
            typer.echo(f"player {i + 1}: {t:2d} tricks  {w:+g} white ({w / red_in_white:+g} red)")


def register(app: typer.Typer) -> None:
    """Add the ``rules``, ``score`` and ``partout`` commands."""
    app.command("rules")(rules)
    app.command("score")(score)
    app.command("partout")(partout)
