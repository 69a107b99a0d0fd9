"""Validation of a rule-set file's fields: every error names the file and the field.

The loader (:mod:`.loader`) calls these in a fixed order, so a broken file always reports
the same first error. Amounts are checked unsigned (received on success, paid on failure).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from .model import MAX_TRICKS, PAYMENT_TYPES, OptionSpec, Rung, normalize_name

# Options the code itself interprets, by name: the values it knows. A rule-set file that
# declares one of these must offer only these values (any subset), or a number >= the bound.
KNOWN_CHOICES = {
    "slam_failure": ("played_out", "one_trick", "tricks_before_first_loss"),
    "boston_card_mode": ("trump", "own_suit_top", "off"),
    "boston_bonus": ("any_holder", "declarer_only"),
}
NUMBER_MIN = {"pool": 0}  # a pool is won on success and paid on failure: never < 0
# A probability the code reads by name: the share of purchases a partner supports (§3.5).
PROBABILITY_OPTIONS = ("purchase_support",)
_OPTION_FIELDS = ("default", "choices", "type", "min", "max", "unsupported", "help")

# Fields of a payment record, by type (``reason``: why it is so; ``senior``: the tariff
# when the declarer's chosen trump is the senior suit, A-43).
_PAYMENT_KEYS = {
    "none": {"type", "reason"},
    "table": {"type", "reason", "success", "failure", "senior"},
    "flat": {"type", "reason", "amount", "amount_red", "table", "senior"},
    "linear": {
        "type",
        "reason",
        "base",
        "base_red",
        "over",
        "under",
        "fail_extra",
        "slam_double",
        "zero_double_tricks",
        "senior",
    },
}
# Amounts are written without sign: what a success receives and a failure pays.
_UNSIGNED = " >= 0 (unsigned: received on success, paid on failure)"
_TYPE_NAMES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "list": "a list",
    "dict": "a table",
    "bool": "true/false",
}


class Checker:
    """Builds error messages that name the file (``label``) and the field."""

    def __init__(self, label: str) -> None:
        self.label = label

    def fail(self, fld: str, msg: str) -> RulesError:
        return RulesError(f"{self.label}: {fld}: {msg}")

    def need(self, d: Mapping[str, Any], key: str, typ: type | tuple[type, ...], where: str) -> Any:
        if key not in d:
            raise self.fail(f"{where}{key}", "missing")
        v = d[key]
        if not isinstance(v, typ) or (isinstance(v, bool) and bool not in _as_tuple(typ)):
            raise self.fail(f"{where}{key}", f"expected {_type_name(typ)}, got {v!r}")
        return v


def _as_tuple(t: type | tuple[type, ...]) -> tuple[type, ...]:
    return t if isinstance(t, tuple) else (t,)


def _type_name(t: type | tuple[type, ...]) -> str:
    return " or ".join(_TYPE_NAMES.get(x.__name__, x.__name__) for x in _as_tuple(t))


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _amount(v: Any) -> bool:
    return is_number(v) and v >= 0


# --------------------------------------------------------------------------- options


def parse_options(raw: Any, ck: Checker) -> dict[str, OptionSpec]:
    """The ``[options.*]`` tables: each a list of choices or a number, with its default."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ck.fail("options", "expected a table of options")
    return {name: _parse_option(name, o, ck) for name, o in raw.items()}


def _parse_option(name: str, o: Any, ck: Checker) -> OptionSpec:
    where = f"options.{name}."
    if not isinstance(o, dict):
        raise ck.fail(f"options.{name}", "expected a table with default and choices or type")
    for key in o:
        if key not in _OPTION_FIELDS:
            raise ck.fail(f"{where}{key}", "unknown field")
    if "default" not in o:
        raise ck.fail(f"{where}default", "missing")
    help_text = o.get("help", "")
    if not isinstance(help_text, str):
        raise ck.fail(f"{where}help", f"expected a string, got {help_text!r}")
    unsupported = o.get("unsupported", {})
    if not isinstance(unsupported, dict) or any(
        not isinstance(v, str) for v in unsupported.values()
    ):
        raise ck.fail(f"{where}unsupported", "expected a table value -> reason (a string)")
    if "choices" in o:
        spec = _choice_option(name, o, unsupported, help_text, ck)
    elif o.get("type") == "number":
        spec = _number_option(name, o, unsupported, help_text, ck)
    elif "type" in o:
        raise ck.fail(f"{where}type", f'{o["type"]!r} is not "number" (or give choices)')
    else:
        raise ck.fail(f"{where}choices", 'missing (or give type = "number")')
    _check_known_option(spec, ck)
    try:
        default = spec.coerce(o["default"])
    except RulesError as e:
        raise ck.fail(f"{where}default", str(e)) from None
    return OptionSpec(
        name, default, spec.choices, spec.minimum, spec.maximum, spec.unsupported, spec.help
    )


def _choice_option(
    name: str, o: dict[str, Any], unsupported: dict[str, str], help_text: str, ck: Checker
) -> OptionSpec:
    where = f"options.{name}."
    ch = o["choices"]
    if (
        not isinstance(ch, list)
        or not ch
        or any(isinstance(c, (dict, list)) for c in ch)
        or len({str(c).lower() for c in ch}) != len(ch)
    ):
        raise ck.fail(f"{where}choices", "expected a non-empty list of distinct values")
    for key in ("type", "min", "max"):
        if key in o:
            raise ck.fail(f"{where}{key}", "not allowed with choices")
    for k in unsupported:
        if k not in {str(c) for c in ch}:
            raise ck.fail(f"{where}unsupported.{k}", "not one of the choices")
    return OptionSpec(name, None, tuple(ch), unsupported=unsupported, help=help_text)


def _number_option(
    name: str, o: dict[str, Any], unsupported: dict[str, str], help_text: str, ck: Checker
) -> OptionSpec:
    where = f"options.{name}."
    bounds = {}
    for key in ("min", "max"):
        v = o.get(key)
        if v is not None and not is_number(v):
            raise ck.fail(f"{where}{key}", f"expected a number, got {v!r}")
        bounds[key] = v
    lo, hi = bounds["min"], bounds["max"]
    if lo is not None and hi is not None and lo > hi:
        raise ck.fail(f"{where}max", f"{hi!r} is below min")
    if unsupported:
        raise ck.fail(f"{where}unsupported", "only options with choices have one")
    return OptionSpec(
        name, None, None, bounds["min"], bounds["max"], unsupported={}, help=help_text
    )


def _check_known_option(spec: OptionSpec, ck: Checker) -> None:
    """An option the code interprets by name offers only values the code knows."""
    name, where = spec.name, f"options.{spec.name}."
    if name in KNOWN_CHOICES and (
        spec.choices is None or not set(map(str, spec.choices)) <= set(KNOWN_CHOICES[name])
    ):
        raise ck.fail(f"{where}choices", f"expected choices among {', '.join(KNOWN_CHOICES[name])}")
    if name in NUMBER_MIN and (
        spec.choices is not None or spec.minimum is None or spec.minimum < NUMBER_MIN[name]
    ):
        raise ck.fail(f"{where}min", f'expected type = "number" with min >= {NUMBER_MIN[name]}')
    if name in PROBABILITY_OPTIONS and (
        spec.choices is not None
        or spec.minimum is None
        or spec.maximum is None
        or spec.minimum < 0
        or spec.maximum > 1
    ):
        raise ck.fail(f"{where}min", 'expected type = "number" with 0 <= min and max <= 1')


def positive_option(spec: OptionSpec) -> bool:
    """Whether every value the option can take is a positive number."""
    if spec.choices is not None:
        return all(is_number(c) and c > 0 for c in spec.choices)
    return spec.minimum is not None and spec.minimum > 0


def resolve_value(
    v: Any, options: Mapping[str, Any], specs: Mapping[str, OptionSpec], ck: Checker, fld: str
) -> Any:
    """A field may be ``{option = "name", value1 = x, value2 = y}``: pick by the option."""
    if isinstance(v, dict) and "option" in v:
        name = v["option"]
        if not isinstance(name, str) or name not in specs:
            raise ck.fail(fld, f"refers to undeclared option {name!r}")
        spec = specs[name]
        if spec.choices is None:
            raise ck.fail(fld, f"option {name!r} has no choices to select by")
        for c in spec.choices:
            if str(c) not in v:
                raise ck.fail(f"{fld}.{c}", f"missing (a value for {name}={c})")
        # the chosen value may itself select by another option (A-06: a table option whose
        # default follows ``payments``)
        return resolve_value(v[str(options[name])], options, specs, ck, f"{fld}.{options[name]}")
    if isinstance(v, dict):
        return {k: resolve_value(x, options, specs, ck, f"{fld}.{k}") for k, x in v.items()}
    return v


def option_refs(v: Any) -> set[str]:
    """Names of the options a (possibly nested) field selects by."""
    if not isinstance(v, dict):
        return set()
    refs = {v["option"]} if isinstance(v.get("option"), str) else set()
    for x in v.values():
        refs |= option_refs(x)
    return refs


def str_list(raw: Mapping[str, Any], key: str, ck: Checker) -> tuple[str, ...]:
    """An optional list of distinct non-empty strings."""
    v = raw.get(key, [])
    if (
        not isinstance(v, list)
        or any(not isinstance(x, str) or not x.strip() for x in v)
        or len(set(v)) != len(v)
    ):
        raise ck.fail(key, f"expected a list of distinct names, got {v!r}")
    return tuple(v)


# --------------------------------------------------------------------------- the ladder


def lookup_table(rungs: list[Rung], ck: Checker) -> dict[str, str]:
    """Normalised id / name / alias -> rung id; a name may name one rung only."""
    lookup: dict[str, str] = {}
    for r in rungs:
        for key in (r.id, r.name, *r.aliases):
            nk = normalize_name(key)
            if not nk:
                raise ck.fail(f"rungs[{r.id}].aliases", f"name {key!r} has no letters or digits")
            if lookup.get(nk, r.id) != r.id:
                raise ck.fail(f"rungs[{r.id}].aliases", f"name {key!r} also names {lookup[nk]!r}")
            lookup[nk] = r.id
    return lookup


def check_unique_ids(rungs: list[Rung], ck: Checker) -> None:
    ids = [r.id for r in rungs]
    dup = {x for x in ids if ids.count(x) > 1}
    if dup:
        raise ck.fail("rungs.id", f"duplicate id {min(dup)!r}")


def check_outcomes(rungs: list[Rung], ck: Checker) -> None:
    """A bid's other outcome (``outcome_of``) is listed just after that bid, which is a bid."""
    for i, r in enumerate(rungs):
        if r.outcome_of is None:
            continue
        prev = rungs[i - 1] if i else None
        if prev is None or prev.id != r.outcome_of or prev.outcome_of is not None:
            raise ck.fail(
                f"rungs[{r.id}].outcome_of",
                f"{r.outcome_of!r} must be the bid listed just before it",
            )


def check_rank_order(rungs: list[Rung], ck: Checker) -> None:
    """The listed order (lowest first) must agree with what the ladder data says about it.

    * Trick rungs of each side (alone, pair) must not get easier as the ladder rises.
    * Every rung placed between trick bids (kind ``zero`` or ``exactly``: misères,
      spreads, Piccolissimo) names in ``above`` the rung it ranks immediately above, as the
      source places it (docs/RULES.md §2.1.3, §2.1.4 "each misère-type rung sits between two
      numbers"; §2.2.2; §2.3.2; §2.4.2 with A-31; §2.5.4 with A-51), and that rung must be
      the one listed just before it. Any rung may carry ``above``; it is checked the same.
    """
    last: dict[str, Rung] = {}
    for i, r in enumerate(rungs):
        if r.kind == "at_least":
            _check_not_easier(r, last.get(r.side), ck)
            last[r.side] = r
        _check_above(r, rungs[i - 1].id if i else None, rungs, ck)


def _check_not_easier(r: Rung, prev: Rung | None, ck: Checker) -> None:
    if prev is not None and r.target < prev.target:
        raise ck.fail(
            f"rungs[{r.id}].rank",
            f"wrong rank order: {r.id} (target {r.target}) ranks above "
            f"{prev.id} (target {prev.target})",
        )


def _check_above(r: Rung, below: str | None, rungs: list[Rung], ck: Checker) -> None:
    """``r.above`` names the rung listed just before ``r`` (``below``)."""
    if r.above is None:
        if r.kind != "at_least" and below is not None:
            raise ck.fail(
                f"rungs[{r.id}].above",
                f"missing: a {r.kind!r} rung names the rung it ranks immediately above "
                f"(here {below!r})",
            )
        return
    if r.above != below:
        if all(x.id != r.above for x in rungs):
            raise ck.fail(f"rungs[{r.id}].above", f"{r.above!r} is no rung of this ladder")
        where = f"listed above {below!r}" if below else "listed lowest"
        raise ck.fail(
            f"rungs[{r.id}].above",
            f"wrong rank order: {r.id} ranks immediately above {r.above!r} but is {where}",
        )


# --------------------------------------------------------------------------- payments


def check_payment(
    p: dict[str, Any],
    kind: str,
    target: int,
    rid: str,
    where: str,
    ck: Checker,
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
) -> bool:
    """Validate one payment record; return whether the rung is priced."""
    typ = p.get("type")
    if typ not in PAYMENT_TYPES:
        raise ck.fail(f"{where}type", f"{typ!r} is not one of {', '.join(PAYMENT_TYPES)}")
    for key in p:
        if key not in _PAYMENT_KEYS[typ]:
            raise ck.fail(f"{where}{key}", f"unknown field for payment type {typ!r}")
    if not isinstance(p.get("reason", ""), str):
        raise ck.fail(f"{where}reason", "expected a string")
    if typ == "none":
        return False
    if ("base_red" in p or "amount_red" in p) and "red_in_white" not in options:
        raise ck.fail(f"{where}base_red", "red amounts need the option red_in_white")
    if typ == "table":
        if kind != "at_least":
            raise ck.fail(f"{where}type", "tables by tricks apply to at_least rungs only")
        for key in ("success", "failure"):
            _check_table_row(p, key, target, rid, where, ck, tables)
    elif typ == "flat":
        _check_flat(p, rid, where, ck, tables)
    else:
        _check_linear(p, kind, where, ck)
    return True


def _check_table_row(
    p: dict[str, Any],
    key: str,
    target: int,
    rid: str,
    where: str,
    ck: Checker,
    tables: Mapping[str, Any],
) -> None:
    """The row for ``target`` tricks of the success or failure table ``p[key]``."""
    tname = p.get(key)
    if not isinstance(tname, str):
        raise ck.fail(f"{where}{key}", "missing (name of a [tables.*] table)")
    if tname not in tables:
        raise ck.fail(f"tables.{tname}", f"missing (used by {rid})")
    row = tables[tname].get(str(target))
    fld = f"tables.{tname}.{target}"
    if row is None:
        raise ck.fail(fld, f"missing row for {target} tricks (used by {rid})")
    if key == "success":
        if isinstance(row, list):
            if len(row) != MAX_TRICKS + 1 - target:
                raise ck.fail(
                    fld,
                    f"expected {MAX_TRICKS + 1 - target} amounts "
                    f"(t = {target}..13), got {len(row)}",
                )
        elif not _amount(row):
            raise ck.fail(fld, f"expected an amount or a list of amounts{_UNSIGNED}")
    elif not isinstance(row, list) or len(row) != target:
        n = len(row) if isinstance(row, list) else "no list"
        raise ck.fail(fld, f"expected {target} amounts (1..{target} tricks short), got {n}")
    for j, v in enumerate(row if isinstance(row, list) else [row]):
        if not _amount(v):
            raise ck.fail(f"{fld}[{j}]", f"expected an amount{_UNSIGNED}, got {v!r}")


def _check_flat(
    p: dict[str, Any], rid: str, where: str, ck: Checker, tables: Mapping[str, Any]
) -> None:
    if "amount_red" in p:
        ok = _amount(p["amount_red"])
    elif "table" in p:
        if not isinstance(p["table"], str):
            raise ck.fail(f"{where}table", "expected the name of a [tables.*] table")
        t = tables.get(p["table"])
        if t is None:
            raise ck.fail(f"tables.{p['table']}", f"missing (used by {rid})")
        if rid not in t:
            raise ck.fail(f"tables.{p['table']}.{rid}", "missing")
        ok = _amount(t[rid])
    else:
        ok = _amount(p.get("amount"))
    if not ok:
        raise ck.fail(f"{where}amount", f"missing or not an amount{_UNSIGNED}")


def _check_linear(p: dict[str, Any], kind: str, where: str, ck: Checker) -> None:
    if not _amount(p.get("base", p.get("base_red"))):
        raise ck.fail(f"{where}base", f"missing or not an amount{_UNSIGNED}")
    for key in ("over", "under", "fail_extra"):
        if key in p and not _amount(p[key]):
            raise ck.fail(f"{where}{key}", f"expected an amount{_UNSIGNED}, got {p[key]!r}")
    if "slam_double" in p and not isinstance(p["slam_double"], bool):
        raise ck.fail(f"{where}slam_double", f"expected true/false, got {p['slam_double']!r}")
    if kind != "at_least" and (p.get("over") or p.get("under")):
        raise ck.fail(f"{where}over", f"no over/under-tricks in a {kind!r} contract")
    zd = p.get("zero_double_tricks")
    if zd is not None and (
        not isinstance(zd, int) or isinstance(zd, bool) or not 0 <= zd <= MAX_TRICKS
    ):
        raise ck.fail(f"{where}zero_double_tricks", f"expected an integer 0..13, got {zd!r}")
