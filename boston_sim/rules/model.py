"""The vocabulary of a rule set: the values a rule-set file may use, and the records it
becomes (a ladder :class:`Rung`, an :class:`OptionSpec`, the :class:`Score` of a contract).

Nothing here reads files or computes payments: :mod:`.loader` builds these records,
:mod:`.payments` prices them.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import RulesError

# What a rung asks of the declaring side's tricks t: t >= target, t == 0, t == target.
# "zero" is the TOML/JSON spelling; the solver asks the same question as "at_most 0".
KINDS = ("at_least", "zero", "exactly")
TRUMP_RULES = ("declarer_choice", "declarer_choice_or_nt", "turnup", "junior", "senior", "none")
LEADERS = ("eldest", "declarer", "declarer_left")
SIDES = ("alone", "pair")
EXPOSURES = ("none", "before_first_lead", "after_first_trick")
DISCARDS = ("none", "all_one")
PAYMENT_TYPES = ("table", "linear", "flat", "none")
PARTOUT_RULES = ("none", "red_counters")
# What values a pass when everybody passes: a fixed amount ("none": the file's value or
# option), or the all-pass game simulated on the sampled deals (docs/RULES.md §2.1.5, A-29).
ALL_PASS_MODELS = ("none", "misere_partout", "grand")
ALL_PASS_LABELS = {"misere_partout": "Misère Partout", "grand": "Grand"}
ALL_PASS_SOURCES = {"misere_partout": "docs/RULES.md §2.1.5", "grand": "docs/RULES.md §2.3.3, A-29"}
SUIT_RULES = ("preference", "fixed", "junior_senior", "turnup")
STRAIN_LETTERS = ("S", "H", "D", "C", "NT")
MAX_TRICKS = 13
N_PLAYERS = 4
# Adversaries of the declaring side: three against a single player, two against a pair.
ADVERSARIES = {"alone": 3, "pair": 2}
# Tricks played under each discard rule (docs/RULES.md §1.6: "all_one" = every player
# discards one card face down, so 12 tricks are played).
TRICKS_BY_DISCARD = {"none": MAX_TRICKS, "all_one": MAX_TRICKS - 1}
# Trump rules under which the declarer chooses the suit, so that a tariff may depend on it.
CHOSEN_TRUMP = ("declarer_choice", "declarer_choice_or_nt")


@dataclass(frozen=True)
class Rung:
    """One call of a ladder (docs/RULES.md §1.6).

    ``kind``: ``at_least`` (t >= target), ``zero`` (t == 0) or ``exactly`` (t == target).
    ``trump``: one of :data:`TRUMP_RULES`. ``discard``: ``None``, or ``"all_one"`` when every
    player discards one card face down before the play (docs/RULES.md §1.5, §1.6).
    ``tricks``: the tricks played, 13, or 12 with ``discard == "all_one"``.
    ``exposed``: ``None`` or ``"before_first_lead"`` / ``"after_first_trick"``. ``leader``:
    ``eldest`` / ``declarer`` / ``declarer_left``. ``side``: ``alone`` (1 v 3) or ``pair``
    (2 v 2). ``payers``: how many adversaries pay the per-adversary amount. ``priced`` is
    False where the source gives no payment. ``above``: for a rung placed between trick bids
    (misères, Piccolissimo), the id of the rung it ranks immediately above, as the source
    places it; the loader checks it against the listed order. ``analysis_priced``: False
    where the analysis shows only probabilities although the rules price the call (Solo
    Whist's Proposal: nobody may accept, docs/RULES.md §3.3). ``outcome_of``: the id of the
    bid listed just before, when this record is that bid's other outcome rather than a bid
    (a Russian purchase nobody supports, §3.5): it shares the bid's rank and is never
    recommended on its own.
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
    analysis_priced: bool = True
    outcome_of: str | None = None

    @property
    def trump_dependent(self) -> bool:
        """Whether the tariff depends on the declarer's chosen trump (Russian independence:
        another tariff when the trump is the senior suit, A-43)."""
        return self.priced and "senior" in self.payment and self.trump in CHOSEN_TRUMP

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
    """The result of :func:`boston_sim.rules.score`.

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
            return self._choice(value)
        try:
            num = float("nan" if isinstance(value, bool) else value)  # true/false is no number
        except (TypeError, ValueError):
            raise self._bad(value) from None
        if (
            not math.isfinite(num)
            or (self.minimum is not None and num < self.minimum)
            or (self.maximum is not None and num > self.maximum)
        ):
            raise self._bad(value)
        return int(num) if num.is_integer() else num

    def _choice(self, value: Any) -> Any:
        """The choice ``value`` names (case-insensitive), if it is supported."""
        assert self.choices is not None
        for c in self.choices:
            if str(c).lower() == str(value).strip().lower():
                if str(c) in self.unsupported:
                    raise RulesError(
                        f"option {self.name}={c} is not supported: {self.unsupported[str(c)]}"
                    )
                return c
        raise self._bad(value)

    def _bad(self, value: Any) -> RulesError:
        return RulesError(f"option {self.name}: bad value {value!r} (allowed: {self.describe()})")


def normalize_name(text: str) -> str:
    """Lower-case, accents stripped, every run of punctuation or spaces -> '_'.

    So the sources' wordings match however they are quoted or punctuated (``прикуп
    "девять взяток в младшую"``, ``Spread (Misère sur table)``, ``little-misere``)."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    return re.sub(r"[\W_]+", "_", t).strip("_")
