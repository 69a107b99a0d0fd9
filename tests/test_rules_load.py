"""Loading and validating rule-set files: built-ins, user files, broken files, options."""

from __future__ import annotations

from pathlib import Path

import pytest

from boston_sim.errors import RulesError
from boston_sim.rules import DATA_DIR, RuleSet, list_rules, load_rules, score

BUILT_IN = [
    "boston_foster",
    "boston_modern",
    "boston_russian",
    "fontainebleau_foster",
    "solo_whist_foster",
]


def test_list_rules() -> None:
    assert list_rules() == BUILT_IN


@pytest.mark.parametrize("rid", BUILT_IN)
def test_every_built_in_loads(rid: str) -> None:
    rules = load_rules(rid)
    assert isinstance(rules, RuleSet)
    assert rules.id == rid
    assert [r.rank for r in rules.rungs] == list(range(1, len(rules.rungs) + 1))
    assert rules.interpretations and all(a.startswith("A-") for a in rules.interpretations)
    for r in rules.rungs:
        assert rules.rung(r.id) is r
        assert rules.rung(r.name.upper()) is r
        assert r.tricks in (12, 13)
        assert r.leader in ("eldest", "declarer", "declarer_left")


def test_every_built_in_cites_its_interpretations() -> None:
    """Each A-number a data file cites in a comment is listed in its interpretations."""
    import re

    for rid in BUILT_IN:
        text = (DATA_DIR / f"{rid}.toml").read_text(encoding="utf-8")
        cited = set(re.findall(r"A-\d\d", text))
        assert cited <= set(load_rules(rid).interpretations), (
            rid,
            cited - set(load_rules(rid).interpretations),
        )


def test_load_by_path(tmp_path: Path) -> None:
    p = tmp_path / "my_rules.toml"
    p.write_text(
        (DATA_DIR / "boston_foster.toml")
        .read_text(encoding="utf-8")
        .replace('id = "boston_foster"', 'id = "my_boston"'),
        encoding="utf-8",
    )
    rules = load_rules(str(p))
    assert rules.id == "my_boston"
    assert score(rules, "eight", 7).amount == -23
    assert load_rules(p).id == "my_boston"


def test_unknown_rule_set() -> None:
    with pytest.raises(RulesError, match="unknown rule set 'whist'.*boston_foster"):
        load_rules("whist")
    with pytest.raises(RulesError, match="not found"):
        load_rules("/nonexistent/dir/rules.toml")


# --------------------------------------------------------------------------- broken files


def broken(tmp_path: Path, old: str, new: str, base: str = "boston_foster") -> Path:
    text = (DATA_DIR / f"{base}.toml").read_text(encoding="utf-8")
    assert old in text, old
    p = tmp_path / "broken.toml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    "old,new,field",
    [
        ('unit = "white counters"\n', "", "unit: missing"),
        ('kind = "at_least"\ntarget = 5\n', 'kind = "at_most"\ntarget = 5\n', "rungs[boston].kind"),
        ('kind = "at_least"\ntarget = 5\n', 'kind = "at_least"\n', "rungs[boston].target: missing"),
        (
            'trump = "declarer_choice"\npayment',
            'trump = "whatever"\npayment',
            "rungs[boston].trump",
        ),
        ('leader = "eldest"', 'leader = "dealer"', "rungs[boston].leader"),
        (
            "8 = [23, 34, 46, 56, 67, 78, 89, 110]",
            "8 = [23, 34, 46, 56, 67, 78, 89]",
            "tables.failure_english.8",
        ),
        ("8 = [23, 24, 26, 28, 29, 31]", "8 = [23, 24, 26, 28, 31]", "tables.success_english.8"),
        ("9 = [32, 34, 36, 39, 41]", "", "tables.success_english.9: missing row"),
        (
            "7 = [18, 20, 21, 22, 23, 24, 26]",
            '7 = [18, 20, 21, "x", 23, 24, 26]',
            "tables.success_english.7[3]",
        ),
        # a gap in a table used only with payments=american is found as well
        (
            "9 = [35, 45, 55, 65, 80, 95, 110, 125, 140]",
            "9 = [35, 45, 55, 65, 80, 95, 110, 125]",
            "tables.failure_american.9",
        ),
        (
            'payment = { type = "flat", amount = 40 }',
            'payment = { type = "flat" }',
            "rungs[grand_misere].payment.amount",
        ),
        (
            'payment = { type = "flat", amount = 40 }',
            'payment = { type = "bonus" }',
            "rungs[grand_misere].payment.type",
        ),
        ('id = "twelve"', 'id = "Twelve Tricks"', "rungs[Twelve Tricks].id"),
        ('id = "twelve"', 'id = "eleven"', "duplicate id 'eleven'"),
        ("tricks = 12\nstop_early", "tricks = 11\nstop_early", "rungs[little_misere].tricks"),
        ('default = "english"', 'default = "french"', "options.payments.default"),
        ('interpretations = ["A-01"', 'interpretations = ["A1"', "interpretations"),
        (
            'partout = "red_counters"',
            'partout = "red_counters"\ncolour = "blue"',
            "colour: unknown field",
        ),
        ("pool_bid = false\n", "pool_bid = false\nfoo = 1\n", "rungs[boston].foo: unknown field"),
        ("payers = 3 ", "payers = 4 ", "rungs[boston].payers"),
    ],
)
def test_broken_file_names_file_and_field(tmp_path: Path, old: str, new: str, field: str) -> None:
    p = broken(tmp_path, old, new)
    with pytest.raises(RulesError) as ei:
        load_rules(str(p))
    msg = str(ei.value)
    assert str(p) in msg, msg
    assert field in msg, msg
    assert "\n" not in msg


def test_wrong_rank_order(tmp_path: Path) -> None:
    # swap the targets of Six and Seven: Seven Tricks would then rank below Six
    p = broken(
        tmp_path,
        'id = "six"\nname = "Six Tricks"\nkind = "at_least"\ntarget = 6',
        'id = "six"\nname = "Six Tricks"\nkind = "at_least"\ntarget = 8',
    )
    with pytest.raises(RulesError, match=r"broken.toml: rungs\[seven\].rank: wrong rank order"):
        load_rules(str(p))
    # explicit ranks must follow the listed order
    p = broken(tmp_path, 'id = "six"\n', 'id = "six"\nrank = 3\n')
    with pytest.raises(RulesError, match=r"rungs\[six\].rank: rank 3 out of order"):
        load_rules(str(p))


def test_not_toml(tmp_path: Path) -> None:
    p = tmp_path / "bad.toml"
    p.write_text("id = [unclosed\n", encoding="utf-8")
    with pytest.raises(RulesError, match="bad.toml: not valid TOML"):
        load_rules(str(p))


def test_built_in_errors_name_the_file(tmp_path: Path) -> None:
    p = broken(tmp_path, "[[rungs]]", "[[rungz]]", base="solo_whist_foster")
    with pytest.raises(RulesError, match="broken.toml: rungz: unknown field"):
        load_rules(str(p))
    p = tmp_path / "empty.toml"
    p.write_text(
        'id = "x"\nname = "x"\nsource = "x"\nunit = "x"\ninterpretations = []\nsuit_order = ["S"]\n'
    )
    with pytest.raises(RulesError, match="empty.toml: rungs: missing or empty"):
        load_rules(str(p))


# --------------------------------------------------------------------------- options


def test_option_defaults() -> None:
    assert load_rules("boston_foster").options == {
        "payments": "english",
        "slam_failure": "played_out",
        "red_in_white": 10,
        "pool": 0,
    }
    assert load_rules("solo_whist_foster").options["red_in_white"] == 5
    assert load_rules("boston_modern").options["misere_amounts"] == "midpoint"
    ru = load_rules("boston_russian").options
    assert ru["round_multiplier"] == 1 and ru["boston_card_mode"] == "trump"
    assert ru["boston_bonus"] == "any_holder" and ru["pair_payment"] == "paired"


def test_options_coerced_from_strings() -> None:
    rules = load_rules(
        "boston_russian", {"round_multiplier": "2", "boston_card_mode": "OWN_SUIT_TOP"}
    )
    assert rules.options["round_multiplier"] == 2
    assert rules.options["boston_card_mode"] == "own_suit_top"
    assert load_rules("boston_foster", {"pool": "2.5"}).options["pool"] == 2.5


@pytest.mark.parametrize(
    "rid,opts,msg",
    [
        (
            "boston_foster",
            {"payment": "american"},
            r"unknown option 'payment' for boston_foster \(options: payments",
        ),
        (
            "boston_foster",
            {"payments": "french"},
            r"option payments: bad value 'french' \(allowed: english\|american\)",
        ),
        ("boston_foster", {"pool": "lots"}, r"option pool: bad value 'lots'"),
        ("boston_foster", {"pool": -3}, r"option pool: bad value"),
        ("boston_russian", {"round_multiplier": "3"}, r"allowed: 1\|2"),
        ("boston_russian", {"boston_card_mode": "on"}, r"allowed: trump\|own_suit_top\|off"),
        ("boston_russian", {"boston_bonus": "all"}, r"allowed: any_holder\|declarer_only"),
        ("boston_russian", {"pair_payment": "split"}, r"allowed: paired\|each"),
        ("boston_modern", {"misere_amounts": "upper"}, r"allowed: midpoint\|lower"),
        (
            "fontainebleau_foster",
            {"payments": "english"},
            r"unknown option 'payments'.*options: none",
        ),
        ("solo_whist_foster", {"red_in_white": "0"}, r"red_in_white: bad value"),
    ],
)
def test_bad_options(rid: str, opts: dict, msg: str) -> None:
    with pytest.raises(RulesError, match=msg):
        load_rules(rid, opts)


def test_with_options_keeps_others() -> None:
    rules = load_rules("boston_foster", {"pool": 5})
    amer = rules.with_options({"payments": "american"})
    assert amer.options["pool"] == 5 and amer.options["payments"] == "american"
    assert score(rules, "seven", 10, {"payments": "american"}).amount == 20


def test_conditions_option_adds_rungs() -> None:
    off = load_rules("boston_russian")
    on = load_rules("boston_russian", {"conditions": "on"})
    assert len(on.rungs) == len(off.rungs) + 5
    with pytest.raises(RulesError, match="unknown contract 'philadelphia'"):
        off.rung("philadelphia")
    assert on.rung("Philadelphia").target == 10
