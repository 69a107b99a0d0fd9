"""A loaded rule set (:class:`RuleSet`): rung lookup, dense payment and net vectors, display
helpers, and the tie-break class of a trump suit (:func:`trump_class`).

``net = payers * amount + pool term + boston bonus`` (docs/RULES.md §0, §3.1): the Russian
boston-card bonus (A-50) does not depend on the trick count, so it is added to the net
only, see :meth:`RuleSet.bonus_net`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import NT, parse_strain
from ..errors import RulesError
from . import payments
from .model import (
    ALL_PASS_LABELS,
    ALL_PASS_SOURCES,
    MAX_TRICKS,
    STRAIN_LETTERS,
    OptionSpec,
    Rung,
    normalize_name,
)

# The black suits (S=0, C=3): a suit of the preference suit's colour is a "colour" trump.
_BLACK_SUITS = (0, 3)
# A player holding the boston card receives the bonus from each of the three others.
_BONUS_PAYERS = 3


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A loaded, validated rule set with its options resolved.

    Attributes: ``id``, ``name``, ``source`` (the source text, by title, and its section of
    docs/RULES.md), ``unit`` (counter unit), ``path``, ``options`` (every option, resolved
    to its value), ``option_specs``, ``interpretations`` (A-numbers relied on),
    ``suit_rule`` (how trump suits are ranked at equal numbers: ``preference`` / ``fixed``
    / ``junior_senior`` / ``turnup``), ``suit_order`` (high -> low strain letters for
    ``fixed``), ``suit_classes`` (high -> low class names otherwise), ``rungs`` (ladder,
    lowest first), ``tables`` (named payment tables).
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
    all_pass: Mapping[str, Any] | None = None
    as_printed: Mapping[str, Any] | None = None
    _lookup: dict[str, str] = field(default_factory=dict, repr=False)
    _cache: dict[Any, np.ndarray] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ lookup

    def rung(self, id_or_name: str) -> Rung:
        """A rung by id, seed name or alias (case-insensitive, accents optional)."""
        key = normalize_name(str(id_or_name))
        rid = self._lookup.get(key)
        if rid is None:
            known = ", ".join(r.id for r in self.rungs)
            raise RulesError(f"unknown contract {id_or_name!r} in {self.id} (known: {known})")
        return next(r for r in self.rungs if r.id == rid)

    def with_options(self, options: Mapping[str, Any] | None) -> RuleSet:
        """The same rule set with some options changed."""
        if not options:
            return self
        # the loader builds rule sets, so it imports this module: import it late
        from .loader import load_rules

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

    @property
    def pass_value(self) -> float:
        """The declarer's net if he passes and so does everybody: the all-pass outcome the
        file states (``[all_pass]``: a value, or a number option), 0 where it states none."""
        ap = self.all_pass or {}
        if "option" in ap:
            v = float(self.options[ap["option"]])
            return (-v if ap.get("negate") else v) * self.multiplier + 0.0  # no -0.0
        return float(ap.get("value", 0.0)) * self.multiplier

    @property
    def all_pass_model(self) -> str:
        """The all-pass game that values a pass: ``"none"`` (the fixed :attr:`pass_value`),
        ``"misere_partout"`` or ``"grand"`` (simulated on the sampled deals), as the file's
        ``[all_pass]`` states it (``model``, or the choice option ``model_option``)."""
        ap = self.all_pass or {}
        if "model_option" in ap:
            return str(self.options[ap["model_option"]])
        return str(ap.get("model", "none"))

    @property
    def pass_model(self) -> str:
        """What passing stands for, in words: the file's all-pass game and what is left out."""
        ap = self.all_pass or {}
        model = self.all_pass_model
        if model != "none":
            return (f"all pass: {ALL_PASS_LABELS[model]} ({ALL_PASS_SOURCES[model]}), each "
                    "for himself, no trump, eldest leads; simulated on the sampled deals with "
                    "heuristic play for every seat")
        text = ap.get("game", "no all-pass outcome stated; pass is worth 0")
        return f"{text} ({ap['note']})" if ap.get("note") else text

    @property
    def support_share(self) -> float:
        """The share of purchases a partner supports (option ``purchase_support``, 1 without
        it): a bid with another outcome (:attr:`Rung.outcome_of`) is valued as that mix."""
        return float(self.options.get("purchase_support", 1.0))

    def misere_partout(self, tricks: list[int]) -> list[float]:
        """This rule set's all-pass Misère Partout (classic Boston, docs/RULES.md §2.1.5):
        each player's result in the rule set's unit (white counters, positive = receives).

        The seed settles it in red counters (:func:`misere_partout_red`); they are converted
        at the rule set's option ``red_in_white`` (A-02, A-15). A rule set whose file does
        not declare ``partout = "red_counters"`` has no misère partout: RulesError.
        """
        if not self.partout:
            raise RulesError(
                f"{self.id} has no misère partout (the all-pass game of classic Boston, "
                "docs/RULES.md §2.1.5; its file declares none)"
            )
        ratio = self.red_in_white
        assert ratio is not None  # the loader requires the option with partout
        return [r * ratio for r in payments.misere_partout_red(tricks)]

    def grand_all_pass(self, last: int) -> list[float]:
        """Solo Whist's all-pass Grand (docs/RULES.md §2.3.3, A-29): each player's result in
        the rule set's unit when player ``last`` (0-3) wins the last trick, converted from
        red counters at ``red_in_white``."""
        ratio = self.red_in_white
        if ratio is None:
            raise RulesError(f"{self.id} has no red counters to pay an all-pass Grand in")
        return [r * ratio for r in payments.grand_all_pass_red(last)]

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
        strain = payments.check_trump(self, rung, trump)
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
        return _read_only_stack(rows)

    def net_table(self, senior_trump: bool | None = None) -> np.ndarray:
        """float64[n_rungs, 14]: net to the declarer, as :meth:`net_vector` without a context
        (``payers * amount`` plus the pool term; no boston-card bonus), rows and
        ``senior_trump`` as in :meth:`payment_table`."""
        pay = self.payment_table(senior_trump)
        pool = payments.pool_size(self)
        rows = [payments.add_pool(r.payers * pay[i], r, pool) for i, r in enumerate(self.rungs)]
        return _read_only_stack(rows)

    def net_vector(
        self, rung_id: str, trump: str | int | None = None, context: Mapping[str, Any] | None = None
    ) -> np.ndarray:
        """float64[14]: net to the declarer for t = 0..13 (see the module docstring).

        ``payers * amount``, plus the pool term, plus :meth:`bonus_net` when the context
        says who holds the boston card. NaN where unpriced or impossible.
        """
        rung = self.rung(rung_id)
        pay = self.payment_vector(rung.id, trump, context)
        net = payments.add_pool(rung.payers * pay, rung, payments.pool_size(self))
        return net + self.bonus_net(rung.id, trump, context)

    def bonus_net(
        self, rung_id: str, trump: str | int | None = None, context: Mapping[str, Any] | None = None
    ) -> float:
        """The Russian boston-card bonus to the declarer's net (A-50, docs/RULES.md §2.5.8).

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
            return _BONUS_PAYERS * amount
        return -amount if self.options.get("boston_bonus") != "declarer_only" else 0.0

    def _vector(self, rung: Rung, params: Mapping[str, Any]) -> np.ndarray:
        key = ("pay", rung.id, id(params))
        vec = self._cache.get(key)
        if vec is None:
            vec = payments.payment_vector(self, rung, params)
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
            return f"±{payments.flat_amount(self, rung, p):g}"
        parts = [f"base {payments.base_amount(self, p):g}"]
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
        other, senior = self.payment_table(False), self.payment_table(True)
        rungs = [_rung_dict(r, other[i], senior[i]) for i, r in enumerate(self.rungs)]
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
            "pass_value": self.pass_value,
            "pass_model": self.pass_model,
            "all_pass_model": self.all_pass_model,
            "rungs": rungs,
            "as_printed": _plain(self.as_printed),
        }


def _rung_dict(r: Rung, other: np.ndarray, senior: np.ndarray) -> dict[str, Any]:
    """JSON-ready view of one rung; ``other`` and ``senior``: its rows of the payment
    tables with a junior or plain trump and with the senior suit (they differ only for a
    trump-dependent tariff, A-43)."""
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
        "payment": _json_vec(other, r.tricks),
        "analysis_priced": r.analysis_priced,
        "outcome_of": r.outcome_of,
    }
    if r.trump_dependent:
        rd["payment_senior"] = _json_vec(senior, r.tricks)
    if r.note:
        rd["note"] = r.note
    return rd


def _read_only_stack(rows: list[np.ndarray]) -> np.ndarray:
    out = np.vstack(rows) if rows else np.empty((0, MAX_TRICKS + 1))
    out.setflags(write=False)
    return out


def _json_vec(vec: np.ndarray, tricks: int) -> list[float | None]:
    return [None if math.isnan(x) else float(x) for x in vec[: tricks + 1]]


def _plain(v: Any) -> Any:
    """A copy of nested TOML data as plain dicts and lists (JSON-ready)."""
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


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
    if trump is None:
        return None
    s = parse_strain(trump)
    if s == NT:
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
        return "colour" if (s in _BLACK_SUITS) == (p in _BLACK_SUITS) else "plain"
    if rule == "junior_senior":
        if ctx.get("senior") is not None and parse_strain(ctx["senior"]) == s:
            return "senior"
        if ctx.get("junior") is not None and parse_strain(ctx["junior"]) == s:
            return "junior"
        return "plain" if ctx.get("senior") is not None else None
    if ctx.get("turnup") is None:
        return None
    return "turnup" if parse_strain(ctx["turnup"]) == s else "named"


# the ``suit_rule`` that reads each context suit (a rule set with another ignores it)
CONTEXT_SUIT_RULE = {"preference": "preference", "senior": "junior_senior",
                     "junior": "junior_senior"}


def unread_context(rules: RuleSet, key: str) -> str | None:
    """Why a context suit ``key`` (``preference``, ``senior``, ``junior``) given for
    ``rules`` would change nothing: the rule set ranks its trumps without it; None if it
    reads it."""
    if rules.suit_rule == CONTEXT_SUIT_RULE[key]:
        return None
    return f"{rules.id} ranks its trumps without a {key} suit: --{key} does not apply"
