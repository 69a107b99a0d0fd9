"""Rule sets as data: load ``data/rules/*.toml``, resolve options, score contracts.

A rule-set file holds the ladder (one ``[[rungs]]`` record per call, lowest first), named
options with their defaults, and the payment tables, all transcribed from RULES.md. This
module holds no amounts of its own: every number the scorer uses comes from the file.

Scoring is dense so that the Monte Carlo code can score thousands of samples with one
indexing operation::

    rules = load_rules("boston_foster")
    pay = rules.payment_vector("eight")      # float64[14], per adversary, t = 0..13
    net = rules.net_vector("eight")          # float64[14], net to the declarer
    ev = net[tricks].mean()                  # tricks: int8[M] from the solver
    table = rules.payment_table()            # float64[n_rungs, 14], one row per rung

Conventions (RULES.md §0):

* ``t`` is the number of tricks won by the declaring side (declarer, or declarer + partner
  in pair rungs). Entries for impossible ``t`` (13 in a 12-trick rung, where every player
  discards one card, ``discard = "all_one"``) and every entry of an unpriced rung are NaN.
* A tariff that depends on the declarer's chosen trump (Russian independence, A-43) needs
  the trump (and the senior suit) or, for the dense tables, ``senior_trump``: nothing is
  guessed.
* The per-adversary amount is what the declarer receives from (positive) or pays to
  (negative) each adversary who pays. ``payers`` adversaries pay it: 3 for a single player
  against three; for pair rungs (Solo Whist Proposal, Russian pairs) the amount is what one
  partner receives from his paired adversary and ``payers`` is 1 (A-28, A-48), i.e. the
  net is the declarer's own result.
* ``net = payers * amount + pool term + boston bonus``. The pool term (option ``pool``,
  A-07, RULES.md §3.1) is ``+pool`` on the success of a rung with ``pool_bid`` and
  ``-pool`` on the failure of a rung with ``pool_double``. The Russian boston-card bonus
  (A-50) does not depend on the trick count; it is added to the net only, see
  :meth:`RuleSet.bonus_net`.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import RulesError

# The built-in rule sets: in an installed wheel, the package data boston_sim/rules_data
# (pyproject.toml maps data/rules there); in a source checkout or editable install, data/rules.
_PACKAGED_DATA = Path(__file__).resolve().parent / "rules_data"
DATA_DIR = (
    _PACKAGED_DATA
    if _PACKAGED_DATA.is_dir()
    else Path(__file__).resolve().parent.parent / "data" / "rules"
)

KINDS = ("at_least", "zero", "exactly")
TRUMP_RULES = ("declarer_choice", "declarer_choice_or_nt", "turnup", "junior", "senior", "none")
LEADERS = ("eldest", "declarer", "declarer_left")
SIDES = ("alone", "pair")
EXPOSURES = ("none", "before_first_lead", "after_first_trick")
DISCARDS = ("none", "all_one")
PAYMENT_TYPES = ("table", "linear", "flat", "none")
PARTOUT_RULES = ("none", "red_counters")
SUIT_RULES = ("preference", "fixed", "junior_senior", "turnup")
STRAIN_LETTERS = ("S", "H", "D", "C", "NT")
MAX_TRICKS = 13

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
    "note": "",
}
_RUNG_REQUIRED = ("id", "name", "kind", "target", "trump", "leader", "side", "payers", "payment")
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
}
_RUNG_KNOWN = (
    set(_RUNG_REQUIRED) | set(_RUNG_FIELD_DEFAULTS) | {"rank", "optional", "tricks", "above"}
)
# Options the code itself interprets, by name: the values it knows. A rule-set file that
# declares one of these must offer only these values (any subset), or a number >= the bound.
_KNOWN_CHOICES = {
    "slam_failure": ("played_out", "one_trick", "tricks_before_first_loss"),
    "boston_card_mode": ("trump", "own_suit_top", "off"),
    "boston_bonus": ("any_holder", "declarer_only"),
}
_NUMBER_MIN = {"pool": 0}  # a pool is won on success and paid on failure: never < 0
# Tricks played under each discard rule (RULES.md §1.6: "all_one" = every player discards
# one card face down, so 12 tricks are played).
_TRICKS_BY_DISCARD = {"none": 13, "all_one": 12}
# Trump rules under which the declarer chooses the suit, so that a tariff may depend on it.
_CHOSEN_TRUMP = ("declarer_choice", "declarer_choice_or_nt")


# --------------------------------------------------------------------------- data classes


@dataclass(frozen=True)
class Rung:
    """One call of a ladder (RULES.md §1.6).

    ``kind``: ``at_least`` (t >= target), ``zero`` (t == 0) or ``exactly`` (t == target).
    ``trump``: one of :data:`TRUMP_RULES`. ``discard``: ``None``, or ``"all_one"`` when every
    player discards one card face down before the play (RULES.md §1.5, §1.6).
    ``tricks``: the tricks played, 13, or 12 with ``discard == "all_one"``.
    ``exposed``: ``None`` or ``"before_first_lead"`` / ``"after_first_trick"``. ``leader``:
    ``eldest`` / ``declarer`` / ``declarer_left``. ``side``: ``alone`` (1 v 3) or ``pair``
    (2 v 2). ``payers``: how many adversaries pay the per-adversary amount. ``priced`` is
    False where the seed gives no payment. ``above``: for a rung placed between trick bids
    (misères, Piccolissimo), the id of the rung it ranks immediately above, as the seed
    places it; the loader checks it against the listed order.
    """

    id: str
    name: str
    rank: int
    kind: str
    target: int
    trump: str
    tricks: int
    exposed: str | None
    leader: str
    side: str
    priced: bool
    payers: int
    pool_bid: bool = False
    pool_double: bool = False
    stop_early: bool = False
    slam_failure: bool = False
    aliases: tuple[str, ...] = ()
    note: str = ""
    payment: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    discard: str | None = None
    above: str | None = None

    @property
    def trump_dependent(self) -> bool:
        """Whether the tariff depends on the declarer's chosen trump (Russian independence:
        another tariff when the trump is the senior suit, A-43)."""
        return self.priced and "senior" in self.payment and self.trump in _CHOSEN_TRUMP

    def success(self, tricks: int) -> bool:
        """Whether ``tricks`` won by the declaring side fulfil this contract."""
        if self.kind == "at_least":
            return tricks >= self.target
        if self.kind == "zero":
            return tricks == 0
        return tricks == self.target

    def success_vector(self) -> np.ndarray:
        """bool[14]: success for t = 0..13 (False where t > ``tricks``)."""
        t = np.arange(MAX_TRICKS + 1)
        if self.kind == "at_least":
            ok = t >= self.target
        elif self.kind == "zero":
            ok = t == 0
        else:
            ok = t == self.target
        return ok & (t <= self.tricks)


@dataclass(frozen=True)
class Score:
    """The result of :func:`score`.

    ``amount``: the per-adversary amount (positive = received), or None if unpriced.
    ``per_adversary``: one entry per adversary of the declaring side (3 for a single player,
    2 for a pair rung): what the declarer receives from that adversary; in a paired pair
    rung (A-28, A-48) the second adversary settles with the partner, so his entry is 0.
    ``net``: what the declarer receives in all (None if unpriced), including the pool term
    ``pool`` and the boston bonus ``bonus``.
    """

    rules: str
    contract: str
    name: str
    tricks: int
    success: bool
    amount: float | None
    per_adversary: list[float | None]
    payers: int
    pool: float
    bonus: float
    net: float | None
    unit: str
    trump: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view."""
        return {
            "rules": self.rules,
            "contract": self.contract,
            "name": self.name,
            "tricks": self.tricks,
            "trump": self.trump,
            "success": self.success,
            "amount": self.amount,
            "per_adversary": list(self.per_adversary),
            "payers": self.payers,
            "pool": self.pool,
            "bonus": self.bonus,
            "net": self.net,
            "unit": self.unit,
        }


@dataclass(frozen=True)
class OptionSpec:
    """A named option of a rule set: either a list of ``choices`` or a number."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    unsupported: Mapping[str, str] = field(default_factory=dict)
    help: str = ""

    def describe(self) -> str:
        if self.choices is not None:
            return "|".join(str(c) for c in self.choices)
        lo = "" if self.minimum is None else f" >= {self.minimum:g}"
        hi = "" if self.maximum is None else f" <= {self.maximum:g}"
        return "a number" + lo + (" and" if lo and hi else "") + hi

    def coerce(self, value: Any) -> Any:
        """Check and convert a user value (CLI values arrive as strings)."""
        if self.choices is not None:
            for c in self.choices:
                if str(c).lower() == str(value).strip().lower():
                    if str(c) in self.unsupported:
                        raise RulesError(
                            f"option {self.name}={c} is not supported: {self.unsupported[str(c)]}"
                        )
                    return c
            raise RulesError(
                f"option {self.name}: bad value {value!r} (allowed: {self.describe()})"
            )
        try:
            num = float("nan" if isinstance(value, bool) else value)  # true/false is no number
        except (TypeError, ValueError):
            raise RulesError(
                f"option {self.name}: bad value {value!r} (allowed: {self.describe()})"
            ) from None
        if (
            not math.isfinite(num)
            or (self.minimum is not None and num < self.minimum)
            or (self.maximum is not None and num > self.maximum)
        ):
            raise RulesError(
                f"option {self.name}: bad value {value!r} (allowed: {self.describe()})"
            )
        return int(num) if num.is_integer() else num


# --------------------------------------------------------------------------- the rule set


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A loaded, validated rule set with its options resolved.

    Attributes: ``id``, ``name``, ``source`` (seed and lines), ``unit`` (counter unit),
    ``path``, ``options`` (every option, resolved to its value), ``option_specs``,
    ``interpretations`` (A-numbers relied on), ``suit_rule`` (how trump suits are ranked at
    equal numbers: ``preference`` / ``fixed`` / ``junior_senior`` / ``turnup``),
    ``suit_order`` (high -> low strain letters for ``fixed``), ``suit_classes`` (high -> low
    class names otherwise), ``rungs`` (ladder, lowest first), ``tables`` (named payment tables).
    """

    id: str
    name: str
    source: str
    unit: str
    path: Path
    options: Mapping[str, Any]
    option_specs: Mapping[str, OptionSpec]
    interpretations: tuple[str, ...]
    suit_rule: str
    suit_order: tuple[str, ...]
    suit_classes: tuple[str, ...]
    rungs: list[Rung]
    tables: Mapping[str, Mapping[str, Any]]
    multiplier_option: str | None = None
    boston_bonus: Mapping[str, Any] | None = None
    partout: bool = False
    as_printed: Mapping[str, Any] | None = None
    _lookup: dict[str, str] = field(default_factory=dict, repr=False)
    _cache: dict[Any, np.ndarray] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ lookup

    def rung(self, id_or_name: str) -> Rung:
        """A rung by id, seed name or alias (case-insensitive, accents optional)."""
        key = _normalize(str(id_or_name))
        rid = self._lookup.get(key)
        if rid is None:
            known = ", ".join(r.id for r in self.rungs)
            raise RulesError(f"unknown contract {id_or_name!r} in {self.id} (known: {known})")
        return next(r for r in self.rungs if r.id == rid)

    def with_options(self, options: Mapping[str, Any] | None) -> RuleSet:
        """The same rule set with some options changed."""
        if not options:
            return self
        merged = {**self.options, **options}
        return load_rules(self.path, merged)

    @property
    def multiplier(self) -> float:
        """Factor applied to every amount (Russian ``round_multiplier``, A-63)."""
        return float(self.options[self.multiplier_option]) if self.multiplier_option else 1.0

    @property
    def red_in_white(self) -> float | None:
        """White counters per red counter (A-02, A-27), if this rule set has red counters."""
        v = self.options.get("red_in_white")
        return None if v is None else float(v)

    def misere_partout(self, tricks: list[int]) -> list[float]:
        """This rule set's all-pass Misère Partout (classic Boston, RULES.md §2.1.5): each
        player's result in the rule set's unit (white counters, positive = receives).

        The seed settles it in red counters (:func:`misere_partout_red`); they are converted
        at the rule set's option ``red_in_white`` (A-02, A-15). A rule set whose file does
        not declare ``partout = "red_counters"`` has no misère partout: RulesError.
        """
        if not self.partout:
            raise RulesError(
                f"{self.id} has no misère partout (the all-pass game of classic Boston, "
                "RULES.md §2.1.5; its file declares none)"
            )
        ratio = self.red_in_white
        assert ratio is not None  # the loader requires the option with partout
        return [r * ratio for r in misere_partout_red(tricks)]

    # ------------------------------------------------------------------ scoring

    def payment_vector(
        self, rung_id: str, trump: str | int | None = None, context: Mapping[str, Any] | None = None
    ) -> np.ndarray:
        """float64[14]: per-adversary amount for t = 0..13 tricks of the declaring side.

        NaN where the rung is unpriced or ``t`` is impossible (13 in a 12-trick rung).
        ``trump`` matters only where the tariff depends on it (Russian independence in the
        senior suit, A-43; needs ``context["senior"]``). Returns a read-only array.
        """
        rung = self.rung(rung_id)
        strain = _check_trump(self, rung, trump)
        return self._vector(rung, self._params(rung, strain, context))

    def payment_table(self, senior_trump: bool | None = None) -> np.ndarray:
        """float64[n_rungs, 14]: :meth:`payment_vector` of every rung, one row per rung in
        ladder order (row i is ``rungs[i]``, rank i + 1), t = 0..13 tricks in the columns.

        NaN where a rung is unpriced or ``t`` impossible (13 in a 12-trick rung). A rung whose
        tariff depends on the declarer's chosen trump (:attr:`Rung.trump_dependent`: Russian
        independence, A-43) takes its senior-suit tariff with ``senior_trump=True`` and its
        other tariff (junior or plain trump) with ``False``; every other row ignores the
        argument. Left as None, a rule set with such a rung raises :class:`RulesError`
        (nothing is guessed). Read-only.
        """
        rows = [self._vector(r, self._tariff(r, senior_trump)) for r in self.rungs]
        out = np.vstack(rows) if rows else np.empty((0, MAX_TRICKS + 1))
        out.setflags(write=False)
        return out

    def net_table(self, senior_trump: bool | None = None) -> np.ndarray:
        """float64[n_rungs, 14]: net to the declarer, as :meth:`net_vector` without a context
        (``payers * amount`` plus the pool term; no boston-card bonus), rows and
        ``senior_trump`` as in :meth:`payment_table`."""
        pay = self.payment_table(senior_trump)
        pool = float(self.options.get("pool", 0) or 0)
        rows = []
        for i, r in enumerate(self.rungs):
            net = r.payers * pay[i]
            if pool:
                ok = r.success_vector()
                net = net + np.where(
                    ok, pool if r.pool_bid else 0.0, -pool if r.pool_double else 0.0
                )
            rows.append(net)
        out = np.vstack(rows) if rows else np.empty((0, MAX_TRICKS + 1))
        out.setflags(write=False)
        return out

    def _vector(self, rung: Rung, params: Mapping[str, Any]) -> np.ndarray:
        key = ("pay", rung.id, id(params))
        vec = self._cache.get(key)
        if vec is None:
            vec = _payment_vector(self, rung, params)
            vec.setflags(write=False)
            self._cache[key] = vec
        return vec

    def _tariff(self, rung: Rung, senior_trump: bool | None) -> Mapping[str, Any]:
        if not rung.trump_dependent:
            return rung.payment
        if senior_trump is None:
            raise RulesError(
                f"{rung.id} ({self.id}): the tariff depends on whether the trump is the senior "
                "suit (A-43); say which (senior_trump=True or False)"
            )
        return rung.payment["senior"] if senior_trump else rung.payment

    def net_vector(
        self, rung_id: str, trump: str | int | None = None, context: Mapping[str, Any] | None = None
    ) -> np.ndarray:
        """float64[14]: net to the declarer for t = 0..13 (see the module docstring).

        ``payers * amount``, plus the pool term, plus :meth:`bonus_net` when the context
        says who holds the boston card. NaN where unpriced or impossible.
        """
        rung = self.rung(rung_id)
        pay = self.payment_vector(rung.id, trump, context)
        pool = float(self.options.get("pool", 0) or 0)
        ok = rung.success_vector()
        net = rung.payers * pay
        if pool:
            net = net + np.where(
                ok, pool if rung.pool_bid else 0.0, -pool if rung.pool_double else 0.0
            )
        net = net + self.bonus_net(rung.id, trump, context)
        return net

    def bonus_net(
        self, rung_id: str, trump: str | int | None = None, context: Mapping[str, Any] | None = None
    ) -> float:
        """The Russian boston-card bonus to the declarer's net (A-50, RULES.md §2.5.8).

        Independent of the trick count, so the analysis may add it per sample or per hand.
        Applies to trump contracts only (not misère, L85) and only when
        ``context["declarer_holds_boston"]`` is given: holding the card (for the chosen trump)
        the declarer receives ``amount`` from each of the three other players; otherwise,
        with ``boston_bonus=any_holder`` he pays ``amount`` to the holder, with
        ``declarer_only`` nothing. Zero when ``boston_card_mode=off`` or the rule set has no
        bonus. Multiplied by the round multiplier.
        """
        if not self.boston_bonus or not context or context.get("declarer_holds_boston") is None:
            return 0.0
        rung = self.rung(rung_id)
        if rung.trump == "none" or self.options.get("boston_card_mode") == "off":
            return 0.0
        amount = float(self.boston_bonus["amount"]) * self.multiplier
        if context["declarer_holds_boston"]:
            return 3 * amount
        return -amount if self.options.get("boston_bonus") != "declarer_only" else 0.0

    def _params(
        self, rung: Rung, strain: int | None, context: Mapping[str, Any] | None
    ) -> Mapping[str, Any]:
        """The payment record for this rung, switching to its ``senior`` tariff when the
        declarer's free trump choice is the senior suit (A-43)."""
        spec = rung.payment
        if not rung.trump_dependent:
            return spec
        if strain is None:
            raise RulesError(
                f"{rung.id} ({self.id}): the tariff depends on the trump (senior suit or not, "
                "A-43); give the trump (CLI --trump) and the senior suit (--senior)"
            )
        if not context or context.get("senior") is None:
            raise RulesError(
                f"{rung.id}: the tariff depends on whether the trump is the senior suit (A-43); "
                "give the senior suit (context 'senior', CLI --senior)"
            )
        from .cards import parse_strain

        return spec["senior"] if parse_strain(context["senior"]) == strain else spec

    # ------------------------------------------------------------------ display helpers

    def trump_class(
        self, trump: str | int | None, context: Mapping[str, Any] | None = None
    ) -> str | None:
        """See :func:`trump_class`."""
        return trump_class(self, trump, context)

    def suit_rank(self, trump: str | int | None, context: Mapping[str, Any] | None = None) -> int:
        """Tie-break rank of a trump at equal numbers of tricks (higher outranks); -1 if unknown."""
        cls = trump_class(self, trump, context)
        if cls is None:
            return -1
        order = self.suit_order if self.suit_rule == "fixed" else self.suit_classes
        return len(order) - 1 - order.index(cls) if cls in order else -1

    def describe_payment(self, rung_id: str) -> str:
        """One line saying how a rung is paid (for the ``rules`` command)."""
        rung = self.rung(rung_id)
        p = rung.payment
        if not rung.priced:
            return "unpriced" + (f" ({p['reason']})" if p.get("reason") else "")
        typ = p["type"]
        if typ == "table":
            return f"tables {p['success']} / {p['failure']} row {rung.target}"
        if typ == "flat":
            return f"±{_flat_amount(self, rung, p):g}"
        base = _base(self, p)
        parts = [f"base {base:g}"]
        if p.get("over"):
            parts.append(f"+{p['over']:g}/over-trick")
        if p.get("under"):
            parts.append(f"-{p['under']:g}/under-trick")
        if p.get("fail_extra"):
            parts.append(f"failure extra {p['fail_extra']:g}")
        if p.get("slam_double"):
            parts.append("13 tricks double")
        if p.get("zero_double_tricks") is not None:
            parts.append(f"0 tricks = 2×(base+{p['zero_double_tricks']}×under)")
        if "senior" in p:
            parts.append("senior suit: other tariff")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view: ladder, options and dense per-adversary payments."""
        rungs = []
        other, senior = self.payment_table(False), self.payment_table(True)
        for i, r in enumerate(self.rungs):
            rd = {
                "id": r.id,
                "name": r.name,
                "rank": r.rank,
                "kind": r.kind,
                "target": r.target,
                "trump": r.trump,
                "discard": r.discard,
                "tricks": r.tricks,
                "above": r.above,
                "exposed": r.exposed,
                "leader": r.leader,
                "side": r.side,
                "priced": r.priced,
                "payers": r.payers,
                "pool_bid": r.pool_bid,
                "stop_early": r.stop_early,
                "aliases": list(r.aliases),
                # a trump-dependent tariff: "payment" with a junior or plain trump,
                # "payment_senior" with the senior suit
                "payment": _json_vec(other[i], r.tricks),
            }
            if r.trump_dependent:
                rd["payment_senior"] = _json_vec(senior[i], r.tricks)
            if r.note:
                rd["note"] = r.note
            rungs.append(rd)
        return {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "unit": self.unit,
            "options": dict(self.options),
            "option_choices": {k: s.describe() for k, s in self.option_specs.items()},
            "interpretations": list(self.interpretations),
            "suit_rule": self.suit_rule,
            "suit_order": list(self.suit_order),
            "suit_classes": list(self.suit_classes),
            "partout": "red_counters" if self.partout else None,
            "rungs": rungs,
            "as_printed": _plain(self.as_printed),
        }


def _json_vec(vec: np.ndarray, tricks: int) -> list[float | None]:
    return [None if math.isnan(x) else float(x) for x in vec[: tricks + 1]]


def _plain(v: Any) -> Any:
    """A copy of nested TOML data as plain dicts and lists (JSON-ready)."""
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


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
    path = _resolve_path(name_or_path)
    st = path.stat()
    raw = _read_file(str(path), st.st_mtime_ns, st.st_size)
    return _build(raw, path, dict(options or {}))


def score(
    rules: RuleSet | str | Path,
    contract: str,
    tricks: int,
    options: Mapping[str, Any] | None = None,
    *,
    trump: str | int | None = None,
    context: Mapping[str, Any] | None = None,
) -> Score:
    """Score one contract: what the declarer receives from each adversary and in all.

    ``rules``: a RuleSet, a built-in id or a path. ``contract``: rung id or seed name.
    ``tricks``: tricks won by the declaring side (0..13, or 0..12 in 12-card rungs).
    ``options`` override the rule set's options. ``trump`` and ``context`` as for
    :meth:`RuleSet.payment_vector` / :meth:`RuleSet.bonus_net`.
    """
    rs = rules.with_options(options) if isinstance(rules, RuleSet) else load_rules(rules, options)
    rung = rs.rung(contract)
    if isinstance(tricks, bool) or not isinstance(tricks, (int, np.integer)):
        try:
            tricks = int(str(tricks).strip())
        except ValueError:
            raise RulesError(f"tricks must be a whole number, not {tricks!r}") from None
    tricks = int(tricks)
    if not 0 <= tricks <= rung.tricks:
        raise RulesError(f"tricks {tricks} out of range 0..{rung.tricks} for {rung.name} ({rs.id})")
    amount = float(rs.payment_vector(rung.id, trump, context)[tricks])
    net = float(rs.net_vector(rung.id, trump, context)[tricks])
    n_adv = 3 if rung.side == "alone" else 2
    priced = not math.isnan(amount)
    per_adv: list[float | None] = [
        (amount if i < rung.payers else 0.0) if priced else None for i in range(n_adv)
    ]
    ok = rung.success(tricks)
    pool = float(rs.options.get("pool", 0) or 0)
    pool_term = (pool if rung.pool_bid else 0.0) if ok else (-pool if rung.pool_double else 0.0)
    pool_term += 0.0  # no -0.0 in output
    strain = _check_trump(rs, rung, trump)
    return Score(
        rules=rs.id,
        contract=rung.id,
        name=rung.name,
        tricks=tricks,
        success=ok,
        amount=amount if priced else None,
        per_adversary=per_adv,
        payers=rung.payers,
        pool=pool_term if priced else 0.0,
        bonus=rs.bonus_net(rung.id, trump, context),
        net=net if priced else None,
        unit=rs.unit,
        trump=None if strain is None else STRAIN_LETTERS[strain],
    )


def misere_partout(
    tricks: list[int],
    rules: RuleSet | str | Path = "boston_foster",
    options: Mapping[str, Any] | None = None,
) -> list[float]:
    """Classic Boston's all-pass Grand (Misère Partout), RULES.md §2.1.5, A-15, A-16.

    ``tricks``: the four players' tricks (non-negative, summing to 13). Returns each player's
    result in white counters (positive = receives), converted from red counters at the rule
    set's ``red_in_white`` option (A-02; change it with ``options={"red_in_white": x}``).
    ``rules``: a RuleSet, built-in id or path, as for :func:`score`.
    """
    rs = rules.with_options(options) if isinstance(rules, RuleSet) else load_rules(rules, options)
    return rs.misere_partout(tricks)


def misere_partout_red(tricks: list[int]) -> list[float]:
    """The seed's Misère Partout settlement in red counters (RULES.md §2.1.5, A-16).

    ``tricks``: the four players' tricks (non-negative, summing to 13). The players with the
    most tricks (m) lose: each other player j receives (m - t_j) red counters in all, paid in
    equal shares by the k tied losers. Returns each player's result in red counters
    (positive = receives).
    """
    if not isinstance(tricks, (list, tuple)) or len(tricks) != 4:
        raise RulesError("misère partout needs the tricks of exactly 4 players")
    vals: list[int] = []
    for x in tricks:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
            raise RulesError(f"misère partout: tricks must be whole numbers >= 0, not {x!r}")
        vals.append(int(x))
    if sum(vals) != 13:
        raise RulesError(f"misère partout: tricks {vals} sum to {sum(vals)}, not 13")
    m = max(vals)
    losers = [i for i, t in enumerate(vals) if t == m]
    k = len(losers)
    red = [0.0] * 4
    for j, tj in enumerate(vals):
        if j in losers:
            continue
        red[j] += m - tj
        for i in losers:
            red[i] -= (m - tj) / k
    return red


def trump_class(
    rules: RuleSet, trump: str | int | None, context: Mapping[str, Any] | None = None
) -> str | None:
    """The class of a trump suit for display and tie-breaks at equal numbers.

    * classic Boston (``preference``): ``first_preference`` / ``colour`` / ``plain`` given
      ``context["preference"]`` (the turned preference suit, §2.1.2);
    * fixed orders (modern ♦>♥>♣>♠, Fontainebleau NT>♦>♥>♣>♠): the strain letter;
    * Russian (``junior_senior``): ``senior`` / ``junior`` / ``plain`` given
      ``context["senior"]`` and ``context["junior"]`` (A-43);
    * Solo Whist (``turnup``): ``turnup`` / ``named`` given ``context["turnup"]``.

    ``"NT"`` for no trump; None when the context lacks what is needed.
    """
    from .cards import parse_strain

    if trump is None:
        return None
    s = parse_strain(trump)
    if s == 4:
        return "NT"
    ctx = context or {}
    rule = rules.suit_rule
    if rule == "fixed":
        return STRAIN_LETTERS[s]
    if rule == "preference":
        if ctx.get("preference") is None:
            return None
        p = parse_strain(ctx["preference"])
        if s == p:
            return "first_preference"
        # same colour: spades/clubs are black, hearts/diamonds red (S=0 H=1 D=2 C=3)
        return "colour" if (s in (0, 3)) == (p in (0, 3)) else "plain"
    if rule == "junior_senior":
        if ctx.get("senior") is not None and parse_strain(ctx["senior"]) == s:
            return "senior"
        if ctx.get("junior") is not None and parse_strain(ctx["junior"]) == s:
            return "junior"
        return "plain" if ctx.get("senior") is not None else None
    if ctx.get("turnup") is None:
        return None
    return "turnup" if parse_strain(ctx["turnup"]) == s else "named"


# --------------------------------------------------------------------------- internals: scoring


def _base(rs: RuleSet, p: Mapping[str, Any]) -> float:
    if "base_red" in p:
        return float(p["base_red"]) * float(rs.options["red_in_white"])
    return float(p["base"])


def _flat_amount(rs: RuleSet, rung: Rung, p: Mapping[str, Any]) -> float:
    if "amount_red" in p:
        return float(p["amount_red"]) * float(rs.options["red_in_white"])
    if "table" in p:
        return float(rs.tables[p["table"]][rung.id])
    return float(p["amount"])


def _payment_vector(rs: RuleSet, rung: Rung, p: Mapping[str, Any]) -> np.ndarray:
    """The dense per-adversary vector of one rung (module docstring for conventions)."""
    out = np.full(MAX_TRICKS + 1, np.nan)
    if not rung.priced:
        return out
    n = rung.target
    typ = p["type"]
    for t in range(rung.tricks + 1):
        ok = rung.success(t)
        if typ == "table":
            if ok:
                row = rs.tables[p["success"]][str(n)]
                amt = float(row[t - n]) if isinstance(row, list) else float(row)
            else:
                short = n - t
                if rung.slam_failure and rs.options.get("slam_failure") == "one_trick":
                    short = 1  # thrown up at the first lost trick
                amt = -float(rs.tables[p["failure"]][str(n)][short - 1])
        elif typ == "flat":
            a = _flat_amount(rs, rung, p)
            amt = a if ok else -a
        else:  # linear
            base = _base(rs, p)
            over, under = float(p.get("over", 0)), float(p.get("under", 0))
            if rung.kind != "at_least":
                amt = base if ok else -(base + float(p.get("fail_extra", 0)))
            elif ok:
                amt = base + over * (t - n)
                if t == MAX_TRICKS and p.get("slam_double"):
                    amt *= 2
            elif t == 0 and p.get("zero_double_tricks") is not None:
                amt = -2 * (base + under * int(p["zero_double_tricks"]))
            else:
                amt = -(base + float(p.get("fail_extra", 0)) + under * (n - t))
        out[t] = amt
    return out * rs.multiplier


def _check_trump(rs: RuleSet, rung: Rung, trump: str | int | None) -> int | None:
    """Parse a trump and check it suits the rung's trump rule."""
    if trump is None:
        return None
    from .cards import NotationError, parse_strain

    try:
        s = parse_strain(trump)
    except NotationError as e:
        raise RulesError(str(e)) from None
    if rung.trump == "none" and s != 4:
        raise RulesError(f"{rung.name} ({rs.id}) is played without trumps, not {STRAIN_LETTERS[s]}")
    if rung.trump != "none" and rung.trump != "declarer_choice_or_nt" and s == 4:
        raise RulesError(f"{rung.name} ({rs.id}) cannot be played at no-trump")
    return s


# --------------------------------------------------------------------------- internals: loading


def _normalize(text: str) -> str:
    """Lower-case, accents stripped, every run of punctuation or spaces -> '_'.

    So seed wordings match however they are quoted or punctuated (``прикуп "девять взяток в
    младшую"``, ``Spread (Misère sur table)``, ``little-misere``)."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    return re.sub(r"[\W_]+", "_", t).strip("_")


def _resolve_path(name_or_path: str | Path) -> Path:
    if isinstance(name_or_path, Path):
        p = name_or_path
    else:
        text = str(name_or_path).strip()
        if not text:
            raise RulesError("empty rule-set name")
        looks_like_path = text.endswith(".toml") or "/" in text or "\\" in text
        if not looks_like_path:
            # a built-in id first; otherwise an existing file of that name (e.g. "my_rules")
            p = DATA_DIR / f"{text}.toml"
            if p.is_file():
                return p
            if Path(text).is_file():
                return Path(text)
            raise RulesError(
                f"unknown rule set {text!r} (built-in: {', '.join(list_rules())}; "
                "or give the path of a rule-set file)"
            )
        p = Path(text).expanduser()
    if not p.is_file():
        raise RulesError(f"rule-set file not found: {p}")
    return p


@functools.lru_cache(maxsize=64)
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
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{path}: not valid TOML: {e}") from None


class _Checker:
    """Builds error messages that name the file and the field."""

    def __init__(self, path: Path) -> None:
        self.label = path.name if path.parent == DATA_DIR else str(path)

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
    return " or ".join(
        {
            "str": "a string",
            "int": "an integer",
            "float": "a number",
            "list": "a list",
            "dict": "a table",
            "bool": "true/false",
        }.get(x.__name__, x.__name__)
        for x in _as_tuple(t)
    )


def _parse_options(raw: Any, ck: _Checker) -> dict[str, OptionSpec]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ck.fail("options", "expected a table of options")
    specs: dict[str, OptionSpec] = {}
    for name, o in raw.items():
        where = f"options.{name}."
        if not isinstance(o, dict):
            raise ck.fail(f"options.{name}", "expected a table with default and choices or type")
        for key in o:
            if key not in ("default", "choices", "type", "min", "max", "unsupported", "help"):
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
            spec = OptionSpec(name, None, tuple(ch), unsupported=unsupported, help=help_text)
        elif o.get("type") == "number":
            bounds = {}
            for key in ("min", "max"):
                v = o.get(key)
                if v is not None and not _num(v):
                    raise ck.fail(f"{where}{key}", f"expected a number, got {v!r}")
                bounds[key] = v
            lo, hi = bounds["min"], bounds["max"]
            if lo is not None and hi is not None and lo > hi:
                raise ck.fail(f"{where}max", f"{hi!r} is below min")
            if unsupported:
                raise ck.fail(f"{where}unsupported", "only options with choices have one")
            spec = OptionSpec(
                name, None, None, bounds["min"], bounds["max"], unsupported={}, help=help_text
            )
        elif "type" in o:
            raise ck.fail(f"{where}type", f'{o["type"]!r} is not "number" (or give choices)')
        else:
            raise ck.fail(f"{where}choices", 'missing (or give type = "number")')
        if name in _KNOWN_CHOICES and (
            spec.choices is None or not set(map(str, spec.choices)) <= set(_KNOWN_CHOICES[name])
        ):
            raise ck.fail(
                f"{where}choices", f"expected choices among {', '.join(_KNOWN_CHOICES[name])}"
            )
        if name in _NUMBER_MIN and (
            spec.choices is not None or spec.minimum is None or spec.minimum < _NUMBER_MIN[name]
        ):
            raise ck.fail(
                f"{where}min", f'expected type = "number" with min >= {_NUMBER_MIN[name]}'
            )
        try:
            default = spec.coerce(o["default"])
        except RulesError as e:
            raise ck.fail(f"{where}default", str(e)) from None
        specs[name] = OptionSpec(
            name, default, spec.choices, spec.minimum, spec.maximum, spec.unsupported, spec.help
        )
    return specs


def _resolve_value(
    v: Any, options: Mapping[str, Any], specs: Mapping[str, OptionSpec], ck: _Checker, fld: str
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
        return _resolve_value(v[str(options[name])], options, specs, ck, f"{fld}.{options[name]}")
    if isinstance(v, dict):
        return {k: _resolve_value(x, options, specs, ck, f"{fld}.{k}") for k, x in v.items()}
    return v


def _build(raw: dict[str, Any], path: Path, given: dict[str, Any]) -> RuleSet:
    ck = _Checker(path)
    for key in raw:
        if key not in _TOP_KNOWN:
            raise ck.fail(key, "unknown field")
    rid = ck.need(raw, "id", str, "")
    name = ck.need(raw, "name", str, "")
    source = ck.need(raw, "source", str, "")
    unit = ck.need(raw, "unit", str, "")
    interps = ck.need(raw, "interpretations", list, "")
    for a in interps:
        if not isinstance(a, str) or not _A_NUMBER.match(a):
            raise ck.fail("interpretations", f"{a!r} is not an A-number like 'A-07'")

    specs = _parse_options(raw.get("options"), ck)
    options: dict[str, Any] = {k: s.default for k, s in specs.items()}
    for k, v in given.items():
        if k not in specs:
            allowed = ", ".join(specs) or "none"
            raise RulesError(f"unknown option {k!r} for {rid} (options: {allowed})")
        options[k] = specs[k].coerce(v)

    suit_rule = raw.get("suit_rule", "fixed" if "suit_order" in raw else "preference")
    if suit_rule not in SUIT_RULES:
        raise ck.fail("suit_rule", f"{suit_rule!r} is not one of {', '.join(SUIT_RULES)}")
    suit_order = _str_list(raw, "suit_order", ck)
    if suit_rule == "fixed" and (
        not suit_order or any(s not in STRAIN_LETTERS for s in suit_order)
    ):
        raise ck.fail("suit_order", "expected distinct strain letters S, H, D, C, NT, high -> low")
    suit_classes = _str_list(raw, "suit_classes", ck)
    if suit_rule != "fixed" and not suit_classes:
        raise ck.fail("suit_classes", f"missing (needed by suit_rule {suit_rule!r})")

    multiplier_option = raw.get("multiplier_option")
    if multiplier_option is not None:
        if not isinstance(multiplier_option, str) or multiplier_option not in specs:
            raise ck.fail("multiplier_option", f"refers to undeclared option {multiplier_option!r}")
        if not _positive_option(specs[multiplier_option]):
            raise ck.fail(
                f"options.{multiplier_option}",
                "a multiplier must be a positive number (choices > 0, or min > 0)",
            )
    bonus = raw.get("boston_card_bonus")
    if bonus is not None and (
        not isinstance(bonus, dict)
        or set(bonus) != {"amount"}
        or not _num(bonus["amount"])
        or bonus["amount"] < 0
    ):
        raise ck.fail("boston_card_bonus", "expected { amount = a number >= 0 }")
    partout_rule = raw.get("partout", "none")
    if partout_rule not in PARTOUT_RULES:
        raise ck.fail(
            "partout", f"{partout_rule!r} is not one of {', '.join(map(repr, PARTOUT_RULES))}"
        )
    partout = partout_rule == "red_counters"
    if partout and "red_in_white" not in specs:
        # red counters are converted at the rule set's red/white ratio
        raise ck.fail("partout", "red counters need the option red_in_white")
    if "red_in_white" in specs and not _positive_option(specs["red_in_white"]):
        raise ck.fail(
            "options.red_in_white", "a red/white ratio must be a positive number (min > 0)"
        )
    as_printed = raw.get("as_printed")
    if as_printed is not None and not isinstance(as_printed, dict):
        raise ck.fail("as_printed", "expected a table")
    for key in ("id", "name", "source", "unit"):
        if not raw[key].strip():
            raise ck.fail(key, "empty")

    tables = raw.get("tables", {})
    if not isinstance(tables, dict) or any(not isinstance(t, dict) for t in tables.values()):
        raise ck.fail("tables", "expected tables of rows")

    defaults = raw.get("rung_defaults", {})
    if not isinstance(defaults, dict):
        raise ck.fail("rung_defaults", "expected a table")
    raw_rungs = raw.get("rungs")
    if not isinstance(raw_rungs, list) or not raw_rungs:
        raise ck.fail("rungs", "missing or empty (need a [[rungs]] record per call)")

    rungs: list[Rung] = []  # the ladder under these options
    every: list[Rung] = []  # every record, optional ones included (checked the same)
    for i, rr in enumerate(raw_rungs):
        if not isinstance(rr, dict):
            raise ck.fail(f"rungs[{i}]", "expected a table")
        rec = {**_RUNG_FIELD_DEFAULTS, **defaults, **rr}
        label = rr.get("id", i)
        where = f"rungs[{label}]."
        for k in rec:
            if k not in _RUNG_KNOWN:
                raise ck.fail(f"{where}{k}", "unknown field")
        included = True
        optional = rec.get("optional")
        if optional is not None:
            if not isinstance(optional, str) or optional not in specs:
                raise ck.fail(f"{where}optional", f"refers to undeclared option {optional!r}")
            included = str(options[optional]) not in ("off", "False", "false", "0")
        # Build the rung under the options in force, and once more under every other value
        # of each option one of its fields depends on, so that a mistake in a field used
        # only by a non-default option, or in a rung left out by default, is found too.
        refs = set().union(*(_option_refs(v) for v in rec.values()))
        variants = [options] + [
            {**options, o: c} for o in sorted(refs & set(specs)) for c in specs[o].choices or ()
        ]
        for n, alt in enumerate(variants):
            alt_rec = {k: _resolve_value(v, alt, specs, ck, f"{where}{k}") for k, v in rec.items()}
            rung = _build_rung(alt_rec, len(rungs) + 1, i + 1, where, ck, specs, tables, alt)
            if n == 0:
                every.append(rung)
                if included:
                    rungs.append(rung)

    for ladder in (every, rungs):
        ids = [r.id for r in ladder]
        dup = {x for x in ids if ids.count(x) > 1}
        if dup:
            raise ck.fail("rungs.id", f"duplicate id {min(dup)!r}")
        _check_rank_order(ladder, ck)
        _lookup_table(ladder, ck)

    lookup = _lookup_table(rungs, ck)

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
        as_printed=as_printed,
        _lookup=lookup,
    )


def _lookup_table(rungs: list[Rung], ck: _Checker) -> dict[str, str]:
    """Normalised id / name / alias -> rung id; a name may name one rung only."""
    lookup: dict[str, str] = {}
    for r in rungs:
        for key in (r.id, r.name, *r.aliases):
            nk = _normalize(key)
            if not nk:
                raise ck.fail(f"rungs[{r.id}].aliases", f"name {key!r} has no letters or digits")
            if lookup.get(nk, r.id) != r.id:
                raise ck.fail(f"rungs[{r.id}].aliases", f"name {key!r} also names {lookup[nk]!r}")
            lookup[nk] = r.id
    return lookup


def _positive_option(spec: OptionSpec) -> bool:
    """Whether every value the option can take is a positive number."""
    if spec.choices is not None:
        return all(_num(c) and c > 0 for c in spec.choices)
    return spec.minimum is not None and spec.minimum > 0


def _str_list(raw: Mapping[str, Any], key: str, ck: _Checker) -> tuple[str, ...]:
    """An optional list of distinct non-empty strings."""
    v = raw.get(key, [])
    if (
        not isinstance(v, list)
        or any(not isinstance(x, str) or not x.strip() for x in v)
        or len(set(v)) != len(v)
    ):
        raise ck.fail(key, f"expected a list of distinct names, got {v!r}")
    return tuple(v)


def _option_refs(v: Any) -> set[str]:
    """Names of the options a (possibly nested) field selects by."""
    if not isinstance(v, dict):
        return set()
    refs = {v["option"]} if isinstance(v.get("option"), str) else set()
    for x in v.values():
        refs |= _option_refs(x)
    return refs


def _check_rank_order(rungs: list[Rung], ck: _Checker) -> None:
    """The listed order (lowest first) must agree with what the ladder data says about it.

    * Trick rungs of each side (alone, pair) must not get easier as the ladder rises.
    * Every rung placed between trick bids (kind ``zero`` or ``exactly``: misères,
      spreads, Piccolissimo) names in ``above`` the rung it ranks immediately above, as the
      seed places it (RULES.md §2.1.3, §2.1.4 "each misère-type rung sits between two
      numbers"; §2.2.2; §2.3.2; §2.4.2 with A-31; §2.5.4 with A-51), and that rung must be
      the one listed just before it. Any rung may carry ``above``; it is checked the same.
    """
    last: dict[str, Rung] = {}
    for i, r in enumerate(rungs):
        if r.kind == "at_least":
            prev = last.get(r.side)
            if prev is not None and r.target < prev.target:
                raise ck.fail(
                    f"rungs[{r.id}].rank",
                    f"wrong rank order: {r.id} (target {r.target}) ranks above "
                    f"{prev.id} (target {prev.target})",
                )
            last[r.side] = r
        below = rungs[i - 1].id if i else None
        if r.above is None:
            if r.kind != "at_least" and below is not None:
                raise ck.fail(
                    f"rungs[{r.id}].above",
                    f"missing: a {r.kind!r} rung names the rung it ranks immediately above "
                    f"(here {below!r})",
                )
            continue
        if r.above != below:
            if all(x.id != r.above for x in rungs):
                raise ck.fail(f"rungs[{r.id}].above", f"{r.above!r} is no rung of this ladder")
            where = f"listed above {below!r}" if below else "listed lowest"
            raise ck.fail(
                f"rungs[{r.id}].above",
                f"wrong rank order: {r.id} ranks immediately above {r.above!r} but is {where}",
            )


def _build_rung(
    rec: dict[str, Any],
    rank: int,
    position: int,
    where: str,
    ck: _Checker,
    specs: Mapping[str, OptionSpec],
    tables: Mapping[str, Any],
    options: Mapping[str, Any],
) -> Rung:
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

    def choice(key: str, allowed: tuple[str, ...]) -> str:
        v = ck.need(rec, key, str, where)
        if v not in allowed:
            raise ck.fail(f"{where}{key}", f"{v!r} is not one of {', '.join(allowed)}")
        return v

    kind = choice("kind", KINDS)
    trump = choice("trump", TRUMP_RULES)
    leader = choice("leader", LEADERS)
    side = choice("side", SIDES)
    exposed = choice("exposed", EXPOSURES)
    # RULES.md §1.6: discard "all_one" = every player discards one card face down, so 12
    # tricks are played; "tricks", if given too, must agree.
    discard = choice("discard", DISCARDS)
    tricks = _TRICKS_BY_DISCARD[discard]
    if "tricks" in rec and ck.need(rec, "tricks", int, where) != tricks:
        raise ck.fail(
            f"{where}tricks",
            f"{rec['tricks']} does not match discard = {discard!r} ({tricks} tricks played; "
            'every player discarding one card is discard = "all_one", 12 tricks)',
        )
    above = rec.get("above")
    if above is not None and (not isinstance(above, str) or not _RUNG_ID.match(above)):
        raise ck.fail(f"{where}above", f"expected the id of a rung, got {above!r}")
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
    payers = ck.need(rec, "payers", int, where)
    if not 1 <= payers <= (3 if side == "alone" else 2):
        raise ck.fail(f"{where}payers", f"{payers} out of range for side {side!r}")
    aliases = rec["aliases"]
    if not isinstance(aliases, list) or any(not isinstance(a, str) for a in aliases):
        raise ck.fail(f"{where}aliases", "expected a list of strings")
    if not isinstance(rec["note"], str):
        raise ck.fail(f"{where}note", f"expected a string, got {rec['note']!r}")
    if not ck.need(rec, "name", str, where).strip():
        raise ck.fail(f"{where}name", "empty")
    for key in ("stop_early", "pool_bid", "pool_double", "slam_failure"):
        if not isinstance(rec[key], bool):
            raise ck.fail(f"{where}{key}", f"expected true/false, got {rec[key]!r}")
    if rec["slam_failure"] and "slam_failure" not in specs:
        raise ck.fail(f"{where}slam_failure", "needs the option slam_failure to be declared")

    payment = ck.need(rec, "payment", dict, where)
    priced = _check_payment(payment, kind, target, rid, f"{where}payment.", ck, tables, options)
    if "senior" in payment and priced:
        if not isinstance(payment["senior"], dict):
            raise ck.fail(f"{where}payment.senior", "expected a table")
        senior = {"type": payment["type"], **payment["senior"]}
        _check_payment(senior, kind, target, rid, f"{where}payment.senior.", ck, tables, options)
        payment = {**payment, "senior": senior}
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
        aliases=tuple(aliases),
        note=rec["note"],
        payment=payment,
        discard=None if discard == "none" else discard,
        above=above,
    )


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


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


def _amount(v: Any) -> bool:
    return _num(v) and v >= 0


def _check_payment(
    p: dict[str, Any],
    kind: str,
    target: int,
    rid: str,
    where: str,
    ck: _Checker,
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
            else:
                if not isinstance(row, list) or len(row) != target:
                    n = len(row) if isinstance(row, list) else "no list"
                    raise ck.fail(
                        fld, f"expected {target} amounts (1..{target} tricks short), got {n}"
                    )
            for j, v in enumerate(row if isinstance(row, list) else [row]):
                if not _amount(v):
                    raise ck.fail(f"{fld}[{j}]", f"expected an amount{_UNSIGNED}, got {v!r}")
        return True
    if typ == "flat":
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
        return True
    # linear
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
    return True
