"""Rule-set files -> :class:`RuleSet`: find a built-in id or a user's path, read the TOML,
resolve the options, validate every field (:mod:`.checks`) and build the ladder.

A rule-set file holds the ladder (one ``[[rungs]]`` record per call, lowest first), named
options with their defaults, and the payment tables, all transcribed from docs/RULES.md.
A field may select its value by an option (``{option = "name", value1 = x, ...}``).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import RulesError
from . import checks
from .checks import Checker
from .model import (
    ADVERSARIES,
    ALL_PASS_MODELS,
    DISCARDS,
    EXPOSURES,
    KINDS,
    LEADERS,
    PARTOUT_RULES,
    SIDES,
    STRAIN_LETTERS,
    SUIT_RULES,
    TRICKS_BY_DISCARD,
    TRUMP_RULES,
    OptionSpec,
    Rung,
)
from .ruleset import RuleSet

# The built-in rule sets: in an installed wheel, the package data boston_sim/rules_data
# (pyproject.toml maps data/rules there); in a source checkout or editable install, data/rules.
_PACKAGE = Path(__file__).resolve().parent.parent
_PACKAGED_DATA = _PACKAGE / "rules_data"
DATA_DIR = _PACKAGED_DATA if _PACKAGED_DATA.is_dir() else _PACKAGE.parent / "data" / "rules"
_READ_CACHE_SIZE = 64  # parsed files kept (built-ins and a user's few)
BOM = "\ufeff"
# Any number in a rule file or option: far beyond every real tariff, far below where sums of
# payments over a ladder could overflow to an infinite EV.
MAX_RULE_NUMBER = 1e9
MAX_RULE_DEPTH = 32  # tables within tables: the built-in files use 4
MAX_OPTION_CHARS = 100

_RUNG_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_A_NUMBER = re.compile(r"^A-\d\d$")

# Fields of a rung record; required unless a default exists (here or in [rung_defaults]).
_RUNG_FIELD_DEFAULTS: dict[str, Any] = {
    "aliases": [],
    "discard": "none",
    "exposed": "none",
    "stop_early": False,
    "pool_bid": False,
    "pool_double": False,
    "slam_failure": False,
    "analysis_priced": True,
    "note": "",
}
_RUNG_REQUIRED = ("id", "name", "kind", "target", "trump", "leader", "side", "payers", "payment")
_RUNG_FLAGS = ("stop_early", "pool_bid", "pool_double", "slam_failure", "analysis_priced")
_TOP_KNOWN = {
    "id",
    "name",
    "source",
    "unit",
    "interpretations",
    "suit_rule",
    "suit_order",
    "suit_classes",
    "partout",
    "options",
    "rung_defaults",
    "rungs",
    "tables",
    "multiplier_option",
    "boston_card_bonus",
    "as_printed",
    "notes",
    "all_pass",
}
_HEADER = ("id", "name", "source", "unit")
_RUNG_KNOWN = (
    set(_RUNG_REQUIRED)
    | set(_RUNG_FIELD_DEFAULTS)
    | {"rank", "optional", "tricks", "above", "outcome_of"}
)
_ALL_PASS_KNOWN = {"game", "note", "value", "option", "negate", "model", "model_option"}
# Values of an ``optional`` rung's option that leave the rung out of the ladder.
_OFF = ("off", "False", "false", "0")


# --------------------------------------------------------------------------- public functions


def list_rules() -> list[str]:
    """Ids of the built-in rule sets (files in ``data/rules``)."""
    return sorted(p.stem for p in DATA_DIR.glob("*.toml"))


def load_rules(name_or_path: str | Path, options: Mapping[str, Any] | None = None) -> RuleSet:
    """Load a built-in rule set by id, or a user's TOML file by path, with options.

    Options are ``{name: value}``; values may be strings (as from the CLI) and are coerced.
    An unknown rule set, a broken file, an unknown option or a bad value raises
    :class:`RulesError` naming the file and the field (or the option and allowed values).
    """
    if not isinstance(name_or_path, (str, Path)):
        raise RulesError(f"a rule set is an id or a path, got {type(name_or_path).__name__}")
    if options is not None and not isinstance(options, Mapping):
        raise RulesError(f"options are a mapping of name to value, got "
                         f"{type(options).__name__}")
    try:
        path = _resolve_path(name_or_path)
        st = path.stat()
    except OSError as e:  # a name too long for the file system, a path through a file
        raise RulesError(f"cannot read rule set {str(name_or_path)[:MAX_OPTION_CHARS]!r}: "
                         f"{e.strerror}") from None
    raw = _read_file(str(path), st.st_mtime_ns, st.st_size)
    return _build(raw, path, dict(options or {}))


# --------------------------------------------------------------------------- finding and reading


def _resolve_path(name_or_path: str | Path) -> Path:
    if isinstance(name_or_path, Path):
        p = name_or_path
    else:
        text = str(name_or_path).strip()
        if not text:
            raise RulesError("empty rule-set name")
        looks_like_path = text.endswith(".toml") or "/" in text or "\\" in text
        if not looks_like_path:
            return _resolve_name(text)
        p = Path(text).expanduser()
    if not p.is_file():
        raise RulesError(f"rule-set file not found: {p}")
    return p


def _resolve_name(text: str) -> Path:
    """A built-in id first; otherwise an existing file of that name (e.g. "my_rules")."""
    p = DATA_DIR / f"{text}.toml"
    if p.is_file():
        return p
    if Path(text).is_file():
        return Path(text)
    raise RulesError(
        f"unknown rule set {text!r} (built-in: {', '.join(list_rules())}; "
        "or give the path of a rule-set file)"
    )


@functools.lru_cache(maxsize=_READ_CACHE_SIZE)
def _read_file(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    """The parsed file. Its size and modification time are in the cache key so that an
    edited file is read again."""
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError(
            f"{path}: not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start}); "
            "save the file as UTF-8"
        ) from None
    text = text.removeprefix(BOM)  # editors on Windows save one; TOML itself has none
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise RulesError(f"{path}: nested deeper than Python can read") from None
    _check_numbers(raw, path, "", 0)
    return raw


def _check_numbers(value: Any, path: str, where: str, depth: int) -> None:
    """Every number of a rule file within +-:data:`MAX_RULE_NUMBER` (a larger amount breaks
    the expected values: an infinite EV cannot be written as JSON), nesting within
    :data:`MAX_RULE_DEPTH`."""
    if depth > MAX_RULE_DEPTH:
        raise RulesError(f"{path}: {where or 'the file'} is nested deeper than "
                         f"{MAX_RULE_DEPTH} levels")
    if isinstance(value, dict):
        for k, v in value.items():
            _check_numbers(v, path, f"{where}.{k}" if where else str(k), depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_numbers(v, path, f"{where}[{i}]", depth + 1)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if value != value:  # nan
            raise RulesError(f"{path}: {where} is not a number (nan)")
        if not abs(value) <= MAX_RULE_NUMBER:
            raise RulesError(f"{path}: {where} is beyond the limit of "
                             f"+-{MAX_RULE_NUMBER:g} for any number in a rule set")


# --------------------------------------------------------------------------- the rule set


def _build(raw: dict[str, Any], path: Path, given: dict[str, Any]) -> RuleSet:
    """The rule set of a parsed file under the ``given`` options; checks run in file order,
    so a broken file always reports the same first error."""
    ck = Checker(path.name if path.parent == DATA_DIR else str(path))
    rid, name, source, unit, interps = _header(raw, ck)
    specs = checks.parse_options(raw.get("options"), ck)
    options = _resolve_options(specs, given, rid)
    suit_rule, suit_order, suit_classes = _suits(raw, ck)
    multiplier_option = _multiplier_option(raw, specs, ck)
    bonus = _boston_bonus(raw, ck)
    partout = _partout(raw, specs, ck)
    all_pass = _all_pass(raw, specs, ck)
    _all_pass_model(all_pass, specs, partout, ck)
    as_printed = raw.get("as_printed")
    if as_printed is not None and not isinstance(as_printed, dict):
        raise ck.fail("as_printed", "expected a table")
    for key in _HEADER:
        if not raw[key].strip():
            raise ck.fail(key, "empty")
    tables = raw.get("tables", {})
    if not isinstance(tables, dict) or any(not isinstance(t, dict) for t in tables.values()):
        raise ck.fail("tables", "expected tables of rows")
    rungs = _ladder(raw, ck, specs, tables, options)
    return RuleSet(
        id=rid,
        name=name,
        source=source,
        unit=unit,
        path=path,
        options=options,
        option_specs=specs,
        interpretations=tuple(interps),
        suit_rule=suit_rule,
        suit_order=suit_order,
        suit_classes=suit_classes,
        rungs=rungs,
        tables=tables,
        multiplier_option=multiplier_option,
        boston_bonus=bonus,
        partout=partout,
        all_pass=all_pass,
        as_printed=as_printed,
        _lookup=checks.lookup_table(rungs, ck),
    )


def _header(raw: dict[str, Any], ck: Checker) -> tuple[str, str, str, str, list[Any]]:
    """No unknown top-level field; id, name, source, unit and the A-numbers relied on."""
    for key in raw:
        if key not in _TOP_KNOWN:
            raise ck.fail(key, "unknown field")
    rid, name, source, unit = (ck.need(raw, key, str, "") for key in _HEADER)
    interps = ck.need(raw, "interpretations", list, "")
    for a in interps:
        if not isinstance(a, str) or not _A_NUMBER.match(a):
            raise ck.fail("interpretations", f"{a!r} is not an A-number like 'A-07'")
    return rid, name, source, unit, interps


def _resolve_options(
    specs: Mapping[str, OptionSpec], given: Mapping[str, Any], rid: str
) -> dict[str, Any]:
    """Every option's value: its default, or the coerced value the caller gave."""
    options: dict[str, Any] = {k: s.default for k, s in specs.items()}
    for k, v in given.items():
        if k not in specs:
            allowed = ", ".join(specs) or "none"
            raise RulesError(f"unknown option {k!r} for {rid} (options: {allowed})")
        if isinstance(v, str) and len(v) > MAX_OPTION_CHARS:
            raise RulesError(f"option {k}: the value is longer than {MAX_OPTION_CHARS} "
                             "characters")
        options[k] = specs[k].coerce(v)
        value = options[k]
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not (
                abs(value) <= MAX_RULE_NUMBER):
            what = ("is not a number" if value != value else
                    f"is beyond the limit of +-{MAX_RULE_NUMBER:g} for any number in a rule set")
            raise RulesError(f"option {k}={v} {what}")
    return options


def _suits(raw: dict[str, Any], ck: Checker) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """How trump suits rank at equal numbers: the rule, a fixed order or the classes."""
    suit_rule = raw.get("suit_rule", "fixed" if "suit_order" in raw else "preference")
    if suit_rule not in SUIT_RULES:
        raise ck.fail("suit_rule", f"{suit_rule!r} is not one of {', '.join(SUIT_RULES)}")
    suit_order = checks.str_list(raw, "suit_order", ck)
    if suit_rule == "fixed" and (
        not suit_order or any(s not in STRAIN_LETTERS for s in suit_order)
    ):
        raise ck.fail("suit_order", "expected distinct strain letters S, H, D, C, NT, high -> low")
    suit_classes = checks.str_list(raw, "suit_classes", ck)
    if suit_rule != "fixed" and not suit_classes:
        raise ck.fail("suit_classes", f"missing (needed by suit_rule {suit_rule!r})")
    return suit_rule, suit_order, suit_classes


def _multiplier_option(
    raw: dict[str, Any], specs: Mapping[str, OptionSpec], ck: Checker
) -> str | None:
    """The option (if any) whose value multiplies every amount (A-63)."""
    multiplier_option = raw.get("multiplier_option")
    if multiplier_option is not None:
        if not isinstance(multiplier_option, str) or multiplier_option not in specs:
            raise ck.fail("multiplier_option", f"refers to undeclared option {multiplier_option!r}")
        if not checks.positive_option(specs[multiplier_option]):
            raise ck.fail(
                f"options.{multiplier_option}",
                "a multiplier must be a positive number (choices > 0, or min > 0)",
            )
    return multiplier_option


def _boston_bonus(raw: dict[str, Any], ck: Checker) -> Any:
    bonus = raw.get("boston_card_bonus")
    if bonus is not None and (
        not isinstance(bonus, dict)
        or set(bonus) != {"amount"}
        or not checks.is_number(bonus["amount"])
        or bonus["amount"] < 0
    ):
        raise ck.fail("boston_card_bonus", "expected { amount = a number >= 0 }")
    return bonus


def _partout(raw: dict[str, Any], specs: Mapping[str, OptionSpec], ck: Checker) -> bool:
    """Whether the rule set has classic Boston's all-pass game, settled in red counters."""
    partout_rule = raw.get("partout", "none")
    if partout_rule not in PARTOUT_RULES:
        raise ck.fail(
            "partout", f"{partout_rule!r} is not one of {', '.join(map(repr, PARTOUT_RULES))}"
        )
    partout = partout_rule == "red_counters"
    if partout and "red_in_white" not in specs:
        # red counters are converted at the rule set's red/white ratio
        raise ck.fail("partout", "red counters need the option red_in_white")
    if "red_in_white" in specs and not checks.positive_option(specs["red_in_white"]):
        raise ck.fail(
            "options.red_in_white", "a red/white ratio must be a positive number (min > 0)"
        )
    return partout


def _all_pass(raw: dict[str, Any], specs: Mapping[str, OptionSpec], ck: Checker) -> Any:
    """What passing is worth: the all-pass game (``game``, and ``note``: what the estimator
    leaves out of it) and the declarer's net when everybody passes, a fixed ``value`` or the
    value of a number ``option`` (``negate``: the option is a fine paid, A-35)."""
    ap = raw.get("all_pass")
    if ap is None:
        return None
    if not isinstance(ap, dict):
        raise ck.fail("all_pass", "expected a table")
    for key in ap:
        if key not in _ALL_PASS_KNOWN:
            raise ck.fail(f"all_pass.{key}", "unknown field")
    for key in ("game", "note"):
        if key in ap and not isinstance(ap[key], str):
            raise ck.fail(f"all_pass.{key}", f"expected a string, got {ap[key]!r}")
    if ("value" in ap) == ("option" in ap):
        raise ck.fail("all_pass", "give either value (a number) or option (a number option)")
    if "value" in ap and not checks.is_number(ap["value"]):
        raise ck.fail("all_pass.value", f"expected a number, got {ap['value']!r}")
    opt = ap.get("option")
    if opt is not None and (
        not isinstance(opt, str) or opt not in specs or specs[opt].choices is not None
    ):
        raise ck.fail("all_pass.option", f"{opt!r} is not a declared number option")
    if not isinstance(ap.get("negate", False), bool):
        raise ck.fail("all_pass.negate", f"expected true/false, got {ap['negate']!r}")
    return ap


def _all_pass_model(ap: Any, specs: Mapping[str, OptionSpec], partout: bool,
                    ck: Checker) -> None:
    """The all-pass game that values a pass: a fixed ``model``, or ``model_option`` naming a
    choice option whose choices are models; a simulated game needs its payments (the misère
    partout rule, red counters)."""
    if ap is None:
        return
    if "model" in ap and "model_option" in ap:
        raise ck.fail("all_pass", "give model or model_option, not both")
    models: list[Any] = [ap.get("model", "none")]
    if "model_option" in ap:
        opt = ap["model_option"]
        spec = specs.get(opt) if isinstance(opt, str) else None
        if spec is None or spec.choices is None:
            raise ck.fail("all_pass.model_option", f"{opt!r} is not a declared choice option")
        models = list(spec.choices)
    for m in models:
        if m not in ALL_PASS_MODELS:
            raise ck.fail("all_pass.model",
                          f"{m!r} is not one of {', '.join(map(repr, ALL_PASS_MODELS))}")
    if "misere_partout" in models and not partout:
        raise ck.fail("all_pass.model", 'misere_partout needs partout = "red_counters"')
    if "grand" in models and "red_in_white" not in specs:
        raise ck.fail("all_pass.model", "grand needs the option red_in_white")


# --------------------------------------------------------------------------- the ladder


def _ladder(
    raw: dict[str, Any],
    ck: Checker,
    specs: Mapping[str, OptionSpec],
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
) -> list[Rung]:
    """The rungs under these options, lowest first; every record (optional ones left out
    by the options included) is built and checked the same."""
    defaults = raw.get("rung_defaults", {})
    if not isinstance(defaults, dict):
        raise ck.fail("rung_defaults", "expected a table")
    raw_rungs = raw.get("rungs")
    if not isinstance(raw_rungs, list) or not raw_rungs:
        raise ck.fail("rungs", "missing or empty (need a [[rungs]] record per call)")
    rungs: list[Rung] = []  # the ladder under these options
    every: list[Rung] = []  # every record, optional ones included
    for i, rr in enumerate(raw_rungs):
        if not isinstance(rr, dict):
            raise ck.fail(f"rungs[{i}]", "expected a table")
        rec = {**_RUNG_FIELD_DEFAULTS, **defaults, **rr}
        where = f"rungs[{rr.get('id', i)}]."
        for k in rec:
            if k not in _RUNG_KNOWN:
                raise ck.fail(f"{where}{k}", "unknown field")
        included = _included(rec, where, ck, specs, options)
        # a bid's other outcome shares its rank (the bid's, listed just before)
        rank = rungs[-1].rank if rec.get("outcome_of") and rungs else _bids(rungs) + 1
        rung = _rung_in_every_variant(rec, rank, i + 1, where, ck, specs, tables, options)
        every.append(rung)
        if included:
            rungs.append(rung)
    for ladder in (every, rungs):
        checks.check_unique_ids(ladder, ck)
        checks.check_outcomes(ladder, ck)
        checks.check_rank_order(ladder, ck)
        checks.lookup_table(ladder, ck)
    return rungs


def _bids(rungs: list[Rung]) -> int:
    """How many bids (not a bid's other outcome) a ladder holds."""
    return sum(r.outcome_of is None for r in rungs)


def _included(
    rec: dict[str, Any],
    where: str,
    ck: Checker,
    specs: Mapping[str, OptionSpec],
    options: Mapping[str, Any],
) -> bool:
    """Whether the options in force keep an ``optional`` rung in the ladder."""
    optional = rec.get("optional")
    if optional is None:
        return True
    if not isinstance(optional, str) or optional not in specs:
        raise ck.fail(f"{where}optional", f"refers to undeclared option {optional!r}")
    return str(options[optional]) not in _OFF


def _rung_in_every_variant(
    rec: dict[str, Any],
    rank: int,
    position: int,
    where: str,
    ck: Checker,
    specs: Mapping[str, OptionSpec],
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
) -> Rung:
    """The rung under the options in force, built once more under every other value of each
    option one of its fields depends on: so a mistake in a field used only by a non-default
    option, or in a rung left out by default, is found too."""
    refs = set().union(*(checks.option_refs(v) for v in rec.values()))
    variants = [options] + [
        {**options, o: c} for o in sorted(refs & set(specs)) for c in specs[o].choices or ()
    ]
    built = []
    for alt in variants:
        alt_rec = {
            k: checks.resolve_value(v, alt, specs, ck, f"{where}{k}") for k, v in rec.items()
        }
        built.append(_build_rung(alt_rec, rank, position, where, ck, specs, tables, alt))
    return built[0]


def _build_rung(
    rec: dict[str, Any],
    rank: int,
    position: int,
    where: str,
    ck: Checker,
    specs: Mapping[str, OptionSpec],
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
) -> Rung:
    """One validated rung from a record whose option-selected fields are resolved."""
    rid = _rung_id(rec, position, where, ck)
    kind, trump, leader, side, exposed, discard = (
        _choice(rec, key, allowed, where, ck)
        for key, allowed in (
            ("kind", KINDS),
            ("trump", TRUMP_RULES),
            ("leader", LEADERS),
            ("side", SIDES),
            ("exposed", EXPOSURES),
            ("discard", DISCARDS),
        )
    )
    tricks = _tricks(rec, discard, where, ck)
    above = rec.get("above")
    if above is not None and (not isinstance(above, str) or not _RUNG_ID.match(above)):
        raise ck.fail(f"{where}above", f"expected the id of a rung, got {above!r}")
    target = _target(rec, kind, trump, tricks, where, ck)
    payers = ck.need(rec, "payers", int, where)
    if not 1 <= payers <= ADVERSARIES[side]:
        raise ck.fail(f"{where}payers", f"{payers} out of range for side {side!r}")
    _check_rung_texts_and_flags(rec, where, ck, specs)
    payment = ck.need(rec, "payment", dict, where)
    priced, payment = _rung_payment(payment, kind, target, rid, where, ck, tables, options)
    return Rung(
        id=rid,
        name=ck.need(rec, "name", str, where),
        rank=rank,
        kind=kind,
        target=target,
        trump=trump,
        tricks=tricks,
        exposed=None if exposed == "none" else exposed,
        leader=leader,
        side=side,
        priced=priced,
        payers=payers,
        pool_bid=rec["pool_bid"],
        pool_double=rec["pool_double"],
        stop_early=rec["stop_early"],
        slam_failure=rec["slam_failure"],
        aliases=tuple(rec["aliases"]),
        note=rec["note"],
        payment=payment,
        discard=None if discard == "none" else discard,
        above=above,
        analysis_priced=rec["analysis_priced"],
        outcome_of=_outcome_of(rec, where, ck),
    )


def _outcome_of(rec: dict[str, Any], where: str, ck: Checker) -> str | None:
    v = rec.get("outcome_of")
    if v is not None and (not isinstance(v, str) or not _RUNG_ID.match(v)):
        raise ck.fail(f"{where}outcome_of", f"expected the id of a rung, got {v!r}")
    return v


def _rung_id(rec: dict[str, Any], position: int, where: str, ck: Checker) -> str:
    """Every required field present; the id a short word; a given rank its position."""
    for k in _RUNG_REQUIRED:
        if k not in rec:
            raise ck.fail(f"{where}{k}", "missing")
    rid = ck.need(rec, "id", str, where)
    if not _RUNG_ID.match(rid):
        raise ck.fail(f"{where}id", f"{rid!r} must be a short lower-case word (a-z, 0-9, _)")
    if "rank" in rec and rec["rank"] != position:
        raise ck.fail(
            f"{where}rank",
            f"rank {rec['rank']!r} out of order "
            f"(rungs are listed lowest first; expected {position})",
        )
    return rid


def _choice(
    rec: dict[str, Any], key: str, allowed: tuple[str, ...], where: str, ck: Checker
) -> str:
    v = ck.need(rec, key, str, where)
    if v not in allowed:
        raise ck.fail(f"{where}{key}", f"{v!r} is not one of {', '.join(allowed)}")
    return v


def _tricks(rec: dict[str, Any], discard: str, where: str, ck: Checker) -> int:
    """Tricks played (docs/RULES.md §1.6: discard "all_one" = every player discards one card
    face down, so 12 tricks are played); ``tricks``, if given too, must agree."""
    tricks = TRICKS_BY_DISCARD[discard]
    if "tricks" in rec and ck.need(rec, "tricks", int, where) != tricks:
        raise ck.fail(
            f"{where}tricks",
            f"{rec['tricks']} does not match discard = {discard!r} ({tricks} tricks played; "
            'every player discarding one card is discard = "all_one", 12 tricks)',
        )
    return tricks


def _target(
    rec: dict[str, Any], kind: str, trump: str, tricks: int, where: str, ck: Checker
) -> int:
    """The target, in range for the kind; only trick bids (at_least) have trumps."""
    target = ck.need(rec, "target", int, where)
    if kind == "zero" and target != 0:
        raise ck.fail(f"{where}target", "must be 0 for kind 'zero'")
    if kind == "at_least" and not 1 <= target <= tricks:
        raise ck.fail(f"{where}target", f"{target} out of range 1..{tricks}")
    if kind == "exactly" and not 0 <= target <= tricks:
        raise ck.fail(f"{where}target", f"{target} out of range 0..{tricks}")
    if kind != "at_least" and trump != "none":
        raise ck.fail(
            f"{where}trump", f"kind {kind!r} contracts are played without trumps here; use 'none'"
        )
    return target


def _check_rung_texts_and_flags(
    rec: dict[str, Any], where: str, ck: Checker, specs: Mapping[str, OptionSpec]
) -> None:
    """Aliases, note and name are text; the flags are true/false."""
    aliases = rec["aliases"]
    if not isinstance(aliases, list) or any(not isinstance(a, str) for a in aliases):
        raise ck.fail(f"{where}aliases", "expected a list of strings")
    if not isinstance(rec["note"], str):
        raise ck.fail(f"{where}note", f"expected a string, got {rec['note']!r}")
    if not ck.need(rec, "name", str, where).strip():
        raise ck.fail(f"{where}name", "empty")
    for key in _RUNG_FLAGS:
        if not isinstance(rec[key], bool):
            raise ck.fail(f"{where}{key}", f"expected true/false, got {rec[key]!r}")
    if rec["slam_failure"] and "slam_failure" not in specs:
        raise ck.fail(f"{where}slam_failure", "needs the option slam_failure to be declared")


def _rung_payment(
    payment: dict[str, Any],
    kind: str,
    target: int,
    rid: str,
    where: str,
    ck: Checker,
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
) -> tuple[bool, dict[str, Any]]:
    """Whether the rung is priced, and its payment record with a ``senior`` tariff (A-43)
    completed by the main tariff's type."""
    priced = checks.check_payment(
        payment, kind, target, rid, f"{where}payment.", ck, tables, options
    )
    if "senior" in payment and priced:
        if not isinstance(payment["senior"], dict):
            raise ck.fail(f"{where}payment.senior", "expected a table")
        senior = {"type": payment["type"], **payment["senior"]}
        checks.check_payment(
            senior, kind, target, rid, f"{where}payment.senior.", ck, tables, options
        )
        payment = {**payment, "senior": senior}
    return priced, payment
