"""``boston-sim rules``, ``boston-sim score`` and ``boston-sim partout``: look up rule sets
and score contracts. No logic here beyond formatting; everything is in ``boston_sim.rules``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .common import echo_json, parse_options, tricks_text, user_errors

OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="Rule-set option as key=value (repeatable), e.g. payments=american."
    ),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def _console() -> Any:
    from ..views.terminal import console

    return console()


def _fmt(x: float | None) -> str:
    from ..views.rules import fmt_amount

    return fmt_amount(x)


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
            from ..views.rules import print_rule_list

            print_rule_list(_console(), sets)
            return
        rs = load_rules(name, parse_options(option))
        if as_printed:
            if rs.as_printed is None:
                raise RulesError(f"{rs.id} keeps no as-printed tariff (only corrected ones do)")
            if json_out:
                echo_json(rs.to_dict()["as_printed"])
            else:
                from ..views.rules import print_as_printed

                print_as_printed(_console(), rs)
            return
        if json_out:
            from ..views.manifest import with_manifest

            d = rs.to_dict()
            d["tables"] = {k: dict(v) for k, v in rs.tables.items()}
            echo_json(with_manifest(d, "rules", rules=rs))
            return
        from ..views.rules import print_rule_set

        print_rule_set(_console(), rs)


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
        from ..rules import load_rules, unread_context
        from ..rules import score as score_fn

        try:
            n_tricks = int(tricks)
        except ValueError:
            raise RulesError(f"tricks must be a whole number, not {tricks!r}") from None
        context: dict[str, Any] = {}
        if senior is not None or boston is not None:  # only Russian Boston reads them
            rs = load_rules(rules_name, parse_options(option))
            unread = unread_context(rs, "senior") if senior is not None else None
            if unread is not None:
                raise RulesError(unread)
            if boston is not None and not rs.boston_bonus:
                raise RulesError(f"{rs.id} has no boston card: --boston does not apply")
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
            from ..views.manifest import with_manifest

            echo_json(with_manifest(s.to_dict(), "score", rules=load_rules(
                rules_name, parse_options(option))))
            return
        outcome = "made" if s.success else "failed"
        typer.echo(f"{s.rules}: {s.name} ({s.contract}), {tricks_text(s.tricks)} — {outcome}")
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
            from ..views.manifest import with_manifest

            echo_json(with_manifest(
                {
                    "rules": rs.id,
                    "red_in_white": rs.red_in_white,
                    "tricks": list(tricks),
                    "white": white,
                    "red": red,
                }, "partout", rules=rs))
            return
        typer.echo(f"{rs.id}: misère partout, 1 red = {rs.red_in_white:g} white")
        for i, (t, w, r) in enumerate(zip(tricks, white, red, strict=True)):
            typer.echo(f"player {i + 1}: {tricks_text(t):>9}  {w:+g} white ({r:+g} red)")


def register(app: typer.Typer) -> None:
    """Add the ``rules``, ``score`` and ``partout`` commands."""
    app.command("rules")(rules)
    app.command("score")(score)
    app.command("partout")(partout)
