"""The Python API raises the project's errors (``BostonSimError``, a ``ValueError``) for
wrong types and out-of-range numbers, checked before any work: never ``TypeError``,
``OverflowError`` or a numba typing error from deep inside."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import boston_sim as bs
from boston_sim.batch import analyze_one
from boston_sim.errors import BostonSimError
from boston_sim.settings import AnalysisSettings
from boston_sim.solver import solve_target

DEAL = "N:AKQ2.JT9.876.543 JT98.AKQ.AKQ.AKQ 7654.8765.5432.2 3.432.JT9.JT9876"
HAND = "AKQ2.JT9.876.543"

MISUSE = [
    lambda: solve_target(DEAL, 0, 1, 0, kind="at_least", target=2**70),
    lambda: solve_target(DEAL, 0, 1, 0, kind="at_least", target=14),
    lambda: AnalysisSettings(seed=-1),
    lambda: AnalysisSettings(seed=2**64),
    lambda: AnalysisSettings.build(bogus=1),
    lambda: AnalysisSettings(options=[1, 2]),
    lambda: bs.analyze(HAND, samples=10**12),
    lambda: bs.analyze(HAND, samples="10"),
    lambda: bs.analyze(HAND, samples=1),
    lambda: bs.analyze(HAND, risk_threshold=float("nan")),
    lambda: bs.analyze(HAND, risk_threshold=float("inf")),
    lambda: bs.analyze(HAND, max_time=-1),
    lambda: bs.analyze(HAND, threads=2**70),
    lambda: bs.analyze(HAND, precision=0),
    lambda: bs.analyze(HAND, options={"pool": 1e308}),
    lambda: bs.analyze(HAND, constraints=["second:S>=" + "9" * 4301]),
    lambda: bs.analyze(HAND, known=[1]),
    lambda: solve_target(DEAL, 0, 1, 0, kind=[], target=3),
    lambda: bs.load_rules("r" * 300),
    lambda: bs.load_rules("boston_foster", "pool=1"),
    lambda: bs.load_rules(None),
    lambda: bs.run_batch(None),
    lambda: bs.analyze(HAND, known=[("SA", "dealer", 3)]),
    lambda: bs.analyze(HAND, bracket=np.array([True, False])),
    lambda: bs.analyze(HAND, bracket="yes"),
]


@pytest.mark.parametrize("call", MISUSE)
def test_misuse_raises_a_project_error(call):
    with pytest.raises(BostonSimError):
        call()


def test_an_unknown_setting_is_still_a_type_error_too():
    with pytest.raises(TypeError):
        AnalysisSettings.build(bogus=1)


# --------------------------------------------------------------------------- every public name

QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only
WRONG = [None, 1.5, [], {}, "x" * 200, -1, 2**70, object(), "-1", True, -2**70, ""]
# parameters that take a sequence of hands or values are also given sequences of wrong values
WRONG_ITEMS = [[w] * 4 for w in WRONG] + [np.zeros(4), np.full(4, -1), np.zeros((2, 2, 2))]
SEQUENCE_SLOTS = {("format_deal", 0), ("validate_deal", 0), ("boston_card_transform", 0),
                  ("dd_table", 0), ("solve_batch", 0), ("misere_partout", 0), ("solve", 0),
                  ("solve_target", 0), ("analyze", "known"), ("analyze", "constraints"),
                  ("analyze", "options"), ("analyze", "context")}
ANALYZE = {"rules": str(QUICK), "turnup": "H2", "samples": 10, "seat": "eldest", "seed": 1,
           "known": (), "constraints": (), "partner": "opposite", "risk_threshold": 0.0,
           "misere_tricks": "bool", "max_time": None, "fail_count_rate": 0.1, "threads": 1,
           "options": (), "context": (), "precision": None, "max_samples": 20000,
           "progress": False}


def _calls(tmp: Path) -> dict[str, tuple[tuple, dict]]:
    """A valid call of every callable public name: (positional, keyword arguments)."""
    hands = bs.parse_deal(DEAL)
    inp = tmp / "h.txt"
    inp.write_text(HAND + "\n", encoding="utf-8")
    settings = {k: v for k, v in ANALYZE.items() if k != "progress"}
    return {
        "AnalysisSettings": ((), settings),
        "analyze": ((HAND, None), ANALYZE),
        "boston_card_transform": ((hands, 0), {}),
        "dd_table": ((DEAL,), {"leader": None, "pairs": False, "boston": False,
                               "progress": None}),
        "format_card": ((bs.parse_card("SA"),), {"style": "letters"}),
        "format_deal": ((hands,), {"first": "N"}),
        "format_hand": ((int(hands[0]),), {"style": "pbn", "ten": "T"}),
        "list_rules": ((), {}),
        "load_rules": (("boston_foster",), {"options": None}),
        "misere_partout": (([4, 3, 3, 3],), {"rules": "boston_foster", "options": None}),
        "parse_card": (("SA",), {"boston": False}),
        "parse_compass": (("N",), {}),
        "parse_deal": ((DEAL,), {"boston": False}),
        "parse_hand": ((HAND,), {"cards": 13, "boston": False}),
        "parse_play_seat": (("eldest",), {}),
        "parse_strain": (("S",), {}),
        "play_seat_to_compass": ((0,), {"dealer": 3}),
        "run_batch": ((str(inp),), {"out": str(tmp / "r.csv"), "settings": None,
                                    "rules": str(QUICK), "turnup": "H2", "samples": 10,
                                    "workers": 1, "fmt": None, "input_format": None,
                                    "scheduler": None, "resume": False, "pbn_seat": "all",
                                    "progress": False, "fn": analyze_one}),
        "score": (("boston_foster", "boston", 5), {"options": None, "trump": None,
                                                   "context": None}),
        "report_text": ((_analysis(),), {"width": 80}),
        "solve": ((DEAL, 0), {"declarer": 1, "leader": 0, "partner": None, "dealer": None}),
        "solve_batch": ((hands[None, :], 0, 0, 0b0101), {"out": None, "mode": "max",
                                                          "guess": -1}),
        "solve_target": ((DEAL, 0), {"declarer": 1, "leader": 0, "partner": None,
                                     "dealer": None, "kind": "at_least", "target": 3}),
        "validate_deal": ((hands,), {}),
    }


@functools.cache
def _analysis() -> bs.Analysis:
    return bs.analyze(HAND, **ANALYZE)


def _public_callables() -> list[str]:
    return sorted(n for n in bs.__all__ if callable(getattr(bs, n))
                  and not (isinstance(getattr(bs, n), type)
                           and issubclass(getattr(bs, n), BaseException))
                  and n != "Analysis")  # a result type, made by analyze


def test_the_table_has_a_valid_call_of_every_public_callable(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    calls = _calls(tmp_path)
    assert sorted(calls) == _public_callables()
    for name, (args, kwargs) in calls.items():
        getattr(bs, name)(*args, **kwargs)  # the base call itself works


def _slots(name: str, args: tuple, kwargs: dict) -> list:
    return [*range(len(args)), *kwargs]


@pytest.mark.parametrize("name", _public_callables())
def test_wrong_types_raise_project_errors_only(name, tmp_path, monkeypatch):
    """Each parameter in turn gets each wrong value: a project error or a normal result,
    never TypeError, IndexError, OverflowError, ZeroDivisionError or a numba error."""
    monkeypatch.chdir(tmp_path)  # a wrong --out such as "xxx..." is written here
    args, kwargs = _calls(tmp_path)[name]
    fn = getattr(bs, name)
    leaks = []
    for slot in _slots(name, args, kwargs):
        values = WRONG + (WRONG_ITEMS if (name, slot) in SEQUENCE_SLOTS else [])
        for wrong in values:
            a, k = list(args), dict(kwargs)
            if isinstance(slot, int):
                a[slot] = wrong
            else:
                k[slot] = wrong
            try:
                fn(*a, **k)
            except BostonSimError:
                pass
            except Exception as e:  # noqa: BLE001 (any other error is the failure)
                leaks.append(f"{slot}={str(wrong)[:20]}: {type(e).__name__}: {str(e)[:80]}")
    assert not leaks, "\n".join(leaks)


def test_whole_numbers_of_any_type_and_one_text_are_taken_as_meant():
    """``samples=20.0`` or a numpy integer is the whole number it is (it passed the check and
    then failed in the sampler), and one known card or constraint given as text is one item
    (it was split into its characters)."""
    hand = "KQJT9.AK.QJ2.432"
    plain = bs.analyze(hand, samples=20, seed=1, known=["SA@dealer"],
                       constraints=["second:H5+"])
    for kw in (dict(samples=20.0, seed=1.0), dict(samples=np.int64(20), seed=np.uint8(1))):
        a = bs.analyze(hand, known="SA@dealer", constraints="second:H5+", **kw)
        assert (a.samples, a.seed) == (20, 1) and type(a.seed) is int
        assert [r["ev_net"] for r in a.rung_rows] == [r["ev_net"] for r in plain.rung_rows]
    with pytest.raises(BostonSimError, match="whole number"):
        bs.analyze(hand, samples=20.5)


def test_a_numpy_seat_and_a_whole_float_trick_count_are_what_they_say():
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    assert bs.solve(deal, "S", np.int64(0)) == bs.solve(deal, "S", 0) == bs.solve(deal, "S", "N")
    rs = bs.load_rules("boston_foster")
    want = bs.score(rs, "seven", 7).per_adversary
    assert bs.score(rs, "seven", 7.0).per_adversary == want
    assert bs.score(rs, "seven", np.int64(7)).per_adversary == want
    for bad in (7.5, float("nan"), float("inf")):
        with pytest.raises(BostonSimError, match="whole number"):
            bs.score(rs, "seven", bad)


def test_a_flag_given_as_text_is_an_error_not_a_true_value(tmp_path):
    """``progress="no"``, ``resume="no"`` or ``control_variates="no"`` are truthy and would
    turn the flag on ("" off): each is an error naming it, before any work; numpy's bools
    are bools, kept as plain ones."""
    with pytest.raises(BostonSimError, match="progress is true, false or a function"):
        bs.analyze(HAND, **{**ANALYZE, "progress": "no"})
    for flag in ("control_variates", "bracket"):
        with pytest.raises(BostonSimError, match=f"{flag} is true or false, got 'no'"):
            bs.analyze(HAND, **{**ANALYZE, flag: "no"})
    inp = tmp_path / "h.txt"
    inp.write_text(HAND + "\n", encoding="utf-8")
    for flag in ("resume", "progress"):
        with pytest.raises(BostonSimError, match=f"{flag} is true or false, got 'no'"):
            bs.run_batch(str(inp), out=str(tmp_path / "r.csv"), rules=str(QUICK),
                         turnup="H2", samples=10, workers=1, **{flag: "no"})
        assert list(tmp_path.iterdir()) == [inp]  # no results, summary or errors file
    s = AnalysisSettings(control_variates=np.False_, bracket=np.False_)
    assert s.control_variates is False and s.bracket is False
    a = bs.analyze(HAND, **{**ANALYZE, "progress": np.False_, "control_variates": np.True_})
    assert a.settings.control_variates is True
