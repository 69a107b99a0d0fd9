"""Loading and validating rule-set files: built-ins, user files, broken files, options."""

from __future__ import annotations

import re
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
    # a bid's other outcome (a Russian purchase nobody supports) shares the bid's rank
    bids = [r for r in rules.rungs if r.outcome_of is None]
    assert [r.rank for r in bids] == list(range(1, len(bids) + 1))
    assert all(r.rank == rules.rung(r.outcome_of).rank for r in rules.rungs if r.outcome_of)
    assert rules.interpretations and all(a.startswith("A-") for a in rules.interpretations)
    for r in rules.rungs:
        assert rules.rung(r.id) is r
        assert rules.rung(r.name.upper()) is r
        assert r.tricks in (12, 13)
        assert r.leader in ("eldest", "declarer", "declarer_left")


# Interpretations that docs/RULES.md files under a rule set (its §4 group, or its §2.x / §3.x
# sections) but that its data file does not rely on, each with the reason, transcribed from
# docs/RULES.md §4. Anything else docs/RULES.md ties to a rule set must be listed in its file.
NOT_RELIED_ON = {
    "boston_foster": {
        "A-04": "the auction's worked example; the auction is not modelled",
        "A-10": "an adversary's revoke forfeit; revokes are not modelled",
        "A-11": "the caller's revoke; revokes are not modelled",
    },
    "fontainebleau_foster": {},
    "solo_whist_foster": {"A-26": "a revoke example; revokes are not modelled"},
    "boston_modern": {
        "A-37": "the variant note on Russian seating; concerns boston_russian",
        "A-38": "American Boston (a different game), not implemented",
    },
    "boston_russian": {
        "A-55": "an unclear announcement rule, ignored for scoring",
        "A-56": "the initial pool; pools are not modelled",
        "A-59": "dealer's pool payments; no effect on scoring",
        "A-60": "informational only",
        "A-62": "card exchange ('Boston with purchase'), not modelled",
    },
}


def _rules_md_interpretations() -> tuple[dict[str, str], dict[str, set[str]]]:
    """docs/RULES.md §4: the text of every A-nn, and for each rule set the A-numbers docs/RULES.md
    files under it: its §4 group (headed by the seed file and lines, matched to a rule set
    through §0's table of rule sets) and those cited in its §2.x and §3.x sections."""
    from test_rules_tables import RULES_MD, md_tables, section

    spec = RULES_MD.read_text(encoding="utf-8")
    seed = r"`(\d{3}_[0-9a-f]+\.txt)`"  # the spec names its sources by their seed files
    (ids,) = [t for t in md_tables(section(spec, "0. Sources")) if t[0][0].startswith("Id")]
    by_seed = {}
    for row in ids[1:]:
        rid = re.search(r"`(\w+)`", row[0]).group(1)
        lines = re.search(r"L(\d+)", row[2])
        by_seed[(re.search(seed, row[2]).group(1), lines and lines.group(1))] = rid
    texts: dict[str, str] = {}
    concerns: dict[str, set[str]] = {}
    rid = None
    for ln in section(spec, "4. Ambiguities").splitlines():
        if ln.startswith("### "):
            lines = re.search(r"L(\d+)", ln)
            rid = by_seed[(re.search(seed, ln).group(1), lines and lines.group(1))]
            concerns[rid] = set()
        m = re.match(r"\* \*\*(A-\d\d)\*\*", ln)
        if m:
            texts[m.group(1)] = ln
            concerns[rid].add(m.group(1))
    for rid in concerns:
        for part in ("2", "3"):
            (head,) = re.findall(rf"^### ({part}\.\d) .*`{rid}`", spec, re.MULTILINE)
            concerns[rid] |= set(re.findall(r"A-\d\d", section(spec, head)))
    return texts, concerns


def test_every_built_in_cites_its_interpretations() -> None:
    """Every interpretation docs/RULES.md ties to a rule set is listed in its file (or named in
    NOT_RELIED_ON with a reason); every listed one exists in docs/RULES.md §4 and concerns the
    rule set; every A-number the file's comments cite is listed."""
    texts, concerns = _rules_md_interpretations()
    assert sorted(concerns) == BUILT_IN
    assert len(texts) == 63  # A-01 .. A-63
    name_in_text = {
        "boston_foster": "Boston",
        "fontainebleau_foster": "Fontainebleau",
        "solo_whist_foster": "Solo Whist",
        "boston_modern": "modern",
        "boston_russian": "Russian",
    }
    for rid in BUILT_IN:
        listed = set(load_rules(rid).interpretations)
        excused = NOT_RELIED_ON[rid]
        assert not listed & set(excused), (rid, "listed but excused", listed & set(excused))
        assert set(excused) <= concerns[rid], (rid, "excused but not tied to it")
        missing = concerns[rid] - listed - set(excused)
        assert not missing, (rid, "relied on per docs/RULES.md but not listed", sorted(missing))
        unknown = listed - set(texts)
        assert not unknown, (rid, "no such interpretation in docs/RULES.md §4", unknown)
        stray = {a for a in listed - concerns[rid] if name_in_text[rid] not in texts[a]}
        assert not stray, (rid, "listed but docs/RULES.md does not tie it to this rule set", stray)
        text = (DATA_DIR / f"{rid}.toml").read_text(encoding="utf-8")
        cited = set(re.findall(r"A-\d\d", text))
        assert cited <= listed, (rid, "cited in a comment but not listed", cited - listed)


def test_rules_md_ties_the_audited_interpretations() -> None:
    """The check above would have caught the omissions an audit found: A-08 (scored as if
    played out) for boston_foster, A-57 (senior loss = 2 x junior loss) for boston_russian."""
    _, concerns = _rules_md_interpretations()
    assert "A-08" in concerns["boston_foster"] and "A-57" in concerns["boston_russian"]
    assert "A-08" not in NOT_RELIED_ON["boston_foster"]
    assert "A-57" not in NOT_RELIED_ON["boston_russian"]


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


def test_load_by_path_without_suffix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name that is no built-in id but an existing file is loaded as a path; a built-in id
    still wins over a file of the same name."""
    text = (DATA_DIR / "boston_modern.toml").read_text(encoding="utf-8")
    (tmp_path / "my_rules").write_text(text.replace('"boston_modern"', '"mine"'), "utf-8")
    (tmp_path / "boston_foster").write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_rules("my_rules").id == "mine"
    assert load_rules("boston_foster").path == DATA_DIR / "boston_foster.toml"
    with pytest.raises(RulesError, match="unknown rule set 'my_ruls'"):
        load_rules("my_ruls")


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
        # discards (docs/RULES.md §1.6): a known value, and tricks, if given, must agree
        ('discard = "all_one" ', 'discard = "two" ', "rungs[little_misere].discard"),
        (
            'discard = "all_one" ',
            'tricks = 13\ndiscard = "all_one" ',
            "rungs[little_misere].tricks: 13 does not match discard = 'all_one'",
        ),
        ('discard = "none" ', "tricks = 12\n", "rungs[boston].tricks: 12 does not match"),
        # bad values that used to pass silently or crash
        (
            'suit_classes = ["first_preference", "colour", "plain"]',
            'suit_classes = "x"',
            "suit_classes: expected a list",
        ),
        (
            'suit_classes = ["first_preference", "colour", "plain"]',
            "suit_classes = [1, 2]",
            "suit_classes: expected a list",
        ),
        (
            'suit_classes = ["first_preference", "colour", "plain"]',
            'suit_classes = ["plain", "plain"]',
            "suit_classes: expected a list of distinct",
        ),
        ('partout = "red_counters"', "partout = 1", "partout: 1 is not one of"),
        ('partout = "red_counters"', 'partout = "white"', "partout: 'white' is not one of"),
        (
            "5 = [12, 12, 13,",
            "5 = [-12, 12, 13,",
            "tables.success_english.5[0]: expected an amount >= 0",
        ),
        ("5 = [11, 21,", "5 = [11, -21,", "tables.failure_english.5[1]: expected an amount >= 0"),
        ("5 = 10\n", "5 = -10\n", "tables.success_american.5: expected an amount"),
        (
            'payment = { type = "flat", amount = 40 }',
            'payment = { type = "flat", amount = -40 }',
            "rungs[grand_misere].payment.amount",
        ),
        (
            'payment = { type = "flat", amount = 40 }',
            'payment = { type = "flat", amount = 40, amonut = 4 }',
            "rungs[grand_misere].payment.amonut: unknown field",
        ),
        (
            'payment = { type = "flat", amount = 40 }',
            'payment = { type = "flat", table = [1] }',
            "rungs[grand_misere].payment.table: expected the name",
        ),
        ("min = 1\n", 'min = "a"\n', "options.red_in_white.min: expected a number, got 'a'"),
        ("min = 1\n", "min = 1\nmax = 0.5\n", "options.red_in_white.max"),
        (
            "min = 1\n",
            "min = 0\n",
            "options.red_in_white: a red/white ratio must be a positive number",
        ),
        ("min = 1\n", "min = 1\nchoices = [1, 2]\n", "options.red_in_white.type: not allowed"),
        ('type = "number"\nmin = 1', 'type = "numbr"\nmin = 1', "options.red_in_white.type"),
        (
            'choices = ["english", "american"]',
            'choices = ["english", "english"]',
            "options.payments.choices",
        ),
        (
            'choices = ["english", "american"]',
            'choices = ["english", "american"]\nhelp = 1',
            "options.payments.help",
        ),
        # red counters need the ratio
        ("[options.red_in_white]", "[options.red_in_whit]", "partout: red counters need"),
        ('above = "seven" ', "above = 7 ", "rungs[little_misere].above: expected the id"),
        ('default = "english"', 'default = "french"', "options.payments.default"),
        ('interpretations = ["A-01"', 'interpretations = ["A1"', "interpretations"),
        (
            'partout = "red_counters"',
            'partout = "red_counters"\ncolour = "blue"',
            "colour: unknown field",
        ),
        ("pool_bid = false\n", "pool_bid = false\nfoo = 1\n", "rungs[boston].foo: unknown field"),
        ("payers = 3 ", "payers = 4 ", "rungs[boston].payers"),
        (
            "8 = [23, 34, 46, 56, 67, 78, 89, 110]",
            "8 = [23, 34, 46, 56, 67, 78, 89, nan]",
            "tables.failure_english.8[7] is not a number",
        ),
        (
            "8 = [23, 34, 46, 56, 67, 78, 89, 110]",
            "8 = [23, 34, 46, 56, 67, 78, 89, 1e10]",
            "tables.failure_english.8[7] is beyond the limit",
        ),
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


def test_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "bin.toml"
    p.write_bytes(b'id = "\xff"\n')
    with pytest.raises(RulesError, match=r"bin.toml: not UTF-8 text \(byte 0xff at offset 6\)"):
        load_rules(str(p))


def _move_rung(text: str, rid: str, before: str) -> str:
    """Cut the [[rungs]] record of ``rid`` and paste it before the line ``before``."""
    start = rf'\[\[rungs\]\]\nid = "{rid}"\n'
    m = re.search(start + r".*?(?=\n\[\[rungs\]\]|\n# -{10})", text, re.DOTALL)
    assert m, rid
    text = text[: m.start()] + text[m.end() + 1 :]
    i = text.index(before)
    return text[:i] + m.group(0) + "\n\n" + text[i:]


@pytest.mark.parametrize(
    "base,rid,before,above",
    [
        # Little Misère moved to the top of the ladder (above Grand Slam), docs/RULES.md §2.1.3
        ("boston_foster", "little_misere", "# " + "-" * 64 + " payment tables", "seven"),
        # Grand Misère moved down below Eight (the seed puts it between Nine and Ten)
        ("boston_foster", "grand_misere", '[[rungs]]\nid = "eight"', "nine"),
        # Piccolissimo listed after Eight instead of after Seven (§2.2.2)
        ("fontainebleau_foster", "piccolissimo", '[[rungs]]\nid = "grand_misere"', "seven"),
        # Petite Misère "overtreft 7 slagen" (§2.4.2, A-31) listed above Ten
        ("boston_modern", "petite_misere", '[[rungs]]\nid = "misere_ouverte"', "seven"),
        # the Russian misère (last in the order of bids, L77) listed first
        ("boston_russian", "misere", '[[rungs]]\nid = "pair_junior"', "nine_senior"),
    ],
)
def test_misplaced_misere_rung(
    tmp_path: Path, base: str, rid: str, before: str, above: str
) -> None:
    text = _move_rung((DATA_DIR / f"{base}.toml").read_text(encoding="utf-8"), rid, before)
    p = tmp_path / "moved.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(
        RulesError,
        match=rf"moved.toml: rungs\[{rid}\].above: wrong rank order: {rid} ranks immediately "
        rf"above '{above}' but is (listed above|listed lowest)",
    ):
        load_rules(str(p))


def test_above_is_required_and_must_name_a_rung(tmp_path: Path) -> None:
    p = broken(tmp_path, 'above = "nine" ', "")
    with pytest.raises(RulesError, match=r"rungs\[grand_misere\].above: missing.*here 'nine'"):
        load_rules(str(p))
    p = broken(tmp_path, 'above = "nine" ', 'above = "nein" ')
    with pytest.raises(RulesError, match=r"rungs\[grand_misere\].above: 'nein' is no rung"):
        load_rules(str(p))


def test_built_in_ladders_match_the_spec_order() -> None:
    """Each misère-type rung ranks immediately above the trick rung the spec places it above
    (docs/RULES.md §2.1.3, §2.2.2, §2.3.2, §2.4.2 with A-31, §2.5.4 L77 with A-51)."""
    want = {
        "boston_foster": {
            "little_misere": "seven",
            "grand_misere": "nine",
            "little_spread": "eleven",
            "grand_spread": "twelve",
        },
        "fontainebleau_foster": {
            "little_misere": "six",
            "piccolissimo": "seven",
            "grand_misere": "eight",
            "little_spread": "nine",
            "grand_spread": "ten",
        },
        "solo_whist_foster": {"misere": "solo", "spread": "abundance_in_trumps"},
        "boston_modern": {
            "petite_misere": "seven",
            "grande_misere": "eight",
            "misere_ouverte": "ten",
        },
        "boston_russian": {
            "misere": "nine_senior",
            "petit_misere_ouvert": "misere",
            "grand_misere_ouvert": "philadelphia",
        },
    }
    for rid, placed in want.items():
        rules = load_rules(rid, {"conditions": "on"} if rid == "boston_russian" else None)
        got = {r.id: r.above for r in rules.rungs if r.kind != "at_least"}
        assert got == placed, rid
        for i, r in enumerate(rules.rungs):
            if r.above:
                assert rules.rungs[i - 1].id == r.above


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
        "success_table": "payments",
        "failure_table": "payments",
        "slam_failure": "played_out",
        "red_in_white": 10,
        "pool": 0,
        "all_pass": "misere_partout",
        "pass_value": 0,
    }
    assert load_rules("solo_whist_foster").options["red_in_white"] == 5
    assert load_rules("boston_modern").options["misere_amounts"] == "midpoint"
    ru = load_rules("boston_russian").options
    assert ru["round_multiplier"] == 1 and ru["boston_card_mode"] == "trump"
    assert ru["boston_bonus"] == "any_holder" and ru["pair_payment"] == "paired"


def test_options_coerced_from_strings() -> None:
    rules = load_rules("boston_russian", {"round_multiplier": "2", "boston_card_mode": "OFF"})
    assert rules.options["round_multiplier"] == 2
    assert rules.options["boston_card_mode"] == "off"
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


# --------------------------------------------------------------------------- robustness


def _paths(obj: object, path: tuple = ()) -> list[tuple]:
    """Every key / index path into nested TOML data."""
    out = []
    items = (
        obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    )
    for k, v in items:
        out.append((*path, k))
        out.extend(_paths(v, (*path, k)))
    return out


@pytest.mark.parametrize("rid", ["boston_foster", "boston_russian"])
def test_any_broken_value_is_a_rules_error(rid: str) -> None:
    """Replace (or delete) each value of a built-in file in turn by a value of a wrong type
    or sign: loading either succeeds or raises RulesError naming the file, never another
    exception (which the CLI would show as a traceback)."""
    import copy
    import tomllib

    from boston_sim.rules.loader import _build

    path = DATA_DIR / f"{rid}.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    bad_values = ["x", -1, [1, 2], {"a": 1}, True, None]  # None: delete the field
    tried = 0
    for keys in _paths(raw):
        if keys[0] == "as_printed" and len(keys) > 2:
            continue  # free-form documentation
        for bad in bad_values:
            mutated = copy.deepcopy(raw)
            parent = mutated
            for k in keys[:-1]:
                parent = parent[k]
            if bad is None:
                del parent[keys[-1]]
            else:
                parent[keys[-1]] = bad
            tried += 1
            try:
                _build(mutated, path, {})  # the loader's body, on data instead of a file
            except RulesError as e:
                assert f"{rid}.toml" in str(e) and "\n" not in str(e), (keys, bad, e)
    assert tried > 1000


def test_mixed_payment_tables_a06() -> None:
    """A-06: 'mixing is a configuration choice'. Each table can be chosen on its own; by
    default both follow ``payments``. Figures from the seed's tables (docs/RULES.md §2.1.6-2.1.9):
    English success over-tricks 12/13 for Boston made with 5/7; American success flat 10;
    English failure 11 one short, American decimal 10."""
    eng = load_rules("boston_foster")
    amer = load_rules("boston_foster", {"payments": "american"})
    mixed = load_rules("boston_foster", {"success_table": "american"})
    other = load_rules("boston_foster", {"payments": "american", "failure_table": "english"})
    assert list(eng.payment_vector("boston")[4:8]) == [-11, 12, 12, 13]
    assert list(amer.payment_vector("boston")[4:8]) == [-10, 10, 10, 10]
    assert list(mixed.payment_vector("boston")[4:8]) == [-11, 10, 10, 10]
    assert list(other.payment_vector("boston")[4:8]) == [-11, 10, 10, 10]
    assert list(other.payment_vector("grand_slam")[[0, 12, 13]]) == [-433, -177, 170]
