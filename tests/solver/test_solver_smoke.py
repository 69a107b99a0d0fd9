"""Quick sanity checks of the solver's public API on positions whose answers are obvious.

The thorough suites (naive reference, DDS, golden positions) live in other test files.
"""

from __future__ import annotations

import numpy as np
import pytest

from boston_sim.cards import boston_card_transform, parse_deal
from boston_sim.errors import SolverInputError
from boston_sim.solver import solve, solve_batch, solve_batch_target, solve_target

# every hand one complete suit: N spades, E hearts, S diamonds, W clubs
SUITS_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_solid_suit_on_lead_takes_everything():
    # N leads spades (trumps or not) and nobody can follow or ruff
    assert solve(SUITS_DEAL, "S", "N", "N") == 13
    assert solve(SUITS_DEAL, "NT", "N", "N") == 13
    # with E on lead, E's hearts take every trick in NT
    assert solve(SUITS_DEAL, "NT", "E", "N") == 0
    # ... but in spades N ruffs the first heart and runs the rest
    assert solve(SUITS_DEAL, "S", "E", "N") == 13


def test_misere_and_exactly_on_a_one_card_ending():
    deal = "N:2... 3... 4... 5..."  # W's five wins the only trick
    assert solve_target(deal, "NT", "N", "N", kind="at_most", target=0)
    assert not solve_target(deal, "NT", "N", "W", kind="at_most", target=0)
    assert solve_target(deal, "NT", "N", "W", kind="exactly", target=1)
    assert not solve_target(deal, "NT", "N", "N", kind="exactly", target=1)


def test_boston_card_is_the_top_trump():
    # N holds the J of diamonds, which becomes rank 15 of spades when spades are trumps
    hands = boston_card_transform(parse_deal("N:..J. A... K... Q..."), 0)
    assert solve_batch(hands.reshape(1, 4), 0, 1, 0b0001)[0] == 1
    # in no trump the J of diamonds is a diamond and never wins a spade trick
    plain = parse_deal("N:..J. A... K... Q...").reshape(1, 4)
    assert solve_batch(plain, 4, 1, 0b0001)[0] == 0


def test_batch_does_not_depend_on_thread_count():
    import numba

    rng = np.random.default_rng(5)
    bits = np.array([s * 16 + r for s in range(4) for r in range(2, 15)], dtype=np.uint64)
    deals = np.zeros((12, 4), dtype=np.uint64)
    for i in range(12):
        perm = bits[rng.permutation(52)[:20]]
        for seat in range(4):
            deals[i, seat] = np.bitwise_or.reduce(np.uint64(1) << perm[5 * seat : 5 * seat + 5])
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve_batch(deals, 4, 0, 0b0101)
        one_min = solve_batch(deals, 1, 0, 0b0001, mode="min")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = solve_batch(deals, 4, 0, 0b0101)
        two_min = solve_batch(deals, 1, 0, 0b0001, mode="min")
    finally:
        numba.set_num_threads(before)
    assert (one == two).all() and (one_min == two_min).all()
    singles = [solve(deals[i], "NT", "N", "N", "S") for i in range(12)]
    assert list(one) == singles
    # yes/no forms agree with the values
    assert (solve_batch_target(deals, 4, 0, 0b0101, "at_least", 3) == (one >= 3)).all()


@pytest.mark.parametrize(
    "hands, message",
    [
        (np.array([[1 << 2, 1 << 3, 1 << 4, (1 << 5) | (1 << 6)]], dtype=np.uint64), "unequal"),
        (np.array([[1 << 2, 1 << 2, 1 << 4, 1 << 5]], dtype=np.uint64), "two hands"),
        (np.array([[1 << 0, 1 << 3, 1 << 4, 1 << 5]], dtype=np.uint64), "not a card"),
        (np.array([[0, 0, 0, 0]], dtype=np.uint64), "1 to 13"),
    ],
)
def test_bad_positions_are_refused(hands, message):
    with pytest.raises(SolverInputError, match=message):
        solve_batch(hands, 4, 0, 1)


def test_bad_parameters_are_refused():
    hands = parse_deal(SUITS_DEAL).reshape(1, 4)
    with pytest.raises(SolverInputError):
        solve_batch(hands, 5, 0, 1)
    with pytest.raises(SolverInputError):
        solve_batch(hands, 4, 4, 1)
    with pytest.raises(SolverInputError):
        solve_batch(hands, 4, 0, 0b1111)
    with pytest.raises(SolverInputError):
        solve(SUITS_DEAL, "NT", "N", "S", partner="S")
    with pytest.raises(SolverInputError):
        solve_batch_target(hands, 4, 0, 1, "sometimes", 1)


def _random_endings(n: int, cards: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bits = np.array([s * 16 + r for s in range(4) for r in range(2, 15)], dtype=np.uint64)
    deals = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        perm = bits[rng.permutation(52)[: 4 * cards]]
        for seat in range(4):
            deals[i, seat] = np.bitwise_or.reduce(
                np.uint64(1) << perm[cards * seat : cards * (seat + 1)])
    return deals


def test_first_guess_changes_the_work_not_the_answer():
    deals = _random_endings(16, 6, 11)
    for trump, side in ((4, 0b0001), (1, 0b0101), (2, 0b0010)):
        base = solve_batch(deals, trump, 0, side)
        for guess in (0, 1, 3, 6, 13):
            assert (solve_batch(deals, trump, 0, side, guess=guess) == base).all()


def test_the_high_card_estimate_moves_the_sides_even_share_by_points_and_trumps():
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import (
        HCP_WEIGHT,
        HCP_WEIGHT_NT,
        TRUMP_WEIGHT,
        high_card_estimate,
    )

    # N holds every honour but the club K, Q and J
    deal = "N:AKQJ.AKQJ.AKQJ.A T98.T98.T98.KQJ4 765.765.765.T983 432.432.432.7652"
    lanes = to_lanes(parse_deal(deal).reshape(1, 4))[0]
    # N alone: an even share of 13 / 4, and 34 of the 40 points
    assert high_card_estimate(lanes, 4, 0b0001, 13) == pytest.approx(
        13 / 4 + HCP_WEIGHT_NT * (13 * 34 / 40 - 13 / 4))
    assert high_card_estimate(lanes, 4, 0b0100, 13) == pytest.approx(13 / 4 * (1 - HCP_WEIGHT_NT))
    # E-W: 6 of the 40 points; with clubs as trumps, 8 of the 13 trumps (1.5 over half)
    assert high_card_estimate(lanes, 4, 0b1010, 13) == pytest.approx(
        6.5 + HCP_WEIGHT_NT * (13 * 6 / 40 - 6.5))
    assert high_card_estimate(lanes, 3, 0b1010, 13) == pytest.approx(
        6.5 + HCP_WEIGHT * (13 * 6 / 40 - 6.5) + TRUMP_WEIGHT * 1.5)
    # whatever the weights, two sides that share out the deal share out the estimate
    for trump in range(5):
        for side in (0b0001, 0b0101, 0b0011, 0b1001):
            assert high_card_estimate(lanes, trump, side, 13) + high_card_estimate(
                lanes, trump, 15 ^ side, 13) == pytest.approx(13)


def test_mixed_jobs_answer_as_the_serial_solver():
    from boston_sim.solver import question_job, solve_jobs, to_lanes, value_job
    from boston_sim.solver.kernels import ask_lanes, new_workspace, solve_lanes

    deals = _random_endings(10, 5, 12)
    lanes = to_lanes(deals)
    ws = new_workspace()

    def serial_value(trump, leader, side, mode):
        return [solve_lanes(lanes[i].copy(), trump, leader, side, ws, mode=mode)
                for i in range(len(deals))]

    def serial_question(trump, leader, side, kind, target):
        return [ask_lanes(lanes[i].copy(), trump, leader, side, ws, kind=kind, target=target)
                for i in range(len(deals))]

    games = [
        (value_job(1, 0, 0b0001), serial_value(1, 0, 0b0001, "max")),
        (value_job(4, 2, 0b0101, "min"), serial_value(4, 2, 0b0101, "min")),
        (value_job(0, 3, 0b0001, guess=2), serial_value(0, 3, 0b0001, "max")),
        (question_job(4, 1, 0b0001, "at_most", 0), serial_question(4, 1, 0b0001, "at_most", 0)),
        (question_job(3, 0, 0b0010, "exactly", 1), serial_question(3, 0, 0b0010, "exactly", 1)),
    ]
    # every game on every deal, interleaved in one parallel call
    hands = np.concatenate([deals] * len(games))
    jobs = np.concatenate([np.tile(np.asarray(row), (len(deals), 1)) for row, _ in games])
    order = np.random.default_rng(0).permutation(len(hands))
    out = np.empty(len(hands), dtype=np.int8)
    out[order] = solve_jobs(hands[order], jobs[order])
    for k, (_, want) in enumerate(games):
        assert out[k * len(deals) : (k + 1) * len(deals)].tolist() == want


def test_bad_jobs_are_refused():
    from boston_sim.solver import solve_jobs, value_job

    deals = _random_endings(2, 3, 13)
    good = np.tile(np.asarray(value_job(0, 0, 1)), (2, 1))
    with pytest.raises(SolverInputError, match="shape"):
        solve_jobs(deals, good[:1])
    for col, bad in ((0, 5), (1, 4), (2, 0), (2, 15), (3, 2), (4, 2)):
        jobs = good.copy()
        jobs[1, col] = bad
        with pytest.raises(SolverInputError, match="job 1"):
            solve_jobs(deals, jobs)
    with pytest.raises(SolverInputError, match="mode"):
        value_job(0, 0, 1, "most")
    # a bad deal is named by its index in the batch, not in its trump's group
    mixed = np.vstack([value_job(4, 0, 1), value_job(0, 0, 1), value_job(0, 0, 1)])
    three = _random_endings(3, 3, 14)
    n, e = int(three[2, 0]), int(three[2, 1])
    three[2, 0] = np.uint64((n & (n - 1)) | (e & -e))  # N's lowest card becomes E's lowest
    with pytest.raises(SolverInputError, match="deal 2: a card is in two hands"):
        solve_jobs(three, mixed)


def _random_deals(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deals = np.zeros((n, 4), dtype=np.uint64)
    for d in range(n):
        for k, c in enumerate(rng.permutation(52)):
            deals[d, k // 13] |= np.uint64(1) << np.uint64(16 * (c // 13) + 2 + c % 13)
    return deals


def test_work_on_a_deal_does_not_depend_on_the_deals_before_it():
    """Nothing of one deal's search (table entries, killer moves) steers the next one's: a
    deal costs the same nodes in a fresh workspace as after other deals."""
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import ask_lanes, new_workspace, solve_lanes

    lanes = to_lanes(_random_deals(4, 5))

    def nodes(ws, i: int, misere: bool) -> int:
        ws.reset_stats()
        if misere:
            ask_lanes(lanes[i].copy(), 4, 0, 1, ws, kind="at_most", target=0)
        else:
            solve_lanes(lanes[i].copy(), 0, 1, 0b0101, ws)
        return ws.stats().nodes

    for misere in (False, True):
        fresh = [nodes(new_workspace(16), i, misere) for i in range(4)]
        used = new_workspace(16)
        after = [nodes(used, i, misere) for i in (3, 2, 1, 0)][::-1]
        assert after == fresh


def test_each_game_fills_the_table_from_the_start_of_its_pool():
    """A new game writes its entries from the pool's first slot again (memory the last game
    warmed), not after the last game's: after two games the pool holds as many entries as the
    second game alone stores, and the answers are those of a fresh workspace."""
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import new_workspace, solve_lanes

    lanes = to_lanes(_random_deals(2, 9))

    def game(ws, i: int) -> int:
        return solve_lanes(lanes[i].copy(), 4, 1, 0b0101, ws)

    fresh = new_workspace(16)
    alone = game(fresh, 1)
    stored = fresh.table_entries
    used = new_workspace(16)
    game(used, 0)
    assert used.table_entries > 0
    assert game(used, 1) == alone
    assert used.table_entries == stored


def test_an_aborted_search_gives_up_and_restores_the_hands():
    """With the abort flag set, a search that expands 4096 nodes returns -1, with the hands as
    they were (a question settled sooner still answers); without it the same search answers."""
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import ask_lanes, new_workspace, solve_lanes

    lanes = to_lanes(_random_deals(6, 8))
    big = []
    for i in range(len(lanes)):
        ws = new_workspace(18)
        value = solve_lanes(lanes[i].copy(), 4, 0, 0b0001, ws)
        if ws.stats().nodes > 8192:
            big.append((i, value))
    assert big, "no deal needed 8192 nodes: pick other deals"
    for i, value in big:
        ws = new_workspace(18)
        ws.abort()
        hl = lanes[i].copy()
        assert solve_lanes(hl, 4, 0, 0b0001, ws) == -1
        assert (hl == lanes[i]).all()
        # a question gives up too, unless it is settled within 4096 nodes
        assert ask_lanes(hl, 4, 0, 0b0001, ws, kind="at_least", target=value) in (-1, 1)
        assert ask_lanes(hl, 4, 0, 0b0001, ws, kind="at_most", target=value - 1) in (-1, 0)
        assert (hl == lanes[i]).all()
        ws.abort(False)
        assert solve_lanes(hl, 4, 0, 0b0001, ws) == value


def test_a_batch_deadline_leaves_the_unsolved_jobs_at_minus_one():
    """solve_jobs with a deadline: the jobs still running or not started then are -1, every
    other answer is the one without a deadline, and the next batch is not affected."""
    import time

    from boston_sim.solver import solve_jobs, value_job

    deals = _random_deals(24, 9)
    jobs = np.tile(np.asarray(value_job(4, 0, 0b0001), dtype=np.int64), (len(deals), 1))
    # timed on a second run: the first also loads the kernels and first touches the tables'
    # memory, which can take longer than the searches (then a deadline at 1/8 of it might
    # cut nothing)
    full = solve_jobs(deals, jobs)
    t = time.perf_counter()
    assert (solve_jobs(deals, jobs) == full).all()
    took = time.perf_counter() - t
    assert (full >= 0).all()
    assert (solve_jobs(deals, jobs, deadline=time.perf_counter()) == -1).all()
    cut = solve_jobs(deals, jobs, deadline=time.perf_counter() + took / 8)
    assert (cut < 0).any()
    done = cut >= 0
    assert (cut[done] == full[done]).all()
    assert (solve_jobs(deals, jobs) == full).all()


def test_batch_progress_is_reported_in_the_calling_thread_and_adds_up():
    """solve_jobs(progress=...): the same answers, the counts add up to the jobs, every call
    comes from the caller's thread, also with one numba thread."""
    import threading

    import numba

    from boston_sim.solver import solve_jobs, value_job

    deals = _random_deals(16, 4)
    jobs = np.tile(np.asarray(value_job(0, 0, 0b0001), dtype=np.int64), (len(deals), 1))
    full = solve_jobs(deals, jobs)
    calls: list[tuple[int, int]] = []
    got = solve_jobs(deals, jobs, progress=lambda n: calls.append((n, threading.get_ident())))
    assert (got == full).all()
    assert sum(n for n, _ in calls) == len(deals) and all(n > 0 for n, _ in calls)
    assert {t for _, t in calls} == {threading.get_ident()}
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert (solve_jobs(deals, jobs, progress=lambda n: None) == full).all()
    finally:
        numba.set_num_threads(before)


def test_an_exception_while_a_watched_batch_runs_stops_it_and_leaves_the_solver_usable(
        monkeypatch):
    """An exception in the calling thread while the workers run (here raised by the progress
    callback; Ctrl-C is the same) makes them give up: the jobs not finished by then are
    left unanswered (-1), the exception is raised from solve_jobs, and the next batch gets
    the full answers. (Checked on the batch's own answers, not on its time, which a busy
    machine can stretch.)"""
    from boston_sim.solver import solve_jobs, value_job
    from boston_sim.solver._pool import Pool

    # the same 12 deals four times: the first jobs end long before the batch does
    deals = np.concatenate([_random_deals(12, 9)] * 4)
    jobs = np.tile(np.asarray(value_job(4, 0, 0b0001), dtype=np.int64), (len(deals), 1))
    full = solve_jobs(deals, jobs)

    class Stop(Exception):
        pass

    def stop(n: int) -> None:
        raise Stop

    seen: dict[str, np.ndarray] = {}
    submit = Pool.submit

    def spy(self, lanes, jobs, priority=0, first=False):
        ticket = submit(self, lanes, jobs, priority, first)
        seen["out"] = ticket.out  # the batch's answers, filled by the workers
        return ticket

    monkeypatch.setattr(Pool, "submit", spy)
    with pytest.raises(Stop):
        solve_jobs(deals, jobs, progress=stop)
    out = seen["out"]
    assert (out == -1).any()  # given up before the batch was over
    done = out >= 0
    assert (out[done] == full[done]).all()
    assert (solve_jobs(deals, jobs) == full).all()


def test_the_pool_runs_jobs_in_its_own_threads_and_raises_a_kernels_error_to_the_caller():
    """A pool's workers run the kernel in threads of their own; an exception raised by the
    kernel is raised from the caller's wait, and the pool goes on answering."""
    import threading

    from boston_sim.solver._layout import P_SIZE
    from boston_sim.solver._pool import Pool

    seen = set()

    def kernel(lanes, jobs, counter, out, *workspace):
        seen.add(threading.get_ident())
        if jobs[0, 0] < 0:
            raise ValueError("kernel failed")
        while True:  # one worker: the counter needs no atomics here
            i = counter[0]
            counter[0] += 1
            if i >= len(jobs):
                break
            out[i] = jobs[i, 0]
            counter[1] += 1

    def claim(counter):
        taken = int(counter[0])
        counter[0] += 1 << 40
        return taken

    pool = Pool(1, (np.zeros((1, 1)),) * 4 + (np.zeros((1, P_SIZE), np.int64),), kernel, claim)
    lanes = np.zeros((3, 16), np.int64)
    with pytest.raises(ValueError, match="kernel failed"):
        pool.wait(pool.submit(lanes, np.full((3, 1), -1, np.int64)))
    out = pool.wait(pool.submit(lanes, np.array([[4], [5], [6]], np.int64)))
    assert out.tolist() == [4, 5, 6]
    assert threading.get_ident() not in seen and len(seen) == 1
    pool.close()
