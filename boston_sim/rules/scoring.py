"""One call to score a result: :func:`score` (a contract and the tricks taken) and
:func:`misere_partout` (classic Boston's all-pass game). Each takes a :class:`RuleSet`, a
built-in id or a path, with options.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import RulesError
from . import payments
from .loader import load_rules
from .model import ADVERSARIES, STRAIN_LETTERS, Score
from .ruleset import RuleSet


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
    rs = _rule_set(rules, options)
    rung = rs.rung(contract)
    tricks = _whole_number(tricks)
    if not 0 <= tricks <= rung.tricks:
        raise RulesError(f"tricks {tricks} out of range 0..{rung.tricks} for {rung.name} ({rs.id})")
    amount = float(rs.payment_vector(rung.id, trump, context)[tricks])
    net = float(rs.net_vector(rung.id, trump, context)[tricks])
    priced = not math.isnan(amount)
    per_adv: list[float | None] = [
        (amount if i < rung.payers else 0.0) if priced else None
        for i in range(ADVERSARIES[rung.side])
    ]
    ok = rung.success(tricks)
    pool_term = payments.pool_term(rung, ok, payments.pool_size(rs))
    strain = payments.check_trump(rs, rung, trump)
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
    """Classic Boston's all-pass Grand (Misère Partout), docs/RULES.md §2.1.5, A-15, A-16.

    ``tricks``: the four players' tricks (non-negative, summing to 13). Returns each player's
    result in white counters (positive = receives), converted from red counters at the rule
    set's ``red_in_white`` option (A-02; change it with ``options={"red_in_white": x}``).
    ``rules``: a RuleSet, built-in id or path, as for :func:`score`.
    """
    return _rule_set(rules, options).misere_partout(tricks)


def _rule_set(rules: RuleSet | str | Path, options: Mapping[str, Any] | None) -> RuleSet:
    return rules.with_options(options) if isinstance(rules, RuleSet) else load_rules(rules, options)


def _whole_number(tricks: Any) -> int:
    """``tricks`` as an int; a CLI string or a whole-number float is accepted, true/false is
    no number."""
    if isinstance(tricks, (float, np.floating)) and float(tricks).is_integer():
        return int(tricks)
    if isinstance(tricks, bool) or not isinstance(tricks, (int, np.integer)):
        try:
            tricks = int(str(tricks).strip())
        except ValueError:
            raise RulesError(f"tricks must be a whole number, not {tricks!r}") from None
    return int(tricks)
