"""Rule sets as data: load ``data/rules/*.toml``, resolve options, score contracts.

A rule-set file holds the ladder (one ``[[rungs]]`` record per call, lowest first), named
options with their defaults, and the payment tables, all transcribed from docs/RULES.md (the
rule specification). This package holds no amounts of its own: every number the scorer uses
comes from the file.

Scoring is dense so that the Monte Carlo code can score thousands of samples with one
indexing operation::

    rules = load_rules("boston_foster")
    pay = rules.payment_vector("eight")      # float64[14], per adversary, t = 0..13
    net = rules.net_vector("eight")          # float64[14], net to the declarer
    ev = net[tricks].mean()                  # tricks: int8[M] from the solver
    table = rules.payment_table()            # float64[n_rungs, 14], one row per rung

Conventions (docs/RULES.md §0):

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
  A-07, docs/RULES.md §3.1) is ``+pool`` on the success of a rung with ``pool_bid`` and
  ``-pool`` on the failure of a rung with ``pool_double``. The Russian boston-card bonus
  (A-50) does not depend on the trick count; it is added to the net only, see
  :meth:`RuleSet.bonus_net`.

Modules: :mod:`.model` (vocabulary and records), :mod:`.payments` (a rung's dense vector),
:mod:`.ruleset` (:class:`RuleSet`), :mod:`.checks` (field validation), :mod:`.loader`
(files -> :class:`RuleSet`), :mod:`.scoring` (one-call scoring).
"""

from __future__ import annotations

from .loader import DATA_DIR, list_rules, load_rules
from .model import (
    ALL_PASS_LABELS,
    ALL_PASS_MODELS,
    DISCARDS,
    EXPOSURES,
    KINDS,
    LEADERS,
    MAX_TRICKS,
    PARTOUT_RULES,
    PAYMENT_TYPES,
    SIDES,
    STRAIN_LETTERS,
    SUIT_RULES,
    TRUMP_RULES,
    OptionSpec,
    Rung,
    Score,
)
from .payments import grand_all_pass_red, misere_partout_red
from .ruleset import RuleSet, trump_class, unread_context
from .scoring import misere_partout, score

__all__ = [
    "unread_context",
    "ALL_PASS_LABELS",
    "ALL_PASS_MODELS",
    "DATA_DIR",
    "DISCARDS",
    "EXPOSURES",
    "KINDS",
    "LEADERS",
    "MAX_TRICKS",
    "PARTOUT_RULES",
    "PAYMENT_TYPES",
    "SIDES",
    "STRAIN_LETTERS",
    "SUIT_RULES",
    "TRUMP_RULES",
    "OptionSpec",
    "RuleSet",
    "Rung",
    "Score",
    "grand_all_pass_red",
    "list_rules",
    "load_rules",
    "misere_partout",
    "misere_partout_red",
    "score",
    "trump_class",
]
