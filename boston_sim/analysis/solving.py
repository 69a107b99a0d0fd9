"""The searches of an analysis, batched: :class:`Solver` runs each distinct
:class:`~boston_sim.analysis.plan.SolveKey` over a growing pool of samples, all keys of a call
in parallel batches of the solver (:func:`boston_sim.solver.solve_jobs`).

A trick search may run in two phases: every deal first answers the cheap yes/no question "at
least T tricks?" (T: the lowest target of the rungs that share the search), then only the
deals that said yes and some of those that said no are counted exactly: the search's first
:data:`MIN_COUNTED` failures, then each later one with probability ``fail_rate`` (a seeded
coin). The others are recorded as :data:`UNCOUNTED`. Which failures are counted never depends
on their counts, so the counted ones are a random sample of the failures, and
:mod:`.statistics` takes the failures at their mean (a ratio estimate, unbiased) with the
variance of that subsample (``rates``: the share of failures counted).

A search goes two-phase only if at least :data:`~boston_sim.config.TWO_PHASE_MIN_FAIL_SHARE`
of its first :data:`PILOT` deals failed ``T`` (asked as questions, not counted); else it counts
every deal, the pilot's answers serving as the counts' first guesses: where makes are common
the question costs about as much as the count it precedes.

Once a search's only open row is its lowest rung's, as the best bid whose P(make) is still
loose (:func:`~boston_sim.analysis.rounds.run_rounds`), its makes from a given deal on are
counted only on a seeded share too (:meth:`Solver.sample_makes`): the answers give that
P(make) exactly, and the counted makes the over-tricks' payments; an uncounted make is
recorded as :func:`~.statistics.mark_make` of ``T``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..cards import boston_card_transform
from ..config import TWO_PHASE_MIN_FAIL_SHARE
from ..sampler import Samples, nth_card
from ..solver import CEILING_FIELD, COUNT_OP, FLOOR_FIELD, JOB_WIDTH, OP_FIELD, TARGET_FIELD
from .ahead import PART_DEALS, Ahead, Jobs
from .plan import SolveKey
from .statistics import UNCOUNTED_FAIL, made_floor, mark_make

PILOT = 8
"""Deals whose "at least T?" answers decide whether a trick search goes two-phase."""
MIN_COUNTED = 4
"""A two-phase search counts its first failures exactly whatever their coins: the failures'
mean is then never missing, and the few first counts steady its variance estimate."""

NO_TRICK = 0  # the misère question: can the declarer take no trick?
UNCOUNTED = UNCOUNTED_FAIL  # a two-phase trick search's failed deal whose count was not
# searched (and a misère deal past its node budget whose search gave up)
FAIL_COUNT_STREAM = 0x6661696C  # the failures' coin flips: a random stream of their own
MISERE_STREAM = 0x6D697365  # the coin flips of the misère searches past their budget
MISERE_LEVELS = 2
"""A misère search past its node budget goes on to the next tier of nodes (``TIER_FACTOR``
times as many) when its coin falls below ``misere_rate``, past that one when it falls below
``misere_rate**2``, and so on; after this many tiers it runs to the end. The longest escape
proofs then cost their budgets mostly, and a deal that passed ``k`` tiers is counted with
probability ``misere_rate**k`` (:attr:`Solver.rates`)."""
PARTNER_STREAM = 0x70617274  # each deal's partner seat when pair rungs average the seats
SIDE_COLUMN = 2  # the side mask's column in a solver job row
OP_COLUMN = OP_FIELD  # ... and the job's kind (a count or a question)
TARGET_COLUMN = TARGET_FIELD  # ... and its target (a value search's first guess)


def fail_count_uniforms(seed: int, n: int, stream: int = FAIL_COUNT_STREAM) -> np.ndarray:
    """The uniforms ``u[i]`` of the pool's deals ``0..n-1``: a failed deal ``i`` of a
    two-phase search is counted when ``u[i] < fail_rate`` (with :data:`MISERE_STREAM`: a
    misère search may pass tier ``l`` of its node budget when ``u[i] < misere_rate**l``).
    They depend only on the seed and the deal's index (a longer draw extends a shorter one),
    so neither the threads, nor the rounds, nor the search changes which deals are counted."""
    seq = np.random.SeedSequence([int(seed), stream])
    return np.random.Generator(np.random.PCG64(seq)).random(n)


def partner_draws(seed: int, n: int, k: int) -> np.ndarray:
    """Which of ``k`` partner seats deals ``0..n-1`` put on the declarer's side, uniformly
    at random from a stream of their own: like :func:`fail_count_uniforms`, a deal's draw
    depends only on the seed and its index. Averaging over the deals averages the seats."""
    seq = np.random.SeedSequence([int(seed), PARTNER_STREAM])
    u = np.random.Generator(np.random.PCG64(seq)).random(n)
    return np.minimum((u * k).astype(np.int64), k - 1)


def counted_share(stratum: np.ndarray, t: np.ndarray) -> float:
    """The share of a stratum's deals whose counts are known (1 for an empty stratum)."""
    return float((stratum & (t >= 0)).sum() / stratum.sum()) if stratum.any() else 1.0


def job_rows(row: Sequence[int] | np.ndarray, k: int) -> np.ndarray:
    """``k`` writable job rows from one row (or a copy of ``k`` rows), row by row in memory
    (a copy of a broadcast row would otherwise come out column by column)."""
    return np.array(np.broadcast_to(np.asarray(row, np.int64), (k, JOB_WIDTH)), order="C")


def tier_chances(passed: np.ndarray, rate: float) -> np.ndarray:
    """Per misère deal, the chance that its search was counted (searched to its end), given
    the tiers of the node budget it passed (0: within the budget, 1): ``rate`` per tier, up
    to :data:`MISERE_LEVELS` (then it runs to the end). The design's own chances, so that
    each counted deal's term is unbiased however few deals passed a tier (a ratio of the
    deals seen, as the failures' counted share, is biased when they are few)."""
    return np.where(passed > 0, float(rate) ** np.minimum(passed, MISERE_LEVELS), 1.0)


def answered(rows: np.ndarray, made: np.ndarray, target: int) -> None:
    """Value job ``rows`` of deals whose "at least ``target``?" is known (``made``): the
    answer bounds each count, so its search does not prove it again (first guess, floor and
    ceiling; a failure's ceiling is ``target - 1``, stored plus one)."""
    rows[:, TARGET_COLUMN] = np.where(made, target, target - 1)
    rows[:, FLOOR_FIELD] = np.where(made, target, 0)
    rows[:, CEILING_FIELD] = np.where(made, 0, target)


def first_guess(done: np.ndarray) -> int:
    """The first target of the value searches of a key: the median of its counted results so
    far (-1, the solver's own guess, before any). The answers do not depend on it; the nearer
    the true value, the fewer zero-window searches."""
    done = done[done >= 0]
    if len(done) == 0:
        return -1
    return int(np.median(done))


class _Batch:
    """The jobs of one call of :func:`solver.solve_jobs`, with each key's span of them."""

    def __init__(self) -> None:
        self.hands: list[np.ndarray] = []
        self.jobs: list[np.ndarray] = []
        self.spans: list[tuple[SolveKey, int, np.ndarray, np.ndarray]] = []
        self.size = 0

    def add(self, key: SolveKey, deals: np.ndarray, rows: np.ndarray, todo: np.ndarray,
            res: np.ndarray) -> None:
        """Search ``deals[todo]`` with ``rows`` (one row for all, or one per deal)."""
        self.hands.append(deals[todo])
        self.jobs.append(np.broadcast_to(np.asarray(rows, np.int64), (len(todo), JOB_WIDTH)))
        self.spans.append((key, self.size, todo, res))
        self.size += len(todo)

    def arrays(self, solver, cost: JobCosts) -> tuple[np.ndarray, np.ndarray]:
        """Its deals and job rows, the misère searches that may run furthest past their
        budgets first, then the others by the mean nodes of their key's earlier jobs
        (``cost``), the dearest first: the cheap ones fill the workers' last idle gaps
        (the answers do not depend on the order; the rows of :meth:`run`'s ``out`` are in
        :meth:`add`'s order)."""
        hands = np.concatenate(self.hands)
        self.all_jobs = jobs = np.concatenate(self.jobs)
        dear = np.concatenate([cost.expected(key, jobs[lo : lo + len(todo)])
                               for key, lo, todo, _ in self.spans])
        self.order = np.lexsort((-dear, -solver.tiers_allowed(jobs)))
        return np.ascontiguousarray(hands[self.order]), jobs[self.order]

    def run(self, solver, cost: JobCosts, deadline: float | None,
            progress: Callable[[int], None] | None, ahead: Ahead | None = None,
            then: Callable[[], None] | None = None,
            waiting: Callable[[], None] | None = None) -> np.ndarray:
        """Every job's answer (:func:`solver.solve_jobs`); those that ``ahead`` ran already
        are taken from it. ``then()`` runs once the other jobs are with the workers,
        ``waiting()`` every few milliseconds while they run. The jobs' nodes go to
        ``cost``."""
        if not self.spans:
            if then is not None:
                then()
            return np.empty(0, np.int8)
        hands, jobs = self.arrays(solver, cost)
        got = ahead.find(hands, jobs) if ahead is not None else np.full(len(jobs), -1)
        rest = np.flatnonzero(got < 0)
        out = np.empty(len(jobs), np.int8)
        nodes = np.zeros(len(jobs), np.int64)
        nodes_rest = np.zeros(len(rest), np.int64)
        out[rest] = solver.solve_jobs(hands[rest], jobs[rest], deadline, progress, then,
                                      nodes_rest, waiting)
        nodes[rest] = nodes_rest
        took = np.flatnonzero(got >= 0)
        if len(took):
            out[took] = ahead.answers(got[took])
            nodes[took] = ahead.nodes(got[took])
            if progress is not None:
                progress(len(took))
        res = np.empty_like(out)
        res[self.order] = out
        spent = np.empty_like(nodes)
        spent[self.order] = nodes
        for key, lo, todo, _ in self.spans:
            hi = lo + len(todo)
            cost.learn(key, self.all_jobs[lo:hi], res[lo:hi], spent[lo:hi])
        return res


class JobCosts:
    """The mean nodes of each key's jobs answered so far, counts and questions apart: what
    a batch orders its jobs by (:meth:`_Batch.arrays`). A job's nodes depend only on its
    deal and row unless another worker joined its search (``solver.share_searches``); the
    order changes only when the jobs end, never an answer."""

    def __init__(self) -> None:
        self._sums: dict[tuple[SolveKey, bool], list[int]] = {}

    def learn(self, key: SolveKey, jobs: np.ndarray, answers: np.ndarray,
              nodes: np.ndarray) -> None:
        ran = answers != -1  # -1: cut by the time limit, its nodes say nothing
        counts = jobs[:, OP_COLUMN] == COUNT_OP
        for count in (True, False):
            mine = ran & (counts == count)
            if mine.any():
                total = self._sums.setdefault((key, count), [0, 0])
                total[0] += int(nodes[mine].sum())
                total[1] += int(mine.sum())

    def expected(self, key: SolveKey, jobs: np.ndarray) -> np.ndarray:
        """Per job row of ``key``, the mean nodes of its kind's earlier jobs (the other
        kind's while it has none; 0 while the key has none)."""
        counts = jobs[:, OP_COLUMN] == COUNT_OP
        out = np.zeros(len(jobs))
        for count in (True, False):
            total = self._sums.get((key, count)) or self._sums.get((key, not count))
            if total:
                out[counts == count] = total[0] / total[1]
        return out


class Solver:
    """Runs each distinct :class:`SolveKey` over a growing pool of samples. Every key is
    solved on a prefix of the pool (``results[key]`` has one entry per sample solved so far),
    so a key that is settled early can stop while others go on (adaptive mode).

    ``misere_tricks``: ``"bool"`` answers a misère key by the yes/no search "no trick?" (a
    failure recorded as 1 trick), ``"min"`` by the declarer's fewest tricks.

    ``floors`` (trick key -> lowest target) and ``fail_rate`` < 1 make those trick keys
    two-phase where their pilot mostly failed (module docstring), the counted failures drawn
    from ``seed`` (:func:`fail_count_uniforms`); :attr:`rates` gives each key's share of
    failures (and makes) counted; ``value_searches`` counts the exact counts searched,
    ``questions`` the yes/no questions. ``make_rate`` < 1: the share of makes counted in a
    search that :meth:`sample_makes` names, from the deal it names on."""

    def __init__(self, keys: Sequence[SolveKey], declarer: int,
                 tick: Callable[[int], None] | None = None, misere_tricks: str = "bool",
                 floors: dict[SolveKey, int] | None = None, fail_rate: float = 1.0,
                 seed: int = 0, misere_budget: int = 0, misere_rate: float = 1.0,
                 make_rate: float = 1.0) -> None:
        from .. import solver  # numba: imported when an analysis runs, not with the package

        self._solver = solver
        self.misere_tricks = misere_tricks
        self.keys = list(dict.fromkeys(keys))
        self.declarer = declarer
        self.results: dict[SolveKey, np.ndarray] = {k: np.empty(0, np.int8) for k in self.keys}
        self.tick = tick or (lambda n: None)
        self.solves = 0
        self.value_searches = 0
        self.questions = 0
        self.floors = dict(floors or {})
        self.fail_rate = float(fail_rate)
        self.seed = seed
        self.two_phase: dict[SolveKey, bool] = {}  # the pilot's decision, once made
        self.make_rate = float(make_rate)
        self.fewer_makes: SolveKey | None = None  # the key whose makes are sampled ...
        self.makes_from = 0  # ... from this deal on
        self.makes_sampled: set[SolveKey] = set()  # keys that sampled their makes
        self.switched: set[SolveKey] = set()  # ... of which those the pilot left exact
        self._answers: dict[SolveKey, np.ndarray] = {}  # "at least T?" of deals not yet counted
        self._coins: dict[int, np.ndarray] = {}  # per stream, the pool's uniforms so far
        self.misere_budget = int(misere_budget) if misere_rate < 1 else 0
        self.misere_rate = float(misere_rate)
        # per misère key and solved deal: how many tiers of the node budget its search is
        # known to have passed (> 0: the stratum of which only a random share is counted)
        self.hard: dict[SolveKey, np.ndarray] = {k: np.zeros(0, np.int8) for k in self.keys
                                                 if k.mode == "zero"}
        self.deals = np.empty((0, 4), np.uint64)
        self.discards = np.empty((0, 4), np.uint64)
        self._ahead: Ahead | None = None  # jobs of the next rounds, started (:meth:`solve_to`)
        self.taken_ahead = 0  # answers the rounds took from jobs started ahead
        self._counted_to: dict[SolveKey, int] = {}  # a two-phase key's deals whose counts
        # a batch took (the counts started ahead, :meth:`_follow`, begin after them)
        self.taken_early = 0  # ... and a first round from its own (:meth:`_start_early`)
        self.costs = JobCosts()  # what each key's jobs cost so far: the batches' order

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

    def _per_deal(self, key: SolveKey, row: Sequence[int], lo: int,
                  idx: np.ndarray) -> np.ndarray | Sequence[int]:
        """The job rows of the key's deals ``lo + idx``: ``row`` itself, or, for a key that
        averages partner seats (:attr:`SolveKey.partners`), one row per deal with that deal's
        partner on the declaring side."""
        if not key.partners:
            return row
        seats = np.asarray(key.partners, np.int64)
        pick = partner_draws(self.seed, lo + (int(idx.max()) + 1 if len(idx) else 0),
                             len(seats))[lo + idx]
        rows = np.tile(np.asarray(row, np.int64), (len(idx), 1))
        rows[:, SIDE_COLUMN] = key.side_mask | (1 << seats[pick])
        return rows

    def _counts_misere(self) -> bool:
        return self.misere_tricks == "min"

    def _budgeted(self, key: SolveKey) -> bool:
        """A misère yes/no search with a node budget (:meth:`_misere_rows`)."""
        return key.mode == "zero" and self.misere_budget > 0 and not self._counts_misere()

    def _job_row(self, key: SolveKey, deals: np.ndarray,
                 res: np.ndarray) -> tuple[list[int], np.ndarray]:
        """The solver's job row for a key, and the samples it must search (a misère certain
        by :func:`solver.sure_misere` is settled here, in ``res``)."""
        s = self._solver
        todo = np.arange(len(deals))
        if key.mode == "at_least":
            row = s.value_job(key.strain, key.leader, key.side_mask, "max",
                                   first_guess(self.results[key]))
        elif key.mode == "zero":
            safe = s.sure_misere(deals, key.side_mask, key.leader)
            res[safe] = NO_TRICK
            todo = np.flatnonzero(~safe)
            if self._counts_misere():
                row = s.value_job(key.strain, key.leader, key.side_mask, "min")
            else:
                # boolean search: 0 tricks if he can lose every trick, else recorded as 1;
                # past its node budget, searched on only if its coin says so
                # (:meth:`_misere_rows`)
                row = s.question_job(key.strain, key.leader, key.side_mask, "at_most",
                                     NO_TRICK, self.misere_budget)
        else:
            # "exactly target" (Piccolissimo): a yes/no search; a success is recorded as
            # ``target`` tricks, a failure as 0 (the count is not searched)
            row = s.question_job(key.strain, key.leader, key.side_mask, "exactly",
                                      key.target)
        return row, todo

    def _misere_tiers(self, lo: int, idx: np.ndarray) -> np.ndarray:
        """The tiers past the node budget that the coins of deals ``lo + idx`` let their
        misère searches pass (:data:`MISERE_LEVELS`: to the end)."""
        if not len(idx):
            return np.zeros(0, np.int64)
        u = self.uniforms(lo + int(idx.max()) + 1, MISERE_STREAM)[lo + idx]
        tiers = np.zeros(len(idx), np.int64)
        for level in range(1, MISERE_LEVELS + 1):
            tiers += u < self.misere_rate**level
        return tiers

    def _misere_rows(self, row: Sequence[int], lo: int, todo: np.ndarray) -> np.ndarray:
        """The job rows of a budgeted misère key's deals ``lo + todo``: each search gives up
        past the tiers of nodes its coin allows (:meth:`_misere_tiers`), and its answer marks
        the tiers it passed. The coin is drawn before the search, so a search that is to go
        on does so where it is, with its table, instead of starting again."""
        s = self._solver
        rows = job_rows(row, len(todo))
        tiers = self._misere_tiers(lo, todo)
        rows[:, s.TIERS_FIELD] = np.where(tiers == MISERE_LEVELS, s.FINISH, tiers)
        return rows

    def _record(self, key: SolveKey, todo: np.ndarray, ans: np.ndarray,
                res: np.ndarray) -> None:
        """Store a key's answers; a time limit's unsolved jobs (-1) cut its results at the
        first one, so that every key keeps a prefix of the pool. A misère search that gave up
        past its node budget (``OVER_BUDGET``) is recorded as :data:`UNCOUNTED`; every one
        past the budget joins the key's :attr:`hard` deals with the tiers it is known to have
        passed (those marked, or one more than it was allowed)."""
        s = self._solver
        hard = np.zeros(len(res), np.int8)
        if self._budgeted(key):
            lo = len(self.results[key])
            over = ans == s.OVER_BUDGET
            marks = np.where(ans >= 0, ans // s.PAST_BUDGET, 0)
            hard[todo] = np.where(over, self._misere_tiers(lo, todo) + 1, marks)
            ans = np.where(ans >= 0, ans % s.PAST_BUDGET, ans)
        gave_up = np.flatnonzero(ans == -1)
        if len(gave_up):
            cut = todo[gave_up[0]]
            keep = todo < cut
            todo, ans, res, hard = todo[keep], ans[keep], res[:cut], hard[:cut]
        if key.mode == "at_least" or (key.mode == "zero" and self._counts_misere()):
            res[todo] = ans
        elif key.mode == "zero":
            # he can lose every trick: 0, else recorded as 1
            res[todo] = np.where(ans == s.OVER_BUDGET, UNCOUNTED, 1 - ans)
        else:
            res[todo] = np.where(ans == 1, key.target, 0)
        if key in self.hard:
            self.hard[key] = np.concatenate([self.hard[key], hard])
        self.results[key] = np.concatenate([self.results[key], res])
        self.solves += len(res)

    @property
    def strata(self) -> dict[SolveKey, np.ndarray]:
        """Per misère key that has any, its solved deals past the node budget."""
        return {k: h > 0 for k, h in self.hard.items() if h.any()}

    @property
    def misere_skipped(self) -> int:
        """Misère searches past their budget that gave up (were not searched to the end)."""
        return sum(int((self.results[k][h > 0] < 0).sum()) for k, h in self.hard.items())

    @property
    def rates(self) -> dict[SolveKey, np.ndarray]:
        """Per key and solved deal, the share of its failures counted exactly: 1 for a search
        that counts every deal, else the two-phase search's counted failures over its
        failures (the ratio estimate's sampling fraction, :mod:`.statistics`); for a misère
        search's deals past the node budget (:attr:`strata`), their chance of being counted
        (:func:`tier_chances`)."""
        out = {}
        for key, t in self.results.items():
            out[key] = np.ones(len(t))
            if self.two_phase.get(key):
                made = made_floor(t, self.floors[key])
                out[key] = np.where(made, counted_share(made, t), counted_share(~made, t))
            hard = self.hard.get(key)
            if hard is not None and hard.any():
                out[key] = tier_chances(hard, self.misere_rate)
        return out

    def _may_go_two_phase(self, key: SolveKey) -> bool:
        return key.mode == "at_least" and self.fail_rate < 1 and self.floors.get(key, 0) > 0

    def sample_makes(self, key: SolveKey | None, start: int) -> None:
        """Count only a seeded share (``make_rate``) of ``key``'s makes, as of its failures,
        from the round that begins at deal ``start`` or later: its rows need only its yes/no
        answers (module docstring); None: count every make again. A search that counted
        every deal goes two-phase there: its rounds ask first, and the counts its look-ahead
        started from ``start`` on are stopped (those before it, which that look-ahead began
        first, are what its rounds will ask). Named again, a key keeps its first start."""
        if self.make_rate >= 1 or key == self.fewer_makes:
            return
        self.fewer_makes = None
        if key is None or key.mode != "at_least" or self.floors.get(key, 0) <= 0:
            return
        self.fewer_makes, self.makes_from = key, start
        if not self.two_phase.get(key) and self._ahead is not None:
            self._ahead.stop_from(key, start)

    def _asked_from(self, key: SolveKey) -> int | None:
        """The first deal of ``key`` whose round asks "at least T?" first (None: none)."""
        if self.two_phase.get(key):
            return 0
        return self.makes_from if key == self.fewer_makes else None

    def _switch(self, keys: Sequence[SolveKey]) -> None:
        """A round of the key named by :meth:`sample_makes` begins at its start: from now on
        its rounds ask first."""
        key = self.fewer_makes
        if key in keys and len(self.results[key]) >= self.makes_from:
            self.makes_sampled.add(key)
            if not self.two_phase.get(key):
                self.two_phase[key] = True
                self.switched.add(key)

    def _make_rates(self, key: SolveKey, deal: np.ndarray) -> np.ndarray:
        """The share of makes counted on each of ``key``'s deals ``deal``."""
        if key != self.fewer_makes:
            return np.ones(len(deal))
        return np.where(deal >= self.makes_from, self.make_rate, 1.0)

    def uniforms(self, n: int, stream: int = FAIL_COUNT_STREAM) -> np.ndarray:
        """:func:`fail_count_uniforms` of the first ``n`` deals of the pool (the failures'
        stream, or :data:`MISERE_STREAM`)."""
        u = self._coins.get(stream, np.empty(0))
        if len(u) < n:
            u = self._coins[stream] = fail_count_uniforms(self.seed, max(n, 2 * len(u)), stream)
        return u[:n]

    def _ask(self, keys: Sequence[SolveKey], n: int, deadline: float | None,
             asked: Ahead | None = None) -> None:
        """Ask "at least T?" of each key's deals up to the ``n``-th not yet answered, in one
        batch; the answers wait in ``_answers`` for the counts. An answer the time limit left
        out ends a key's answers there (the prefix rule). ``asked``: those questions, started
        ahead (:meth:`_start_questions`): their answers are taken, and it is dropped."""
        ask = _Batch()
        for key in keys:
            lo = len(self.results[key]) + len(self._answers.get(key, ()))
            if lo >= n:
                continue
            deals, rows = self._question_rows(key, lo, n)
            every = np.arange(len(deals))
            ask.add(key, deals, rows, every, np.empty(0, np.int8))
        if asked is None:
            out = ask.run(self._solver, self.costs, deadline, None, self._ahead,
                          waiting=self._follow)
        else:
            asked.begin()
            try:
                out = ask.run(self._solver, self.costs, deadline, None, asked)
            finally:
                asked.drop()
                self.taken_early += asked.taken
        for key, lo, todo, _ in ask.spans:
            ans = out[lo : lo + len(todo)]
            unsolved = np.flatnonzero(ans < 0)
            ans = ans[: unsolved[0]] if len(unsolved) else ans
            self._answers[key] = np.concatenate([self._answers.get(key, np.empty(0, np.int8)),
                                                 ans.astype(np.int8)])
            self.questions += len(ans)

    def _decide(self, keys: Sequence[SolveKey], n: int, deadline: float | None) -> None:
        """The pilot: a key not yet decided goes two-phase if most of its first :data:`PILOT`
        deals (or its first ``n``, if fewer) fail its floor."""
        fresh = [k for k in keys if self._may_go_two_phase(k) and k not in self.two_phase]
        self._ask(fresh, min(PILOT, n), deadline)
        for key in fresh:
            a = self._answers.get(key, np.empty(0))
            if len(a):
                self.two_phase[key] = bool((a == 0).mean() >= TWO_PHASE_MIN_FAIL_SHARE)

    def _add_counts(self, key: SolveKey, batch: _Batch) -> int:
        """Phase B of a two-phase key: its answered deals' value jobs (the makes and the
        failures drawn for counting) join ``batch``; returns how many deals were skipped."""
        t = self.floors[key]
        ans = self._answers.pop(key, np.empty(0, np.int8))
        done, m = len(self.results[key]), len(ans)
        made = ans == 1
        before = made_floor(self.results[key], t)
        coin = self.uniforms(done + m)[done:]
        pick = np.zeros(m, bool)
        for mine, seen, rate in ((made, before, self._make_rates(key, done + np.arange(m))),
                                 (~made, ~before, self.fail_rate)):
            rank = int(seen.sum()) + np.cumsum(mine)
            pick |= mine & ((rank <= MIN_COUNTED) | (coin < rate))
        res = np.where(pick, 0, np.where(made, mark_make(t), UNCOUNTED)).astype(np.int8)
        sel = np.flatnonzero(pick)
        self._counted_to[key] = done + m
        batch.add(key, self._deals_for(key, done, done + m),
                  self._count_rows(key, done, sel, made[sel]), sel, res)
        return m - len(sel)

    def _count_rows(self, key: SolveKey, lo: int, idx: np.ndarray,
                    made: np.ndarray) -> np.ndarray:
        """The count jobs of a two-phase key's deals ``lo + idx``, whose "at least T?" said
        ``made``: each searches only above or below its answer."""
        s, t = self._solver, self.floors[key]
        row = s.value_job(key.strain, key.leader, key.side_mask, "max")
        rows = job_rows(self._per_deal(key, row, lo, idx), len(idx))
        answered(rows, made, t)
        g = first_guess(self.results[key])
        if g >= 0:
            rows[:, TARGET_COLUMN] = np.where(made, max(g, t), min(g, t - 1))
        return rows

    def _follow(self) -> None:
        """While the caller waits: each question of a two-phase key run ahead that answered
        since the last look starts, before the other jobs run ahead, the count its round will
        ask of the deal: a make's, or a failure's whose coin says count it (the first
        failures, counted whatever their coins, are left to the round)."""
        if self._ahead is None:
            return
        for key, jobs, ans in self._ahead.answered_questions():
            if not self.two_phase.get(key):
                continue
            made = ans == 1
            coin = self.uniforms(int(jobs.deal.max()) + 1)[jobs.deal]
            drawn = coin < np.where(made, self._make_rates(key, jobs.deal), self.fail_rate)
            new = drawn & (jobs.deal >= self._counted_to.get(key, 0))
            if new.any():
                j = jobs.where(new)
                self._ahead.start(Jobs(j.hands, self._count_rows(key, 0, j.deal, made[new]),
                                       j.deal), [key] * len(j.deal), first=True)

    def _exact_rows(self, key: SolveKey, lo: int,
                    n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Deals ``lo .. n-1`` of ``key`` as its game sees them, their job rows (searching
        every count, or asking every misère), the deals to search and the results so far
        (a misère certain without a search settled in them)."""
        deals = self._deals_for(key, lo, n)
        res = np.ones(len(deals), dtype=np.int8)
        row, todo = self._job_row(key, deals, res)
        row = self._per_deal(key, row, lo, todo)
        if self._budgeted(key):
            row = self._misere_rows(row, lo, todo)
        return deals, job_rows(row, len(todo)), todo, res

    def _add_exact(self, key: SolveKey, n: int, batch: _Batch) -> None:
        """Every deal of ``key`` up to the ``n``-th counted (or asked, for misères); a pilot's
        answers, if any, give the first guesses of its deals."""
        deals, rows, todo, res = self._exact_rows(key, len(self.results[key]), n)
        ans = self._answers.pop(key, None)
        if ans is not None and len(ans):
            answered(rows[: len(ans)], ans == 1, self.floors[key])
        batch.add(key, deals, rows, todo, res)

    def _question_rows(self, key: SolveKey, lo: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Deals ``lo .. n-1`` of a two-phase ``key`` and their "at least T?" rows."""
        row = self._solver.question_job(key.strain, key.leader, key.side_mask, "at_least",
                                        self.floors[key])
        deals = self._deals_for(key, lo, n)
        return deals, job_rows(self._per_deal(key, row, lo, np.arange(len(deals))), len(deals))

    def _start_ahead(self, keys: Sequence[SolveKey], lo: int, hi: int) -> None:
        """Start, in the workers' idle time, the jobs that the next rounds of ``keys`` on
        deals ``lo .. hi-1`` would run first (each count, misère and question; a two-phase
        key's counts wait for its answers): those made before and not begun, then the new
        ones, in parts of one key's jobs on :data:`~.ahead.PART_DEALS` deals, the nearest
        deals first and of each stretch the misère keys that may run longest. Jobs that other
        keys had waiting are forgotten: they stopped."""
        look = self._ahead if self._ahead is not None else Ahead(self._solver.start_jobs)
        self._ahead = look
        made: dict[SolveKey, Jobs] = {}
        for key in keys:
            held = look.take_held(key, lo)
            have = [held] if held is not None else []
            start = max(lo, look.covered.get(key, lo))
            if start < hi:
                have.append(self._jobs_of(key, start, hi))
                look.covered[key] = hi
            if have:
                made[key] = Jobs.joined(have)
        look.held.clear()
        look.covered = {k: v for k, v in look.covered.items() if k in keys}
        if not made:
            return
        longest = {k: int(self._solver.tiers_allowed(j.jobs).max(initial=0))
                   for k, j in made.items()}
        order = sorted(made, key=lambda k: -longest[k])
        stretch = {k: j.deal // PART_DEALS for k, j in made.items()}
        for s in np.unique(np.concatenate(list(stretch.values()))):
            for key in order:
                mine = stretch[key] == s
                look.start(made[key].where(mine), [key] * int(mine.sum()))

    def _jobs_of(self, key: SolveKey, lo: int, hi: int) -> Jobs:
        """The jobs the rounds of ``key`` on deals ``lo .. hi-1`` ask first: a two-phase
        key's questions (from :meth:`_asked_from` on), another's counts or misères."""
        cut = self._asked_from(key)
        cut = hi if cut is None else min(max(cut, lo), hi)
        parts = []
        if lo < cut:
            deals, rows, todo, _ = self._exact_rows(key, lo, cut)
            parts.append(Jobs(deals[todo], rows, lo + todo))
        if cut < hi:
            deals, rows = self._question_rows(key, cut, hi)
            parts.append(Jobs(deals, rows, cut + np.arange(len(deals))))
        return Jobs.joined(parts)

    def _start_early(self, keys: Sequence[SolveKey], n: int) -> Ahead | None:
        """Start, in the workers' idle time, the misère and "exactly" searches of ``keys``
        not yet begun, up to the ``n``-th deal (the longest first, as in the round's batch):
        a first round's pilots and questions, which run before its batch, leave a worker
        idle at their ends. None: no such search."""
        rest = [k for k in keys if k.mode != "at_least" and not len(self.results[k])]
        return self._run_ahead(rest, 0, n) if rest else None

    def _start_questions(self, keys: Sequence[SolveKey], n: int) -> Ahead | None:
        """Start, in the workers' idle time, the "at least T?" questions of the two-phase
        ``keys`` up to the ``n``-th deal (:meth:`_ask` takes them). None: none to ask, or the
        keys are not all asked up to the same deal."""
        los = {len(self.results[k]) + len(self._answers.get(k, ())) for k in keys}
        if len(los) != 1 or min(los) >= n:
            return None
        return self._run_ahead(keys, los.pop(), n)

    def _run_ahead(self, keys: Sequence[SolveKey], lo: int, hi: int) -> Ahead | None:
        """Start the jobs of ``keys`` on deals ``lo .. hi-1`` as a round would ask them
        (:meth:`_jobs_of`) behind every waited batch, in one part, those that may run longest
        first."""
        made = [self._jobs_of(key, lo, hi) for key in keys]
        owner = [key for key, j in zip(keys, made, strict=True) for _ in range(len(j.deal))]
        if not owner:
            return None
        jobs = Jobs.joined(made)
        order = np.argsort(-self._solver.tiers_allowed(jobs.jobs), kind="stable")
        ahead = Ahead(self._solver.start_jobs)
        ahead.start(jobs.where(order), [owner[i] for i in order])
        return ahead

    @property
    def workers(self) -> int:
        """How many workers the next batch will have."""
        return self._solver.workers()

    def stop_ahead(self, keys: Sequence[SolveKey]) -> None:
        """The rounds settled ``keys``: stop their jobs started ahead."""
        if self._ahead is not None:
            self._ahead.stop(keys)

    def drop_ahead(self) -> None:
        """Stop the jobs started ahead of rounds that will not come."""
        if self._ahead is not None:
            self._retire(self._ahead)
            self._ahead = None

    def _retire(self, ahead: Ahead) -> None:
        ahead.drop()
        self.taken_ahead += ahead.taken

    def solve_to(self, keys: Sequence[SolveKey], n: int, deadline: float | None = None,
                 ahead: int = 0) -> None:
        """Solve each of ``keys`` on the pool's samples it has not seen, up to the ``n``-th:
        the yes/no questions of the pilots and of the two-phase keys in first parallel
        batches (:func:`solver.solve_jobs`), then every count in one more: the misère
        questions that may run furthest past their budget first, then the trick searches,
        then the other, usually quick, misère questions, which fill the workers' idle tail.

        ``deadline`` (a ``time.perf_counter()`` value): the searches still running then give
        up, and each key keeps its results up to its first sample left unsolved.

        ``ahead`` > ``n`` (the pool holds that many samples): once the last batch is with
        the workers, the jobs of the next rounds of ``keys`` up to the ``ahead``-th sample
        start in their idle time (while this round's slowest searches end, while the caller
        scores it, and on through later rounds until :meth:`stop_ahead` or
        :meth:`drop_ahead`); later calls take the answers of those they need (:class:`Ahead`).
        Answers depend only on deal and job, so the results are the same with or without."""
        keys = [k for k in keys if len(self.results[k]) < n]
        self._switch(keys)
        early = None
        if self._ahead is not None:
            self._ahead.begin()
        elif deadline is None:
            early = self._start_early(keys, n)
        asked = None
        try:
            self._decide(keys, n, deadline)
            fresh = [k for k in keys if k.mode == "at_least" and not self.two_phase.get(k)
                     and len(self.results[k]) == 0]
            two = [k for k in keys if self.two_phase.get(k)]
            if fresh and n > 2 * PILOT:
                if self._ahead is None and deadline is None:
                    # the questions fill the idle end of the few counts that come first
                    asked = self._start_questions(two, n)
                # a few deals first, so that the rest start from their median (first_guess)
                self.solve_to(fresh, PILOT, deadline)
            self._ask(two, n, deadline, asked)
            batch = _Batch()
            skipped = sum(self._add_counts(k, batch) for k in two)
            self.tick(skipped)
            for key in sorted(keys, key=lambda k: k.mode != "at_least"):
                if not self.two_phase.get(key):
                    self._add_exact(key, n, batch)
        except BaseException:
            for started in (early, asked):
                if started is not None:
                    started.drop()
            raise
        if early is not None:
            early.begin()
        try:
            out = batch.run(self._solver, self.costs, deadline, self.tick,
                            early if early is not None else self._ahead,
                            (lambda: self._start_ahead(keys, n, ahead)) if ahead > n else None,
                            self._follow)
        finally:
            if early is not None:  # it ran this round's jobs only: no later round needs it
                early.drop()
                self.taken_early += early.taken
        for key, lo, todo, res in batch.spans:
            if key.mode == "at_least":
                self.value_searches += len(todo)
            self._record(key, todo, out[lo : lo + len(todo)], res)
