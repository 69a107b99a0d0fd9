"""Every payment cell of every rule set, checked against the rule specification.

The expected numbers are PARSED out of the specification (``docs/RULES.md``): the markdown
tables of §2.1.6-§2.1.10, §2.3.5, §2.4.4 and §2.5.10, and, as a second independent source,
the Python literals and reference functions of its Appendix A.
Nothing here is copied from the data files or from the output of the code under test.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from boston_sim.rules import load_rules, score

# The specification ships in the repository, so that CI (a bare clone) checks every cell.
# Where the project's shared folder (the specification as given, and the seed texts) sits
# beside the checkout, the tests below also check docs/RULES.md and the seeds against it.
REPO = Path(__file__).resolve().parents[2]
RULES_MD = REPO / "docs" / "RULES.md"
SHARED = REPO.parent / "shared"
SHARED_RULES_MD = SHARED / "RULES.md"

WORDS = {
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
}


# --------------------------------------------------------------------------- markdown helpers


@pytest.mark.skipif(
    not SHARED_RULES_MD.is_file(),
    reason=f"{SHARED_RULES_MD} not beside the checkout: nothing to compare the copy with",
)
def test_spec_copy_is_verbatim() -> None:
    assert RULES_MD.read_bytes() == SHARED_RULES_MD.read_bytes(), (
        f"{RULES_MD} differs from {SHARED_RULES_MD}: copy the specification again"
    )


@pytest.fixture(scope="module")
def spec() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The body of the section whose heading starts with ``heading`` (up to the next heading)."""
    lines = text.splitlines()
    start = next(
        i
        for i, ln in enumerate(lines)
        if ln.startswith("#") and ln.lstrip("#").strip().startswith(heading)
    )
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    body = []
    in_code = False
    for ln in lines[start + 1 :]:
        if ln.startswith("```"):
            in_code = not in_code  # "# ..." inside a code block is a comment, not a heading
        elif not in_code and ln.startswith("#") and len(ln) - len(ln.lstrip("#")) <= level:
            break
        body.append(ln)
    return "\n".join(body)


def md_tables(text: str) -> list[list[list[str]]]:
    """All markdown tables in ``text`` as lists of rows of stripped cells (separators dropped)."""
    tables: list[list[list[str]]] = []
    cur: list[list[str]] = []
    for ln in text.splitlines() + [""]:
        s = ln.strip()
        if s.startswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
            if not all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                cur.append(cells)
        elif cur:
            tables.append(cur)
            cur = []
    return tables


def cell_num(c: str) -> float | None:
    """'12' -> 12; '—' -> None; '8*' -> 8."""
    c = c.replace("*", "").strip()
    if c in ("—", "-", ""):
        return None
    return float(c)


def bid_of(label: str) -> int:
    """'Five (5)' -> 5."""
    m = re.search(r"\((\d+)\)", label)
    return int(m.group(1)) if m else WORDS[label.split()[0].lower()]


def first_int(c: str) -> int:
    return int(re.match(r"\s*(\d+)", c).group(1))


# --------------------------------------------------------------------------- classic Boston


@pytest.mark.parametrize(
    "payments,success_sec,failure_sec",
    [
        ("english", "2.1.6", "2.1.8"),
        ("american", "2.1.7", "2.1.9"),
    ],
)
def test_boston_foster_trick_tables(
    spec: str, payments: str, success_sec: str, failure_sec: str
) -> None:
    rules = load_rules("boston_foster", {"payments": payments})
    ids = {r.target: r.id for r in rules.rungs if r.kind == "at_least"}
    checked = 0

    (succ,) = md_tables(section(spec, success_sec))
    header = succ[0]
    if payments == "english":  # rows = bid, columns = tricks taken 5..13
        taken = [int(h) for h in header[1:]]
        for row in succ[1:]:
            n = bid_of(row[0])
            pay = rules.payment_vector(ids[n])
            for t, c in zip(taken, row[1:], strict=False):
                v = cell_num(c)
                if v is None:
                    assert t < n, f"empty cell at bid {n}, taken {t}"
                    assert pay[t] < 0  # fewer than bid: a failure, not a success amount
                else:
                    assert pay[t] == v, f"success bid {n} taken {t}"
                    checked += 1
    else:  # one row: amount by tricks bid, no over-tricks
        bids = [int(h) for h in header[1:]]
        (row,) = succ[1:]
        for n, c in zip(bids, row[1:], strict=False):
            pay = rules.payment_vector(ids[n])
            for t in range(n, 14):
                assert pay[t] == cell_num(c), f"american success bid {n} taken {t}"
            checked += 1

    (fail,) = md_tables(section(spec, failure_sec))
    shorts = [int(h) for h in fail[0][1:]]
    for row in fail[1:]:
        n = bid_of(row[0])
        pay = rules.payment_vector(ids[n])
        for s, c in zip(shorts, row[1:], strict=False):
            v = cell_num(c)
            if v is None:
                assert s > n
                continue
            assert pay[n - s] == -v, f"failure bid {n} short {s}"
            assert score(rules, ids[n], n - s).per_adversary == [-v, -v, -v]
            checked += 1
    assert checked == (45 if payments == "english" else 9) + 81  # 5 + 6 + ... + 13 failure cells


def test_boston_foster_misere_table(spec: str) -> None:
    rules = load_rules("boston_foster")
    (tab,) = md_tables(section(spec, "2.1.10"))
    rows = tab[1:]
    assert len(rows) == 4
    for name, amount in rows:
        rung = rules.rung(name)  # seed wording, accented
        v = cell_num(amount)
        pay = rules.payment_vector(rung.id)
        assert pay[0] == v
        assert np.all(pay[1 : rung.tricks + 1] == -v)  # the same amount lost on any trick
        assert score(rules, name, 0).net == 3 * v


def test_boston_foster_matches_appendix(spec: str) -> None:
    ns = appendix(spec)
    for payments, succ, fail in (
        ("english", "BOSTON_FOSTER_SUCCESS", "BOSTON_FOSTER_FAILURE"),
        ("american", "BOSTON_FOSTER_SUCCESS_AMERICAN", "BOSTON_FOSTER_FAILURE_AMERICAN"),
    ):
        rules = load_rules("boston_foster", {"payments": payments})
        for rung in rules.rungs:
            pay = rules.payment_vector(rung.id)
            if rung.kind == "zero":
                assert pay[0] == ns["BOSTON_FOSTER_MISERE"][rung.id]
                continue
            n = rung.target
            for t in range(14):
                if t >= n:
                    row = ns[succ][n]
                    want = row[t] if isinstance(row, dict) else row
                else:
                    want = -ns[fail][n][n - t]
                assert pay[t] == want, (payments, rung.id, t)
    # ladder: id, name, kind, target, trump, tricks, exposure, in rank order
    rules = load_rules("boston_foster")
    assert [ladder_tuple(r) for r in rules.rungs] == [
        (i, n, k, tg, tr, tk, ex or None)
        for (i, n, k, tg, tr, tk, ex) in ns["BOSTON_FOSTER_LADDER"]
    ]
    assert rules.options["red_in_white"] == ns["BOSTON_RED_IN_WHITE"]
    pool_from = rules.rung(ns["BOSTON_FOSTER_POOL_BID_FROM"]).rank
    assert [r.pool_bid for r in rules.rungs] == [r.rank >= pool_from for r in rules.rungs]


def ladder_tuple(r) -> tuple:
    return (r.id, r.name, r.kind, r.target, r.trump, r.tricks, r.exposed)


# --------------------------------------------------------------------------- Appendix A


def appendix(spec: str) -> dict:
    """Execute the Python literals (and reference functions) of docs/RULES.md Appendix A."""
    body = section(spec, "Appendix A")
    code = re.search(r"```python\n(.*?)```", body, re.DOTALL).group(1)
    ns: dict = {}
    exec(compile(code, "docs/RULES.md Appendix A", "exec"), ns)  # noqa: S102 - the spec's own literals
    return ns


def test_fontainebleau_ladder_and_no_payments(spec: str) -> None:
    ns = appendix(spec)
    rules = load_rules("fontainebleau_foster")
    assert ns["FONTAINEBLEAU_PAYMENTS"] is None
    assert [ladder_tuple(r) for r in rules.rungs] == [
        (i, n, k, tg, tr, tk, ex) for (i, n, k, tg, tr, tk, ex) in ns["FONTAINEBLEAU_LADDER"]
    ]
    # suit order NT > D > H > C > S (appendix lists it low -> high)
    assert list(rules.suit_order) == ns["FONTAINEBLEAU_STRAIN_ORDER"][::-1]
    for r in rules.rungs:
        assert not r.priced
        assert np.all(np.isnan(rules.payment_vector(r.id)))
        assert np.all(np.isnan(rules.net_vector(r.id)))
        s = score(rules, r.id, r.target)
        assert s.net is None and s.per_adversary == [None, None, None]
    # §2.2.2: ranks and names as printed
    (lad,) = md_tables(section(spec, "2.2.2"))
    for row in lad[1:]:
        name = re.search(r"\*\*(.+?)\*\*", row[1]).group(1)
        assert rules.rung(name).rank == int(row[0])


# --------------------------------------------------------------------------- Solo Whist


def _formula(text: str):
    """'+(5 + (t − 8))' -> callable of t; '+15 (t = 0)' -> constant."""
    expr = re.sub(r"\s*\(t = 0\)", "", text).replace("−", "-").strip()
    code = compile(expr, "docs/RULES.md §2.3.5", "eval")
    return lambda t: eval(code, {}, {"t": t})


def test_solo_whist_table(spec: str) -> None:
    rules = load_rules("solo_whist_foster")
    tables = md_tables(section(spec, "2.3.5"))
    tab = next(t for t in tables if t[0][0] == "Call")
    seen = set()
    for call, succ, fail in tab[1:]:
        names = [n.strip() for n in re.sub(r"\(.*\)", "", call).split("/")]
        f_ok, f_bad = _formula(succ), _formula(fail)
        for name in names:
            rung = rules.rung(name)
            seen.add(rung.id)
            pay = rules.payment_vector(rung.id)
            for t in range(14):
                want = f_ok(t) if rung.success(t) else f_bad(t)
                assert pay[t] == want, (rung.id, t)
    assert seen == {r.id for r in rules.rungs}
    # the pair rung: each partner settles with one adversary
    assert rules.rung("proposal").payers == 1 and rules.rung("proposal").side == "pair"


def test_solo_whist_matches_appendix(spec: str) -> None:
    ns = appendix(spec)
    rules = load_rules("solo_whist_foster")
    assert rules.options["red_in_white"] == ns["SOLO_WHIST_RED_IN_WHITE"]
    for rid, name, side, kind, target, trump, leader, exposed, red, odd in ns["SOLO_WHIST_LADDER"]:
        r = rules.rung(rid)
        assert (r.name, r.side, r.kind, r.target, r.trump, r.leader, r.exposed) == (
            name,
            side,
            kind,
            target,
            trump,
            leader,
            exposed,
        )
        assert rules.rung(name).id == rid
        pay = rules.payment_vector(rid)
        for t in range(14):
            assert pay[t] == ns["pay_solo_whist"](red, target, kind, odd, t), (rid, t)
    assert [r.id for r in rules.rungs] == [x[0] for x in ns["SOLO_WHIST_LADDER"]]


# --------------------------------------------------------------------------- modern


def test_modern_amounts(spec: str) -> None:
    body = section(spec, "2.4.4")
    rules = load_rules("boston_modern")
    (tab,) = md_tables(body)
    bids = [first_int(h) for h in tab[0][1:]]
    amounts = [cell_num(c) for c in tab[1][1:]]
    over = int(re.search(r"OVER = (\d+)", body).group(1))
    under = int(re.search(r"UNDER = (\d+)", body).group(1))
    misere = eval(re.search(r"MISERE = (\{.*?\})", body).group(1))
    by_target = {r.target: r for r in rules.rungs if r.kind == "at_least"}
    assert sorted(by_target) == bids
    for n, a in zip(bids, amounts, strict=False):
        pay = rules.payment_vector(by_target[n].id)
        for t in range(14):
            want = a + over * (t - n) if t >= n else -(a + under * (n - t))
            assert pay[t] == want, (n, t)
    for rid, amount in misere.items():
        r = rules.rung(rid)
        pay = rules.payment_vector(rid)
        assert pay[0] == amount and np.all(pay[1 : r.tricks + 1] == -amount)
        assert r.leader == "declarer_left"


def test_modern_matches_appendix(spec: str) -> None:
    ns = appendix(spec)
    rules = load_rules("boston_modern")
    for rid, name, kind, target, trump, tricks, exposed, leader in ns["MODERN_LADDER"]:
        r = rules.rung(rid)
        assert (r.name, r.kind, r.target, r.trump, r.tricks, r.exposed, r.leader) == (
            name,
            kind,
            target,
            trump,
            tricks,
            exposed,
            leader,
        )
    assert [r.id for r in rules.rungs] == [x[0] for x in ns["MODERN_LADDER"]]
    assert list(rules.suit_order) == ns["MODERN_SUIT_ORDER"][::-1]
    lower = load_rules("boston_modern", {"misere_amounts": "lower"})
    # A-32 alternative: the amount of the trick bid each misère beats (7, 8, 10)
    for rid, beats in (("petite_misere", 7), ("grande_misere", 8), ("misere_ouverte", 10)):
        assert lower.payment_vector(rid)[0] == ns["MODERN_AMOUNTS"][beats]


# --------------------------------------------------------------------------- Russian


RUSSIAN_COLUMNS = {  # §2.5.10 column header -> (rung, trump, senior suit)
    "Pair junior": ("pair_junior", None, None),
    "Pair senior": ("pair_senior", None, None),
    "Indep. junior": ("independence", "H", "S"),
    "Indep. senior": ("independence", "S", "S"),
    "Alone junior": ("alone_junior", None, None),
    "Alone senior": ("alone_senior", None, None),
}
RUSSIAN_ROWS = {  # §2.5.10 failure row label -> (rung, trump, senior suit)
    "Pair, junior": ("pair_junior", None, None),
    "Pair, senior": ("pair_senior", None, None),
    "Independence, junior": ("independence", "D", "C"),
    "Independence, senior": ("independence", "C", "C"),
    "Alone, junior": ("alone_junior", None, None),
    "Alone, senior": ("alone_senior", None, None),
}


@pytest.mark.parametrize("multiplier", [1, 2])
def test_russian_corrected_tariff(spec: str, multiplier: int) -> None:
    rules = load_rules("boston_russian", {"round_multiplier": str(multiplier)})
    tables = md_tables(section(spec, "2.5.10"))
    params, succ, fail = tables
    # formula table: N, base, step
    for row in params[1:]:
        label = (
            row[0]
            .replace(",", "")
            .replace("Solo/independence", "Indep.")
            .replace("Alone (unsupported)", "Alone")
        )
        rid, trump, senior = RUSSIAN_COLUMNS[label]
        assert rules.rung(rid).target == int(row[1])
    # success amounts per payer
    header = succ[0]
    checked = 0
    for row in succ[1:]:
        t = first_int(row[0])
        for col, c in zip(header[1:], row[1:], strict=False):
            rid, trump, senior = RUSSIAN_COLUMNS[col]
            v = cell_num(c)
            pay = rules.payment_vector(rid, trump, {"senior": senior} if senior else None)
            if v is None:
                assert t < rules.rung(rid).target
            else:
                assert pay[t] == multiplier * v, (col, t)
                checked += 1
    assert checked == 6 * 5 + 2 * 3 + 6
    # failure: formula in s for t >= 1, fixed amount at t = 0
    for row in fail[1:]:
        rid, trump, senior = RUSSIAN_ROWS[row[0]]
        formula = re.sub(r"\s*\(.*$|\s*\[.*$", "", row[1]).split(":")[-1]
        expr = formula.replace("·", "*").strip()
        zero = first_int(row[2])
        rung = rules.rung(rid)
        pay = rules.payment_vector(rid, trump, {"senior": senior} if senior else None)
        for t in range(1, rung.target):
            s = rung.target - t
            assert pay[t] == -multiplier * eval(expr, {}, {"s": s}), (rid, t)
        assert pay[0] == -multiplier * zero
        m = re.search(r"s = 1 → (\d+)", row[1])
        if m:
            assert pay[rung.target - 1] == -multiplier * int(m.group(1))


def test_russian_matches_appendix(spec: str) -> None:
    ns = appendix(spec)
    rules = load_rules("boston_russian")
    keys = {
        ("pair", "junior"): ("pair_junior", None, None),
        ("pair", "senior"): ("pair_senior", None, None),
        ("indep", "junior"): ("independence", "S", "H"),
        ("indep", "senior"): ("independence", "H", "H"),
        ("alone", "junior"): ("alone_junior", None, None),
        ("alone", "senior"): ("alone_senior", None, None),
    }
    for (kind, suit), (rid, trump, senior) in keys.items():
        for mult in (1, 2):
            rs = rules.with_options({"round_multiplier": mult})
            pay = rs.payment_vector(rid, trump, {"senior": senior} if senior else None)
            for t in range(14):
                assert pay[t] == ns["pay_russian"](kind, suit, t, mult), (rid, t, mult)
    # payers: pairs one opponent each, independence and alone each of three
    for (kind, _), (rid, _, _) in keys.items():
        assert (
            rules.rung(rid).payers
            == {"one_opponent_each": 1, "each_opponent": 3}[
                ns["RUSSIAN_TARIFF"][(kind, "junior")][4]
            ]
        )
    assert rules.boston_bonus["amount"] == ns["RUSSIAN_BOSTON_BONUS"]
    # unpriced rungs
    on = load_rules("boston_russian", {"conditions": "on"})
    unpriced = [r.id for r in on.rungs if not r.priced]
    assert unpriced == ["nine_junior", "nine_senior", "misere"] + [
        c[0] for c in ns["RUSSIAN_OPTIONAL_CONDITIONS"]
    ]
    for rid, kind, target, tricks in ns["RUSSIAN_OPTIONAL_CONDITIONS"]:
        r = on.rung(rid)
        assert (r.kind, r.target, r.tricks) == (kind, target, tricks)
        assert np.all(np.isnan(on.net_vector(rid)))


def seed_name(spec: str, rid: str) -> str:
    """The seed file that the specification's table of rule sets (§0) names for ``rid``."""
    (ids,) = [t for t in md_tables(section(spec, "0. Sources")) if t[0][0].startswith("Id")]
    row = next(r for r in ids[1:] if r[0].startswith(f"`{rid}`"))
    return re.search(r"`([^`]+)`", row[2]).group(1)


SEED_RUSSIAN = SHARED / "seeds" / seed_name(RULES_MD.read_text(encoding="utf-8"), "boston_russian")


def _spec_rubric(spec: str, key: str) -> list[str]:
    """The row of rubric ``key`` (T1..T16) in docs/RULES.md §2.5.9's table."""
    (tab,) = md_tables(section(spec, "2.5.9"))
    return next(r for r in tab if r[0] == key)


def test_russian_as_printed_follows_the_spec(spec: str) -> None:
    """The as-printed tariff keeps what §2.5.9 says was printed, misprints included."""
    printed = load_rules("boston_russian").as_printed
    (tab,) = md_tables(section(spec, "2.5.9"))
    assert [k for k in printed if k.startswith("T")] == [r[0] for r in tab[1:]]
    for row in tab[1:]:
        assert printed[row[0]]["lines"] == row[1].replace("–", "-"), row[0]
    # T1 "for **11 — 7** [sic]", T2 "9 — **18** [sic]" and "11 — **14** [sic]"
    assert re.search(r"\*\*11 — 7\*\* \[sic\]", _spec_rubric(spec, "T1")[3])
    assert printed["T1"]["amounts"]["11"] == 7
    assert re.search(
        r"9 — \*\*18\*\* \[sic\].*11 — \*\*14\*\* \[sic\]", _spec_rubric(spec, "T2")[3]
    )
    assert printed["T2"]["amounts"]["9"] == 18 and printed["T2"]["amounts"]["11"] == 14
    # T4: "for **13** tricks — **64**" [sic: the 12-trick line]; no 12-trick line printed
    assert re.search(r"for \*\*13\*\* tricks — \*\*64\*\*", _spec_rubric(spec, "T4")[3])
    assert printed["T4"]["amounts"]["13"] == 64 and "12" not in printed["T4"]["amounts"]
    # T5: "1 for a short trick — 2. In all **6** chips." ... "All chips — **56**."
    t5 = _spec_rubric(spec, "T5")[3]
    assert re.search(r"1 for a short trick — 2\. In all \*\*6\*\*", t5)
    assert printed["T5"]["lost"] == {"short_trick": 2, "total": 6}
    assert re.search(r"All chips — \*\*56\*\*", t5) and printed["T5"]["slam"]["total"] == 56
    # T14: "for the required 8 tricks — **3** [sic, must be 8]" ... "In all **48**"
    t14 = _spec_rubric(spec, "T14")[3]
    assert re.search(r"— \*\*3\*\* \[sic, must be 8\].*In all \*\*48\*\*", t14)
    assert printed["T14"]["slam"]["required"] == 3 and printed["T14"]["slam"]["total"] == 48
    # the corrected tariff is what scores
    assert load_rules("boston_russian").payment_vector("pair_junior")[11] == 8


# Rubrics with printed amounts -> (rung, senior trump?, round multiplier) of the corrected
# tariff they should match (docs/RULES.md §2.5.10 "Seed rows" column and T13/T14/T15).
AS_PRINTED_RUNGS = {
    "T1": ("pair_junior", False, 1),
    "T2": ("pair_senior", False, 1),
    "T3": ("independence", False, 1),
    "T4": ("independence", True, 1),
    "T9": ("alone_junior", False, 1),
    "T14": ("pair_junior", False, 2),
    "T15": ("pair_senior", False, 2),
}
# Where the printed figures differ from the corrected tariff: exactly the misprints listed
# in A-44 (T1 11 -> 7; T2 9 -> 18 and 11 -> 14; T3 12 -> 30; T4 "13 -> 64" where 12 is
# expected; T14 "3" in the slam line).
A44_MISPRINTS = {
    ("T1", "11"),
    ("T2", "9"),
    ("T2", "11"),
    ("T3", "12"),
    ("T4", "13"),
    ("T14", "slam.required"),
}


def test_russian_as_printed_differs_only_by_the_misprints() -> None:
    rules = load_rules("boston_russian")
    printed = rules.as_printed
    differ = set()
    for key, (rid, senior, mult) in AS_PRINTED_RUNGS.items():
        rs = rules.with_options({"round_multiplier": mult})
        trump, ctx = (
            ("S", {"senior": "S" if senior else "H"}) if rid == "independence" else (None, None)
        )
        pay = rs.payment_vector(rid, trump, ctx)
        n = rs.rung(rid).target
        rub = printed[key]
        lines = rub.get("amounts") or {
            str(n + int(k)): v for k, v in rub["amounts_by_over"].items()
        }
        for t, v in lines.items():
            if pay[int(t)] != v:
                differ.add((key, t))
        slam = rub["slam"]
        if slam["total"] != pay[13]:
            differ.add((key, "slam.total"))
        if slam["required"] != 2 * pay[n]:  # the slam line doubles the base
            differ.add((key, "slam.required"))
        if slam["tricks"] * slam["per_trick"] != slam["subtotal"]:
            differ.add((key, "slam.subtotal"))
        if (
            slam["required"] + slam["subtotal"] != slam["total"]
            and (key, "slam.required") not in differ
        ):
            differ.add((key, "slam.sum"))
    assert differ == A44_MISPRINTS


@pytest.mark.skipif(not SEED_RUSSIAN.is_file(), reason=f"{SEED_RUSSIAN} not beside the checkout")
def test_russian_as_printed_numbers_are_in_the_seed() -> None:
    """Every printed figure kept (and every trick count other than the required eight, which
    is written as a word or implied) is a number on the seed lines its rubric names."""
    seed = SEED_RUSSIAN.read_text(encoding="utf-8").splitlines()
    printed = load_rules("boston_russian").as_printed
    checked = 0
    for key, rub in printed.items():
        if not isinstance(rub, dict):
            continue
        a, _, b = rub["lines"].partition("-")
        text = "\n".join(seed[int(a[1:]) - 1 : int((b or a)[1:])])
        numbers = set(re.findall(r"\d+", text))
        figures = []
        for part in ("amounts", "lost", "slam"):
            # the slam line's trick count is a word ("пять", "восемь", "тринадцать")
            figures += [v for k, v in rub.get(part, {}).items() if k != "tricks"]
        figures += [k for k in rub.get("amounts", {}) if k != "8"]
        figures += list(rub.get("amounts_by_over", {}).values())
        for f in figures:
            assert str(f) in numbers, (key, f)
            checked += 1
    assert checked > 80


def test_no_nan_where_priced() -> None:
    """Every priced rung has a finite amount for every possible trick count."""
    for rid in ("boston_foster", "boston_modern", "solo_whist_foster", "boston_russian"):
        rules = load_rules(rid)
        for r in rules.rungs:
            if not r.priced:
                continue
            pay = rules.payment_vector(
                r.id, "S" if r.trump.startswith("declarer") else None, {"senior": "H"}
            )
            assert all(math.isfinite(x) for x in pay[: r.tricks + 1]), (rid, r.id)
            assert (r.tricks == 13) or math.isnan(pay[13])
