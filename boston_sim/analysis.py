"""Samples x solver x rules -> per-rung statistics: "what should I bid?" (RULES.md §3).

For one declarer hand, :func:`analyze` deals seeded completions of the unseen hands
(:mod:`boston_sim.sampler`), solves every sample double-dummy for every rung of the ladder
and every trump the rung allows (:mod:`boston_sim.solver`), scores the tricks with the rule
set's dense tables (:meth:`RuleSet.payment_vector` / :meth:`RuleSet.net_vector`) and
recommends the rung with the best expected net result, or "pass".

Design points (RULES.md §3.0):

* **Seats.** The dealer sits at compass W, so eldest = N, second = E, third = S, dealer = W
  (``cards.play_seat_to_compass``). The first leader comes from the rung's ``leader``:
  eldest -> N, declarer -> the declarer, declarer_left -> the next seat in playing order
  (A-33).
* **Common random numbers.** Every rung and every trump is scored on the same samples, so
  differences between rungs are paired.
* **Shared searches.** A search is identified by (strain, leader, declaring side, declarer's
  discard, mode). One max-tricks solve serves every trick rung that uses the same strain,
  leader and side; one min-tricks solve serves every misère rung with the same leader and
  discard (e.g. Grand Misère and Grand Spread).
* **Misères** are settled by the yes/no search "can he lose every trick?" (``at_most 0``),
  after an exact shortcut for hands whose cards are all below the others' (``sure_misere``).
  A failure is recorded as 1 trick and the output says so: the real min-tricks count
  (``misere_tricks="min"``) costs far more with the present solver (docs/PERFORMANCE.md).
* **Piccolissimo** ("exactly 1"): a yes/no "exactly 1" search; recorded as 1 trick when
  made and 0 when not.
* **12-trick rungs** (every player discards one card, A-12): each defender (and a partner)
  discards a uniformly random card drawn with the deal; the declarer's discard is chosen ex
  ante among the highest card of each suit he holds (RULES.md §3.0), by the same criterion
  as the trump.
* **Trump ex ante.** Each allowed trump is scored on all samples; the reported trump is the
  one with the best mean net (ties: higher P(make), then higher suit preference); unpriced
  rungs: P(make), then mean tricks. Never best-per-sample.
* **Russian Boston**: trump contracts move the boston card into the trump suit
  (``cards.boston_card_transform``, A-40) when ``boston_card_mode`` is ``trump``; misères are
  played without it (L85). The boston bonus (A-50) is added through the rules' context.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cards import (
    NT,
    PLAY_SEATS,
    STRAINS,
    NotationError,
    boston_card_transform,
    card_bit,
    format_card,
    format_hand,
    parse_card,
    parse_hand,
    parse_play_seat,
    parse_strain,
    play_seat_to_compass,
)
from .errors import RulesError, SamplingError
from .rules import RuleSet, load_rules
from .sampler import Constraint, Sampler, Samples, nth_card, parse_constraint, parse_known

DEFAULT_SAMPLES = 300
"""Default number of samples: the SE of any P(make) is at most 0.5/sqrt(300) = 0.029 (< 0.03).
Searches whose rows are settled sooner stop sooner (:func:`_adaptive`)."""

SE_TARGET = 0.03
"""The SE of P(make) every row reaches before its search may stop early (issue 4's target)."""

ROUND = 50
"""Samples per round of the default mode. With 50, a probability observed as 0 (or 1) has an
Agresti-Coull SE (:func:`_ac_se`) of 0.027, below :data:`SE_TARGET`. The least such round, 45
(0.0295), was measured no faster on the eight typical hands (docs/PERFORMANCE.md): a row near
the line then needs a third round."""

LAST_STEP = 5
"""When only the best bid's P(make) keeps its search going (:func:`_settle`), the next round
is just long enough for its SE to reach the target at the proportion seen so far, but at
least ``ROUND // LAST_STEP`` deals."""

Z_OUT = 3.0
"""A row stops early only if its net EV is this many SEs below the best bid's lower end."""

MAX_SAMPLES = 20_000
"""Cap on the samples drawn by ``precision=`` mode."""

PRECISION_START = 200
"""First chunk drawn by ``precision=`` mode when ``samples`` is not given."""

PILOT = 8
"""Deals a trick search solves before the others of its first round, to learn a first guess."""

TIME_STEP = 2
"""With a time limit, a round is solved in batches of at least this many deals (every search
of the round on the same deals), sized from the time per deal so far to end before the
limit, and never more than the deals solved before (:func:`_solve_before`). The first batch
is always solved whole, so that every row has a value and a standard error (the least
``--samples``, 2); later ones stop at the limit."""

CONTEXT_KEYS = ("preference", "senior", "junior")
"""Context values (suits) that may also be given as ``--option key=value``."""

PARTNERS = {"opposite": 2, "left": 1, "right": 3}

TABLE_COLUMNS = [
    "rung", "name", "rank", "kind", "target", "trump", "trump_class", "discard", "chosen",
    "samples", "priced", "p_make", "p_make_se", "mean_tricks", "ev_per_adversary",
    "ev_per_adversary_se", "ev_net", "ev_net_se", "p_loss_gt", "cvar5", "recommended", "note",
    "trick_distribution",
]


# --------------------------------------------------------------------------- results


@dataclass
class Analysis:
    """The result of :func:`analyze`; rendering lives in :mod:`boston_sim.report`.

    See docs/ARCHITECTURE.md "Analysis". ``rows`` holds one dict per (rung, trump candidate)
    with the keys :data:`TABLE_COLUMNS`, ``rung_rows`` the chosen row of each rung in ladder
    order; ``table`` and ``rungs`` are the same as pandas DataFrames (built on first use, so
    that a report that does not need them does not import pandas).
    ``tricks[(rung_id, trump)]`` holds the per-sample tricks (trump = strain letter or None),
    ``payoffs[rung_id]`` the per-sample net counters of the chosen trump of every priced rung.
    """

    rules: RuleSet
    hand: str
    seat: str
    samples: int
    seed: int
    rejected: int
    recommended: str | None
    runner_up: str | None
    diff: float | None
    diff_se: float | None
    indistinguishable: bool
    reason: str
    rows: list[dict[str, Any]]
    tricks: dict[tuple[str, str | None], np.ndarray]
    payoffs: dict[str, np.ndarray]
    options: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    partner: str = "opposite"
    turnup: str | None = None
    known: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    risk_threshold: float = 0.0
    precision: float | None = None
    elapsed: float = 0.0
    solves: int = 0
    notes: list[str] = field(default_factory=list)
    max_time: float | None = None
    time_limited: bool = False

    @property
    def unit(self) -> str:
        return self.rules.unit

    @property
    def rung_rows(self) -> list[dict[str, Any]]:
        """The chosen row (trump, discard) of every rung, in ladder order."""
        return [r for r in self.rows if r["chosen"]]

    @functools.cached_property
    def table(self) -> Any:
        """``rows`` as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=TABLE_COLUMNS)

    @functools.cached_property
    def rungs(self) -> Any:
        """``rung_rows`` as a pandas DataFrame."""
        return self.table[self.table["chosen"]].reset_index(drop=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of issue 4 (NaN -> null)."""
        rungs = []
        for row in self.rung_rows:
            entry = _row_dict(row)
            entry["trump_candidates"] = [
                {k: _json(c[k]) for k in ("trump", "trump_class", "discard", "samples", "p_make",
                                          "p_make_se", "mean_tricks", "ev_per_adversary",
                                          "ev_net", "ev_net_se", "chosen")}
                for c in self.rows if c["rung"] == row["rung"]
            ]
            rungs.append(entry)
        return {
            "rules": self.rules.id,
            "rules_name": self.rules.name,
            "unit": self.rules.unit,
            "options": {k: _json(v) for k, v in self.rules.options.items()},
            "context": {k: _json(v) for k, v in self.context.items()},
            "seat": self.seat,
            "hand": self.hand,
            "samples": self.samples,
            "seed": self.seed,
            "rejected": self.rejected,
            "turnup": self.turnup,
            "known": list(self.known),
            "constraints": list(self.constraints),
            "partner": self.partner,
            "risk_threshold": self.risk_threshold,
            "precision": self.precision,
            "max_time": self.max_time,
            "time_limited": self.time_limited,
            "recommended": self.recommended,
            "runner_up": self.runner_up,
            "diff": _json(self.diff),
            "diff_se": _json(self.diff_se),
            "indistinguishable": self.indistinguishable,
            "reason": self.reason,
            "notes": list(self.notes),
            "rungs": rungs,
        }


def _json(v: Any) -> Any:
    """Plain JSON value: numpy scalars -> Python, NaN -> None."""
    if v is None:
        return None
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return None if math.isnan(f) else f
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_json(x) for x in v]
    return v


def _row_dict(row: Any) -> dict[str, Any]:
    return {col: _json(row[col]) for col in TABLE_COLUMNS}


# --------------------------------------------------------------------------- the work plan


@dataclass(frozen=True)
class SolveKey:
    """One search over all samples; shared by every rung that needs it."""

    strain: int  # 0..3, 4 = NT
    leader: int  # compass seat
    side_mask: int  # compass seats of the declaring side
    discard: int  # declarer's discard (card bit) in a 12-trick rung, -1 for none
    mode: str  # "max" | "min" | "exactly"
    target: int = 0  # for "exactly"
    boston: bool = False  # apply the boston-card transform


@dataclass
class Candidate:
    """One way of playing a rung: a trump and (12-trick rungs) a declarer's discard."""

    rung_id: str
    trump: str | None  # strain letter, or None for no-trump misères
    strain: int
    discard: int
    key: SolveKey


def _leader_seat(rule: str, declarer: int) -> int:
    if rule == "eldest":
        return play_seat_to_compass(0)
    if rule == "declarer":
        return declarer
    return (declarer + 1) % 4  # declarer_left: the next seat in playing order


def _discard_candidates(hand: int) -> list[int]:
    """The declarer's discard candidates: the highest card of each suit he holds (§3.0)."""
    out = []
    for s in range(4):
        lane = (hand >> (16 * s)) & 0xFFFF
        if lane:
            out.append(card_bit(s, lane.bit_length() - 1))
    return out


def _trumps_for(rung: Any, ctx: Mapping[str, Any], turnup_suit: int | None) -> list[int]:
    rule = rung.trump
    if rule == "none":
        return [NT]
    if rule == "declarer_choice":
        return [0, 1, 2, 3]
    if rule == "declarer_choice_or_nt":
        return [0, 1, 2, 3, NT]
    if rule in ("turnup", "junior"):
        if turnup_suit is None:
            raise SamplingError(f"{rung.name} is played in the turned-up suit: give the turn-up "
                                "card (--turnup CARD)")
        return [turnup_suit]
    if rule == "senior":
        if ctx.get("senior") is None:
            raise RulesError(f"{rung.name} is played in the senior suit: give it "
                             "(--senior SUIT or --option senior=SUIT)")
        return [parse_strain(ctx["senior"])]
    raise RulesError(f"unknown trump rule {rule!r} in {rung.id}")


def _plan(rules: RuleSet, hand: int, declarer: int, partner: int, ctx: Mapping[str, Any],
          turnup_suit: int | None) -> list[Candidate]:
    boston_mode = rules.options.get("boston_card_mode")
    out: list[Candidate] = []
    for rung in rules.rungs:
        leader = _leader_seat(rung.leader, declarer)
        side = 1 << declarer
        if rung.side == "pair":
            side |= 1 << partner
        discards = _discard_candidates(hand) if rung.discard == "all_one" else [-1]
        for strain in _trumps_for(rung, ctx, turnup_suit):
            boston = strain != NT and boston_mode is not None and boston_mode != "off"
            if rung.kind == "at_least":
                mode, target = "max", 0
            elif rung.kind == "zero":
                mode, target = "min", 0
            else:
                mode, target = "exactly", rung.target
            for d in discards:
                key = SolveKey(strain, leader, side, d, mode, target, boston)
                out.append(Candidate(rung.id, STRAINS[strain] if rung.trump != "none" else None,
                                     strain, d, key))
    return out


# --------------------------------------------------------------------------- solving


class _Solver:
    """Runs each distinct :class:`SolveKey` over a growing pool of samples. Every key is
    solved on a prefix of the pool (``results[key]`` has one entry per sample solved so far),
    so a key that is settled early can stop while others go on (adaptive mode)."""

    def __init__(self, keys: Sequence[SolveKey], declarer: int,
                 tick: Callable[[int], None] | None = None, misere_tricks: str = "bool") -> None:
        from . import solver

        self._solver = solver
        self.misere_tricks = misere_tricks
        self.keys = list(dict.fromkeys(keys))
        self.declarer = declarer
        self.results: dict[SolveKey, np.ndarray] = {k: np.empty(0, np.int8) for k in self.keys}
        self.tick = tick or (lambda n: None)
        self.solves = 0
        self.deals = np.empty((0, 4), np.uint64)
        self.discards = np.empty((0, 4), np.uint64)

    def add(self, smp: Samples) -> None:
        """Append samples to the pool (with each defender's random discard, A-12)."""
        disc = np.zeros_like(smp.deals)
        for seat in range(4):
            if seat != self.declarer:
                disc[:, seat] = nth_card(smp.deals[:, seat], smp.discard_pick[:, seat])
        self.deals = np.concatenate([self.deals, smp.deals])
        self.discards = np.concatenate([self.discards, disc])

    def truncate(self, n: int) -> None:
        """Keep only the first ``n`` samples of the pool (no key has solved more)."""
        assert all(len(r) <= n for r in self.results.values())
        self.deals = self.deals[:n]
        self.discards = self.discards[:n]

    def extend(self, smp: Samples) -> None:
        """Add samples and solve every key on the whole pool."""
        self.add(smp)
        self.solve_to(self.keys, len(self.deals))

    def _deals_for(self, key: SolveKey, lo: int, hi: int) -> np.ndarray:
        """Samples ``lo:hi`` as the key's game sees them (discards made, boston card moved)."""
        deals = self.deals[lo:hi]
        if key.discard >= 0:
            disc = self.discards[lo:hi].copy()
            disc[:, self.declarer] = np.uint64(1) << np.uint64(key.discard)
            deals = deals & ~disc
        if key.boston:
            deals = boston_card_transform(deals, key.strain)
        return deals

    def solve_to(self, keys: Sequence[SolveKey], n: int, deadline: float | None = None) -> None:
        """Solve each of ``keys`` on the pool's samples it has not seen, up to the ``n``-th,
        all in one parallel batch (:func:`solver.solve_jobs`): trick searches first, the
        usually quick misère questions last, so they fill the workers' idle tail.

        ``deadline`` (a ``time.perf_counter()`` value): the searches still running then give
        up, and each key keeps its results up to its first sample left unsolved."""
        s = self._solver
        fresh = [k for k in keys if k.mode == "max" and len(self.results[k]) == 0]
        if fresh and n > 2 * PILOT:
            # a few deals first, so that the rest start from their median (_first_guess)
            self.solve_to(fresh, PILOT, deadline)
        order = sorted(keys, key=lambda k: k.mode != "max")
        hands: list[np.ndarray] = []
        jobs: list[np.ndarray] = []
        spans: list[tuple[SolveKey, int, np.ndarray, np.ndarray]] = []
        start = 0
        for key in order:
            done = len(self.results[key])
            if n <= done:
                continue
            deals = self._deals_for(key, done, n)
            res = np.ones(len(deals), dtype=np.int8)
            todo = np.arange(len(deals))
            if key.mode == "max":
                row = s.value_job(key.strain, key.leader, key.side_mask, "max",
                                  _first_guess(self.results[key]))
            elif key.mode == "min":
                safe = s.sure_misere(deals, key.side_mask, key.leader)
                res[safe] = 0
                todo = np.flatnonzero(~safe)
                if self.misere_tricks == "min":
                    row = s.value_job(key.strain, key.leader, key.side_mask, "min")
                else:
                    # boolean search: 0 tricks if he can lose every trick, else recorded as 1
                    row = s.question_job(key.strain, key.leader, key.side_mask, "at_most", 0)
            else:
                # "exactly target" (Piccolissimo): a yes/no search; a success is recorded as
                # ``target`` tricks, a failure as 0 (the count is not searched)
                row = s.question_job(key.strain, key.leader, key.side_mask, "exactly",
                                     key.target)
            hands.append(deals[todo])
            jobs.append(np.tile(np.asarray(row, dtype=np.int64), (len(todo), 1)))
            spans.append((key, start, todo, res))
            start += len(todo)
        if not spans:
            return
        all_hands = np.ascontiguousarray(np.concatenate(hands))
        all_jobs = np.concatenate(jobs)
        out = s.solve_jobs(all_hands, all_jobs, deadline, progress=self.tick)
        for key, lo, todo, res in spans:
            ans = out[lo : lo + len(todo)]
            gave_up = np.flatnonzero(ans < 0)
            if len(gave_up):
                # the time limit: keep the samples before the first unsolved one
                cut = todo[gave_up[0]]
                keep = todo < cut
                todo, ans, res = todo[keep], ans[keep], res[:cut]
            if key.mode == "max" or (key.mode == "min" and self.misere_tricks == "min"):
                res[todo] = ans
            elif key.mode == "min":
                res[todo] = 1 - ans  # he can lose every trick: 0, else recorded as 1
            else:
                res[todo] = np.where(ans == 1, key.target, 0)
            self.results[key] = np.concatenate([self.results[key], res])
            self.solves += len(res)


def _first_guess(done: np.ndarray) -> int:
    """The first target of the value searches of a key: the median of its results so far
    (-1, the solver's own guess, before any). The answers do not depend on it; the nearer
    the true value, the fewer zero-window searches."""
    if len(done) == 0:
        return -1
    return int(np.median(done))


# --------------------------------------------------------------------------- statistics


def _stats(t: np.ndarray, pay: np.ndarray, net: np.ndarray, ok: np.ndarray,
           threshold: float) -> dict[str, Any]:
    """Per-candidate statistics from per-sample tricks and the rung's dense vectors."""
    m = len(t)
    succ = ok[t]
    p = float(succ.mean())
    dist = np.bincount(t.astype(np.int64), minlength=14)[:14] / m
    priced = not np.isnan(net[: 14]).all()
    out: dict[str, Any] = {
        "p_make": p,
        "p_make_se": math.sqrt(p * (1 - p) / m),
        "mean_tricks": float(t.mean()),
        "trick_distribution": [float(x) for x in dist],
        "priced": priced,
    }
    if priced:
        pay_s = pay[t]
        net_s = net[t]
        if np.isnan(net_s).any():
            raise RulesError("the rules give no price for a trick count the solver produced")
        k = max(1, math.ceil(0.05 * m))
        out.update(
            ev_per_adversary=float(pay_s.mean()),
            ev_per_adversary_se=_se(pay_s),
            ev_net=float(net_s.mean()),
            ev_net_se=_se(net_s),
            p_loss_gt=float((net_s < -threshold).mean()),
            cvar5=float(np.sort(net_s)[:k].mean()),
            _net=net_s,
        )
    else:
        out.update(ev_per_adversary=math.nan, ev_per_adversary_se=math.nan, ev_net=math.nan,
                   ev_net_se=math.nan, p_loss_gt=math.nan, cvar5=math.nan, _net=None)
    return out


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan


def _better(a: dict[str, Any], b: dict[str, Any], kind: str) -> bool:
    """Is candidate ``a`` better than ``b`` ex ante (RULES.md §3.0)?"""
    def key(c: dict[str, Any]) -> tuple:
        tricks = c["mean_tricks"] if kind == "at_least" else -c["mean_tricks"]
        ev = c["ev_net"] if c["priced"] else -math.inf
        return (ev, c["p_make"], c["suit_rank"], tricks)
    return key(a) > key(b)


# --------------------------------------------------------------------------- the entry point


def analyze(
    hand: str | int,
    seat: str | int = "eldest",
    rules: str | RuleSet = "boston_foster",
    options: Mapping[str, Any] | None = None,
    *,
    samples: int | None = None,
    precision: float | None = None,
    seed: int = 0,
    known: Sequence[str | tuple[int, int]] | None = None,
    constraints: Sequence[str | Constraint] | None = None,
    turnup: str | None = None,
    partner: str = "opposite",
    context: Mapping[str, Any] | None = None,
    risk_threshold: float = 0.0,
    threads: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    max_samples: int = MAX_SAMPLES,
    misere_tricks: str = "bool",
    max_time: float | None = None,
) -> Analysis:
    """Analyse one hand over the whole ladder of a rule set (issue 4, RULES.md §3).

    ``hand``: 13 cards in any notation of :func:`cards.parse_hand` (or a mask). ``seat``: the
    declarer's playing-order seat (eldest, second, third, dealer). ``rules``: rule-set id,
    path or RuleSet; ``options``: rule options (``preference``/``senior``/``junior`` suits are
    taken as context when the rule set has no option of that name). ``samples``: fixed
    number of samples (default :data:`DEFAULT_SAMPLES`); ``precision``: keep sampling until
    the SE of the recommended rung's net EV is below this many counters (cap ``max_samples``).
    ``known``: ``"SA@dealer"`` strings; ``constraints``: ``"second:S>=5"`` strings;
    ``turnup``: the turned-up card (Solo Whist, Russian Boston), pinned to the dealer.
    ``partner``: seat of the partner in pair rungs (opposite, left, right). ``context``:
    ``preference`` (classic Boston's first-preference suit), ``senior`` / ``junior``
    (Russian suits). ``risk_threshold``: ``p_loss_gt`` is P(net < -threshold).
    ``threads``: numba threads; results do not depend on it. ``progress``: True for a rich
    progress bar on stderr, or a callback ``(done, total)``. ``misere_tricks``: ``"bool"``
    (default) settles misère rungs with the yes/no search "at most 0 tricks" and records a
    failure as 1 trick; ``"min"`` searches the real min-tricks count (slower, see
    docs/PERFORMANCE.md "Bid analysis"). ``max_time``: seconds; the default and precision
    modes solve their rounds in batches of deals, start none once this much time has passed,
    and the searches under way then stop where they are (each search keeps the deals it had
    solved; the first :data:`TIME_STEP` deals are always solved whole, so a very slow one
    can overrun the limit): an answer in bounded time for hands whose searches are
    slow, at the price of wider SEs, and of numbers that depend on the machine's speed (the
    note and ``time_limited`` say so).
    """
    t0 = time.perf_counter()
    # ---- inputs
    mask = int(hand) if isinstance(hand, (int, np.integer)) else parse_hand(hand)
    if mask.bit_count() != 13:
        raise NotationError("the hand must hold 13 cards")
    play_seat = parse_play_seat(seat)
    declarer = play_seat_to_compass(play_seat)
    options = dict(options or {})
    ctx: dict[str, Any] = dict(context or {})
    rs0 = rules if isinstance(rules, RuleSet) else load_rules(rules)
    for k in CONTEXT_KEYS:
        if k in options and k not in rs0.option_specs:
            ctx[k] = options.pop(k)
    rs = rs0.with_options(options) if isinstance(rules, RuleSet) else load_rules(rules, options)
    for k in CONTEXT_KEYS:
        if ctx.get(k) is not None:
            try:
                ctx[k] = STRAINS[parse_strain(ctx[k])]
            except NotationError as e:
                raise RulesError(f"{k}: {e}") from None
            if ctx[k] == "NT":
                raise RulesError(f"{k} must be a suit, not NT")
    if partner not in PARTNERS:
        raise RulesError(f"unknown partner seat {partner!r} (use opposite, left or right)")
    partner_seat = (declarer + PARTNERS[partner]) % 4
    if samples is not None and precision is not None:
        raise SamplingError("give either samples or precision, not both")
    if samples is not None and samples < 2:
        raise SamplingError("samples must be at least 2")
    if precision is not None and not precision > 0:
        raise SamplingError("precision must be a positive number of counters")
    if max_time is not None:
        if samples is not None:
            raise SamplingError("a time limit applies to the sampling rounds of the default "
                                "and precision modes, not to a fixed number of samples")
        if not max_time > 0:
            raise SamplingError("the time limit must be a positive number of seconds")

    uses_turnup = any(r.trump in ("turnup", "junior") for r in rs.rungs) or rs.suit_rule in (
        "turnup", "junior_senior")
    known_pairs: list[tuple[int, int]] = [
        k if isinstance(k, tuple) else parse_known(k) for k in (known or [])
    ]
    turnup_suit = None
    turnup_txt = None
    if turnup is not None:
        if not uses_turnup:
            raise SamplingError(f"{rs.id} turns no card of the dealt pack (RULES.md §1.3); "
                                "--turnup does not apply")
        tc = parse_card(turnup)
        turnup_suit, turnup_txt = tc // 16, format_card(tc)
        dealer = play_seat_to_compass(3)
        if declarer == dealer and not (mask >> tc) & 1:
            raise SamplingError(f"the turn-up {turnup_txt} belongs to the dealer, who is the "
                                "declarer, but it is not in his hand")
        known_pairs.append((tc, dealer))
        if rs.suit_rule == "junior_senior":
            ctx.setdefault("junior", STRAINS[turnup_suit])
        if rs.suit_rule == "turnup":
            ctx["turnup"] = STRAINS[turnup_suit]
    cons = [c if isinstance(c, Constraint) else parse_constraint(c) for c in (constraints or [])]

    cands = _plan(rs, mask, declarer, partner_seat, ctx, turnup_suit)
    sampler = Sampler(mask, declarer, known=known_pairs, constraints=cons, seed=seed)

    # ---- threads and progress
    prev_threads = None
    if threads is not None:
        import numba

        if threads < 1:
            raise SamplingError("threads must be at least 1")
        prev_threads = numba.get_num_threads()
        numba.set_num_threads(min(int(threads), numba.config.NUMBA_NUM_THREADS))
    bar = _Progress(progress)
    try:
        keys = [c.key for c in cands]
        if misere_tricks not in ("bool", "min"):
            raise SamplingError(f"misere_tricks must be bool or min, not {misere_tricks!r}")
        solver = _Solver(keys, declarer, tick=bar.advance, misere_tricks=misere_tricks)
        if samples is not None:
            # a fixed number of samples: every search on every sample
            bar.add(len(solver.keys) * samples)
            solver.extend(sampler.draw(samples))
            result = _evaluate(rs, cands, solver, ctx, mask, risk_threshold, partner)
        else:
            deadline = None if max_time is None else t0 + max_time
            result = _adaptive(rs, cands, solver, sampler, bar, precision, max_samples, ctx,
                               mask, risk_threshold, partner, deadline)
    finally:
        bar.close()
        if prev_threads is not None:
            import numba

            numba.set_num_threads(prev_threads)

    notes = list(result["notes"])
    if misere_tricks == "bool" and any(r.kind != "at_least" for r in rs.rungs):
        notes.append("misère and Piccolissimo rungs are yes/no searches: their trick "
                     "distribution shows 0 (made) or 1 (failed, at least one trick); "
                     "Piccolissimo: 1 made, 0 failed")
    if rs.options.get("boston_card_mode") == "own_suit_top":
        notes.append("boston_card_mode=own_suit_top is solved as 'trump': the solver models the "
                     "boston card only as the top trump (A-40)")
    if ctx.get("junior") is not None and ctx.get("junior") == ctx.get("senior"):
        notes.append("the turn-up is the senior suit: only senior purchases exist this deal (A-43)")
    m = len(solver.deals)
    early = samples is None and (result["stopped_early"]
                                 or (precision is None and m < DEFAULT_SAMPLES))
    if early and not result.get("time_limited"):
        notes.append("searches whose rungs were settled early stopped sooner: P(make) known "
                     f"within {SE_TARGET} (Agresti-Coull) and the rung clearly below the best "
                     "bid, or for the best bid, clearly above pass once every other had "
                     "stopped; the samples column gives each row's count (--samples N solves "
                     "everything on N deals)")
    if result.get("time_limited"):
        notes.append(f"stopped by the time limit ({max_time:g} s) after {m} samples (the "
                     "searches under way stopped where they were, so some rows have fewer: "
                     "the samples column); rows may "
                     f"not have reached their targets (P(make) SE below {SE_TARGET}"
                     + ("" if precision is None else f", EV SE below {precision:g}")
                     + "); with a time limit the numbers depend on the machine's speed")
    if precision is not None and result["rec_se"] is not None and result["rec_se"] > precision:
        notes.append(f"precision {precision:g} not reached within {max_samples} samples "
                     f"(SE {result['rec_se']:.2f})")
    return Analysis(
        rules=rs,
        hand=format_hand(mask),
        seat=PLAY_SEATS[play_seat],
        samples=m,
        seed=int(seed),
        rejected=sampler.rejected,
        recommended=result["recommended"],
        runner_up=result["runner_up"],
        diff=result["diff"],
        diff_se=result["diff_se"],
        indistinguishable=result["indistinguishable"],
        reason=result["reason"],
        rows=result["rows"],
        tricks=result["tricks"],
        payoffs=result["payoffs"],
        options=dict(rs.options),
        context=ctx,
        partner=partner,
        turnup=turnup_txt,
        known=[f"{format_card(c)}@{'NESW'[s]}" for c, s in known_pairs],
        constraints=[c.describe() for c in cons],
        risk_threshold=float(risk_threshold),
        precision=precision,
        elapsed=time.perf_counter() - t0,
        solves=solver.solves,
        notes=notes,
        max_time=max_time,
        time_limited=bool(result.get("time_limited")),
    )


def _adaptive(rs: RuleSet, cands: list[Candidate], solver: _Solver, sampler: Sampler,
              bar: _Progress, precision: float | None, max_samples: int,
              ctx: Mapping[str, Any], hand: int, threshold: float, partner: str,
              deadline: float | None = None) -> dict[str, Any]:
    """Default and precision modes: draw samples in rounds; after each round a search whose
    every row is settled (:func:`_settle`) stops, the others go on.

    Default mode stops at :data:`DEFAULT_SAMPLES` (or when every search is settled);
    precision mode when the SE of the recommended bid's net EV is below ``precision`` (cap
    ``max_samples``). The rounds and the stopping decisions depend only on the results,
    which do not depend on the number of threads, so a seed still fixes every number
    (unless ``deadline``, a ``time.perf_counter()`` value, ends the rounds early)."""
    cap = DEFAULT_SAMPLES if precision is None else max_samples
    m = min(ROUND if precision is None else PRECISION_START, cap)
    active = list(solver.keys)
    while True:
        if m > len(solver.deals):
            solver.add(sampler.draw(m - len(solver.deals)))
        horizon = cap if precision is None else m  # the bar's total: the work still planned
        bar.set_total(bar.done + sum(horizon - len(solver.results[k]) for k in active))
        if deadline is None:
            solver.solve_to(active, m)
        else:
            _solve_before(solver, active, m, deadline)
        result = _evaluate(rs, cands, solver, ctx, hand, threshold, partner)
        settled, wanted = _settle(result["cand_stats"])
        if deadline is not None and time.perf_counter() > deadline:
            result["time_limited"] = any(k not in settled for k in solver.keys)
            if result["time_limited"]:
                break
        # a search stopped earlier that is no longer settled (the best bid moved) catches up
        # before anything else, and the round is scored again
        active = [k for k in solver.keys if k not in settled and len(solver.results[k]) < m]
        if active:
            continue
        active = [k for k in solver.keys if k not in settled]
        if precision is not None:
            # the SE asked for is that of the best priced candidate (the bid, or the rung
            # that "pass" is compared with): its search goes on even when plainly negative
            priced = [(st["ev_net"], c.key) for c, st in result["cand_stats"] if st["priced"]]
            if priced:
                best_key = max(priced, key=lambda x: x[0])[1]
                if best_key not in active:
                    active.append(best_key)
        if precision is None:
            if not active or m >= cap:
                break
            # only the best bid's P(make) is still too loose: a shorter round may do
            step = ROUND if not wanted else min(ROUND, max(wanted - m, ROUND // LAST_STEP))
            m = min(cap, m + step)
        else:
            se = result["rec_se"]
            if (se is not None and se <= precision) or m >= cap or not active:
                break
            grow = m if se is None else int(m * ((se / precision) ** 2 * 1.1 - 1)) + 1
            m += max(100, min(grow, cap - m))
    # a time limit may have cut the last round: the pool ends where the searches did
    solver.truncate(max(len(r) for r in solver.results.values()))
    result["stopped_early"] = any(len(r) < len(solver.deals) for r in solver.results.values())
    return result


def _solve_before(solver: _Solver, keys: list[SolveKey], m: int, deadline: float) -> None:
    """``solver.solve_to(keys, m)`` in batches of deals, each sized from the time per deal so
    far to end before ``deadline`` (a ``time.perf_counter()`` value); no batch starts after
    it, except the first when the keys have no result yet. The searches running at the
    deadline give up (each key keeps its samples up to the first one left unsolved), except in
    that first batch: at least :data:`TIME_STEP` deals are always solved, so one slow search
    there can still overrun the limit.

    A batch is also at most as large as what the keys have solved before it (the batches at
    least double the work done): search times are heavy-tailed, so a few cheap first deals
    can promise a time per deal several times too small (one hand's first 4 deals gave 0.3 s
    a deal, its next 46 took 94 s against a limit of 20 s, before this rule and the abort)."""
    done = min(len(solver.results[k]) for k in keys)
    spent = 0.0
    solved = 0
    while done < m:
        left = deadline - time.perf_counter()
        if left <= 0 and done > 0:
            return
        step = TIME_STEP
        if solved:
            step = max(TIME_STEP, min(done, int(0.9 * left * solved / spent)))
        n = min(m, done + step)
        t = time.perf_counter()
        solver.solve_to(keys, n, deadline if done > 0 else None)
        spent += time.perf_counter() - t
        solved += n - done
        done = min(len(solver.results[k]) for k in keys)
        if done < n:
            return  # the time limit cut the batch


def _ac_se(successes: int, n: int) -> float:
    """Agresti-Coull standard error of a proportion: add two successes and two failures.
    Unlike the plain estimate it is not 0 when every sample agrees, so it is the one that
    decides whether a probability is known well enough to stop sampling it."""
    p = (successes + 2) / (n + 4)
    return math.sqrt(p * (1 - p) / n)


def _settle(cand_stats: list[tuple[Candidate, dict[str, Any]]]) -> tuple[set[SolveKey], int]:
    """Searches that may stop: every candidate (rung, trump, discard) that uses them has
    P(make) known within :data:`SE_TARGET` (:func:`_ac_se`) and, if priced, a net EV at least
    :data:`Z_OUT` standard errors below the lower end of the best bid's (or pass's 0).

    The best bid's own search stops too once the decision is made: its P(make) is known, its
    net EV is ``Z_OUT`` SEs above pass, and every other candidate may stop. More deals would
    only narrow its EV's interval, which ``--precision`` is for.

    Also returns, when only the best bid's P(make) stands in the way, the number of deals at
    which its SE would reach the target if the proportion stayed as it is (else 0): the next
    round need not go further (:func:`_adaptive`)."""
    floor = 0.0
    for _, st in cand_stats:
        if st["priced"] and not math.isnan(st["ev_net_se"]):
            floor = max(floor, st["ev_net"] - Z_OUT * st["ev_net_se"])
    good: list[bool] = []
    known: list[bool] = []
    for _, st in cand_stats:
        n = len(st["t"])
        known.append(_ac_se(round(st["p_make"] * n), n) <= SE_TARGET)
        g = known[-1]
        if g and st["priced"]:
            se = 0.0 if math.isnan(st["ev_net_se"]) else st["ev_net_se"]
            g = st["ev_net"] + Z_OUT * se < floor
        good.append(g)
    priced = [i for i, (_, st) in enumerate(cand_stats) if st["priced"]]
    wanted = 0
    if priced:
        b = max(priced, key=lambda i: cand_stats[i][1]["ev_net"])
        st = cand_stats[b][1]
        if (st["ev_net"] - Z_OUT * st["ev_net_se"] > 0
                and all(g for i, g in enumerate(good) if i != b)):
            if known[b]:
                good[b] = True
            else:
                wanted = _deals_for_se(st["p_make"], len(st["t"]))
    ok: dict[SolveKey, bool] = {}
    for (c, _), g in zip(cand_stats, good):
        ok[c.key] = ok.get(c.key, True) and g
    return {k for k, v in ok.items() if v}, wanted


def _deals_for_se(p: float, n: int) -> int:
    """The least number of deals beyond ``n`` at which a proportion ``p`` has an
    Agresti-Coull SE of at most :data:`SE_TARGET`."""
    m = n + 1
    while _ac_se(round(p * m), m) > SE_TARGET:
        m += 1
    return m


def _evaluate(rs: RuleSet, cands: list[Candidate], solver: _Solver, ctx: Mapping[str, Any],
              hand: int, threshold: float, partner: str) -> dict[str, Any]:
    """Score every candidate (each on the samples its search has solved), choose trumps and
    discards ex ante, recommend a bid."""
    rows: list[dict[str, Any]] = []
    tricks: dict[tuple[str, str | None], np.ndarray] = {}
    payoffs: dict[str, np.ndarray] = {}
    notes: list[str] = []
    cand_stats: list[tuple[Candidate, dict[str, Any]]] = []
    by_rung: dict[str, list[Candidate]] = {}
    for c in cands:
        by_rung.setdefault(c.rung_id, []).append(c)

    for rung in rs.rungs:
        ok = rung.success_vector()
        best_per_trump: dict[str | None, dict[str, Any]] = {}
        for c in by_rung.get(rung.id, []):
            t = solver.results[c.key]
            rctx = dict(ctx)
            if c.key.boston:
                rctx["declarer_holds_boston"] = bool(hand >> _boston_bit(c.strain) & 1)
            trump_arg = c.trump if rung.trump != "none" else None
            pay = rs.payment_vector(rung.id, trump_arg, rctx)
            net = rs.net_vector(rung.id, trump_arg, rctx)
            st = _stats(t, pay, net, ok, threshold)
            st["suit_rank"] = rs.suit_rank(trump_arg, ctx) if trump_arg else -1
            st.update(cand=c, t=t)
            cand_stats.append((c, st))
            prev = best_per_trump.get(c.trump)
            if prev is None or _better(st, prev, rung.kind):
                best_per_trump[c.trump] = st
        chosen = None
        for st in best_per_trump.values():
            if chosen is None or _better(st, chosen, rung.kind):
                chosen = st
        for trump, st in best_per_trump.items():
            c = st["cand"]
            tricks[(rung.id, trump)] = st["t"]
            is_chosen = st is chosen
            if is_chosen and st["priced"]:
                payoffs[rung.id] = st["_net"]
            rows.append({
                "rung": rung.id,
                "name": rung.name,
                "rank": rung.rank,
                "kind": rung.kind,
                "target": rung.target,
                "trump": trump,
                "trump_class": _class_label(rs.trump_class(trump, ctx)) if trump else None,
                "discard": format_card(c.discard) if c.discard >= 0 else None,
                "chosen": is_chosen,
                "samples": len(st["t"]),
                "priced": st["priced"],
                "p_make": st["p_make"],
                "p_make_se": st["p_make_se"],
                "mean_tricks": st["mean_tricks"],
                "ev_per_adversary": st["ev_per_adversary"],
                "ev_per_adversary_se": st["ev_per_adversary_se"],
                "ev_net": st["ev_net"],
                "ev_net_se": st["ev_net_se"],
                "p_loss_gt": st["p_loss_gt"],
                "cvar5": st["cvar5"],
                "recommended": False,
                "note": _rung_note(rung, partner),
                "trick_distribution": st["trick_distribution"],
            })

    priced = [r for r in rows if r["chosen"] and r["priced"]]
    rec = runner = None
    diff = diff_se = rec_se = None
    indist = False
    if not priced:
        reason = (f"no priced rung: {rs.name} gives no payments for these contracts, so only "
                  "probabilities are shown")
        notes.append("no priced rung; EV left empty (RULES.md §3.0)")
    else:
        order = sorted(priced, key=_order_key, reverse=True)
        best = order[0]
        second = order[1] if len(order) > 1 else None
        unit = rs.unit
        if best["ev_net"] < 0:
            rec, runner = "pass", best["rung"]
            diff = 0.0 - float(best["ev_net"])
            diff_se = float(best["ev_net_se"])
            rec_se = diff_se
            reason = (f"every rung loses on average; the best, {best['name']}, expects "
                      f"{best['ev_net']:+.1f} {unit}")
        else:
            rec = best["rung"]
            rec_se = float(best["ev_net_se"])
            if second is None or second["ev_net"] < 0:
                runner = "pass"
                diff = float(best["ev_net"])
                diff_se = rec_se
            else:
                runner = second["rung"]
                diff = float(best["ev_net"] - second["ev_net"])
                # paired on the samples both were scored on (common random numbers)
                k = min(len(payoffs[rec]), len(payoffs[runner]))
                diff_se = _se(payoffs[rec][:k] - payoffs[runner][:k])
            trump_txt = f" in {best['trump']}" if best["trump"] else ""
            reason = (f"{best['name']}{trump_txt} has the highest expected net result, "
                      f"{best['ev_net']:+.1f} ± {best['ev_net_se']:.1f} {unit} "
                      f"(P(make) {best['p_make']:.2f})")
        if diff_se is not None and not math.isnan(diff_se):
            indist = abs(diff) <= 2 * diff_se
        runner_name = "pass" if runner == "pass" else rs.rung(runner).name
        if indist:
            reason += (f"; {runner_name} is statistically indistinguishable "
                       f"(difference {diff:.1f} ± {diff_se:.1f})")
        else:
            reason += f"; ahead of {runner_name} by {diff:.1f} ± {diff_se:.1f}"
        for r in rows:
            if r["rung"] == rec and r["chosen"]:
                r["recommended"] = True
    return {
        "rows": rows, "tricks": tricks, "payoffs": payoffs,
        "recommended": rec, "runner_up": runner, "diff": diff, "diff_se": diff_se,
        "indistinguishable": indist, "reason": reason, "rec_se": rec_se, "notes": notes,
        "cand_stats": cand_stats,
    }


def _order_key(row: Mapping[str, Any]) -> tuple[float, float, int]:
    """Rank priced rows by net EV, then P(make), then ladder rank (NaN last)."""
    ev, p = float(row["ev_net"]), float(row["p_make"])
    return (-math.inf if math.isnan(ev) else ev, -math.inf if math.isnan(p) else p,
            int(row["rank"]))


def _boston_bit(strain: int) -> int:
    """The boston card for a trump suit: J♦, or J♥ when diamonds are trumps (A-40)."""
    return card_bit(1 if strain == 2 else 2, 11)


def _class_label(cls: str | None) -> str | None:
    if cls is None:
        return None
    return {"first_preference": "First Preference", "colour": "Colour", "plain": "Plain",
            "turnup": "turn-up", "named": "named"}.get(cls, cls)


def _rung_note(rung: Any, partner: str) -> str:
    """What the double-dummy model approximates for this rung (RULES.md §3.0, §3.3, §3.5)."""
    notes = []
    if rung.kind != "at_least":
        notes.append("DD ≈ realistic for the defence (exposed)" if rung.exposed
                     else "DD pessimistic for the declarer")
    if rung.discard == "all_one":
        notes.append("defenders discard at random (A-12)")
    if rung.side == "pair":
        notes.append(f"random partner {partner}: pessimistic")
    return "; ".join(notes)


class _Progress:
    """A rich progress bar on stderr (or a user callback), counting deal-solves."""

    def __init__(self, progress: bool | Callable[[int, int], None]) -> None:
        self.total = 0
        self.done = 0
        self.cb = progress if callable(progress) else None
        self.bar = None
        if progress is True:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn("solving"), BarColumn(),
                                TextColumn("{task.percentage:>3.0f}%"), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("solve", total=0)

    def add(self, n: int) -> None:
        self.set_total(self.total + n)

    def set_total(self, n: int) -> None:
        self.total = n
        if self.bar is not None:
            self.bar.update(self.task, total=self.total)

    def advance(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done)
        if self.cb is not None:
            self.cb(self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
